import { z } from 'zod';
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
