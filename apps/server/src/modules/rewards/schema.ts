import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

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

/**
 * A token's creator-reward split (issue 37): up to 5 recipients, each with its share in basis points
 * (adding up to 10,000; checked by the service and the shared schema). No rows: no split, a claim pays
 * the one wallet the creator chooses. Replaced as a whole by the creator, every change recorded in
 * `reward_split_events`.
 */
export const rewardSplits = pgTable(
  'reward_splits',
  {
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    /** 0–4: the order the creator gave; position 0 receives the split's remainder (docs/rewards.md). */
    position: integer('position').notNull(),
    address: text('address').notNull(),
    bps: integer('bps').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tokenId, t.position] }),
    check('reward_splits_position', sql`${t.position} between 0 and 4`),
    check('reward_splits_bps', sql`${t.bps} between 1 and 10000`),
  ],
);

/**
 * Every change of a token's split, before and after (`[{ address, bps }]`), append-only (a trigger
 * refuses updates and deletes): the token's public split history.
 */
export const rewardSplitEvents = pgTable(
  'reward_split_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    userId: integer('user_id').notNull(),
    before: jsonb('before').notNull(),
    after: jsonb('after').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('reward_split_events_token_idx').on(t.tokenId, t.id)],
);

/**
 * The payments of a claim, one per recipient: a claim without a split has one (position 0, the
 * chosen wallet); a split claim one per recipient whose share is not zero. Written with the claim's
 * reservation, paid by the claim's job (intent key per position), each exactly once.
 */
export const rewardPayouts = pgTable(
  'reward_payouts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    claimId: bigint('claim_id', { mode: 'number' }).notNull(),
    tokenId: integer('token_id').notNull(),
    userId: integer('user_id').notNull(),
    position: integer('position').notNull(),
    address: text('address').notNull(),
    amount: numeric('amount').notNull(),
    currency: text('currency').notNull(),
    /** 'pending' | 'paid' | 'failed'. */
    status: text('status').notNull(),
    hash: text('hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reward_payouts_claim_position_uq').on(t.claimId, t.position),
    index('reward_payouts_token_idx').on(t.tokenId, t.id),
  ],
);

export type RewardPayoutRow = typeof rewardPayouts.$inferSelect;
