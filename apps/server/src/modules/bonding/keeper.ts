import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Client } from 'xrpl';
import {
  desiredLadder,
  feePercentToPpm,
  isSoldOut,
  RLUSD_CURRENCY_HEX,
  soldFromHeld,
  type LadderChunk,
  Decimal,
  microsToUnits,
  unitsToMicros,
  type LedgerAmount,
} from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { ledgerSubmissions } from '../../ledger/schema';
import type { SubmissionService, TxRequest } from '../../ledger/submission-service';
import { holderIsGone, newLeaseHolder } from '../../platform/lease-holder';
import type { PlatformSettings } from '../../platform/settings';
import type { AntiSniperClock } from './anti-sniper';
import { bondingCurves } from './schema';
import { isWindowCurve, paramsOf, type BondingRegistry, type CurveRow } from './service';

// The keeper: keeps each active curve's ladder on the ledger equal to the ladder its sold amount
// calls for (`desiredLadder`). It reads the curve account's balance and offers from the current
// (open) ledger, compares them with the desired chunks, and replaces, creates or cancels offers —
// usually two or three transactions after a crossing, submitted into the open ledger right after
// the crossing's ledger closed, so the new ladder is in the next ledger. Reconciling is idempotent:
// whatever the ledger shows is corrected the next time, so a missed round costs a ledger, never money.
//
// One keeper acts on a curve at a time, on any instance: a short lease on the curve row, renewed
// while the round runs, and no round while another process has transactions of the curve account
// in flight. A round that could not run for either reason (or failed) is not dropped: the curve is
// looked at again after every ledger close until a round has run. A lease dies with its holder
// (issue 34): the lease names the keeper's process (platform/lease-holder.ts), and a keeper that
// finds the lease of a process certainly gone — killed on this host, or this process id in a former
// life — takes it at once, so after a kill -9 and a restart the ladder is back within a ledger or
// two of the restart instead of after the lease; a holder on another host is waited out, at most
// one (short) lease.

const DEFAULT_LEASE_MS = 10_000;
/** A partly crossed offer still matches its chunk within these (the ledger rounds each crossing). */
const QUOTE_TOLERANCE = 3n;
const TOKEN_RELATIVE_TOLERANCE = new Decimal('1e-12');

interface LiveOffer {
  seq: number;
  side: 'sell' | 'buy';
  tokens: Decimal;
  quote: bigint;
}

export interface KeeperLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface KeeperDeps {
  db: Db;
  client: Client;
  /** Re-subscribes the curve accounts after a reconnect. */
  onConnected?: (listener: () => void) => () => void;
  submissions: SubmissionService;
  registry: BondingRegistry;
  settings: PlatformSettings;
  log: KeeperLog;
  /** Rounds at once (different curves). */
  concurrency?: number;
  /** How long a round holds the curve (BONDING_KEEPER_LEASE_MS). */
  leaseMs?: number;
  /** Anti-sniper windows (docs/launch-protection.md): the surcharge the sell offers carry. */
  antiSniper?: AntiSniperClock;
  /** A window launch whose window is over: its graduation job, once (keyed by the curve). */
  graduate?: (curveId: number) => Promise<void>;
}

export interface RoundReport {
  curveId: number;
  hashes: string[];
  /** Open ledger the round's transactions went into (validated + 1 when it read the state). */
  openLedger: number;
  /** performance.now() when the round started reading the ledger. */
  startedAt: number;
}

export class LadderKeeper {
  private readonly holder = newLeaseHolder();
  /** Lease holders known to be gone (platform/lease-holder.ts): their leases are taken at once. */
  private readonly goneHolders = new Set<string>();
  private readonly owner = this.holder.id;
  private readonly pending = new Set<number>();
  private readonly running = new Set<number>();
  /** Curves whose last round could not run (a foreign lease, foreign transactions, an error). */
  private readonly deferred = new Set<number>();
  private readonly leaseMs: number;
  private readonly inFlight = new Set<string>();
  private readonly idleWaiters: Array<() => void> = [];
  private readonly roundListeners = new Set<(r: RoundReport) => void>();
  private started = false;
  private stopping = false;
  private readonly concurrency: number;
  /** The live curves this keeper follows on the ledger's streams, by account. */
  private watched = new Map<string, { id: number; snipeUntil: number | null }>();
  /** Curves whose last round priced an anti-sniper surcharge: re-priced after every close. */
  private readonly surcharged = new Set<number>();
  private readonly unwatch: Array<() => void> = [];

  constructor(private readonly deps: KeeperDeps) {
    this.concurrency = deps.concurrency ?? 8;
    this.leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  }

  start(): void {
    this.started = true;
    this.stopping = false;
    // The validated transactions of the curve accounts arrive on the ledger's account stream as the
    // ledger closes: a round starts at once, without waiting for the indexer to read the ledger.
    const onTx = (ev: { validated?: boolean; meta?: unknown }) => {
      if (!ev.validated || !ev.meta) return;
      const text = JSON.stringify(ev.meta);
      for (const [account, c] of this.watched) if (text.includes(account)) this.poke([c.id]);
    };
    // Anti-snipe: a curve in its window is topped up after every close, crossed or not.
    // Deferred rounds: tried again after every close until they have run.
    const onClosed = (ev: { ledger_index: number }) => {
      const due = [...this.watched.values()]
        .filter((c) => c.snipeUntil === null || ev.ledger_index <= c.snipeUntil || this.surcharged.has(c.id))
        .map((c) => c.id);
      if (due.length || this.deferred.size) this.poke([...due, ...this.deferred]);
    };
    this.deps.client.on('transaction', onTx);
    this.deps.client.on('ledgerClosed', onClosed);
    // A round deferred for transactions of the curve account in flight (a killed process's, found
    // and settled by this one after a restart) runs as soon as the last of them is final, not a
    // ledger later: the close that validated them may have been handled before they were marked.
    const offFinalized = this.deps.submissions.onFinalized((row) => {
      const c = this.watched.get(row.account);
      if (c && this.deferred.has(c.id)) this.poke([c.id]);
    });
    this.unwatch.push(
      () => this.deps.client.off('transaction', onTx),
      () => this.deps.client.off('ledgerClosed', onClosed),
      offFinalized,
    );
    if (this.deps.onConnected) {
      this.unwatch.push(
        this.deps.onConnected(() => void this.subscribe([...this.watched.keys()]).catch(() => undefined)),
      );
    }
    this.pump();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const u of this.unwatch.splice(0)) u();
    this.pending.clear();
    this.deferred.clear();
    await this.idle();
    this.holder.release();
  }

  /** Follows these curves on the ledger's streams (the registry's live list, re-read when it changes). */
  async watch(curves: CurveRow[]): Promise<void> {
    const active = curves.filter((c) => c.status === 'active');
    const next = new Map(
      active.map((c) => [
        c.curveAddress,
        {
          id: c.id,
          snipeUntil:
            c.snipeLedgers === 0 ? 0 : c.launchLedger === null ? null : c.launchLedger + c.snipeLedgers,
        },
      ]),
    );
    const added = [...next.keys()].filter((a) => !this.watched.has(a));
    const removed = [...this.watched.keys()].filter((a) => !next.has(a));
    this.watched = next;
    if (added.length) await this.subscribe(added);
    if (removed.length && this.deps.client.isConnected()) {
      await this.deps.client.request({ command: 'unsubscribe', accounts: removed }).catch(() => undefined);
    }
  }

  private async subscribe(accounts: string[]): Promise<void> {
    if (accounts.length === 0 || !this.deps.client.isConnected()) return;
    await this.deps.client.request({ command: 'subscribe', accounts });
  }

  /** Reconcile these curves soon (again, if a round is running). */
  poke(curveIds: Iterable<number>): void {
    for (const id of curveIds) this.pending.add(id);
    this.pump();
  }

  /** Every curve still on its curve (start-up, a new follower claim). */
  async pokeAll(): Promise<void> {
    const rows = await this.deps.registry.live();
    // Leases of keepers that are gone (the process this one replaces, after a crash): the first
    // round's claim takes them in its one statement.
    for (const r of rows)
      if (r.keeperOwner && holderIsGone(r.keeperOwner)) this.goneHolders.add(r.keeperOwner);
    this.poke(rows.filter((r) => r.status === 'active').map((r) => r.id));
  }

  /** Curves waiting for a round that could not run yet (tests, metrics). */
  get deferredCount(): number {
    return this.deferred.size;
  }

  /** Resolves when nothing is pending or running (tests, benches). */
  idle(): Promise<void> {
    if (this.pending.size === 0 && this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  onRound(listener: (r: RoundReport) => void): () => void {
    this.roundListeners.add(listener);
    return () => this.roundListeners.delete(listener);
  }

  private pump(): void {
    if (!this.started || this.stopping) return;
    for (const id of [...this.pending]) {
      if (this.running.size >= this.concurrency) break;
      if (this.running.has(id)) continue;
      this.pending.delete(id);
      this.running.add(id);
      void this.reconcile(id)
        .catch((err: unknown) => {
          this.deferred.add(id);
          this.deps.log.warn(
            { err: err instanceof Error ? err.message : String(err), curveId: id },
            'bonding keeper round failed; trying again after the next ledger',
          );
        })
        .finally(() => {
          this.running.delete(id);
          this.pump();
          if (this.pending.size === 0 && this.running.size === 0) {
            for (const w of this.idleWaiters.splice(0)) w();
          }
        });
    }
  }

  private get leaseEnd() {
    return sql`now() + ${`${this.leaseMs} milliseconds`}::interval`;
  }

  /** The active curve's lease for this keeper, where its lease is `free`. */
  private async take(id: number, free: SQL | undefined): Promise<CurveRow | undefined> {
    const [row] = await this.deps.db
      .update(bondingCurves)
      .set({ keeperOwner: this.owner, keeperUntil: this.leaseEnd })
      .where(and(eq(bondingCurves.id, id), eq(bondingCurves.status, 'active'), free))
      .returning();
    return row;
  }

  private async claim(id: number): Promise<CurveRow | undefined> {
    const row = await this.take(
      id,
      or(
        isNull(bondingCurves.keeperOwner),
        eq(bondingCurves.keeperOwner, this.owner),
        lt(bondingCurves.keeperUntil, sql`now()`),
        ...(this.goneHolders.size ? [inArray(bondingCurves.keeperOwner, [...this.goneHolders])] : []),
      ),
    );
    if (row) return row;
    // Held: by a live keeper (wait), or by one that is certainly gone — take that one over now.
    const [held] = await this.deps.db
      .select({ owner: bondingCurves.keeperOwner })
      .from(bondingCurves)
      .where(eq(bondingCurves.id, id));
    if (!held?.owner || !holderIsGone(held.owner)) return undefined;
    const taken = await this.take(id, eq(bondingCurves.keeperOwner, held.owner));
    this.goneHolders.add(held.owner);
    if (taken)
      this.deps.log.info({ curveId: id, holder: held.owner }, 'took over the lease of a keeper that is gone');
    return taken;
  }

  /**
   * Renews the curve's lease every third of it while a round runs (a slow round keeps its curve; a
   * killed one's lease is over within one lease). `lost` turns true if another keeper took it (this
   * process stalled past the lease): the round then signs nothing more.
   */
  private keepLease(id: number): { readonly lost: boolean; stop(): void } {
    let lost = false;
    const renew = async () => {
      const renewed = await this.deps.db
        .update(bondingCurves)
        .set({ keeperUntil: this.leaseEnd })
        .where(and(eq(bondingCurves.id, id), eq(bondingCurves.keeperOwner, this.owner)))
        .returning({ id: bondingCurves.id });
      if (renewed.length === 0) lost = true;
    };
    const timer = setInterval(() => void renew().catch(() => undefined), Math.max(100, this.leaseMs / 3));
    timer.unref();
    return {
      get lost() {
        return lost;
      },
      stop: () => clearInterval(timer),
    };
  }

  private async release(id: number): Promise<void> {
    await this.deps.db
      .update(bondingCurves)
      .set({ keeperOwner: null, keeperUntil: null })
      .where(and(eq(bondingCurves.id, id), eq(bondingCurves.keeperOwner, this.owner)));
  }

  /** Transactions of the curve account in flight that this process did not send (a crash, another instance). */
  private async foreignInFlight(account: string): Promise<boolean> {
    const open = await this.deps.db
      .select({ hash: ledgerSubmissions.hash })
      .from(ledgerSubmissions)
      .where(
        and(
          eq(ledgerSubmissions.account, account),
          inArray(ledgerSubmissions.status, ['pending', 'submitted']),
        ),
      );
    return open.some((r) => !this.inFlight.has(r.hash));
  }

  private async reconcile(id: number): Promise<void> {
    const curve = await this.claim(id);
    if (!curve) {
      // Another holder's lease (a live instance, or a killed one's until it expires): try again
      // after each close. A curve no longer active needs no more rounds.
      const [row] = await this.deps.db
        .select({ status: bondingCurves.status })
        .from(bondingCurves)
        .where(eq(bondingCurves.id, id));
      if (row?.status === 'active') this.deferred.add(id);
      else this.deferred.delete(id);
      return;
    }
    try {
      if (await this.foreignInFlight(curve.curveAddress)) {
        // Settles within its LastLedgerSequence window; look again after the next ledger.
        this.deferred.add(id);
        return;
      }
      this.deferred.delete(id);
      const lease = this.keepLease(id);
      try {
        await this.round(curve, lease);
      } finally {
        lease.stop();
      }
    } finally {
      await this.release(id);
    }
  }

  private async round(curve: CurveRow, lease: { readonly lost: boolean }): Promise<void> {
    const { client, submissions } = this.deps;
    const startedAt = performance.now();
    const validated = submissions.ledgerIndex;
    const [lines, offers, info] = await Promise.all([
      client.request({
        command: 'account_lines',
        account: curve.curveAddress,
        peer: curve.issuerAddress,
        ledger_index: 'current',
      }),
      this.offers(curve.curveAddress),
      client.request({ command: 'account_info', account: curve.curveAddress, ledger_index: 'current' }),
    ]);
    const held = lines.result.lines.find((l) => l.currency === curve.currency)?.balance ?? '0';
    const shape = paramsOf(curve);
    const sold = soldFromHeld(held, shape);
    if (isSoldOut(sold, shape)) return; // graduation takes it from here
    // A window launch's ladder lives only as long as its window (ledger time): once it is over the
    // pool opens instead of a plain ladder going up (docs/launch-protection.md).
    if (isWindowCurve(curve) && (await this.deps.antiSniper?.windowOver(curve, validated)) !== false) {
      this.surcharged.delete(curve.id);
      await this.deps.graduate?.(curve.id);
      return;
    }

    const feePpm = feePercentToPpm((await this.deps.settings.all()).trading_fee_percent);
    if (Number(feePpm) !== curve.feePpm) {
      await this.deps.db
        .update(bondingCurves)
        .set({ feePpm: Number(feePpm) })
        .where(eq(bondingCurves.id, curve.id));
    }
    // Anti-snipe: until `snipeLedgers` ledgers after the launch ledger, no more than `snipeTokens`
    // are for sale at once; the keeper tops up once per ledger.
    const nextLedger = validated + 1;
    const capped =
      curve.snipeLedgers > 0 &&
      (curve.launchLedger === null || nextLedger < curve.launchLedger + curve.snipeLedgers);
    // Anti-sniper window: the sell offers for the next ledger carry the surcharge of the last
    // validated ledger's close time; re-priced after every close until it is 0.
    const surcharge = await this.deps.antiSniper?.rate(curve, validated);
    if (surcharge) this.surcharged.add(curve.id);
    else this.surcharged.delete(curve.id);
    const desired = desiredLadder(shape, sold, feePpm, {
      ...(capped ? { sellCap: curve.snipeTokens } : {}),
      ...(surcharge ? { surchargePpm: surcharge.ppm } : {}),
    });
    const live = offers.map((o) => this.liveOffer(curve, o)).filter((o): o is LiveOffer => o !== undefined);

    // Match what is on the ledger with what should be; the rest is replaced, created or cancelled.
    const unmatched = new Set(live);
    const missing: LadderChunk[] = [];
    for (const chunk of desired) {
      const hit = [...unmatched].find((o) => matches(o, chunk));
      if (hit) unmatched.delete(hit);
      else missing.push(chunk);
    }
    const stale = [...unmatched];
    if (missing.length === 0 && stale.length === 0) return;

    // Reserve: every extra offer needs an owner reserve the account can pay.
    const reserves = submissions.reserves;
    const balance = BigInt(info.result.account_data.Balance);
    const ownerCount = BigInt(info.result.account_data.OwnerCount);
    const extra = BigInt(Math.max(0, missing.length - stale.length));
    const spare = balance - reserves.reserveBase - reserves.reserveIncrement * ownerCount - 100_000n;
    const affordable = spare > 0n ? spare / reserves.reserveIncrement : 0n;
    const creatable = stale.length + Number(extra < affordable ? extra : affordable);
    if (creatable < missing.length) {
      this.deps.log.warn(
        { curveId: curve.id, missing: missing.length, creatable },
        'bonding curve account cannot reserve its whole ladder',
      );
    }
    // Nearest to the current point first: those are the offers traders reach.
    const ordered = [...missing].sort((a, b) => distance(a, sold).cmp(distance(b, sold))).slice(0, creatable);

    const txs: TxRequest[] = [];
    for (let i = 0; i < Math.max(ordered.length, stale.length); i++) {
      const chunk = ordered[i];
      const old = stale[i];
      if (chunk) txs.push({ ...this.offerTx(curve, chunk), ...(old ? { OfferSequence: old.seq } : {}) });
      else if (old) txs.push({ TransactionType: 'OfferCancel', OfferSequence: old.seq });
    }
    const round = randomBytes(6).toString('hex');
    // Another keeper has the curve now (this process stalled past its lease): it makes the ladder.
    if (lease.lost) throw new Error('the keeper lease on this curve was taken over');
    // Asked for together, signed as one batch with consecutive sequences (in this order).
    const rows = await Promise.all(
      txs.map((tx, i) =>
        submissions.prepare({
          intentKey: `bonding-ladder:${curve.id}:${round}:${i}`,
          account: curve.curveAddress,
          tx,
          purpose: 'bonding:ladder',
          userId: null,
          walletId: curve.curveWalletId,
        }),
      ),
    );
    const hashes = rows.map((r) => r.hash);
    for (const h of hashes) {
      this.inFlight.add(h);
      void submissions.wait(h).finally(() => this.inFlight.delete(h));
    }
    // Applied to the open ledger (or refused): the next round reads the state they made.
    const results = await Promise.all(hashes.map((h) => submissions.engineResult(h)));
    const refused = results.filter((r) => r !== 'tesSUCCESS');
    if (refused.length) this.deps.log.warn({ curveId: curve.id, refused }, 'bonding ladder offers refused');
    for (const l of this.roundListeners) l({ curveId: curve.id, hashes, openLedger: nextLedger, startedAt });
  }

  private async offers(account: string) {
    const out: Array<{ seq: number; taker_gets: LedgerAmount; taker_pays: LedgerAmount }> = [];
    let marker: unknown;
    do {
      const r = await this.deps.client.request({
        command: 'account_offers',
        account,
        ledger_index: 'current',
        limit: 400,
        ...(marker ? { marker } : {}),
      });
      out.push(...(r.result.offers ?? []));
      marker = r.result.marker;
    } while (marker);
    return out;
  }

  private isToken(
    curve: CurveRow,
    a: LedgerAmount,
  ): a is { currency: string; issuer: string; value: string } {
    return typeof a !== 'string' && a.currency === curve.currency && a.issuer === curve.issuerAddress;
  }

  private microsOf(a: LedgerAmount): bigint {
    return typeof a === 'string' ? BigInt(a) : unitsToMicros(a.value, 'nearest');
  }

  private liveOffer(
    curve: CurveRow,
    o: { seq: number; taker_gets: LedgerAmount; taker_pays: LedgerAmount },
  ): LiveOffer | undefined {
    if (this.isToken(curve, o.taker_gets))
      return {
        seq: o.seq,
        side: 'sell',
        tokens: new Decimal(o.taker_gets.value),
        quote: this.microsOf(o.taker_pays),
      };
    if (this.isToken(curve, o.taker_pays))
      return {
        seq: o.seq,
        side: 'buy',
        tokens: new Decimal(o.taker_pays.value),
        quote: this.microsOf(o.taker_gets),
      };
    return { seq: o.seq, side: 'sell', tokens: new Decimal(-1), quote: -1n }; // not the curve's: cancel it
  }

  private quoteAmount(curve: CurveRow, micros: bigint): LedgerAmount {
    if (curve.quote === 'XRP') return micros.toString();
    return {
      currency: RLUSD_CURRENCY_HEX,
      issuer: curve.quoteIssuer!,
      value: microsToUnits(micros).toFixed(),
    };
  }

  private offerTx(curve: CurveRow, c: LadderChunk): TxRequest {
    const token = { currency: curve.currency, issuer: curve.issuerAddress, value: c.tokens };
    const quote = this.quoteAmount(curve, c.quote);
    return c.side === 'sell'
      ? { TransactionType: 'OfferCreate', TakerGets: token, TakerPays: quote }
      : { TransactionType: 'OfferCreate', TakerGets: quote, TakerPays: token };
  }
}

function matches(o: LiveOffer, c: LadderChunk): boolean {
  if (o.side !== c.side) return false;
  const want = new Decimal(c.tokens);
  if (o.tokens.minus(want).abs().gt(want.mul(TOKEN_RELATIVE_TOLERANCE))) return false;
  const dq = o.quote - c.quote;
  return (dq < 0n ? -dq : dq) <= QUOTE_TOLERANCE;
}

function distance(c: LadderChunk, sold: Decimal): Decimal {
  return Decimal.min(new Decimal(c.lo).minus(sold).abs(), new Decimal(c.hi).minus(sold).abs());
}
