import { and, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import {
  Decimal,
  RESTING_STATUSES,
  RLUSD_CURRENCY_HEX,
  amountValue,
  curveFeeInside,
  decimalToDrops,
  feePercentToPpm,
  platformFee,
  type DecimalValue,
  type LedgerAmount,
  microsToUnits,
  unitsToMicros,
} from '@ledgerpad/shared';
import { getBalanceChanges, type TransactionMetadata } from 'xrpl';
import { batchedCall, batchedRead } from '../../db/batched';
import { bulkInsert, tableRows, type BulkColumn } from '../../db/bulk-insert';
import type { Db } from '../../db/client';
import { rowsOf as resultRows } from '../../db/results';
import { decodedTx } from '../../ledger/decoded-tx';
import type { ObligationSource, Obligations } from '../../ledger/funds';
import { ledgerSubmissions } from '../../ledger/schema';
import type { SubmissionRow } from '../../ledger/submission-types';
import type { JobRunner } from '../../platform/jobs';
import type { PlatformSettings } from '../../platform/settings';
import type { TokenRegistry } from '../tokens';
import { customFeePercent } from '../users';
import type { FeeSettlement } from './fee-paid';
import { tradeMoved, type Asset } from './plan';
import { tradingOrders, tradingTrades, type TradeRow } from './schema';

// A platform trade's record and its fee job, written from the validated transaction itself (its
// signed blob and metadata in ledger_submissions) in one database transaction. The swap and
// limit-order routes record right after validation; the sweep records what a crash left between
// validation and that write. Keyed by the transaction hash, so it happens once however often.

export const TRADING_FEE_JOB = 'trading-fee';
/** Submissions that are trades made here. */
export const TRADE_PURPOSES = ['swap', 'limit-order'] as const;
/** The fee Payment's purpose: the fee job's, and the fee inner transaction of a trade's Batch. */
export const FEE_PURPOSE = 'trading-fee';

/** The bonding module's answer: the account of the token's curve while the token trades on it. */
export interface CurveAccounts {
  activeCurveAccount(issuer: string, currency: string): Promise<string | undefined>;
  /**
   * While the token's curve is in its anti-snipe window, the sentence saying so ('Launch
   * protection: at most N tokens per ledger for the first M ledgers'); a buy that finds nothing
   * to buy met that cap, not a lack of liquidity.
   */
  launchProtection?(issuer: string, currency: string): Promise<string | undefined>;
  /**
   * While the token's curve launch is in its anti-sniper window (issue 37): the surcharge inside the
   * curve's sell prices (ppm of the curve's value) and the seconds of ledger time left.
   */
  antiSniper?(issuer: string, currency: string): Promise<{ ppm: bigint; endsInSeconds: number } | undefined>;
}

export interface TradeRecorderDeps {
  db: Db;
  jobs: JobRunner;
  settings: PlatformSettings;
  tokens: TokenRegistry;
  rlusdIssuer: () => Promise<string | undefined>;
  curves?: CurveAccounts;
  /** Where a trade recorded with its fee already paid has that fee accounted (fee-paid.ts). */
  settlement: FeeSettlement;
}

const plain = (d: Decimal) => d.toSignificantDigits(15, Decimal.ROUND_DOWN).toFixed();
const assetOf = (a: LedgerAmount): Asset =>
  typeof a === 'string' ? { kind: 'xrp' } : { kind: 'iou', currency: a.currency, issuer: a.issuer };

/** The columns a trade is recorded with (its id and time take their defaults). */
const TRADE_COLUMNS: Array<BulkColumn<typeof tradingTrades.$inferInsert>> = [
  { column: tradingTrades.userId, type: 'integer', value: (v) => v.userId },
  { column: tradingTrades.walletId, type: 'integer', value: (v) => v.walletId },
  { column: tradingTrades.walletAddress, type: 'text', value: (v) => v.walletAddress },
  { column: tradingTrades.issuer, type: 'text', value: (v) => v.issuer },
  { column: tradingTrades.currency, type: 'text', value: (v) => v.currency },
  { column: tradingTrades.quote, type: 'text', value: (v) => v.quote },
  { column: tradingTrades.side, type: 'text', value: (v) => v.side },
  { column: tradingTrades.spent, type: 'numeric', value: (v) => v.spent },
  { column: tradingTrades.received, type: 'numeric', value: (v) => v.received },
  { column: tradingTrades.hash, type: 'text', value: (v) => v.hash },
  { column: tradingTrades.ledgerIndex, type: 'integer', value: (v) => v.ledgerIndex ?? null },
  { column: tradingTrades.fee, type: 'numeric', value: (v) => v.fee },
  { column: tradingTrades.feeStatus, type: 'text', value: (v) => v.feeStatus },
  { column: tradingTrades.feeHash, type: 'text', value: (v) => v.feeHash ?? null },
  { column: tradingTrades.tokenId, type: 'integer', value: (v) => v.tokenId ?? null },
];

/**
 * The user's trading fee in percent: an admin's override for this user, else the platform's. The one
 * rule every quote, trade record and position (its realisable value, net of the sell's fee) uses.
 */
export async function userFeePercent(
  db: Db,
  settings: Pick<PlatformSettings, 'all'>,
  userId: number,
): Promise<string> {
  return (await customFeePercent(db, userId)) ?? (await settings.all()).trading_fee_percent;
}

export class TradeRecorder {
  constructor(private readonly deps: TradeRecorderDeps) {}

  /** The user's trading fee in percent: an admin's override for this user, else the platform's. */
  feePercent(userId: number): Promise<string> {
    return userFeePercent(this.deps.db, this.deps.settings, userId);
  }

  /**
   * The platform's fee on a trade of `notional` (in the quote asset), given what the transaction
   * moved: the part that crossed a bonding curve paid its fee inside the curve's price, so only the
   * rest is charged here.
   */
  async platformFee(
    userId: number,
    token: { issuer: string; currency: string },
    quote: Asset,
    notional: Decimal,
    changes: ReturnType<typeof getBalanceChanges>,
  ): Promise<Decimal> {
    const curve = await this.deps.curves?.activeCurveAccount(token.issuer, token.currency);
    const onCurve = curve ? quoteMoved(changes, curve, quote) : new Decimal(0);
    return platformFee(Decimal.max(0, notional.minus(onCurve)), await this.feePercent(userId), quote.kind);
  }

  /**
   * The quote's fee lines: the fee charged as its own payment (as `platformFee`), the user's rate,
   * and the fee inside the curve's prices for the part that crossed a bonding curve (the platform's
   * rate, read offer-free from the total the curve account moved: within a micro per crossed chunk
   * of what the follower records chunk by chunk).
   */
  async feeBreakdown(
    userId: number,
    token: { issuer: string; currency: string },
    quote: Asset,
    side: 'BUY' | 'SELL',
    notional: Decimal,
    changes: ReturnType<typeof getBalanceChanges>,
    /** The user's rate and the token's curve account, when the caller read them already. */
    known?: { feePercent: string; curve: string | undefined },
  ): Promise<{
    fee: Decimal;
    feePercent: string;
    feeInPrice: Decimal;
    curveFeePercent: string | null;
    /** What the trade moved through the curve account, in the quote asset. */
    onCurve: Decimal;
  }> {
    const curve = known
      ? known.curve
      : await this.deps.curves?.activeCurveAccount(token.issuer, token.currency);
    const onCurve = curve ? quoteMoved(changes, curve, quote) : new Decimal(0);
    const feePercent = known ? known.feePercent : await this.feePercent(userId);
    const fee = platformFee(Decimal.max(0, notional.minus(onCurve)), feePercent, quote.kind);
    if (!onCurve.gt(0))
      return { fee, feePercent, feeInPrice: new Decimal(0), curveFeePercent: null, onCurve };
    // The curve prices with the platform's fee for everyone (no per-user override).
    const curveFeePercent = (await this.deps.settings.all()).trading_fee_percent;
    const micros = unitsToMicros(onCurve);
    // The trader buys from the curve's sell offers, or sells into its buy offers.
    const inside = curveFeeInside(side === 'BUY' ? 'sell' : 'buy', micros, feePercentToPpm(curveFeePercent));
    return { fee, feePercent, feeInPrice: microsToUnits(inside), curveFeePercent, onCurve };
  }

  private async isQuote(asset: Asset): Promise<boolean> {
    if (asset.kind === 'xrp') return true;
    return asset.currency === RLUSD_CURRENCY_HEX && asset.issuer === (await this.deps.rlusdIssuer());
  }

  /**
   * The trade of one validated submission (by hash), recorded with its fee job; the existing record
   * when there is one; null when it moved nothing (a limit order that only rests) or is not a trade.
   * `settled`: the submission's record as it was just finalized (the finalize listener has it in
   * hand), so it is not read back (issue 40: a hot launch's ledger read hundreds of them again).
   */
  record(hash: string, settled?: SubmissionRow): Promise<TradeRow | null> {
    // The route that waited for the trade and the finalize listener ask for the same hash in the
    // same turn: one of them records it, both get the row.
    let running = this.recording.get(hash);
    if (!running) {
      running = this.recordOnce(hash, settled?.hash === hash ? settled : undefined).finally(() =>
        this.recording.delete(hash),
      );
      this.recording.set(hash, running);
    }
    return running;
  }

  private readonly recording = new Map<string, Promise<TradeRow | null>>();

  private async recordOnce(hash: string, settled?: SubmissionRow): Promise<TradeRow | null> {
    const existing = await this.tradeByHash(hash);
    if (existing) return { ...existing };
    const sub = settled ?? (await this.submissionByHash(hash));
    if (!sub || sub.status !== 'success' || !sub.meta || sub.userId === null || sub.walletId === null)
      return null;
    const tx = decodedTx(sub.txBlob) as Record<string, unknown> & { Fee?: string };
    let pay: LedgerAmount;
    let get: LedgerAmount;
    if (tx.TransactionType === 'Payment' && tx.SendMax !== undefined) {
      [pay, get] = [tx.SendMax as LedgerAmount, tx.Amount as LedgerAmount];
    } else if (tx.TransactionType === 'OfferCreate') {
      [pay, get] = [tx.TakerGets as LedgerAmount, tx.TakerPays as LedgerAmount];
    } else return null;
    const payAsset = assetOf(pay);
    const getAsset = assetOf(get);
    // XRP is always the quote; between two IOUs, RLUSD. BUY pays the quote for the token.
    const side =
      payAsset.kind === 'xrp' || (getAsset.kind !== 'xrp' && (await this.isQuote(payAsset))) ? 'BUY' : 'SELL';
    const [token, quote] = side === 'BUY' ? [getAsset, payAsset] : [payAsset, getAsset];
    if (token.kind !== 'iou') return null;
    const changes = getBalanceChanges(sub.meta as TransactionMetadata);
    const moved = tradeMoved(
      changes,
      sub.account,
      payAsset,
      getAsset,
      // A delegated transaction's fee is the delegate's, not in the wallet's balance change.
      tx.Delegate !== undefined ? '0' : String(tx.Fee ?? '0'),
    );
    if (moved.received.lte(0) || moved.spent.lte(0)) return null;
    const notional = side === 'BUY' ? moved.spent : moved.received;
    const fee = await this.platformFee(sub.userId, token, quote, notional, changes);
    const listed = await this.deps.tokens.byIssuer(token.issuer, token.currency);
    // A trade of an all-or-nothing Batch carried its fee as the Batch's next inner transaction:
    // applied together, so the fee is paid — that payment's amount, recorded with the row.
    const paid = sub.parentHash ? await this.feeOfBatch(sub.parentHash) : undefined;
    const owes = owedByWallet(sub, tx) && fee.gt(0);
    const walletSigned = sub.signer === 'wallet';
    const due = fee.gt(0) || paid !== undefined;
    return this.insert(
      {
        userId: sub.userId,
        walletId: sub.walletId,
        walletAddress: sub.account,
        issuer: token.issuer,
        currency: token.currency,
        quote: quote.kind === 'xrp' ? 'XRP' : 'RLUSD',
        side,
        spent: plain(moved.spent),
        received: plain(moved.received),
        hash,
        ledgerIndex: sub.ledgerIndex,
        fee: paid ? paid.fee : plain(fee),
        // A self-custody wallet's market swap carries its fee as the next transaction of its own
        // signed intent (docs/self-custody.md): no job can sign for it; the intent settles the fee.
        // A trade its delegate placed, or a limit order it signed, owes the fee until the wallet
        // signs its payment ('owed', docs/self-custody.md "Delegated trading").
        feeStatus: owes ? 'owed' : walletSigned ? 'intent' : due ? 'pending' : 'none',
        tokenId: listed?.id ?? null,
      },
      undefined,
      paid?.hash,
    );
  }

  /** The fee Payment of a trade's Batch, when it applied: its hash and amount (XRP in XRP). */
  private async feeOfBatch(batchHash: string): Promise<{ hash: string; fee: string } | undefined> {
    const row = await this.feeRowOf(batchHash);
    if (row?.status !== 'success') return undefined;
    const amount = (decodedTx(row.txBlob) as { Amount?: LedgerAmount }).Amount;
    return amount === undefined ? undefined : { hash: row.hash, fee: plain(amountValue(amount)) };
  }

  // Every trade of a validated ledger is recorded as it is finalized: the trades of one ledger look
  // their rows up together (db/batched.ts).
  private readonly tradeByHash = batchedRead(async (hashes: string[]) => {
    const rows = await this.deps.db.select().from(tradingTrades).where(inArray(tradingTrades.hash, hashes));
    return new Map(rows.map((r) => [r.hash, r]));
  });
  private readonly feeRowOf = batchedRead(async (batchHashes: string[]) => {
    const rows = await this.deps.db
      .select()
      .from(ledgerSubmissions)
      .where(
        and(inArray(ledgerSubmissions.parentHash, batchHashes), eq(ledgerSubmissions.purpose, FEE_PURPOSE)),
      );
    return new Map(rows.map((r) => [r.parentHash!, r]));
  });
  private readonly submissionByHash = batchedRead(async (hashes: string[]) => {
    const rows = await this.deps.db
      .select()
      .from(ledgerSubmissions)
      .where(inArray(ledgerSubmissions.hash, hashes));
    return new Map(rows.map((r) => [r.hash, r]));
  });

  /**
   * The trade row and its fee job together (or neither), once per hash. `paidBy`: the fee Payment
   * of the trade's own Batch paid the fee — the row turns paid through FeeSettlement in the same
   * transaction, and no fee job is made.
   */
  async insert(values: typeof tradingTrades.$inferInsert, executor?: Db, paidBy?: string): Promise<TradeRow> {
    if (!executor) return this.insertTogether({ values, paidBy });
    return (await this.write(executor, [{ values, paidBy }]))[0]!;
  }

  /**
   * The trades recorded in one turn (every trade of a validated ledger is finalized together) in
   * one database transaction: one multi-row insert, then each new row's fee status and job. When
   * the transaction fails, each is written on its own, so one bad row fails only its own caller.
   */
  private readonly insertTogether = batchedCall(
    async (items: Array<{ values: typeof tradingTrades.$inferInsert; paidBy?: string }>) => {
      try {
        return await this.deps.db.transaction((tx) => this.write(tx as Db, items));
      } catch (err) {
        if (items.length === 1) return [err instanceof Error ? err : new Error(String(err))];
        const out: Array<TradeRow | Error> = [];
        for (const item of items)
          out.push(
            await this.deps.db
              .transaction(async (tx) => (await this.write(tx as Db, [item]))[0]!)
              .catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))),
          );
        return out;
      }
    },
  );

  private async write(
    tx: Db,
    items: Array<{ values: typeof tradingTrades.$inferInsert; paidBy?: string }>,
  ): Promise<TradeRow[]> {
    // A hash inserted twice in one statement: the second row is skipped as a conflict. One
    // parameter per column, not per value (db/bulk-insert.ts: a validated ledger of a hot launch
    // records hundreds of trades at once, issue 40); a row that sets its own time keeps drizzle's.
    const values = items.map((i) => i.values);
    const inserted = values.some((v) => v.createdAt !== undefined || v.id !== undefined)
      ? await tx.insert(tradingTrades).values(values).onConflictDoNothing().returning()
      : tableRows(
          tradingTrades,
          resultRows<Record<string, unknown>>(
            await tx.execute(
              bulkInsert(tradingTrades, TRADE_COLUMNS, values, sql`on conflict do nothing returning *`),
            ),
          ),
        );
    const fresh = new Map(inserted.map((r) => [r.hash, r]));
    const out = new Map<string, TradeRow>();
    // The rows whose Batch paid their fee turn paid together, in one update (issue 40: a validated
    // ledger's trades are recorded in one transaction; each alone was a few statements a trade).
    const paid: Array<{ tradeId: number; hash: string }> = [];
    for (const { values, paidBy } of items) {
      const row = fresh.get(values.hash);
      if (!row || out.has(row.hash)) continue;
      out.set(row.hash, row);
      if (paidBy) paid.push({ tradeId: row.id, hash: paidBy });
      else await this.afterInsert(tx, row);
    }
    for (const row of await this.deps.settlement.paidInBatch(tx, paid)) out.set(row.hash, row);
    const missing = items.filter((i) => !out.has(i.values.hash)).map((i) => i.values.hash);
    if (missing.length) {
      const existing = await tx.select().from(tradingTrades).where(inArray(tradingTrades.hash, missing));
      for (const r of existing) out.set(r.hash, r);
    }
    return items.map((i) => out.get(i.values.hash)!);
  }

  /** A row the insert just made, its fee not paid by its Batch: accounted if paid, or its fee job (once). */
  private async afterInsert(tx: Db, row: TradeRow): Promise<void> {
    // A fee paid by the trade's own transaction is accounted with the row, once (the insert ran).
    await this.deps.settlement.recorded(tx, row);
    if (row.feeStatus === 'pending') {
      await this.deps.jobs.enqueue(
        {
          type: TRADING_FEE_JOB,
          userId: row.userId,
          payload: { tradeId: row.id },
          key: `${TRADING_FEE_JOB}:${row.hash}`,
        },
        tx,
      );
    }
  }

  /**
   * Records validated trade submissions that have no record yet: what a crash left between a
   * trade's validation and its record. `olderThanMs` leaves the live route its own fresh ones.
   */
  async sweep(olderThanMs = 10_000): Promise<number> {
    const rows = await this.deps.db
      .select({ hash: ledgerSubmissions.hash })
      .from(ledgerSubmissions)
      .leftJoin(tradingTrades, eq(tradingTrades.hash, ledgerSubmissions.hash))
      .where(
        and(
          inArray(ledgerSubmissions.purpose, [...TRADE_PURPOSES]),
          eq(ledgerSubmissions.status, 'success'),
          isNull(tradingTrades.id),
          lt(ledgerSubmissions.updatedAt, sql`now() - make_interval(secs => ${olderThanMs / 1000})`),
          // Older ones were swept when they were this young (by some instance, at some start).
          gt(ledgerSubmissions.updatedAt, sql`now() - interval '1 day'`),
        ),
      )
      .limit(500);
    let n = 0;
    for (const r of rows) if (await this.record(r.hash)) n++;
    return n;
  }
}

/**
 * A trade whose platform fee a self-custody wallet owes until it signs the fee's payment: one its
 * delegate signed (a `Delegate` field: the delegate may not send Payment), or a limit order the
 * wallet signed itself (its fills come later, with no intent of theirs to carry the fee).
 */
export function owedByWallet(sub: { signer: string; purpose: string }, tx: Record<string, unknown>): boolean {
  return tx.Delegate !== undefined || (sub.signer === 'wallet' && sub.purpose === 'limit-order');
}

/** How much of the quote asset `account`'s balance moved in a transaction (either way). */
function quoteMoved(changes: ReturnType<typeof getBalanceChanges>, account: string, quote: Asset): Decimal {
  const mine = changes.find((c) => c.account === account)?.balances ?? [];
  const sum = mine
    .filter((b) =>
      quote.kind === 'xrp'
        ? b.currency === 'XRP'
        : b.currency === quote.currency && b.issuer === quote.issuer,
    )
    .reduce((t, b) => t.plus(b.value), new Decimal(0));
  return sum.abs();
}

/**
 * What a wallet owes from trading that its ledger balance does not show yet (docs/money.md "ALL IN
 * and the fee"): the platform fees of its recorded trades not paid yet, the fees of trades validated
 * but not recorded yet (the moment between the two), and the fee a fill of its resting buy orders
 * will owe. Every funds check counts them, so no later action can leave a fee unpayable.
 */
export function tradingObligations(
  db: Db,
  rlusdIssuer: () => Promise<string | undefined>,
  feePercent: (userId: number) => Promise<string>,
): ObligationSource {
  // Every funds check asks: the wallets checked in one turn (a burst of claims or swaps) are read
  // together (db/batched.ts), and the three kinds of debt in one statement, not three (issue 40: a
  // hot launch's buy is checked twice, before its probe and under its funds lease).
  const rowsOf = batchedRead(async (accounts: string[]) => {
    const kinds = await db.execute(sql`
      select 'pending' as kind, ${tradingTrades.walletAddress} as account, ${tradingTrades.quote} as quote,
             ${tradingTrades.fee}::text as a, null::text as b, null::integer as user_id
        from ${tradingTrades}
        -- Owed fees of self-custody wallets too: the wallet keeps what it must still pay.
        where ${and(
          inArray(tradingTrades.walletAddress, accounts),
          inArray(tradingTrades.feeStatus, ['pending', 'owed']),
        )}
      union all
      select 'unrecorded', ${ledgerSubmissions.account}, null, null, ${ledgerSubmissions.txBlob},
             ${ledgerSubmissions.userId}
        from ${ledgerSubmissions}
        left join ${tradingTrades} on ${eq(tradingTrades.hash, ledgerSubmissions.hash)}
        where ${and(
          inArray(ledgerSubmissions.account, accounts),
          // Swaps always move something when they succeed (a limit order that only rests has no
          // record, ever: its fee is counted with the resting orders below).
          eq(ledgerSubmissions.purpose, 'swap'),
          eq(ledgerSubmissions.status, 'success'),
          isNull(tradingTrades.id),
          // A Batch's trade paid its fee in the same Batch: nothing is owed.
          isNull(ledgerSubmissions.parentHash),
          gt(ledgerSubmissions.updatedAt, sql`now() - interval '10 minutes'`),
        )}
      union all
      select 'resting', ${tradingOrders.walletAddress}, ${tradingOrders.quote},
             ${tradingOrders.remainingTokens}::text, ${tradingOrders.price}::text, ${tradingOrders.userId}
        from ${tradingOrders}
        where ${and(
          inArray(tradingOrders.walletAddress, accounts),
          eq(tradingOrders.orderType, 'BUY'),
          inArray(tradingOrders.status, [...RESTING_STATUSES]),
        )}`);
    const by = new Map<string, Debts>();
    const of = (account: string) => {
      let e = by.get(account);
      if (!e) by.set(account, (e = { pending: [], unrecorded: [], resting: [] }));
      return e;
    };
    type Row = { kind: string; account: string; quote: string; a: string; b: string; user_id: number | null };
    for (const r of resultRows<Row>(kinds)) {
      if (r.kind === 'pending') of(r.account).pending.push({ quote: r.quote, fee: r.a });
      else if (r.kind === 'unrecorded') of(r.account).unrecorded.push({ blob: r.b, userId: r.user_id });
      else of(r.account).resting.push({ userId: r.user_id!, quote: r.quote, remaining: r.a, price: r.b });
    }
    return by;
  });
  return async (account) => {
    const rows = await rowsOf(account);
    return rows ? owedFrom(rows, rlusdIssuer, feePercent) : { drops: 0n };
  };
}

/** A wallet's debts as `tradingObligations` reads them. */
interface Debts {
  pending: Array<{ quote: string; fee: string }>;
  unrecorded: Array<{ blob: string; userId: number | null }>;
  resting: Array<{ userId: number; quote: string; remaining: string; price: string }>;
}

async function owedFrom(
  { pending, unrecorded, resting }: Debts,
  rlusdIssuer: () => Promise<string | undefined>,
  feePercent: (userId: number) => Promise<string>,
): Promise<Obligations> {
  let xrp = new Decimal(0);
  let rlusd = new Decimal(0);
  const add = (quote: string, v: DecimalValue) => {
    if (quote === 'XRP') xrp = xrp.plus(v);
    else rlusd = rlusd.plus(v);
  };
  for (const p of pending) add(p.quote, p.fee);
  const percents = new Map<number, string>();
  const percentOf = async (userId: number | null) => {
    if (userId === null) return '0';
    if (!percents.has(userId)) percents.set(userId, await feePercent(userId));
    return percents.get(userId)!;
  };
  for (const u of unrecorded) {
    const tx = decodedTx(u.blob) as { SendMax?: LedgerAmount; TakerGets?: LedgerAmount };
    const paid = tx.SendMax ?? tx.TakerGets;
    if (paid === undefined) continue;
    const value = amountValue(paid);
    add(typeof paid === 'string' ? 'XRP' : 'RLUSD', value.mul(await percentOf(u.userId)).div(100));
  }
  for (const r of resting) {
    add(
      r.quote,
      new Decimal(r.remaining)
        .mul(r.price)
        .mul(await percentOf(r.userId))
        .div(100),
    );
  }
  const tokens = new Map<string, Decimal>();
  const issuer = rlusd.gt(0) ? await rlusdIssuer() : undefined;
  if (issuer) tokens.set(`${RLUSD_CURRENCY_HEX}|${issuer}`, rlusd);
  return { drops: decimalToDrops(xrp, 'up'), tokens };
}
