import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import {
  clone,
  DEFAULT_FAILURE_MESSAGE,
  FINAL,
  message,
  toJob,
  type HandlerOptions,
  type Job,
  type JobHandler,
  type JobLog,
  type Registered,
  type RunEnv,
} from './job';
import { JobRun } from './job-run';
import { jobs, type JobRow, type JobStep } from './schema';

// The persisted job runner: long work (deploys, graduations, claims) as a row in `jobs`, claimed by
// exactly one instance through a lease and persisted step by step, so a crash at any point resumes
// on this or another instance from the first step that is not done. Every write of a claim is
// fenced by its lease token, so an instance that lost its lease (paused, partitioned) can never
// overwrite the progress of the instance that took the job over. See docs/jobs.md. This file is the
// runner (claims, waits, start/stop); one claim of one job is a JobRun (job-run.ts); the job's types
// and errors are in job.ts.

export interface JobRunnerOptions {
  database: Database;
  log?: JobLog;
  /** Names this instance in lease_owner (default `<host>:<pid>:<random>`). */
  instanceId?: string;
  /** A claim is valid this long after its last renewal (renewed every leaseMs / 3 and on each write). */
  leaseMs?: number;
  /** Idle poll interval for new or abandoned jobs (enqueue on this instance wakes the loop at once). */
  pollMs?: number;
  /** Jobs this instance runs at the same time. */
  concurrency?: number;
  /** Default claims before giving up (per-type override in register). */
  maxAttempts?: number;
  /** Delay before retry number `attempts + 1` after a transient error. */
  retryDelayMs?: (attempts: number) => number;
  /**
   * The clock for leases and retry times. Default: the database's now(), one clock for every
   * instance. Tests pass a clock running ahead to make another instance's lease look expired.
   */
  now?: () => Date;
}

export interface EnqueueInput<P> {
  /**
   * The job's id, when something had to name the job before it existed (a self-custody deploy's
   * staged wallets, made before the wallet signed their funding); default a fresh UUID.
   */
  id?: string;
  type: string;
  userId?: number | null;
  payload: P;
  /** Step names in order, shown as pending until they run. */
  steps?: string[];
  /** Idempotency key: enqueuing it again returns the first job instead of a new one. */
  key?: string;
  /** Not before this time (default now). */
  runAfter?: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const silentLog: JobLog = { info: () => {}, warn: () => {}, error: () => {} };

const defaultRetryDelay = (attempts: number): number =>
  Math.min(1000 * 2 ** Math.max(0, attempts - 1), 60_000);
type Listener = (job: Job) => void;

interface FinishWaiter {
  done(err: Error | undefined, job?: Job): void;
}

export class JobRunner {
  readonly instanceId: string;
  private readonly db: Db;
  private readonly log: JobLog;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly maxAttempts: number;
  private readonly retryDelayMs: (attempts: number) => number;
  private readonly clock: (() => Date) | undefined;
  private readonly handlers = new Map<string, Registered>();
  private readonly listeners = new Set<Listener>();
  private readonly runs = new Set<JobRun>();
  private readonly finishWaiters = new Map<string, Set<FinishWaiter>>();
  /** Waits not yet looked up in the database, and the pending look-up and poll. */
  private readonly unchecked = new Set<string>();
  private checkSoon: NodeJS.Immediate | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private idleWaiters: Array<() => void> = [];
  private loop: Promise<void> | undefined;
  private stopping = false;
  private wakeUp: (() => void) | undefined;
  private pendingWake = false;

  constructor(opts: JobRunnerOptions) {
    this.db = opts.database.db;
    this.log = opts.log ?? silentLog;
    this.instanceId = opts.instanceId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.leaseMs = opts.leaseMs ?? 15_000;
    this.pollMs = opts.pollMs ?? 250;
    this.concurrency = opts.concurrency ?? 4;
    this.maxAttempts = opts.maxAttempts ?? 5;
    this.retryDelayMs = opts.retryDelayMs ?? defaultRetryDelay;
    this.clock = opts.now;
  }

  register<P, R>(type: string, handler: JobHandler<P, R>, options: HandlerOptions = {}): void {
    if (this.handlers.has(type)) throw new Error(`Job type ${type} is already registered`);
    this.handlers.set(type, {
      handler: handler as JobHandler<never, unknown>,
      maxAttempts: options.maxAttempts ?? this.maxAttempts,
      failureMessage: options.failureMessage ?? DEFAULT_FAILURE_MESSAGE,
      completedLog: options.completedLog ?? 'debug',
    });
    this.wake();
  }

  /**
   * Records a job (in `executor`, e.g. the caller's transaction, when given). With a `key` already
   * used, returns that job instead. Any instance running the type picks it up.
   */
  async enqueue<P>(input: EnqueueInput<P>, executor: Db = this.db): Promise<Job<P>> {
    const values = {
      id: input.id ?? randomUUID(),
      type: input.type,
      userId: input.userId ?? null,
      key: input.key ?? null,
      payload: (clone(input.payload) ?? {}) as unknown,
      steps: (input.steps ?? []).map((name): JobStep => ({ name, status: 'pending' })),
      ...(input.runAfter ? { runAfter: input.runAfter } : {}),
    };
    if (new Set(values.steps.map((s) => s.name)).size !== values.steps.length) {
      throw new Error('Job step names must be unique');
    }
    let [row] = await executor
      .insert(jobs)
      .values(values)
      .onConflictDoNothing({ target: jobs.key })
      .returning();
    if (!row && input.key) [row] = await executor.select().from(jobs).where(eq(jobs.key, input.key));
    if (!row) throw new Error('Job was not recorded');
    const job = toJob(row) as Job<P>;
    if (job.id === values.id) this.emit(job);
    this.wake();
    return job;
  }

  /** The job enqueued with this key, if any (a retried request finds the job its first attempt made). */
  async byKey(key: string): Promise<Job | undefined> {
    const [row] = await this.db.select().from(jobs).where(eq(jobs.key, key));
    return row ? toJob(row) : undefined;
  }

  async get(id: string): Promise<Job | undefined> {
    if (!UUID.test(id)) return undefined;
    const [row] = await this.db.select().from(jobs).where(eq(jobs.id, id));
    return row ? toJob(row) : undefined;
  }

  /**
   * Resolves with the job once it is completed or failed, wherever it ran: this instance notifies
   * at once, and jobs another instance finishes are found by one shared poll of every awaited job
   * (a burst of 500 waiting claims costs one statement per interval, not 500).
   */
  async waitFor(id: string, opts: { timeoutMs?: number } = {}): Promise<Job> {
    const timeoutMs = opts.timeoutMs ?? 60_000;
    if (!UUID.test(id)) throw new Error(`Unknown job ${id}`);
    return new Promise<Job>((resolve, reject) => {
      const waiters = this.finishWaiters.get(id) ?? new Set();
      this.finishWaiters.set(id, waiters);
      const waiter: FinishWaiter = {
        done: (err, job) => {
          clearTimeout(timer);
          waiters.delete(waiter);
          if (waiters.size === 0 && this.finishWaiters.get(id) === waiters) this.finishWaiters.delete(id);
          if (err) reject(err);
          else resolve(job!);
        },
      };
      waiters.add(waiter);
      const timer = setTimeout(
        () => waiter.done(new Error(`Job ${id} did not finish within ${timeoutMs} ms`)),
        timeoutMs,
      );
      // A job may be final already: looked up with the other new waits of this turn.
      this.unchecked.add(id);
      if (!this.checkSoon) {
        this.checkSoon = setImmediate(() => void this.pollWaiters(true));
      }
      this.schedulePoll();
    });
  }

  private schedulePoll(): void {
    if (this.pollTimer || this.finishWaiters.size === 0) return;
    this.pollTimer = setTimeout(() => {
      this.pollTimer = undefined;
      void this.pollWaiters(false).finally(() => this.schedulePoll());
    }, this.pollMs);
  }

  /**
   * Settles awaited jobs from the database: `fresh` looks up the waits added since the last look
   * (unknown ids are refused); otherwise every awaited job that is final now.
   */
  private async pollWaiters(fresh: boolean): Promise<void> {
    let ids: string[];
    if (fresh) {
      this.checkSoon = undefined;
      ids = [...this.unchecked];
      this.unchecked.clear();
    } else {
      ids = [...this.finishWaiters.keys()];
    }
    ids = ids.filter((id) => this.finishWaiters.has(id));
    if (ids.length === 0) return;
    try {
      const rows = await this.db
        .select()
        .from(jobs)
        .where(fresh ? inArray(jobs.id, ids) : and(inArray(jobs.id, ids), inArray(jobs.status, [...FINAL])));
      const found = new Set<string>();
      for (const row of rows) {
        found.add(row.id);
        if (FINAL.includes(row.status)) this.notifyFinished(toJob(row));
      }
      if (fresh) {
        for (const id of ids) {
          if (found.has(id)) continue;
          for (const w of [...(this.finishWaiters.get(id) ?? [])]) w.done(new Error(`Unknown job ${id}`));
        }
      }
    } catch (err) {
      this.log.warn({ jobs: ids.length, err: message(err) }, 'job status poll failed');
    }
  }

  private notifyFinished(job: Job): void {
    const waiters = this.finishWaiters.get(job.id);
    if (waiters) for (const w of [...waiters]) w.done(undefined, structuredClone(job));
  }

  /** Called with a copy of the job after each persisted change (claim, step, finish, release). */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts the claim loop. */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.loop = this.claimLoop();
  }

  /**
   * Stops claiming and waits for running jobs to reach a step boundary (they are handed back to
   * the queue there, for any instance) or to finish. After `timeoutMs` the remaining runs are
   * abandoned: they write nothing more, and their lease expires for another instance to take over.
   */
  async stop(opts: { timeoutMs?: number } = {}): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    this.loop = undefined;
    const drained = Promise.all([...this.runs].map((r) => r.finished));
    if (opts.timeoutMs === undefined) {
      await drained;
    } else {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), opts.timeoutMs);
      });
      const outcome = await Promise.race([drained, timedOut]);
      clearTimeout(timer);
      if (outcome === 'timeout') for (const run of this.runs) run.abandon();
    }
    for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Jobs running on this instance now. */
  get running(): number {
    return this.runs.size;
  }

  /**
   * Resolves once this instance runs nothing and its last look found nothing to claim (tests, and
   * "all work done" waits). Resolves at once when the runner is not started.
   */
  idle(): Promise<void> {
    if (!this.loop) return Promise.resolve();
    this.wake();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  // ---- internals -------------------------------------------------------------------------------

  /** The time used in SQL: the injected clock, else the database's. */
  private nowSql(): SQL {
    return this.clock ? sql`${this.clock().toISOString()}::timestamptz` : sql`now()`;
  }

  /** now + ms, in SQL. */
  private laterSql(ms: number): SQL {
    return sql`(${this.nowSql()} + ${Math.round(ms)}::int * interval '1 millisecond')`;
  }

  private runEnv(): RunEnv {
    return {
      db: this.db,
      log: this.log,
      leaseMs: this.leaseMs,
      nowSql: () => this.nowSql(),
      laterSql: (ms) => this.laterSql(ms),
      localNow: () => (this.clock ? this.clock() : new Date()).getTime(),
      retryDelayMs: this.retryDelayMs,
      isStopping: () => this.stopping,
      emit: (job) => this.emit(job),
    };
  }

  private emit(job: Job): void {
    for (const listener of this.listeners) {
      try {
        listener(structuredClone(job));
      } catch (err) {
        this.log.error({ jobId: job.id, err: message(err) }, 'job change listener failed');
      }
    }
    if (FINAL.includes(job.status)) this.notifyFinished(job);
  }

  private wake(): void {
    this.pendingWake = true;
    this.wakeUp?.();
  }

  private sleep(ms: number): Promise<void> {
    if (this.pendingWake) {
      this.pendingWake = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeUp = undefined;
        resolve();
      }, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        this.pendingWake = false;
        resolve();
      };
    });
  }

  private async claimLoop(): Promise<void> {
    while (!this.stopping) {
      if (this.runs.size >= this.concurrency) {
        await this.sleep(this.pollMs);
        continue;
      }
      this.pendingWake = false;
      let row: JobRow | undefined;
      try {
        row = await this.claim();
      } catch (err) {
        this.log.warn({ err: message(err) }, 'job claim failed');
        await this.sleep(this.pollMs);
        continue;
      }
      if (row) {
        this.launch(row);
        continue;
      }
      if (this.runs.size === 0 && !this.pendingWake) for (const w of this.idleWaiters.splice(0)) w();
      await this.sleep(this.pollMs);
    }
  }

  /** One statement: the oldest claimable job (queued, or running with an expired lease) becomes ours. */
  private async claim(): Promise<JobRow | undefined> {
    const types = [...this.handlers.keys()];
    if (types.length === 0) return undefined;
    const now = this.nowSql();
    const candidate = this.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          inArray(jobs.type, types),
          or(eq(jobs.status, 'queued'), and(eq(jobs.status, 'running'), lt(jobs.leaseExpiresAt, now))),
          lte(jobs.runAfter, now),
        ),
      )
      .orderBy(jobs.createdAt)
      .limit(1)
      .for('update', { skipLocked: true });
    const token = `${this.instanceId}/${randomBytes(4).toString('hex')}`;
    const [row] = await this.db
      .update(jobs)
      .set({
        status: 'running',
        leaseOwner: token,
        leaseExpiresAt: this.laterSql(this.leaseMs),
        attempts: sql`${jobs.attempts} + 1`,
        updatedAt: now,
      })
      .where(inArray(jobs.id, candidate))
      .returning();
    return row;
  }

  private launch(row: JobRow): void {
    const registered = this.handlers.get(row.type);
    if (!registered) return; // not claimable: the claim filters on registered types
    const run = new JobRun(this.runEnv(), toJob(row), registered);
    this.runs.add(run);
    void run.finished.finally(() => {
      this.runs.delete(run);
      this.wake();
    });
  }
}
