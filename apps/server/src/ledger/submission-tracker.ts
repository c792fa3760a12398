import { DEFAULT_RESERVE_BASE_DROPS, DEFAULT_RESERVE_INCREMENT_DROPS } from '@ledgerpad/shared';
import { and, inArray, sql } from 'drizzle-orm';
import { BatchFlags, type LedgerStream, type RippledError, type TransactionMetadata } from 'xrpl';
import type { Database } from '../db/client';
import { pgErrorCode } from '../db/results';
import type { XrplConnection } from './connection';
import { txFlags } from './decoded-tx';
import { ledgerSubmissions } from './schema';
import type { SequenceAllocator } from './sequence-allocator';
import { settle, type SettleContext, type Verdict } from './settle';
import {
  errText,
  OPEN,
  rippledErrorName,
  type SubmissionLog,
  type SubmissionRow,
  type Tracked,
} from './submission-types';

// Follows every open transaction of this process to its final state: subscribes to the ledger
// stream (again after each reconnect), reads each validated ledger for our hashes, asks per hash
// after a gap, expires the hopeless, resends the stuck (the same bytes, never re-signed) and settles.

/** tfAllOrNothing: a Batch whose inner transactions apply together or not at all. */
const TF_ALL_OR_NOTHING: number = BatchFlags.tfAllOrNothing;

/** tem/tef results (other than these) mean the transaction can never apply and its sequence is free. */
const RETRYABLE_TEF = new Set(['tefPAST_SEQ', 'tefALREADY']);

/** Most ledgers a step reads one by one after falling behind; further behind, it asks per hash. */
const MAX_SCAN_LEDGERS = 256;

export interface TrackerOptions {
  database: Database;
  connection: XrplConnection;
  allocator: SequenceAllocator;
  log: SubmissionLog;
  /** Ledgers a transaction may wait before it expires. */
  window: number;
  /** Resend a transaction not yet validated after this many closed ledgers. */
  resubmitAfter: number;
  /** A sequence handed out but never used (expired, tem, tef): give it back or fill it. */
  releaseSequence(row: SubmissionRow): Promise<void>;
  /** Fill the free sequences before a transaction the ledger holds as terPRE_SEQ. */
  fillGapsBefore(row: SubmissionRow): Promise<void>;
}

export class SubmissionTracker implements SettleContext {
  readonly db: Database['db'];
  readonly log: SubmissionLog;
  readonly tracked = new Map<string, Tracked>();
  readonly finalizedListeners = new Set<(row: SubmissionRow) => void>();
  readonly idleWaiters: Array<() => void> = [];
  /** Latest validated ledger index seen on the stream. */
  validatedIndex = 0;
  baseFee = 10n;
  reserveBase = DEFAULT_RESERVE_BASE_DROPS;
  reserveIncrement = DEFAULT_RESERVE_INCREMENT_DROPS;
  private lastTickLedger = 0;
  /** Callers waiting for a validated ledger above an index (resolved by the ledger stream). */
  private readonly ledgerWaiters = new Set<{ above: number; done: (seen: boolean) => void }>();
  private tickRunning: Promise<void> | undefined;
  private tickAgain = false;
  private stopped = false;
  private readonly unsubscribers: Array<() => void> = [];
  private readonly onLedgerClosed = (ev: LedgerStream) => this.ledgerClosed(ev);

  constructor(private readonly opts: TrackerOptions) {
    this.db = opts.database.db;
    this.log = opts.log;
  }

  private get client(): XrplConnection['client'] {
    return this.opts.connection.client;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  releaseSequence(row: SubmissionRow): Promise<void> {
    return this.opts.releaseSequence(row);
  }

  /** Follows the ledger now and after each reconnect. */
  async start(): Promise<void> {
    this.client.on('ledgerClosed', this.onLedgerClosed);
    this.unsubscribers.push(
      this.opts.connection.onConnected(() => void this.onConnected()),
      () => this.client.off('ledgerClosed', this.onLedgerClosed),
    );
    if (this.opts.connection.isConnected()) await this.onConnected();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const u of this.unsubscribers.splice(0)) u();
    for (const w of [...this.ledgerWaiters]) w.done(false);
    await this.tickRunning;
  }

  track(row: SubmissionRow): void {
    // A Batch's inner transaction is followed through its outer (settled with it), never alone.
    if (row.parentHash || this.tracked.has(row.hash)) return;
    this.tracked.set(row.hash, {
      row,
      lastSubmitLedger: 0,
      waiters: [],
      engineWaiters: [],
      engineSeen: false,
    });
  }

  settle(verdicts: Verdict[]): Promise<void> {
    return settle(this, verdicts);
  }

  /**
   * What became of each inner transaction of these Batches (docs/batch-in-the-app.md). An outer that
   * applied (in a validated ledger, whatever its inner transactions did): each inner is looked up by
   * hash — found, it applied with its own result and metadata (ParentBatchID = the outer's hash);
   * absent, it never will apply (an inner is applied only inside its Batch, in the same ledger):
   * 'rolled-back' under tfAllOrNothing (one inner failed, so none applied), else 'not-applied' (the
   * mode stopped before it). An outer that never applied (expired, tem, tef, its sequence taken):
   * every inner 'not-applied'. Unused inner sequences are given back.
   */
  async innerVerdicts(outers: Array<{ row: SubmissionRow; verdict: Verdict }>): Promise<Verdict[]> {
    const rows = await this.db
      .select()
      .from(ledgerSubmissions)
      .where(
        and(
          inArray(
            ledgerSubmissions.parentHash,
            outers.map((o) => o.verdict.hash),
          ),
          inArray(ledgerSubmissions.status, [...OPEN]),
        ),
      );
    const out: Verdict[] = [];
    for (const { row: outer, verdict } of outers) {
      // Only an outer tesSUCCESS applies its inner transactions (a tec Batch charged its fee only).
      const applied = verdict.result === 'tesSUCCESS' && verdict.ledgerIndex !== null;
      const flags = txFlags(outer.txBlob);
      const absent = applied && (flags & TF_ALL_OR_NOTHING) !== 0 ? 'rolled-back' : 'not-applied';
      for (const row of rows.filter((r) => r.parentHash === verdict.hash)) {
        const known = applied ? verdict.inLedger?.get(row.hash) : undefined;
        const found = known
          ? {
              hash: row.hash,
              result: known.TransactionResult,
              ledgerIndex: verdict.ledgerIndex,
              meta: known,
              consumed: true,
            }
          : applied
            ? await this.innerInLedger(row.hash, verdict.ledgerIndex!)
            : undefined;
        out.push(found ?? { hash: row.hash, result: absent, ledgerIndex: null, meta: null, consumed: false });
      }
    }
    return out;
  }

  /** An inner transaction in its Batch's ledger, or undefined when the ledger does not hold it. */
  private async innerInLedger(hash: string, ledgerIndex: number): Promise<Verdict | undefined> {
    try {
      const res = await this.client.request({
        command: 'tx',
        transaction: hash,
        min_ledger: ledgerIndex,
        max_ledger: ledgerIndex,
      });
      const r = res.result as unknown as { validated?: boolean; meta?: TransactionMetadata | string };
      if (!r.validated || !r.meta || typeof r.meta !== 'object') {
        throw new Error(`inner transaction ${hash} not validated in ledger ${ledgerIndex}`);
      }
      return { hash, result: r.meta.TransactionResult, ledgerIndex, meta: r.meta, consumed: true };
    } catch (err) {
      // Absent only when the server searched that ledger; otherwise ask again on the next step.
      const searchedAll = (err as { data?: { searched_all?: boolean } }).data?.searched_all;
      if (rippledErrorName(err) === 'txnNotFound' && searchedAll !== false) return undefined;
      throw err;
    }
  }

  async send(hash: string): Promise<void> {
    const t = this.tracked.get(hash);
    if (!t || !this.opts.connection.isConnected()) return;
    t.lastSubmitLedger = this.validatedIndex;
    let engine: string;
    try {
      const res = await this.client.request({ command: 'submit', tx_blob: t.row.txBlob });
      engine = res.result.engine_result;
    } catch (err) {
      // Not sent or no answer (socket dropped): the record stays open and is resent after reconnect.
      this.log.warn({ hash, err: errText(err) }, 'submit failed');
      return;
    }
    if (!this.tracked.has(hash)) return;
    t.row.engineResult = engine;
    t.engineSeen = true;
    t.row.submitCount += 1;
    for (const w of t.engineWaiters.splice(0)) w(engine);
    if (t.row.status === 'pending') t.row.status = 'submitted';
    try {
      await this.recordSubmitted(hash, engine);
    } catch (err) {
      // Bookkeeping only: the record stays open and is settled from the ledger all the same.
      this.log.warn({ hash, err: errText(err) }, 'recording the submit result failed');
    }
    if (engine.startsWith('tem') || (engine.startsWith('tef') && !RETRYABLE_TEF.has(engine))) {
      // Can never apply. If an earlier submission of these same bytes did apply, the hash says so.
      if (t.row.submitCount > 1 && (await this.lookup(hash)) === 'validated') return;
      await this.settle([{ hash, result: engine, ledgerIndex: null, meta: null, consumed: false }]);
    }
  }

  private submitted: Array<{ hash: string; engine: string; resolve(): void; reject(err: unknown): void }> =
    [];

  /**
   * Records a submission's preliminary result (status 'submitted', the engine result, one more
   * submit) together with every other answer of the same turn: a burst of 1,000 submissions (an
   * airdrop's trust lines and payments) is a few statements instead of 1,000. Resolves once its
   * row is written, so what the caller does next (settling a tem) still comes after it.
   */
  private recordSubmitted(hash: string, engine: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.submitted.push({ hash, engine, resolve, reject });
      if (this.submitted.length === 1) setImmediate(() => void this.flushSubmitted());
    });
  }

  private async flushSubmitted(retried = false): Promise<void> {
    const batch = this.submitted.splice(0);
    if (batch.length === 0) return;
    try {
      const values = sql.join(
        batch.map((b, i) => sql`(${b.hash}::text, ${b.engine}::text, ${i}::int)`),
        sql`, `,
      );
      // A hash answered twice in one turn (a resend) counts twice, as two updates did.
      await this.db.execute(sql`
        update ${ledgerSubmissions}
           set status = 'submitted',
               engine_result = v.engine,
               submit_count = ${ledgerSubmissions.submitCount} + v.n,
               updated_at = now()
          from (select hash, (array_agg(engine order by ord desc))[1] as engine, count(*)::int as n
                  from (values ${values}) as a(hash, engine, ord) group by hash) as v
         where ${ledgerSubmissions.hash} = v.hash
           and ${inArray(ledgerSubmissions.status, [...OPEN])}`);
      for (const b of batch) b.resolve();
    } catch (err) {
      // Two instances' statements on the same records may deadlock (PostgreSQL picks one to fail):
      // the loser's rows are written again with the next turn's, once.
      if (pgErrorCode(err) === '40P01' && !retried) {
        this.submitted.push(...batch);
        setImmediate(() => void this.flushSubmitted(true));
        return;
      }
      for (const b of batch) b.reject(err);
    }
  }

  /**
   * Looks a transaction up by hash and settles it when it is in a validated ledger. 'absent' only
   * when the server searched every ledger of `range` (or no range was asked); a server with gaps in
   * its history answers 'unknown', and nothing is concluded from that.
   */
  async lookup(
    hash: string,
    range?: { min: number; max: number },
  ): Promise<'validated' | 'absent' | 'unknown'> {
    try {
      const res = await this.client.request({
        command: 'tx',
        transaction: hash,
        ...(range ? { min_ledger: range.min, max_ledger: range.max } : {}),
      });
      const r = res.result as unknown as {
        validated?: boolean;
        meta?: TransactionMetadata | string;
        ledger_index?: number;
      };
      if (r.validated && r.meta && typeof r.meta === 'object') {
        await this.settle([
          {
            hash,
            result: r.meta.TransactionResult,
            ledgerIndex: r.ledger_index ?? null,
            meta: r.meta,
            consumed: true,
          },
        ]);
        return 'validated';
      }
      return 'unknown';
    } catch (err) {
      if (rippledErrorName(err) === 'txnNotFound') {
        const searchedAll = (err as RippledError & { data?: { searched_all?: boolean } }).data?.searched_all;
        return range && searchedAll === false ? 'unknown' : 'absent';
      }
      throw err;
    }
  }

  private async onConnected(): Promise<void> {
    if (this.stopped) return;
    try {
      const res = await this.client.request({ command: 'subscribe', streams: ['ledger'] });
      const r = res.result as unknown as Partial<LedgerStream>;
      this.applyLedgerInfo(r);
      // Everything sent before the drop may have been lost with the socket: resend the same bytes.
      await this.reconcileAll();
    } catch (err) {
      this.log.warn({ err: errText(err) }, 'ledger subscription failed');
    }
  }

  /**
   * Resolves true once a ledger above `above` is validated, false after `timeoutMs` without one
   * (or when the tracker stops): woken by the ledger stream, never by polling.
   */
  validatedAbove(above: number, timeoutMs: number): Promise<boolean> {
    if (this.validatedIndex > above) return Promise.resolve(true);
    if (this.stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter = {
        above,
        done: (seen: boolean) => {
          clearTimeout(timer);
          this.ledgerWaiters.delete(waiter);
          resolve(seen);
        },
      };
      const timer = setTimeout(() => waiter.done(false), timeoutMs);
      this.ledgerWaiters.add(waiter);
    });
  }

  private applyLedgerInfo(r: Partial<LedgerStream>): void {
    if (typeof r.ledger_index === 'number' && r.ledger_index > this.validatedIndex) {
      this.validatedIndex = r.ledger_index;
      for (const w of [...this.ledgerWaiters]) if (this.validatedIndex > w.above) w.done(true);
    }
    if (r.fee_base !== undefined) this.baseFee = BigInt(r.fee_base);
    if (r.reserve_base !== undefined) this.reserveBase = BigInt(r.reserve_base);
    if (r.reserve_inc !== undefined) this.reserveIncrement = BigInt(r.reserve_inc);
  }

  private ledgerClosed(ev: LedgerStream): void {
    this.applyLedgerInfo(ev);
    this.scheduleTick();
  }

  private scheduleTick(): void {
    if (this.stopped) return;
    if (this.tickRunning) {
      this.tickAgain = true;
      return;
    }
    this.tickRunning = (async () => {
      do {
        this.tickAgain = false;
        try {
          await this.tick();
        } catch (err) {
          this.log.warn({ err: errText(err) }, 'ledger follow step failed');
        }
      } while (this.tickAgain && !this.stopped);
    })().finally(() => {
      this.tickRunning = undefined;
    });
  }

  /** Finds our transactions in the newly validated ledger, expires the hopeless, resends the stuck. */
  private async tick(): Promise<void> {
    const ledgerIndex = this.validatedIndex;
    if (this.tracked.size === 0) {
      this.lastTickLedger = ledgerIndex;
      return;
    }
    // Ledgers closed while the previous step ran are read too (a few at most); after a longer gap
    // (a disconnect) asking per hash is cheaper.
    const from = this.lastTickLedger > 0 ? this.lastTickLedger + 1 : ledgerIndex;
    // One request per ledger against one per transaction in flight: a step that fell behind under
    // load (a hot launch's 1,000 buys, issue 40) reads the ledgers it missed rather than asking for
    // each hash one after the other, which made the next step later still.
    let scanned = ledgerIndex - from < Math.min(MAX_SCAN_LEDGERS, Math.max(10, this.tracked.size));
    // What the ledgers read hold of ours, settled in one go: each settle is statements that wait
    // their turn behind every request's on a busy database, so one per ledger read kept a step that
    // fell behind from catching up (issue 40: the callers heard of their validated trades 30–40 s late).
    const found: Verdict[] = [];
    for (let index = from; scanned && index <= ledgerIndex && this.tracked.size > 0; index++) {
      try {
        const ours = await this.scanLedger(index);
        scanned = ours !== undefined;
        if (ours) found.push(...ours);
      } catch {
        scanned = false;
      }
    }
    await this.settle(found);
    if (!scanned) {
      // We may have missed ledgers (disconnect) or the ledger could not be read: ask per hash.
      for (const hash of [...this.tracked.keys()]) await this.lookup(hash);
    }
    this.lastTickLedger = ledgerIndex;

    for (const [hash, t] of [...this.tracked]) {
      if (!this.tracked.has(hash)) continue;
      if (t.row.lastLedgerSequence < ledgerIndex || t.row.engineResult === 'tefPAST_SEQ') {
        await this.settleUnseen(hash, t, ledgerIndex);
      }
    }
    // Resent together: each `send` writes its submit to the socket before its first await, so a
    // wallet's transactions still go out in sequence order, and their records share one statement
    // (recordSubmitted) instead of one awaited statement each.
    const resend: Array<Promise<void>> = [];
    for (const [hash, t] of [...this.tracked]) {
      const stuck =
        t.row.status === 'pending' ||
        (t.row.engineResult !== null &&
          /^(tel|ter)/.test(t.row.engineResult) &&
          t.row.engineResult !== 'terQUEUED') ||
        ledgerIndex - t.lastSubmitLedger >= this.opts.resubmitAfter;
      if (stuck) resend.push(this.send(hash));
    }
    await Promise.all(resend);
    for (const [hash, t] of [...this.tracked]) {
      // terPRE_SEQ for ledgers on end: the account's sequence is behind ours and nothing of ours is
      // in flight to close the gap (a sequence given out and lost): fill it so this one can apply.
      const signedAt = t.row.lastLedgerSequence - this.opts.window;
      if (t.row.engineResult === 'terPRE_SEQ' && ledgerIndex - signedAt >= this.opts.resubmitAfter) {
        await this.opts
          .fillGapsBefore(t.row)
          .catch((err: unknown) => this.log.warn({ hash, err: errText(err) }, 'gap fill failed'));
      }
    }
  }

  /** Reads the ledger's transactions in one request: ours, to settle (undefined: not readable). */
  private async scanLedger(ledgerIndex: number): Promise<Verdict[] | undefined> {
    const res = await this.client.request({
      command: 'ledger',
      ledger_index: ledgerIndex,
      transactions: true,
      expand: true,
    });
    const ledger = res.result.ledger as unknown as { transactions?: unknown[] };
    if (!res.result.validated || !Array.isArray(ledger.transactions)) return undefined;
    const ours: Verdict[] = [];
    // Every transaction of the ledger, so a Batch's inner ones are found without a request each (a
    // hot launch's AMM buys are Batches: two sequential `tx` requests per buy held up the step).
    const inLedger = new Map<string, TransactionMetadata>();
    for (const item of ledger.transactions) {
      const tx = item as {
        hash?: string;
        tx_json?: { hash?: string };
        meta?: TransactionMetadata;
        metaData?: TransactionMetadata;
      };
      const hash = tx.hash ?? tx.tx_json?.hash;
      const meta = tx.meta ?? tx.metaData;
      if (!hash || !meta || typeof meta !== 'object') continue;
      inLedger.set(hash, meta);
      if (!this.tracked.has(hash)) continue;
      ours.push({ hash, result: meta.TransactionResult, ledgerIndex, meta, consumed: true, inLedger });
    }
    return ours;
  }

  /**
   * Not found in any validated ledger: past its LastLedgerSequence it can never apply (expired, its
   * sequence unused); if the account's sequence moved past it, something else took the sequence.
   */
  private async settleUnseen(hash: string, t: Tracked, ledgerIndex: number): Promise<void> {
    // From about the ledger it was signed in (LastLedgerSequence − window) to now.
    // To the ledger the account was read at, when that is newer than the stream has told us of: a
    // transaction that took its sequence in that ledger must be inside the range searched.
    let readAt = 0;
    const range = () => ({
      min: Math.max(1, t.row.lastLedgerSequence - this.opts.window - 1),
      max: Math.max(this.validatedIndex, readAt),
    });
    if ((await this.lookup(hash, range())) === 'validated') return;
    let accountSequence: number | undefined;
    try {
      const info = await this.client.request({
        command: 'account_info',
        account: t.row.account,
        ledger_index: 'validated',
      });
      accountSequence = info.result.account_data.Sequence;
      readAt = info.result.ledger_index ?? 0;
    } catch (err) {
      if (rippledErrorName(err) !== 'actNotFound') throw err;
    }
    if (accountSequence !== undefined && accountSequence > t.row.sequence) {
      // The sequence is used. Asked again after reading the account: had our transaction used it,
      // this lookup finds it. With gaps in the server's history nothing is concluded yet. (Before
      // the range reached the account's ledger, a payment validated in the newest ledger was
      // found 'absent' here and recorded as never applied: an airdrop claim released and paid.)
      if ((await this.lookup(hash, range())) !== 'absent') return;
      // The allocator jumps past the used sequences first, so a caller that signs the intent again
      // on hearing the outcome gets a sequence the ledger can still take.
      await this.opts.allocator.jumpTo(t.row.account, accountSequence);
      await this.settle([{ hash, result: 'tefPAST_SEQ', ledgerIndex: null, meta: null, consumed: true }]);
      return;
    }
    // The account's validated Sequence has not passed ours, so it was not applied; past its
    // LastLedgerSequence it never can be.
    if (t.row.lastLedgerSequence < ledgerIndex) {
      await this.settle([{ hash, result: 'expired', ledgerIndex: null, meta: null, consumed: false }]);
    }
  }

  private async reconcileAll(): Promise<void> {
    for (const hash of [...this.tracked.keys()]) {
      if ((await this.lookup(hash)) !== 'validated') await this.send(hash);
    }
    this.lastTickLedger = this.validatedIndex;
  }
}
