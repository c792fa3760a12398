import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { rippleTimeToUnixTime, type LedgerStream, type TransactionMetadata } from 'xrpl';
import type { Database, Db } from '../../db/client';
import type { XrplConnection } from '../../ledger/connection';
import { ledgerCursor } from './schema';

// The ledger follower: reads validated ledgers strictly in order from the last one indexed, and
// hands each to the registered handlers inside one database transaction together with the cursor
// update, so a ledger is indexed exactly once even across crashes (a crash rolls the whole ledger
// back; the next run redoes it). Only validated ledgers are read, so there is nothing to reorg.
// With several instances on one database exactly one follows at a time: it holds a lease on the
// cursor row, renewed with every ledger, fencing every write; a standby takes over on expiry.

export interface IndexedTx {
  hash: string;
  tx: Record<string, unknown> & { TransactionType: string; Account: string };
  meta: TransactionMetadata;
}

export interface IndexedLedger {
  index: number;
  /** Unix milliseconds of the ledger's close. */
  closeTime: number;
  /** Successful and failed transactions in the ledger's own order (TransactionIndex). */
  transactions: IndexedTx[];
}

export interface LedgerHandler<P = unknown> {
  name: string;
  /** Drop in-memory state: this instance (re)claimed the follower, the database may have moved on. */
  reset?(): void;
  /** Ledger reads the handler needs (before the database transaction); the result goes to `write`. */
  prepare?(ledger: IndexedLedger): Promise<P>;
  /**
   * Ledger reads for consecutive ledgers (a catch-up batch, or the one ledger followed live), after
   * each one's `prepare` and before their transaction: reads whose last state alone is written can
   * be made once for the batch.
   */
  prepareMany?(ledgers: Array<{ ledger: IndexedLedger; prepared: P }>): Promise<void>;
  /** Writes inside the ledger's database transaction. */
  write(ledger: IndexedLedger, tx: Db, prepared: P): Promise<void>;
  /**
   * Writes of several consecutive ledgers in one transaction (catching up), in ledger order. Must
   * leave the database as `write` for each ledger in turn would; without it, `write` is called per
   * ledger. `prepare` of a later ledger may run before an earlier one is written: whatever `prepare`
   * keeps in memory is dropped by `reset` if the transaction fails.
   */
  writeMany?(ledgers: Array<{ ledger: IndexedLedger; prepared: P }>, tx: Db): Promise<void>;
  /** After commit: notifications (never anything that must not be lost). */
  committed?(ledger: IndexedLedger, prepared: P): Promise<void> | void;
}

export interface FollowerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface FollowerOptions {
  database: Database;
  connection: XrplConnection;
  log: FollowerLog;
  name?: string;
  leaseMs?: number;
  /** How often a standby checks the lease, and the follower polls when no stream event comes. */
  pollMs?: number;
  instanceId?: string;
  /** Most ledgers indexed in one database transaction while catching up (default BATCH_LEDGERS). */
  batchLedgers?: number;
}

/** Ledgers read ahead while catching up. */
const FETCH_AHEAD = 12;
/**
 * Ledgers indexed in one database transaction while catching up. Each statement costs about a
 * millisecond on PGlite whatever it writes, so a batch's one cursor move and one insert per table
 * instead of one per ledger more than doubled the catch-up rate; 32 rather than 16 halves those
 * statements again (a 100-ledger catch-up: 4 transactions, not 7). Following live, a batch is the
 * one new ledger.
 */
const BATCH_LEDGERS = 32;

export class LedgerFollower {
  private readonly db: Db;
  private readonly name: string;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly batchLedgers: number;
  private readonly owner: string;
  private readonly handlers: LedgerHandler<unknown>[] = [];
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private last = 0;
  /** The validated ledger the current pass indexes up to. */
  private target = 0;
  /** This instance held the lease at its last claim (handlers keep their caches while it does). */
  private holding = false;
  private waiters: Array<{ target: number; resolve: (n: number) => void }> = [];
  /** Ledgers requested ahead of the one being indexed (catch-up reads overlap the writes). */
  private readonly ahead = new Map<number, Promise<IndexedLedger>>();
  /** The newest ledger the stream announced as validated (0 before the first). */
  private announced = 0;
  /** When this instance last renewed its lease (performance.now()): a claim or a batch's cursor move. */
  private renewedAt = -Infinity;
  private readonly onClosed = (ev: LedgerStream) => {
    this.announced = Math.max(this.announced, ev.ledger_index);
    // Following live, the announced ledger is the next one: its read starts now, beside the claim.
    if (this.running && this.holding && ev.ledger_index === this.last + 1 && !this.ahead.has(ev.ledger_index))
      this.fetchAhead(ev.ledger_index);
    this.wake?.();
  };

  constructor(private readonly opts: FollowerOptions) {
    this.db = opts.database.db;
    this.name = opts.name ?? 'main';
    this.leaseMs = opts.leaseMs ?? 15_000;
    this.pollMs = opts.pollMs ?? 1_000;
    this.batchLedgers = Math.max(1, opts.batchLedgers ?? BATCH_LEDGERS);
    this.owner = `${opts.instanceId ?? `${hostname()}:${process.pid}`}/${randomBytes(6).toString('hex')}`;
  }

  register<P>(handler: LedgerHandler<P>): void {
    this.handlers.push(handler as LedgerHandler<unknown>);
  }

  /** The last ledger indexed by this instance (0 before the first). */
  get lastIndexed(): number {
    return this.last;
  }

  /**
   * Validated ledgers known to this instance and not indexed yet: 0 when it follows the ledger
   * live, more while it catches up (read models may then rebuild less often than every ledger).
   */
  get behind(): number {
    return Math.max(0, this.target - this.last);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.opts.connection.client.on('ledgerClosed', this.onClosed);
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.renewedAt = -Infinity; // the lease is handed back below: the next start claims it
    this.opts.connection.client.off('ledgerClosed', this.onClosed);
    this.wake?.();
    await this.loop;
    // Hand the lease back so a standby continues at once.
    await this.db
      .update(ledgerCursor)
      .set({ leaseOwner: null, leaseExpiresAt: null })
      .where(and(eq(ledgerCursor.name, this.name), eq(ledgerCursor.leaseOwner, this.owner)))
      .catch(() => undefined);
  }

  /**
   * Resolves when this instance has indexed `target` (default: the ledger validated now). Tests and
   * benches await it instead of sleeping.
   */
  async caughtUp(target?: number): Promise<number> {
    const want = target ?? (await this.validatedIndex());
    if (this.last >= want) return this.last;
    return new Promise((resolve) => {
      this.waiters.push({ target: want, resolve });
      this.wake?.();
    });
  }

  private async validatedIndex(): Promise<number> {
    const r = await this.opts.connection.client.request({ command: 'ledger', ledger_index: 'validated' });
    return r.result.ledger_index;
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        // The lease is renewed by every batch's cursor move; a claim is needed only when it has not
        // been for a while (or this instance does not hold it). Following live, that saves a
        // statement between a ledger's close and its frames. Idle, a claim still comes at least
        // every third of the lease (a short lease, under three polls, is claimed on every pass).
        const fresh = performance.now() - this.renewedAt < this.leaseMs / 3 - this.pollMs;
        const from = this.holding && fresh ? this.last : await this.claim();
        if (from !== undefined && !this.holding) {
          this.holding = true;
          for (const h of this.handlers) h.reset?.();
        }
        if (from === undefined) this.holding = false;
        if (from !== undefined) {
          this.last = Math.max(this.last, from);
          this.notify();
          // The stream announces validated ledgers: no request for the index when it told us one.
          const target = this.announced > this.last ? this.announced : await this.validatedIndex();
          this.target = target;
          while (this.running && this.last < target) {
            const ok = await this.indexLedgers(this.last + 1, target);
            if (!ok) {
              this.holding = false; // lease lost
              break;
            }
          }
          // Reads of ledgers already indexed are dropped; a later one (announced meanwhile) is kept.
          for (const i of this.ahead.keys()) if (i <= this.last) this.ahead.delete(i);
          if (this.last >= target) this.notify();
          if (this.running && (this.announced > this.last || this.last < (await this.validatedIndex())))
            continue;
        }
      } catch (err) {
        // Handlers' memory may hold what a failed batch prepared: the next claim starts it over.
        this.holding = false;
        this.ahead.clear();
        this.announced = 0; // asked again (a ledger that restarted announces lower indexes)
        if (!this.running) break;
        this.opts.log.warn(
          { err: err instanceof Error ? err.message : String(err) },
          'ledger follower error',
        );
      }
      await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.pollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }

  private notify(): void {
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (this.last >= w.target) w.resolve(this.last);
      else still.push(w);
    }
    this.waiters = still;
  }

  /** Takes or renews the lease; returns the last indexed ledger when this instance holds it. */
  private async claim(): Promise<number | undefined> {
    const until = sql`now() + ${`${this.leaseMs} milliseconds`}::interval`;
    const [row] = await this.db
      .update(ledgerCursor)
      .set({ leaseOwner: this.owner, leaseExpiresAt: until, updatedAt: new Date() })
      .where(
        and(
          eq(ledgerCursor.name, this.name),
          or(
            isNull(ledgerCursor.leaseOwner),
            eq(ledgerCursor.leaseOwner, this.owner),
            lt(ledgerCursor.leaseExpiresAt, sql`now()`),
          ),
        ),
      )
      .returning({ last: ledgerCursor.lastLedger });
    if (row) {
      this.renewedAt = performance.now();
      return row.last;
    }
    const [exists] = await this.db
      .select({ n: ledgerCursor.name })
      .from(ledgerCursor)
      .where(eq(ledgerCursor.name, this.name));
    if (exists) return undefined; // another instance follows
    // First start: follow from the ledger validated now (history before it is not indexed).
    const start = await this.validatedIndex();
    await this.db
      .insert(ledgerCursor)
      .values({ name: this.name, lastLedger: start, leaseOwner: this.owner, leaseExpiresAt: until })
      .onConflictDoNothing();
    return this.claim();
  }

  private async fetchLedger(index: number): Promise<IndexedLedger> {
    const r = await this.opts.connection.client.request({
      command: 'ledger',
      ledger_index: index,
      transactions: true,
      expand: true,
    });
    const ledger = r.result.ledger as unknown as {
      close_time: number;
      transactions?: Array<Record<string, unknown>>;
    };
    const transactions: IndexedTx[] = (ledger.transactions ?? []).map((entry) => {
      // API v2 nests the transaction in tx_json and the metadata in meta; v1 flattens them.
      const tx = (entry.tx_json ?? entry) as IndexedTx['tx'];
      const meta = (entry.meta ?? entry.metaData) as TransactionMetadata;
      return { hash: String(entry.hash ?? (tx as { hash?: string }).hash), tx, meta };
    });
    transactions.sort((a, b) => a.meta.TransactionIndex - b.meta.TransactionIndex);
    return { index, closeTime: rippleTimeToUnixTime(ledger.close_time), transactions };
  }

  private fetchAhead(index: number): void {
    const p = this.fetchLedger(index);
    p.catch(() => undefined); // awaited (and its error thrown) when its turn comes
    this.ahead.set(index, p);
  }

  /**
   * Indexes the ledgers from `index` up to `target` (at most `batchLedgers`) in one database
   * transaction; false when the lease was lost (nothing written).
   */
  private async indexLedgers(index: number, target: number): Promise<boolean> {
    const last = Math.min(target, index + this.batchLedgers - 1);
    for (let i = index; i <= Math.min(target, last + FETCH_AHEAD); i++) {
      if (!this.ahead.has(i)) this.fetchAhead(i);
    }
    const batch: Array<{ ledger: IndexedLedger; prepared: Map<string, unknown> }> = [];
    for (let i = index; i <= last; i++) {
      const pending = this.ahead.get(i)!;
      this.ahead.delete(i);
      const ledger = await pending;
      const prepared = new Map<string, unknown>();
      for (const h of this.handlers) prepared.set(h.name, h.prepare ? await h.prepare(ledger) : undefined);
      batch.push({ ledger, prepared });
    }
    for (const h of this.handlers) {
      await h.prepareMany?.(batch.map((b) => ({ ledger: b.ledger, prepared: b.prepared.get(h.name) })));
    }
    const until = sql`now() + ${`${this.leaseMs} milliseconds`}::interval`;
    const renewing = performance.now();
    const ok = await this.db.transaction(async (tx) => {
      // Fenced: only the lease holder moves the cursor, and only from the ledger before this batch.
      const [moved] = await tx
        .update(ledgerCursor)
        .set({ lastLedger: last, leaseExpiresAt: until, updatedAt: new Date() })
        .where(
          and(
            eq(ledgerCursor.name, this.name),
            eq(ledgerCursor.leaseOwner, this.owner),
            eq(ledgerCursor.lastLedger, index - 1),
          ),
        )
        .returning({ last: ledgerCursor.lastLedger });
      if (!moved) return false;
      for (const h of this.handlers) {
        if (h.writeMany) {
          await h.writeMany(
            batch.map((b) => ({ ledger: b.ledger, prepared: b.prepared.get(h.name) })),
            tx,
          );
        } else {
          for (const b of batch) await h.write(b.ledger, tx, b.prepared.get(h.name));
        }
      }
      return true;
    });
    if (!ok) {
      this.opts.log.warn({ index }, 'ledger follower lost its lease');
      return false;
    }
    this.renewedAt = renewing;
    for (const { ledger, prepared } of batch) {
      this.last = ledger.index;
      for (const h of this.handlers) {
        try {
          await h.committed?.(ledger, prepared.get(h.name));
        } catch (err) {
          this.opts.log.warn(
            { err: err instanceof Error ? err.message : String(err), handler: h.name },
            'after-commit failed',
          );
        }
      }
      // After the handlers' announcements: whoever awaits a ledger sees what it set off (the
      // keeper's round of a curve it touched is already queued).
      this.notify();
    }
    return true;
  }
}
