import {
  bigserial,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * Trades of custodial wallets the market indexer's rows do not carry (docs/positions.md): fills of
 * their resting offers by other accounts (the maker's side, at the price it executed), and their
 * XRP ⇄ RLUSD trades (RLUSD is a quote asset, not a listed token). Written by the positions
 * indexer handler from validated metadata, once per (transaction, account, token).
 */
export const positionFills = pgTable(
  'position_fills',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    account: text('account').notNull(),
    currency: text('currency').notNull(),
    issuer: text('issuer').notNull(),
    /** 'XRP' or 'RLUSD'. */
    quote: text('quote').notNull(),
    /** 'BUY' (the account got tokens) or 'SELL'. */
    side: text('side').notNull(),
    tokenAmount: numeric('token_amount').notNull(),
    quoteAmount: numeric('quote_amount').notNull(),
    ledgerIndex: integer('ledger_index').notNull(),
    txIndex: integer('tx_index').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    uniqueIndex('position_fills_uq').on(t.hash, t.account, t.currency, t.issuer),
    index('position_fills_account_idx').on(t.account, t.ledgerIndex, t.txIndex),
  ],
);

/**
 * Positions' checkpoints (docs/positions.md "Checkpoints"): per custodial wallet, the ledger through
 * which its trades are folded into the average-cost bases below, so a read folds only the trades
 * after it. Written by the positions read itself when it saw newer trades, and only while every
 * folded trade was valued in XRP as it happened (an RLUSD-quoted trade is valued at the current
 * XRP/USD price on each read, so no checkpoint can hold it).
 */
export const positionCheckpoints = pgTable('position_checkpoints', {
  account: text('account').primaryKey(),
  /** Every trade of the account in ledgers up to this one is folded in. */
  throughLedger: integer('through_ledger').notNull(),
});

/** One average-cost basis per checkpointed wallet and token: exact decimals (40 places). */
export const positionBases = pgTable(
  'position_bases',
  {
    account: text('account').notNull(),
    currency: text('currency').notNull(),
    issuer: text('issuer').notNull(),
    quantity: numeric('quantity').notNull(),
    cost: numeric('cost').notNull(),
    realized: numeric('realized').notNull(),
  },
  (t) => [primaryKey({ columns: [t.account, t.currency, t.issuer] })],
);
