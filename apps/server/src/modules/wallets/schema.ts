import { bigint, bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
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
