import { sql } from 'drizzle-orm';
import {
  bigserial,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * Airdrops: a creator's token allocation held by a dedicated custodial wallet (role 'airdrop').
 * `remaining` is what is neither paid nor reserved by a pending claim; a claim reserves its amount
 * (claimed_count + 1, remaining − amount) in the statement that inserts it. Amounts are decimal text.
 * status: 'pending' (creation job moving the tokens) → 'active' → 'expired' | 'closed'; 'failed'
 * when the creation job failed.
 */
export const airdrops = pgTable(
  'airdrops',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    creatorUserId: integer('creator_user_id').notNull(),
    sourceWalletId: integer('source_wallet_id').notNull(),
    sourceAddress: text('source_address').notNull(),
    airdropWalletId: integer('airdrop_wallet_id'),
    airdropAddress: text('airdrop_address'),
    jobId: uuid('job_id'),
    projectName: text('project_name').notNull(),
    tagline: text('tagline').notNull().default(''),
    logoUrl: text('logo_url').notNull().default(''),
    description: text('description').notNull().default(''),
    issuerAddress: text('issuer_address').notNull(),
    /** The ledger currency code (3-letter or 40-hex). */
    currency: text('currency').notNull(),
    /** 'fixed' | 'random'. */
    perUserType: text('per_user_type').notNull(),
    fixedAmount: numeric('fixed_amount'),
    minAmount: numeric('min_amount'),
    maxAmount: numeric('max_amount'),
    maxClaims: integer('max_claims').notNull(),
    claimedCount: integer('claimed_count').notNull().default(0),
    totalAmount: numeric('total_amount').notNull(),
    remaining: numeric('remaining').notNull(),
    /** Tokens sent back to the source wallet when the airdrop ended. */
    returnedAmount: numeric('returned_amount'),
    expiry: timestamp('expiry', { withTimezone: true }).notNull(),
    websiteUrl: text('website_url'),
    twitterUrl: text('twitter_url'),
    /** 'auto' | 'manual'. */
    trustlineMode: text('trustline_mode').notNull(),
    status: text('status').notNull().default('pending'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('airdrops_status_idx').on(t.status, t.expiry),
    index('airdrops_source_idx').on(t.sourceWalletId, t.currency, t.issuerAddress),
  ],
);

/**
 * Claims: one live claim per user and airdrop (a claim whose payment finally failed is 'failed' and
 * no longer counts, so the user may claim again). status: 'pending' | 'paid' | 'failed'.
 */
export const airdropClaims = pgTable(
  'airdrop_claims',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    airdropId: integer('airdrop_id').notNull(),
    userId: integer('user_id').notNull(),
    walletId: integer('wallet_id').notNull(),
    walletAddress: text('wallet_address').notNull(),
    amount: numeric('amount').notNull(),
    status: text('status').notNull().default('pending'),
    hash: text('hash'),
    /** The payer instance working on a pending claim, and until when (see payer.ts). */
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** Payer rounds that took the claim up; a claim that never gets signed is released after some. */
    attempts: integer('attempts').notNull().default(0),
    /**
     * The claiming request's Idempotency-Key: a retry of that request (its first attempt cut by a
     * crash or a timeout) answers from this claim instead of being refused as a second claim.
     */
    requestKey: text('request_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('airdrop_claims_request_idx')
      .on(t.userId, t.requestKey)
      .where(sql`${t.requestKey} is not null`),
    uniqueIndex('airdrop_claims_user_uq')
      .on(t.airdropId, t.userId)
      .where(sql`${t.status} <> 'failed'`),
    index('airdrop_claims_pending_idx')
      .on(t.id)
      .where(sql`${t.status} = 'pending'`),
  ],
);

export type AirdropRow = typeof airdrops.$inferSelect;
export type AirdropClaimRow = typeof airdropClaims.$inferSelect;
