import { and, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Client, TransactionMetadata } from 'xrpl';
import {
  curveFeeInside,
  isSoldOut,
  RLUSD_CURRENCY_HEX,
  soldFromHeld,
  Decimal,
  dropsToDecimal,
  unitsToMicros,
  type LedgerAmount,
} from '@ledgerpad/shared';
import { balanceChanges } from '../../platform/indexer/balance-changes';
import type { IndexedLedger, LedgerHandler } from '../../platform/indexer/follower';
import { bulkInsert } from '../../db/bulk-insert';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/results';
import type { JobRunner } from '../../platform/jobs';
import { bondingCurves, bondingTrades } from './schema';
import { FEE_SWEEP_JOB, GRADUATION_JOB, paramsOf, type BondingRegistry, type CurveRow } from './service';

// The bonding handler of the ledger follower. For every validated ledger, inside the follower's
// database transaction (so exactly once, across crashes and instances): each crossing of a curve's
// offers (a trade, with the fee its price carried), the curve account's token balance, the ledger
// its ladder first appeared in (anti-snipe counts from it), and the two consequences of a sold-out
// curve or of fees piling up — the graduation job and a fee sweep job, enqueued in that same
// transaction. After the commit, the keeper is told which curves to look at.

/** Fees are paid to the fee wallet once this many micros (1 XRP or 1 RLUSD) have accrued. */
const SWEEP_MIN_MICROS = 1_000_000n;
const CURVE_LIST_TTL_MS = 2_000;
/** Curve trades per insert (nine parameters each: far below the protocol's 65,535). */
const TRADE_ROWS = 1_000;

export interface CurveTrade {
  curveId: number;
  hash: string;
  account: string;
  side: 'BUY' | 'SELL';
  tokens: string;
  quote: bigint;
  fee: bigint;
}

interface Prepared {
  trades: CurveTrade[];
  /** Curve id → its token balance at this ledger, for every curve the ledger touched. */
  held: Map<number, string>;
  launched: Set<number>;
  /** The touched curves' rows (their shape: a window launch's sold counts from its own start). */
  rows: Map<number, CurveRow>;
}

export interface BondingIndexerDeps {
  client: Client;
  registry: BondingRegistry;
  jobs: JobRunner;
  /** After each committed ledger: the curves it touched (the keeper re-posts their ladders). */
  onLedger: (ledger: number, touched: number[]) => Promise<void>;
}

type Amount = LedgerAmount;

// The fee inside q micros of a curve offer's quote: the shared rule (the swap screen's quote shows it).
export { curveFeeInside as feeInside } from '@ledgerpad/shared';

type OfferFields = { Account?: string; TakerGets?: Amount; TakerPays?: Amount };

/** The fees inside what a transaction took from (or gave to) the curve's offers, offer by offer. */
function curveFees(meta: TransactionMetadata, c: CurveRow, feePpm: bigint): bigint {
  const micros = (a: Amount | undefined) =>
    a === undefined ? 0n : typeof a === 'string' ? BigInt(a) : unitsToMicros(a.value, 'nearest');
  let total = 0n;
  for (const node of meta.AffectedNodes) {
    const n = (
      'ModifiedNode' in node ? node.ModifiedNode : 'DeletedNode' in node ? node.DeletedNode : undefined
    ) as { LedgerEntryType: string; FinalFields?: OfferFields; PreviousFields?: OfferFields } | undefined;
    if (!n || n.LedgerEntryType !== 'Offer' || n.FinalFields?.Account !== c.curveAddress) continue;
    const gets = n.PreviousFields?.TakerGets;
    const pays = n.PreviousFields?.TakerPays;
    if (gets === undefined || pays === undefined) continue; // cancelled or replaced, not crossed
    // A sell offer gives tokens and asks the quote; a buy offer gives the quote.
    const sell = typeof gets !== 'string' && gets.currency === c.currency && gets.issuer === c.issuerAddress;
    const q = sell
      ? micros(pays) - micros(n.FinalFields?.TakerPays)
      : micros(gets) - micros(n.FinalFields?.TakerGets);
    if (q > 0n) total += curveFeeInside(sell ? 'sell' : 'buy', q, feePpm);
  }
  return total;
}

/** column + v, for the numeric counters (one statement: concurrent writers never lose an addition). */
export const addMicros = (col: AnyPgColumn, v: bigint) => sql<string>`(${col} + ${v.toString()}::numeric)`;

export function createBondingIndexer(deps: BondingIndexerDeps): LedgerHandler<Prepared> {
  let cache: { at: number; byAccount: Map<string, CurveRow> } | undefined;
  let stale = false;
  deps.registry.onChange(() => (stale = true));
  const curves = async () => {
    if (!cache || stale || Date.now() - cache.at > CURVE_LIST_TTL_MS) {
      stale = false;
      const rows = await deps.registry.live();
      cache = { at: Date.now(), byAccount: new Map(rows.map((r) => [r.curveAddress, r])) };
    }
    return cache.byAccount;
  };

  /**
   * What the curve account held after the ledger; undefined while it has no trust line for the
   * token yet. An indexer catching up reads ledgers from before the launch with today's curve list:
   * those ledgers (the account funded, its line set) say nothing about sales, and reading "holds
   * nothing" there as "all sold" would graduate a curve nobody bought.
   */
  const heldAt = async (c: CurveRow, ledger: number): Promise<string | undefined> => {
    const r = await deps.client.request({
      command: 'account_lines',
      account: c.curveAddress,
      peer: c.issuerAddress,
      ledger_index: ledger,
    });
    return r.result.lines.find((l) => l.currency === c.currency)?.balance;
  };

  return {
    name: 'bonding',
    reset() {
      cache = undefined;
    },

    async prepare(ledger: IndexedLedger): Promise<Prepared> {
      const byAccount = await curves();
      const out: Prepared = { trades: [], held: new Map(), launched: new Set(), rows: new Map() };
      if (byAccount.size === 0) return out;
      const touched = new Map<number, CurveRow>();
      for (const itx of ledger.transactions) {
        if (itx.meta.TransactionResult !== 'tesSUCCESS') continue;
        const changes = balanceChanges(itx.meta);
        for (const account of changes.accounts) {
          const c = byAccount.get(account);
          if (!c) continue;
          touched.set(c.id, c);
          const own = itx.tx.Account === c.curveAddress;
          // The curve's own payments, pool creation and cancels are not trades; its own offers
          // crossing a resting offer are.
          if (own && itx.tx.TransactionType !== 'OfferCreate') continue;
          let tokens = new Decimal(0);
          let quote = new Decimal(0);
          for (const b of changes.of(account)) {
            if (b.currency === c.currency && b.issuer === c.issuerAddress) tokens = tokens.plus(b.value);
            else if (c.quote === 'XRP' && b.currency === 'XRP') quote = quote.plus(b.value);
            else if (c.quote === 'RLUSD' && b.currency === RLUSD_CURRENCY_HEX && b.issuer === c.quoteIssuer)
              quote = quote.plus(b.value);
          }
          // The network fee of the curve's own transaction is not part of a trade.
          if (own && c.quote === 'XRP') quote = quote.plus(dropsToDecimal(String(itx.tx.Fee ?? '0')));
          // A trade moves both sides, in opposite directions; tokens arriving alone (the supply
          // issued at launch, a donation) are not one.
          if (tokens.isZero() || quote.isZero() || tokens.isNeg() === quote.isNeg()) continue;
          const side = tokens.isNeg() ? 'BUY' : 'SELL';
          const micros = unitsToMicros(quote.abs(), 'nearest');
          out.trades.push({
            curveId: c.id,
            hash: itx.hash,
            account: itx.tx.Account,
            side,
            tokens: tokens.abs().toFixed(),
            quote: micros,
            fee: curveFees(itx.meta, c, BigInt(c.feePpm)),
          });
        }
        // The curve's own offers (its first ladder launches it) touch no balance but the fee's.
        const mine = byAccount.get(itx.tx.Account);
        if (mine && (itx.tx.TransactionType === 'OfferCreate' || itx.tx.TransactionType === 'OfferCancel')) {
          touched.set(mine.id, mine);
          if (itx.tx.TransactionType === 'OfferCreate' && mine.launchLedger === null)
            out.launched.add(mine.id);
        }
      }
      for (const c of touched.values()) {
        const held = await heldAt(c, ledger.index);
        if (held !== undefined) out.held.set(c.id, held);
        out.rows.set(c.id, c);
      }
      return out;
    },

    async write(ledger, tx, prepared) {
      if (prepared.held.size === 0) return;
      const shapeOf = (id: number) => {
        const row = prepared.rows.get(id);
        return row ? paramsOf(row) : undefined;
      };
      const sums = new Map<number, { in: bigint; out: bigint; fee: bigint; last?: string }>();
      // A ledger's curve trades in one statement per TRADE_ROWS (issue 40: a hot launch's ledger of
      // hundreds of buys took one insert each). Only the rows inserted now count to the sums: a
      // ledger read again (after a crash) finds its trades there and adds nothing twice.
      const byKey = new Map(prepared.trades.map((t) => [`${t.curveId}|${t.hash}`, t]));
      for (let at = 0; at < prepared.trades.length; at += TRADE_ROWS) {
        // One parameter per column (db/bulk-insert.ts), not per value: a hot launch's ledger holds
        // hundreds of a curve's trades.
        const rows = prepared.trades.slice(at, at + TRADE_ROWS).map((t) => ({
          ...t,
          soldAfter: soldFromHeld(prepared.held.get(t.curveId) ?? '0', shapeOf(t.curveId)).toFixed(),
        }));
        const inserted = rowsOf<{ curve_id: string | number; hash: string }>(
          await tx.execute(
            bulkInsert(
              bondingTrades,
              [
                { column: bondingTrades.curveId, type: 'bigint', value: (t) => t.curveId },
                { column: bondingTrades.hash, type: 'text', value: (t) => t.hash },
                { column: bondingTrades.ledgerIndex, type: 'integer', value: () => ledger.index },
                { column: bondingTrades.account, type: 'text', value: (t) => t.account },
                { column: bondingTrades.side, type: 'text', value: (t) => t.side },
                { column: bondingTrades.tokens, type: 'numeric', value: (t) => t.tokens },
                { column: bondingTrades.quote, type: 'numeric', value: (t) => t.quote.toString() },
                { column: bondingTrades.fee, type: 'numeric', value: (t) => t.fee.toString() },
                { column: bondingTrades.soldAfter, type: 'numeric', value: (t) => t.soldAfter },
              ],
              rows,
              sql`on conflict do nothing returning curve_id, hash`,
            ),
          ),
        ).map((r) => ({ curveId: Number(r.curve_id), hash: r.hash }));
        for (const row of inserted) {
          const t = byKey.get(`${row.curveId}|${row.hash}`);
          if (!t) continue;
          const s = sums.get(t.curveId) ?? { in: 0n, out: 0n, fee: 0n };
          if (t.side === 'BUY') s.in += t.quote;
          else s.out += t.quote;
          s.fee += t.fee;
          sums.set(t.curveId, s);
        }
      }
      for (const [curveId, held] of prepared.held) {
        const s = sums.get(curveId) ?? { in: 0n, out: 0n, fee: 0n };
        const [c] = await tx
          .update(bondingCurves)
          .set({
            held,
            stateLedger: ledger.index,
            quoteIn: addMicros(bondingCurves.quoteIn, s.in),
            quoteOut: addMicros(bondingCurves.quoteOut, s.out),
            feesAccrued: addMicros(bondingCurves.feesAccrued, s.fee),
            launchLedger: prepared.launched.has(curveId)
              ? sql`coalesce(${bondingCurves.launchLedger}, ${ledger.index})`
              : bondingCurves.launchLedger,
            updatedAt: new Date(),
          })
          .where(eq(bondingCurves.id, curveId))
          .returning();
        // Sold out can only happen on a launched curve (its first ladder came after its supply).
        if (!c || c.status !== 'active' || c.launchLedger === null) continue;
        if (isSoldOut(soldFromHeld(held, paramsOf(c)), paramsOf(c))) {
          // The last curve token sold: the ladder comes down and the pool goes up, once.
          await startGraduation(deps.jobs, tx, curveId);
          continue;
        }
        const owed = BigInt(c.feesAccrued) - BigInt(c.feesSwept);
        if (owed >= SWEEP_MIN_MICROS) {
          const n = c.sweeps + 1;
          await deps.jobs.enqueue(
            {
              type: FEE_SWEEP_JOB,
              userId: null,
              payload: { curveId, amount: owed.toString(), n },
              key: `${FEE_SWEEP_JOB}:${curveId}:${n}`,
            },
            tx,
          );
          await tx
            .update(bondingCurves)
            .set({ feesSwept: addMicros(bondingCurves.feesSwept, owed), sweeps: n })
            .where(eq(bondingCurves.id, curveId));
        }
      }
      if (prepared.launched.size || prepared.trades.length) stale = true;
    },

    async committed(ledger, prepared) {
      // A launch ledger now known moves the curve's anti-snipe window: tell whoever follows curves.
      if (prepared.launched.size) deps.registry.changed();
      await deps.onLedger(ledger.index, [...prepared.held.keys()]);
    },
  };
}

/**
 * The graduation job of a curve, enqueued once (keyed by the curve) and the curve marked
 * 'graduating' in the caller's transaction: on a sold-out curve (the follower), and on a window
 * launch whose window's ledger time is over (the keeper, docs/launch-protection.md).
 */
export async function startGraduation(jobs: JobRunner, tx: Db, curveId: number): Promise<void> {
  const job = await jobs.enqueue(
    {
      type: GRADUATION_JOB,
      userId: null,
      payload: { curveId },
      key: `${GRADUATION_JOB}:${curveId}`,
      steps: GRADUATION_STEPS,
    },
    tx,
  );
  await tx
    .update(bondingCurves)
    .set({ status: 'graduating', graduationJobId: job.id, updatedAt: new Date() })
    .where(and(eq(bondingCurves.id, curveId), eq(bondingCurves.status, 'active')));
}

const GRADUATION_STEPS = [
  'wait-for-ladder',
  'clear-ladder',
  'settle',
  'fees',
  'create-amm',
  'burn-leftover',
  'refund-deposit',
  'lock-regular-key',
  'lock-disable-master',
  'record',
];

export type { Amount };
