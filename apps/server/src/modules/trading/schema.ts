import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Market trades made through Ledgerpad, one row per validated trade transaction, with the platform
 * fee's state: `pending` until the fee job's payment validates (`paid`), `none` when the fee rounds
 * to nothing, `failed` when the wallet could not pay it after every attempt. Amounts are decimal
 * strings (XRP in XRP).
 */
export const tradingTrades = pgTable(
  'trading_trades',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    walletId: integer('wallet_id').notNull(),
    walletAddress: text('wallet_address').notNull(),
    issuer: text('issuer').notNull(),
    currency: text('currency').notNull(),
    /** 'XRP' or 'RLUSD'. */
    quote: text('quote').notNull(),
    side: text('side').notNull(),
    spent: text('spent').notNull(),
    received: text('received').notNull(),
    hash: text('hash').notNull(),
    ledgerIndex: integer('ledger_index'),
    fee: text('fee').notNull(),
    feeStatus: text('fee_status').notNull(),
    feeHash: text('fee_hash'),
    /** The listed token the trade was in (creator rewards accrue to it), if listed. */
    tokenId: integer('token_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('trading_trades_hash_uq').on(t.hash),
    index('trading_trades_user_idx').on(t.userId, t.createdAt),
  ],
);

export type TradeRow = typeof tradingTrades.$inferSelect;
