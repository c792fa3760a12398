// How control of a token's issuer was proven (or who vouched for its listing): the one list, for
// token-identity.ts (the marks and texts) and schemas/token-identity.ts (the documented shapes).

/** How control of the issuer was proven (or who vouched for the listing). */
export const VERIFICATION_METHODS = ['deploy', 'wallet', 'challenge', 'toml', 'admin', 'platform'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];
