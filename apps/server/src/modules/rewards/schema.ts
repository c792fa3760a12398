import { sql } from 'drizzle-orm';
import { bigserial, index, integer, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Creator-reward claims: the amount is reserved against the token's unclaimed reward in the same
 * statement that inserts the claim (so concurrent claims never exceed it), then paid from the fee
 * wallet by a job; a payment that finally fails releases the reservation (`failed`).
 */
export const rewardClaims = pgTable(
  'reward_claims',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    tokenId: integer('token_id').notNull(),
    walletAddress: text('wallet_address').notNull(),
    amount: numeric('amount').notNull(),
    currency: text('currency').notNull(),
    /** 'pending' | 'paid' | 'failed'. */
    status: text('status').notNull(),
    hash: text('hash'),
    /** The claiming request's Idempotency-Key: its retry answers from this claim (no second claim). */
    requestKey: text('request_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('reward_claims_token_idx').on(t.tokenId, t.createdAt),
    index('reward_claims_request_idx')
      .on(t.userId, t.requestKey)
      .where(sql`${t.requestKey} is not null`),
  ],
);

export type RewardClaimRow = typeof rewardClaims.$inferSelect;
