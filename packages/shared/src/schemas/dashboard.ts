import { z } from 'zod';
import { classicAddressSchema } from './common';
import { ledgerResultMessage } from '../ledger-results';
import { currencyCodeSchema } from './listing';
import type { TokenView } from './tokens';
import { tokenViewDocumentSchema } from './public-api';
import { setTrustlineLimitSchema } from './wallets';

// The issuer's dashboard (spec 001 §2 "Dashboard", §3 "Trust line", §4, §6 "Token issuer owner",
// §7 "Dashboard and rewards", §8 "Dashboard"). One schema per request; the page and the routes
// share them. The spec's §8 texts are the page's fallbacks; the server's own refusals say what
// happened and what the ledger allows instead.

export const DASHBOARD_MESSAGES = {
  // Spec §8, exact.
  fetchTrustLinesFailed: 'Failed to fetch trust lines.',
  // Ours (issue 24): an AMM pool's or Ledgerpad's own line is not a holder's.
  systemAccount: (label: string) =>
    `This line belongs to the ${label}, not to a holder: it is not frozen or authorized from here.`,
  freezeFailed: 'Failed to update trust line freeze status.',
  authorizeFailed: 'Failed to authorize trust line.',
  syncFailed: 'Failed to sync trust lines.',
  blackholeFailed: 'Failed to blackhole issuer wallet.',
  disableRequireAuthFailed: 'Failed to disable Require Authorization flag.',
  setLimitFailed: 'Failed to set trust line limit.',
  selectToken: 'Please select a token first.',
  claimFailed: 'Claim failed. Please try again.',
  // Spec §4: shown once the issuer is blackholed.
  ripIssuer: 'RIP Issuer Wallet',
  // Ours (the spec has no text for these).
  tokenNotFound: 'Token not found',
  issuerBlackholed:
    'The issuer wallet is blackholed: it can no longer sign, so its flags and trust lines can never be changed again.',
  issuerKeyDisabled: 'The issuer wallet’s master key is disabled, so Ledgerpad can no longer sign for it.',
  issuerNotHeld: 'The issuer wallet of this token is not held by Ledgerpad, so it cannot sign for it.',
  noLine: 'This account has no trust line for this token.',
  cannotUnauthorize:
    'The XRP Ledger cannot take an authorization back: an authorized trust line stays authorized. Freeze the line to stop its tokens from moving.',
  requireAuthOff:
    'Require Authorization is off for this token: every trust line can already hold it, so there is nothing to authorize.',
  limitHolderOnly:
    'Only the holder can set a trust line’s limit: the XRP Ledger lets each account set the limit on its own side only. This works for lines held by your own wallets; for other holders, freeze the line to stop transfers.',
  wrongIssuer: 'The issuer address does not match this token’s issuer.',
  wrongCurrency: 'The currency does not match this token.',
  /** The screen's own failure text, then what the ledger's result means (packages/shared ledger-results). */
  ledgerRefused: (fallback: string, result: string) => `${fallback} ${ledgerResultMessage(result)}`,
} as const;

// --- reads ---

// The answers, one schema per shape (issue 41): the routes declare them, GET /api/docs documents
// them, and the types are inferred from them. A TokenView is documented by the public token
// schema (loose); its type stays the server's TokenView.

/** GET /api/dashboard/has-deployed-token */
export const hasDeployedResponseSchema = z.object({ hasDeployed: z.boolean() });
export type HasDeployedResponse = z.infer<typeof hasDeployedResponseSchema>;

/** GET /api/dashboard/user-tokens/{userId}: the tokens the user deployed here, newest first. */
export const userTokensResponseSchema = z.object({ tokens: z.array(tokenViewDocumentSchema) });
export type UserTokensResponse = Omit<z.infer<typeof userTokensResponseSchema>, 'tokens'> & {
  tokens: TokenView[];
};

/** GET /api/dashboard/issuer-wallet/{tokenId}: the issuer's AccountRoot, read from the ledger. */
export const issuerWalletResponseSchema = z.object({
  issuerAddress: z.string(),
  requireAuthEnabled: z.boolean(),
  isBlackholed: z.boolean(),
});
export type IssuerWalletResponse = z.infer<typeof issuerWalletResponseSchema>;

/**
 * One holder's trust line to the issuer (spec §3 plus the balance). Limit and balance are the
 * holder's side (decimal strings); authorized and freeze are the issuer's flags on the line.
 */
export const dashboardTrustLineSchema = z.object({
  account_address: z.string(),
  currency: z.string(),
  limit_amount: z.string(),
  balance: z.string(),
  authorized: z.boolean(),
  freeze: z.boolean(),
  /** 'AMM pool', 'Bonding curve' or a Ledgerpad account's name; null for an ordinary holder. */
  account_label: z.string().nullable(),
});
export type DashboardTrustLine = z.infer<typeof dashboardTrustLineSchema>;

/** GET /api/dashboard/trust-lines/{tokenId}: one page of the token's holders (X-Total-Count). */
export const trustLinesResponseSchema = z.object({
  issuerAddress: z.string(),
  currency: z.string(),
  trustLines: z.array(dashboardTrustLineSchema),
});
export type TrustLinesResponse = z.infer<typeof trustLinesResponseSchema>;

// --- writes ---

/** POST /api/dashboard/trust-lines/{tokenId}/freeze */
export const freezeTrustLineSchema = z.object({
  accountAddress: classicAddressSchema('accountAddress'),
  /** Optional: the token's own currency is used; a different one is refused. */
  currency: currencyCodeSchema.optional(),
  freeze: z.boolean({ message: 'freeze must be true or false' }),
  csrf_token: z.string().optional(),
});
export type FreezeTrustLineRequest = z.infer<typeof freezeTrustLineSchema>;

/** POST /api/dashboard/trust-lines/{tokenId}/authorize */
export const authorizeTrustLineSchema = z.object({
  accountAddress: classicAddressSchema('accountAddress'),
  authorized: z.boolean({ message: 'authorized must be true or false' }),
  csrf_token: z.string().optional(),
});
export type AuthorizeTrustLineRequest = z.infer<typeof authorizeTrustLineSchema>;

/** POST /api/dashboard/sync-trust-lines/{tokenId}: both optional, checked against the token. */
export const syncTrustLinesSchema = z.object({
  issuerAddress: classicAddressSchema('issuerAddress').optional(),
  currency: currencyCodeSchema.optional(),
  csrf_token: z.string().optional(),
});
export type SyncTrustLinesRequest = z.infer<typeof syncTrustLinesSchema>;

/** POST /api/dashboard/set-trust-line-limit: the limit field is the Wallets page's, same rules. */
export const dashboardSetLimitSchema = z.object({
  issuerAddress: classicAddressSchema('issuerAddress'),
  holderAddress: classicAddressSchema('holderAddress'),
  currency: currencyCodeSchema,
  limitAmount: setTrustlineLimitSchema.shape.limit,
  csrf_token: z.string().optional(),
});
export type DashboardSetLimitRequest = z.infer<typeof dashboardSetLimitSchema>;

/** Every dashboard write answers success with the hash(es) of what it signed. */
export const dashboardWriteResponseSchema = z.object({
  success: z.literal(true),
  /** The last transaction's hash; absent when the ledger already was as asked (nothing signed). */
  hash: z.string().optional(),
});
export type DashboardWriteResponse = z.infer<typeof dashboardWriteResponseSchema>;

/** POST /api/dashboard/sync-trust-lines/{tokenId}: the token re-read from the ledger, and its lines. */
export const syncTrustLinesResponseSchema = trustLinesResponseSchema.extend({
  success: z.literal(true),
  token: tokenViewDocumentSchema,
});
export type SyncTrustLinesResponse = Omit<z.infer<typeof syncTrustLinesResponseSchema>, 'token'> & {
  token: TokenView;
};
