import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { VESTING_AUTO_RELEASE_MESSAGES, type VestingReleaseResult } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { vestingAutoRelease, type AutoReleaseRow } from './schema';
import type { VestingService } from './service';

// The automatic release (issue 28, docs/vesting.md "Automatic release"): after each validated
// ledger (and on a slow timer, in case the ledger stream is quiet or down) this keeper claims the
// opted-in tokens whose earliest unreleased tranche the ledger's close time has passed, and releases
// their due tranches through the dashboard's own `VestingService.release`.
//
// Exactly once, across instances and crashes, comes from two layers, like the bonding keeper's:
// - a lease on the token's row (`keeper_owner`/`keeper_until`, set in one UPDATE … WHERE free or
//   expired), so one instance works on a token at a time and a killed one's claim expires;
// - one submission-service intent per escrow (`vesting-release:<owner>:<seq>`), recorded before it is
//   submitted: a round that runs again after a kill -9, or races a click on 'Release', meets the
//   recorded transaction and waits for it instead of signing another.

const DEFAULT_LEASE_MS = 30_000;
/** A safety net behind the ledger stream: look at least this often. */
const DEFAULT_INTERVAL_MS = 10_000;
/** Tokens claimed per round (each is a few ledger reads and at most 13 finishes). */
const CLAIM_LIMIT = 20;
/** After a failed round, not before (a refused release is not tried again every ledger). */
const DEFAULT_RETRY_MS = 60_000;

export interface AutoReleaseLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface AutoReleaseKeeperDeps {
  db: Db;
  service: VestingService;
  /** The validated ledger's close time (Ripple epoch seconds) when no stream event gave it. */
  closeTime: () => Promise<number>;
  /** Subscribes to validated ledgers (`ledgerClosed` of the ledger stream); returns the unsubscriber. */
  onLedger?: (listener: (closeTime: number | undefined) => void) => () => void;
  log: AutoReleaseLog;
  leaseMs?: number;
  intervalMs?: number;
  retryMs?: number;
  /** Tests: a second instance's identity. */
  owner?: string;
}

export interface AutoReleaseRound {
  tokenId: number;
  released: VestingReleaseResult[];
  error: string | null;
}

export class AutoReleaseKeeper {
  readonly owner: string;
  private readonly leaseMs: number;
  private readonly retryMs: number;
  private running: Promise<AutoReleaseRound[]> | undefined;
  /** A poke while a round runs: one more round after it (the poke's ledger may be newer). */
  private again = false;
  private started = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly unwatch: Array<() => void> = [];

  constructor(private readonly deps: AutoReleaseKeeperDeps) {
    this.owner = deps.owner ?? `${hostname()}:${process.pid}/${randomBytes(6).toString('hex')}`;
    this.leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
    this.retryMs = deps.retryMs ?? DEFAULT_RETRY_MS;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    if (this.deps.onLedger) this.unwatch.push(this.deps.onLedger((closeTime) => this.poke(closeTime)));
    this.timer = setInterval(() => this.poke(), this.deps.intervalMs ?? DEFAULT_INTERVAL_MS);
    this.timer.unref();
    this.deps.service.onOptIn = () => this.poke();
    this.poke();
  }

  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearInterval(this.timer);
    for (const u of this.unwatch.splice(0)) u();
    this.deps.service.onOptIn = undefined;
    await this.idle();
  }

  /** A round soon (now, or after the running one). */
  poke(closeTime?: number): void {
    if (!this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.runOnce(closeTime).catch((err: unknown) =>
      this.deps.log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'vesting auto-release round failed; trying again after the next ledger',
      ),
    );
  }

  /** Resolves when no round is running here (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  /**
   * One round: claims the due opted-in tokens free of another lease and releases their due tranches.
   * Rounds of one keeper never overlap (a call while one runs joins it, and one more follows).
   */
  runOnce(closeTime?: number): Promise<AutoReleaseRound[]> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = this.round(closeTime).finally(() => {
      this.running = undefined;
      if (this.again && this.started) {
        this.again = false;
        this.poke();
      }
    });
    this.running = run;
    return run;
  }

  private async round(known?: number): Promise<AutoReleaseRound[]> {
    const closeTime = known ?? (await this.deps.closeTime());
    const claimed = await this.claim(closeTime);
    const out: AutoReleaseRound[] = [];
    for (const row of claimed) out.push(await this.releaseToken(row));
    return out;
  }

  /** Takes the lease on the due rows no live lease holds (ours, a dead instance's expired one). */
  private async claim(closeTime: number): Promise<AutoReleaseRow[]> {
    const t = vestingAutoRelease;
    const until = sql`now() + ${`${this.leaseMs} milliseconds`}::interval`;
    const due = and(
      eq(t.enabled, true),
      // rippled's after(): a tranche is finishable once the parent ledger closed after FinishAfter.
      lt(t.nextDueAt, closeTime),
      or(isNull(t.retryAfter), lte(t.retryAfter, sql`now()`)),
      or(isNull(t.keeperOwner), eq(t.keeperOwner, this.owner), lt(t.keeperUntil, sql`now()`)),
    );
    // One statement: rows another claimer holds (FOR UPDATE SKIP LOCKED) or took meanwhile (the
    // WHERE is re-checked after the lock) are left out, on PostgreSQL as on PGlite.
    return this.deps.db
      .update(t)
      .set({ keeperOwner: this.owner, keeperUntil: until })
      .where(
        and(
          due,
          sql`${t.tokenId} in (select ${t.tokenId} from ${t} where ${due} order by ${t.nextDueAt} limit ${CLAIM_LIMIT} for update skip locked)`,
        ),
      )
      .returning();
  }

  private async releaseToken(row: AutoReleaseRow): Promise<AutoReleaseRound> {
    let result: { released: VestingReleaseResult[]; nextDueAt: number | null; error: string | null };
    try {
      result = await this.deps.service.autoRelease(row.userId, row.tokenId);
    } catch (err) {
      this.deps.log.warn(
        { err: err instanceof Error ? err.message : String(err), tokenId: row.tokenId },
        'vesting auto-release failed',
      );
      result = { released: [], nextDueAt: row.nextDueAt, error: VESTING_AUTO_RELEASE_MESSAGES.unexpected };
    }
    if (result.released.length)
      this.deps.log.info(
        { tokenId: row.tokenId, hashes: result.released.map((r) => r.hash) },
        'vesting tranches released automatically',
      );
    if (result.error)
      this.deps.log.warn({ tokenId: row.tokenId, error: result.error }, 'vesting auto-release refused');
    const t = vestingAutoRelease;
    // Fenced by our lease: a round that outlived it (another instance took over) writes nothing.
    await this.deps.db
      .update(t)
      .set({
        nextDueAt: result.nextDueAt,
        lastError: result.error ? VESTING_AUTO_RELEASE_MESSAGES.failed(result.error) : null,
        retryAfter: result.error ? sql`now() + ${`${this.retryMs} milliseconds`}::interval` : null,
        keeperOwner: null,
        keeperUntil: null,
        updatedAt: new Date(),
      })
      .where(and(eq(t.tokenId, row.tokenId), eq(t.keeperOwner, this.owner)));
    return { tokenId: row.tokenId, released: result.released, error: result.error };
  }
}
