import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { Decimal, decimalToDrops, dropsToDecimal } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { applyShare, type PlatformSettings } from '../../platform/settings';
import type { TokenRegistry, TokenRow } from '../tokens';
import { tradingTrades, type TradeRow } from './schema';

// The one place where a trade's platform fee becomes paid, and so the one place the accounting that
// follows a paid fee hangs off: the creator's share (rewards) and the referrer's share (referrals).
// Whoever pays the fee records it here: `markPaid` turns a recorded trade's fee from owed to paid
// (the fee job's own Payment after a custodial trade); `settleIntent` settles the fee a self-custody
// wallet paid with the next transaction of its own signed intent (docs/self-custody.md); `recorded`
// takes a trade whose row is written with its fee already paid (the trade's own all-or-nothing
// Batch, issue 36). The accruals run in the same database transaction as the change of status, and
// only for the call that changed it, so a fee is accounted once however often a job step, a sweep,
// a finisher or a restart repeats the call. test/architecture/fee-paid.test.ts checks that nothing
// else writes a fee status that can be paid.

/**
 * Something that accrues from paid fees, inside the transaction that records them: it reads and
 * writes only through `tx` (on PGlite a read on the pool would wait for this very transaction).
 * Given every trade whose fee turned paid in one statement (the trades of a validated ledger whose
 * Batches paid their fees, issue 40), so it can accrue them with a few statements, not a few each.
 */
export type FeePaidListener = (tx: Db, trades: TradeRow[]) => Promise<void>;

export class FeeSettlement {
  private readonly listeners: FeePaidListener[] = [];

  constructor(private readonly db: Db) {}

  /** Adds an accrual (the composition root wires the referrals module's here). */
  onPaid(listener: FeePaidListener): void {
    this.listeners.push(listener);
  }

  /**
   * Records that the payment `hash` paid the fee of trade `tradeId` and runs the accruals, in one
   * database transaction; false (and nothing accrued) when the fee was recorded as paid before.
   */
  async markPaid(tradeId: number, hash: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(tradingTrades)
        .set({ feeStatus: 'paid', feeHash: hash })
        .where(and(eq(tradingTrades.id, tradeId), ne(tradingTrades.feeStatus, 'paid')))
        .returning();
      if (!row) return false;
      await this.accrue(tx as unknown as Db, [row]);
      return true;
    });
  }

  /**
   * A self-custody trade's fee (status 'intent': the wallet signed it as the transaction after the
   * trade, to the fee wallet), settled once its intent finished: `fee` as signed, paid when that
   * transaction succeeded (the accruals run), failed when it did not, none for a zero fee. Only from
   * 'intent', in one database transaction with the accruals: a second call changes nothing.
   */
  async settleIntent(
    tradeHash: string,
    fee: string,
    paid: { hash: string; status: 'success' | 'failed' } | undefined,
  ): Promise<TradeRow | undefined> {
    const status = new Decimal(fee).gt(0) ? (paid?.status === 'success' ? 'paid' : 'failed') : 'none';
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(tradingTrades)
        .set({ fee, feeStatus: status, feeHash: paid?.hash ?? null })
        .where(and(eq(tradingTrades.hash, tradeHash), eq(tradingTrades.feeStatus, 'intent')))
        .returning();
      if (row?.feeStatus === 'paid') await this.accrue(tx as unknown as Db, [row]);
      return row;
    });
  }

  /**
   * Fees a self-custody wallet owed (status 'owed': trades placed through its delegate, or limit
   * orders it signed, whose fee nothing but the wallet can pay — docs/self-custody.md "Delegated
   * trading") paid by the wallet's signed payment `hash`: each turns paid and its accruals run, in
   * one database transaction, only from 'owed' (a second call changes nothing). Answers how many.
   */
  async settleOwed(tradeIds: number[], hash: string): Promise<number> {
    if (tradeIds.length === 0) return 0;
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .update(tradingTrades)
        .set({ feeStatus: 'paid', feeHash: hash })
        .where(and(inArray(tradingTrades.id, tradeIds), eq(tradingTrades.feeStatus, 'owed')))
        .returning();
      await this.accrue(tx as unknown as Db, rows);
      return rows.length;
    });
  }

  /**
   * Custodial trades whose fees were paid by the fee Payments of their own all-or-nothing Batches
   * (issue 36, docs/batch-in-the-app.md), each `{ tradeId, hash }`: their rows just inserted in `tx`
   * (the inserting transaction, with no fee job) turn paid and the accruals run, in that
   * transaction — one update for all of them (issue 40: a ledger's trades are recorded together).
   * A fee is paid if and only if its trade filled: the ledger applied both or neither. Answers the
   * rows that turned paid.
   */
  async paidInBatch(tx: Db, paid: Array<{ tradeId: number; hash: string }>): Promise<TradeRow[]> {
    if (paid.length === 0) return [];
    const hashOf = sql.join(
      paid.map((p) => sql`when ${p.tradeId} then ${p.hash}`),
      sql` `,
    );
    const rows = await tx
      .update(tradingTrades)
      .set({ feeStatus: 'paid', feeHash: sql`(case ${tradingTrades.id} ${hashOf} end)` })
      .where(
        and(
          inArray(
            tradingTrades.id,
            paid.map((p) => p.tradeId),
          ),
          ne(tradingTrades.feeStatus, 'paid'),
        ),
      )
      .returning();
    await this.accrue(tx as unknown as Db, rows);
    return rows;
  }

  /**
   * A trade row just inserted (in `tx`, the inserting transaction): when its fee was paid by the
   * trade's own transaction, the accruals run now, in that transaction.
   */
  async recorded(tx: Db, row: TradeRow): Promise<void> {
    if (row.feeStatus === 'paid') await this.accrue(tx, [row]);
  }

  private async accrue(tx: Db, rows: TradeRow[]): Promise<void> {
    if (rows.length === 0) return;
    for (const listener of this.listeners) await listener(tx, rows);
  }
}

/**
 * The creator's share of a paid fee: `creator_reward_share` of it, into the token's total reward,
 * in the token's own pair only (a trade of an XRP-paired token quoted in RLUSD, or the reverse, pays
 * its fee but adds nothing to a total kept in the other currency); rounded down to drops (XRP) or 15
 * significant digits (RLUSD). Only tokens deployed here have a creator. docs/rewards.md.
 */
export function creatorShareListener(deps: {
  settings: PlatformSettings;
  tokens: TokenRegistry;
}): FeePaidListener {
  // The reads of one recording transaction, kept for it: the trades of a validated ledger are
  // recorded in one transaction (trade-records.ts), most of them of the same token (issue 40: a hot
  // launch's burst read the token row and the settings once per trade, inside that transaction).
  // What is read here — the token's pair, source and creator, the share setting — does not change
  // within it; the reward total it adds to is written, never read back here.
  const kept = new WeakMap<
    Db,
    { tokens: Map<number, Promise<TokenRow | undefined>>; share?: Promise<string> }
  >();
  return async (tx, trades) => {
    let mine = kept.get(tx);
    if (!mine) kept.set(tx, (mine = { tokens: new Map() }));
    // Each trade's share rounded as its own (the same totals as one accrual per trade), then one
    // addition per token for all of them.
    const totals = new Map<number, { amount: Decimal; quote: string }>();
    for (const trade of trades) {
      // Inside the transaction that records the fee paid: every read goes through it.
      let read = trade.tokenId ? mine.tokens.get(trade.tokenId) : undefined;
      if (trade.tokenId && !read)
        mine.tokens.set(trade.tokenId, (read = deps.tokens.byId(trade.tokenId, tx)));
      const token = read ? await read : undefined;
      const pair = token?.liquidityPair === 'RLUSD' ? 'RLUSD' : 'XRP';
      if (token?.source !== 'deploy' || !token.deployerUserId || trade.quote !== pair) continue;
      mine.share ??= deps.settings.all(tx).then((all) => all.creator_reward_share);
      const reward = applyShare(trade.fee, await mine.share);
      const amount =
        trade.quote === 'XRP'
          ? dropsToDecimal(decimalToDrops(reward))
          : reward.toSignificantDigits(15, Decimal.ROUND_DOWN);
      if (!amount.gt(0)) continue;
      const total = totals.get(token.id);
      totals.set(token.id, { amount: amount.plus(total?.amount ?? 0), quote: trade.quote });
    }
    for (const [id, { amount, quote }] of totals)
      await deps.tokens.accrueReward(id, amount.toFixed(), quote, tx);
  };
}
