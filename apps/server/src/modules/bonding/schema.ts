import {
  bigint,
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
 * Bonding curves (docs/bonding-curve.md): one per curve launch. The platform-held curve account
 * holds the supply and carries the curve on the ledger as a ladder of offers. Quote amounts are
 * integer micros (drops for XRP), token amounts decimals; both `numeric` (issue 23, migration
 * 0019), read and written as exact decimal strings, never numbers.
 *
 * status: 'active' (the keeper keeps the ladder) → 'graduating' (the job moves it into an AMM pool)
 * → 'graduated'. The parameters are fixed at launch; the fee follows the platform's trading fee.
 */
export const bondingCurves = pgTable(
  'bonding_curves',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    issuerAddress: text('issuer_address').notNull(),
    currency: text('currency').notNull(),
    /** 'XRP' | 'RLUSD'. */
    quote: text('quote').notNull(),
    quoteIssuer: text('quote_issuer'),
    curveWalletId: bigint('curve_wallet_id', { mode: 'number' }).notNull(),
    curveAddress: text('curve_address').notNull(),
    creatorUserId: integer('creator_user_id').notNull(),
    /** The creator's wallet that paid the launch: the deposit goes back there at graduation. */
    creatorAddress: text('creator_address').notNull(),
    /** XRP the creator put in the curve account for its reserves and fees, drops. */
    depositDrops: numeric('deposit_drops').notNull(),
    virtualQuote: numeric('virtual_quote').notNull(),
    steps: integer('steps').notNull(),
    fineSteps: integer('fine_steps').notNull(),
    snipeLedgers: integer('snipe_ledgers').notNull(),
    snipeTokens: numeric('snipe_tokens').notNull(),
    /** The AMM pool's trading fee at graduation (1/100,000). */
    ammTradingFee: integer('amm_trading_fee').notNull(),
    status: text('status').notNull().default('active'),
    /** The curve account's token balance at `state_ledger` (validated). */
    held: numeric('held').notNull(),
    stateLedger: integer('state_ledger').notNull().default(0),
    /** First validated ledger with the curve's offers on it; anti-snipe counts from here. */
    launchLedger: integer('launch_ledger'),
    /** The trading fee (ppm) the ladder on the ledger was priced with. */
    feePpm: integer('fee_ppm').notNull(),
    /** Quote the curve received from traders and paid to them, and the fees inside, micros. */
    quoteIn: numeric('quote_in').notNull().default('0'),
    quoteOut: numeric('quote_out').notNull().default('0'),
    feesAccrued: numeric('fees_accrued').notNull().default('0'),
    /** Fees handed to sweep jobs (paid or being paid to the fee wallet), micros. */
    feesSwept: numeric('fees_swept').notNull().default('0'),
    sweeps: integer('sweeps').notNull().default(0),
    keeperOwner: text('keeper_owner'),
    keeperUntil: timestamp('keeper_until', { withTimezone: true }),
    graduationJobId: uuid('graduation_job_id'),
    ammAccount: text('amm_account'),
    poolQuote: numeric('pool_quote'),
    poolTokens: numeric('pool_tokens'),
    graduatedLedger: integer('graduated_ledger'),
    /**
     * 'curve': a curve launch (docs/bonding-curve.md). 'window': an instant launch's anti-sniper
     * window, its pre-pool ladder (issue 37, docs/launch-protection.md, migration 0030): x0 and y0
     * are the future pool's real XRP and tokens, it sells `curve_tokens`, and it graduates when the
     * window's ledger time is over (or sold out) with `real_quote` + what it raised and every token
     * it holds.
     */
    kind: text('kind').notNull().default('curve'),
    /** y0, whole tokens; null: the curve launch's 1,073,000,000. */
    virtualTokens: numeric('virtual_tokens'),
    /** Tokens sold on the curve before it graduates; null: 793,100,000. */
    curveTokens: numeric('curve_tokens'),
    /** Tokens the curve account held before any sale; null: the curve launch's 1,000,000,000. */
    startHeld: numeric('start_held'),
    /** The token's supply (its market cap); null: 1,000,000,000. */
    totalSupply: numeric('total_supply'),
    /** Quote micros of the curve account that are the pool's own (a window launch's XRP A), not raised. */
    realQuote: numeric('real_quote').notNull().default('0'),
    /** A window launch: graduates once this many seconds of ledger time passed since its launch ledger. */
    graduateAfterSeconds: integer('graduate_after_seconds'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bonding_curves_token_uq').on(t.tokenId),
    uniqueIndex('bonding_curves_account_uq').on(t.curveAddress),
    index('bonding_curves_status_idx').on(t.status),
  ],
);

/**
 * Every crossing of a curve's offers, from the validated ledger (written by the follower, once per
 * transaction and curve). side is the trader's: BUY took tokens from the curve, SELL gave them back.
 */
export const bondingTrades = pgTable(
  'bonding_trades',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    curveId: bigint('curve_id', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
    ledgerIndex: integer('ledger_index').notNull(),
    account: text('account').notNull(),
    side: text('side').notNull(),
    tokens: numeric('tokens').notNull(),
    /** Quote micros the curve received (BUY) or paid (SELL), fee included. */
    quote: numeric('quote').notNull(),
    fee: numeric('fee').notNull(),
    /** The curve's sold amount after this transaction. */
    soldAfter: numeric('sold_after').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bonding_trades_hash_uq').on(t.curveId, t.hash),
    index('bonding_trades_ledger_idx').on(t.curveId, t.ledgerIndex),
  ],
);
