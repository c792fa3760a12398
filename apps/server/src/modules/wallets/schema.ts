import { bigint, bigserial, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/schema';

/**
 * Faucet payouts, for its limits (once per wallet and asset a minute, a bounded number per user an
 * hour). In the database, so the limits hold across instances and restarts.
 */
export const faucetGrants = pgTable(
  'faucet_grants',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    walletId: bigint('wallet_id', { mode: 'number' }).notNull(),
    /** 'xrp' or 'rlusd'. */
    asset: text('asset').notNull(),
    /** The paying request's Idempotency-Key: its retry pays under this grant, not a second one. */
    requestKey: text('request_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('faucet_grants_user_idx').on(t.userId, t.asset, t.createdAt)],
);

/**
 * One-time ownership challenges for adding a self-custody wallet (docs/self-custody.md): random,
 * bound to the user and the address, short-lived, used once (`used_at` is set before the proof is
 * checked, so a proof can be tried once).
 */
export const walletChallenges = pgTable(
  'wallet_challenges',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    /** 'browser' or 'external'. */
    kind: text('kind').notNull(),
    walletApp: text('wallet_app'),
    /** 32 random bytes, hex: what the wallet signs inside the challenge transaction's memo. */
    nonce: text('nonce').notNull(),
    /** The exact unsigned challenge transaction handed out (JSON). */
    txJson: text('tx_json').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('wallet_challenges_user_idx').on(t.userId, t.createdAt)],
);
