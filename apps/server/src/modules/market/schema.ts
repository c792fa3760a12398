import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

// Market data the indexer derives from validated ledgers, for listed tokens only. Amounts and prices
// are `numeric` (exact decimals; strings in TypeScript), never floats.

/** One row per trade per token: AMM swaps and offer crossings against XRP or RLUSD. */
export const marketTrades = pgTable(
  'market_trades',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    /** 'XRP' or 'RLUSD'. */
    quote: text('quote').notNull(),
    ledgerIndex: integer('ledger_index').notNull(),
    txIndex: integer('tx_index').notNull(),
    hash: text('hash').notNull(),
    account: text('account').notNull(),
    side: text('side').notNull(),
    price: numeric('price').notNull(),
    tokenAmount: numeric('token_amount').notNull(),
    quoteAmount: numeric('quote_amount').notNull(),
    time: timestamp('time', { withTimezone: true }).notNull(),
  },
  (t) => [
    // Counted once per token and quote, however the payment was routed.
    uniqueIndex('market_trades_hash_token_uq').on(t.hash, t.tokenId, t.quote),
    index('market_trades_token_time_idx').on(t.tokenId, t.time),
    // Positions: an account's trades per token in ledger order, read from the index alone (no table
    // scan, no sort, no heap visit once vacuumed); the columns after id only carry the values.
    index('market_trades_account_idx').on(
      t.account,
      t.tokenId,
      t.ledgerIndex,
      t.txIndex,
      t.id,
      t.side,
      t.quote,
      t.tokenAmount,
      t.quoteAmount,
    ),
    // Positions: an account's trades after the ledger its checkpoint covers (a range, not a scan).
    index('market_trades_account_ledger_idx').on(t.account, t.ledgerIndex),
  ],
);

/** OHLCV per token, quote and resolution (seconds as text: '60', '300', …, '86400'). */
export const marketCandles = pgTable(
  'market_candles',
  {
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    quote: text('quote').notNull(),
    resolution: integer('resolution').notNull(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    open: numeric('open').notNull(),
    high: numeric('high').notNull(),
    low: numeric('low').notNull(),
    close: numeric('close').notNull(),
    /** Volume in the quote asset. */
    volume: numeric('volume').notNull(),
    trades: integer('trades').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.quote, t.resolution, t.bucket] })],
);

/** Trust-line balances of a token's holders (issuer excluded by construction). */
export const marketHolders = pgTable(
  'market_holders',
  {
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    account: text('account').notNull(),
    balance: numeric('balance').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tokenId, t.account] }),
    index('market_holders_positive_idx')
      .on(t.tokenId)
      .where(sql`${t.balance} > 0`),
  ],
);

/** A token's AMM pool against XRP or RLUSD, as of `ledger_index`. */
export const marketPools = pgTable(
  'market_pools',
  {
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    quote: text('quote').notNull(),
    ammAccount: text('amm_account').notNull(),
    tokenAmount: numeric('token_amount').notNull(),
    quoteAmount: numeric('quote_amount').notNull(),
    lpSupply: numeric('lp_supply').notNull(),
    lpCurrency: text('lp_currency').notNull(),
    tradingFee: integer('trading_fee').notNull(),
    ledgerIndex: integer('ledger_index').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.quote] }), index('market_pools_account_idx').on(t.ammAccount)],
);

/** What the ledger says about an issuer account (the risk panel and the blackhole marker). */
export const issuerFacts = pgTable('issuer_facts', {
  issuerAddress: text('issuer_address').primaryKey(),
  masterDisabled: boolean('master_disabled').notNull(),
  regularKey: text('regular_key'),
  hasSignerList: boolean('has_signer_list').notNull(),
  blackholed: boolean('blackholed').notNull(),
  requireAuth: boolean('require_auth').notNull(),
  globalFreeze: boolean('global_freeze').notNull(),
  noFreeze: boolean('no_freeze').notNull(),
  clawback: boolean('clawback').notNull(),
  /** TransferRate as the ledger stores it (1e9 = no fee); null when unset. */
  transferRate: bigint('transfer_rate', { mode: 'number' }),
  ledgerIndex: integer('ledger_index').notNull(),
});

/** Tokens the indexer has synced once (pools, holders, issuer facts read in full from the ledger). */
export const marketSynced = pgTable('market_synced', {
  tokenId: bigint('token_id', { mode: 'number' }).primaryKey(),
  ledgerIndex: integer('ledger_index').notNull(),
  syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
});
