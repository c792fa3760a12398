import {
  bigserial,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * Market trades made through Ledgerpad, one row per validated trade transaction, with the platform
 * fee's state: `pending` until the fee job's payment validates (`paid`), `none` when the fee rounds
 * to nothing, `failed` when the wallet could not pay it after every attempt. Amounts are `numeric`
 * (decimal strings in TypeScript; XRP in XRP).
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
    spent: numeric('spent').notNull(),
    received: numeric('received').notNull(),
    hash: text('hash').notNull(),
    ledgerIndex: integer('ledger_index'),
    fee: numeric('fee').notNull(),
    /**
     * 'pending' (its job pays it), 'paid', 'failed', 'none', or 'intent': a self-custody trade whose
     * fee is the next transaction of its own signed intent, settled when that intent finishes.
     */
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

/**
 * The custodial wallets' offers on the ledger (limit orders), placed through Ledgerpad or not: one
 * row per offer, keyed by its owner and sequence, kept true by the order indexer from transaction
 * metadata (`ledger_index` is the last ledger applied, so an older view never overwrites a newer
 * one). Amounts are decimal strings in the token and in the quote asset (XRP in XRP).
 */
export const tradingOrders = pgTable(
  'trading_orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    walletAddress: text('wallet_address').notNull(),
    offerSequence: integer('offer_sequence').notNull(),
    /** 'open' | 'partially_filled' | 'filled' | 'canceled'. */
    status: text('status').notNull(),
    /** 'BUY' (pays the quote for the token) or 'SELL'. */
    orderType: text('order_type').notNull(),
    tokenCurrency: text('token_currency').notNull(),
    tokenIssuer: text('token_issuer').notNull(),
    /** 'XRP' or 'RLUSD'. */
    quote: text('quote').notNull(),
    /** The quote-asset side as placed (what a BUY pays, what a SELL gets). */
    amount: numeric('amount').notNull(),
    /** The token side as placed. */
    expectedTokens: numeric('expected_tokens').notNull(),
    /** Quote per token, as placed. */
    price: numeric('price').notNull(),
    /** The token side still resting on the book. */
    remainingTokens: numeric('remaining_tokens').notNull(),
    hash: text('hash').notNull(),
    ledgerIndex: integer('ledger_index').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('trading_orders_offer_uq').on(t.walletAddress, t.offerSequence),
    index('trading_orders_user_idx').on(t.userId, t.createdAt),
  ],
);

export type OrderRow = typeof tradingOrders.$inferSelect;
