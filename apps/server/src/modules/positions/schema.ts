import { bigserial, index, integer, numeric, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

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
