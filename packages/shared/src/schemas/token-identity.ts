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
