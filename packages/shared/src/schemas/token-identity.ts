import { z } from 'zod';
import { VERIFICATION_METHODS } from '../verification-methods';
import { idSchema } from './common';

// The identity requests' schemas, apart from token-identity.ts: that module's marks and folds run
// on the landing list, and zod there put it in the landing route's JavaScript (issue 40).

/** A token id in a body (`token_id`). */
export const tokenIdSchema = idSchema('token_id');

/** POST /api/listing/claims: a claim code for this listing, bound to the caller. */
export const claimChallengeRequestSchema = z.object({ token_id: tokenIdSchema });

/** Admin Tokens tab: POST /api/admin/tokens/:id/verify and /hide. */
export const adminVerifyTokenSchema = z.object({
  verified: z.boolean({ message: 'verified must be true or false' }),
  csrf_token: z.string().optional(),
});
export const adminHideTokenSchema = z.object({
  hidden: z.boolean({ message: 'hidden must be true or false' }),
  csrf_token: z.string().optional(),
});

/** The token a same-ticker (or same-name) token gives way to: the page its mark links to. */
export const sameAsRefSchema = z.object({
  /** What the two share after the lookalike fold. */
  match: z.enum(['ticker', 'name']),
  ticker: z.string(),
  name: z.string(),
  issuer_address: z.string(),
  currency: z.string(),
});
export type SameAsRef = z.infer<typeof sameAsRefSchema>;

/** Who wrote a token's name, description, logo and links ('lister': not proven to be the issuer). */
export const METADATA_SOURCES = ['issuer', 'lister', 'admin'] as const;

/**
 * The identity fields every token view carries (`TokenIdentity`, token-identity.ts, is its type;
 * the marks and folds there read it without zod).
 */
export const tokenIdentitySchema = z.object({
  /** A proof holds (control of the issuer, the issuer's domain, deployed here, an admin) and the token wears no reserved identity. */
  verified: z
    .boolean()
    .describe('A proof holds: see verified_by (what was proven), never "the real project".'),
  verified_by: z.enum(VERIFICATION_METHODS).nullable(),
  /** The issuer's Domain whose xrp-ledger.toml lists this token ('{domain} vouches'), or null. */
  verified_domain: z.string().nullable().optional(),
  /**
   * The ticker of what this token looks like: a reserved identity ('XRP', 'RLUSD': 'looks like
   * RLUSD') or the token with more ledger history it shares a ticker or name with (`same_as`).
   */
  lookalike_of: z
    .string()
    .nullable()
    .describe('A reserved identity it reads as, or the token it gives way to.'),
  /** The token with more ledger history sharing this one's ticker or name ('same ticker as …'), or null. */
  same_as: sameAsRefSchema.nullable().optional(),
  /** Who wrote the name, description, logo and links ('lister': not proven to be the issuer). */
  metadata_by: z.enum(METADATA_SOURCES),
});

// The token list's marks (lock-marks.ts words them; its types are these schemas' `z.infer`).

/** `TokenView.ledger_lock`: the token's escrows by any holder, read from the ledger. */
export const tokenLedgerLockSchema = z.object({
  /** Locked share of the supply, rounded down to 2 decimals ('0' when below 0.01%). */
  percent: z.string(),
  /** The token amount in escrows (decimal string). */
  amount: z.string(),
  escrows: z.number().int(),
  /** ISO: the earliest and the latest FinishAfter (CancelAfter when an escrow has none); null if none. */
  firstUnlock: z.string().nullable(),
  until: z.string().nullable(),
});

/** `TokenView.dev_unlocked`: a Ledgerpad deploy's dev allocation not (all) in escrow on the ledger. */
export const tokenDevUnlockedSchema = z.object({
  /** The dev allocation, percent of the supply. */
  percent: z.string(),
  /** Percent of the allocation in escrows that lock it (issue 35: a 1-token escrow is no lock); '0' when none. */
  lockedPercent: z.string().optional(),
});

/** One public row of a token's identity history (GET /api/tokens/{issuer}/identity-history). */
export const identityEventViewSchema = z.object({
  at: z.string(),
  /** 'list' | 'claim' | 'metadata' | 'toml' | 'admin.update' | 'admin.verify' | 'admin.hide'. */
  action: z.string(),
  method: z.string().nullable(),
  /** True when this event changed who controls the listing. */
  controller_changed: z.boolean(),
  /** The transaction hash or TOML URL of a proof. */
  evidence: z.string().nullable(),
  /** One sentence for people. */
  text: z.string(),
});

/** `TokenView.lp_burned`: percent of the pool's LP tokens burned (2 places, above 0). */
export const tokenLpBurnedSchema = z.object({ percent: z.string() });

/**
 * A suggestion of the swap autocomplete (spec 001 §3 "Suggestion", plus its identity): the server's
 * type and GET /api/swapsearch/search-tokens/{query}'s documented answer (issue 41: one type per shape).
 */
export const tokenSuggestionSchema = z.object({
  ticker: z.string(),
  name: z.string(),
  issuer_address: z.string().describe('A classic XRPL address (r...).'),
  /** The ledger code (an issuer may issue several tokens). */
  currency: z.string().optional(),
  verified: z.boolean(),
  verified_by: z.enum(VERIFICATION_METHODS).nullable(),
  verified_domain: z.string().nullable().optional(),
  lookalike_of: z.string().nullable(),
  same_as: sameAsRefSchema.nullable().optional(),
});
export type TokenSuggestion = z.infer<typeof tokenSuggestionSchema>;

// The listing routes' answers about control (issue 41: one schema per shape, types inferred; here
// and not in token-identity.ts, which stays free of zod for the landing route).

/** The AccountSet that carries a claim: no flag, no field changed, only the memo that says what it grants. */
export const claimTransactionSchema = z.object({
  TransactionType: z.literal('AccountSet'),
  Account: z.string(),
  Memos: z.array(
    z.object({
      Memo: z.object({ MemoType: z.string(), MemoData: z.string(), MemoFormat: z.string().optional() }),
    }),
  ),
});
export type ClaimTransaction = z.infer<typeof claimTransactionSchema>;

/** POST /api/listing/claims: what the issuer must send (or that there is nothing to send). */
export const claimChallengeViewSchema = z.object({
  token_id: z.number().int(),
  issuer_address: z.string(),
  ticker: z.string(),
  currency: z.string().optional(),
  /** The issuer is one of the caller's Ledgerpad wallets: the 'wallet' method proves it as is. */
  own_wallet: z.boolean(),
  /** The claim code (inside the text), and when it stops counting. */
  code: z.string(),
  /** What the memo says, in words the issuer reads in its wallet before it signs ('Ledgerpad: make …'). */
  claim_text: z.string(),
  expires_at: z.string(),
  transaction: claimTransactionSchema,
  /** The issuer's Domain (for the TOML method), if it has one. */
  domain: z.string().nullable(),
  /** Where the TOML method looks, when the issuer has a Domain. */
  toml_url: z.string().nullable(),
  /** The line to add to the token's [[CURRENCIES]] entry to be made controller through the TOML. */
  toml_line: z.string(),
});
export type ClaimChallengeView = z.infer<typeof claimChallengeViewSchema>;

/** A change of controller that took a listing away from the caller (shown to the user who lost it). */
export const controlLossViewSchema = z.object({
  token_id: z.number().int(),
  ticker: z.string(),
  issuer_address: z.string(),
  currency: z.string(),
  at: z.string(),
  method: z.string().nullable(),
  /** The transaction hash or TOML URL of the proof. */
  evidence: z.string().nullable(),
  message: z.string(),
});
export type ControlLossView = z.infer<typeof controlLossViewSchema>;

/** GET /api/listing/control?token_id=: may the caller edit this listing? */
export const listingControlViewSchema = z.object({
  token_id: z.number().int(),
  controller: z.boolean(),
  admin: z.boolean(),
  own_wallet: z.boolean(),
  /** The caller controlled this listing before and another user's proof replaced them. */
  lost_control: controlLossViewSchema.nullable().optional(),
});
export type ListingControlView = z.infer<typeof listingControlViewSchema>;
