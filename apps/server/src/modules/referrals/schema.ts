import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from '../users/schema';

// Referrals (issue 37, docs/referrals.md): each user's code, who signed up through whose code, the
// referrer's share of every paid trading fee of the referred user, the running balances and the
// claims that pay them out.

/** Each user's referral code (made the first time they ask for it). */
export const referralCodes = pgTable('referral_codes', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  code: text('code').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Who referred whom: written once, at the referred user's first sign-in (the primary key makes it
 * once; nothing updates it). `expires_at`: the end of the window in which the referred user's fees
 * earn the referrer a share, fixed when the referral binds (`referral_months` then).
 */
export const referrals = pgTable(
  'referrals',
  {
    referredUserId: integer('referred_user_id')
      .primaryKey()
      .references(() => users.id),
    referrerUserId: integer('referrer_user_id')
      .notNull()
      .references(() => users.id),
    code: text('code').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('referrals_referrer_idx').on(t.referrerUserId),
    check('referrals_not_self', sql`${t.referredUserId} <> ${t.referrerUserId}`),
  ],
);

/**
 * The referrer's share of one trade's paid fee: one row per trade at most (the primary key), so a
 * fee is shared once however often its payment is recorded. Amounts in the trade's quote asset:
 * XRP in XRP (whole drops), RLUSD rounded down to 15 significant digits.
 */
export const referralAccruals = pgTable(
  'referral_accruals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tradeId: bigint('trade_id', { mode: 'number' }).notNull().unique(),
    referrerUserId: integer('referrer_user_id').notNull(),
    referredUserId: integer('referred_user_id').notNull(),
    currency: text('currency').notNull(),
    fee: numeric('fee').notNull(),
    shareBps: integer('share_bps').notNull(),
    amount: numeric('amount').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('referral_accruals_referrer_idx').on(t.referrerUserId, t.id)],
);

/**
 * A referrer's running totals per currency: `earned` grows with every accrual, `claimed` with every
 * claim's reservation (and shrinks back when a claim finally fails). Claimable = earned − claimed.
 */
export const referralBalances = pgTable(
  'referral_balances',
  {
    userId: integer('user_id').notNull(),
    currency: text('currency').notNull(),
    earned: numeric('earned').notNull().default('0'),
    claimed: numeric('claimed').notNull().default('0'),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.currency] }),
    check('referral_balances_claimed', sql`${t.claimed} >= 0 and ${t.claimed} <= ${t.earned}`),
  ],
);

/** A claim of referral earnings: reserved, then paid from the fee wallet by a job (like reward claims). */
export const referralClaims = pgTable(
  'referral_claims',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
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
    index('referral_claims_user_idx').on(t.userId, t.id),
    index('referral_claims_request_idx')
      .on(t.userId, t.requestKey)
      .where(sql`${t.requestKey} is not null`),
  ],
);

export type ReferralClaimRow = typeof referralClaims.$inferSelect;
