import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Database, Db } from '../../db/client';
import type { JobStatusView } from '@ledgerpad/shared';
import { jobs, type JobRow, type JobStatus, type JobStep } from './schema';

// The persisted job runner: long work (deploys, graduations, claims) as a row in `jobs`, claimed by
// exactly one instance through a lease and persisted step by step, so a crash at any point resumes
// on this or another instance from the first step that is not done. Every write of a claim is
// fenced by its lease token, so an instance that lost its lease (paused, partitioned) can never
// overwrite the progress of the instance that took the job over. See docs/jobs.md.

export type { JobStatus, JobStep, StepStatus } from './schema';

export interface Job<P = unknown, R = unknown> {
  id: string;
  type: string;
  userId: number | null;
  key: string | null;
  status: JobStatus;
  payload: P;
  /** The value each done step returned, by step name. */
  state: Record<string, unknown>;
  steps: JobStep[];
  result: R | null;
  /** User-facing message of a final failure. */
  error: string | null;
  lastError: string | null;
  attempts: number;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  runAfter: Date;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

/** What `GET /api/job-status/{jobId}` answers (the shape the web client reads). */
export type { JobStatusView };

export function toJobStatus(job: Job): JobStatusView {
  // The database's status values are exactly the shared view's.
  return {
    status: job.status,
    error: job.error,
    result: job.result,
    steps: job.steps.map((s) => ({ name: s.name, status: s.status, txHash: s.txHash ?? null })),
  };
}

/**
 * A final failure: the job (and the step, when named or thrown inside one) is marked failed with
 * `message` as its user-facing error, and it is not retried.
 */
export class JobFailure extends Error {
  constructor(
    readonly stepName: string | null,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'JobFailure';
  }
}

/** The claim is no longer ours (expired and taken over): nothing more may be written. */
export class JobLeaseLost extends Error {
  constructor(readonly jobId: string) {
    super(`Lease of job ${jobId} lost`);
    this.name = 'JobLeaseLost';
  }
}

/** The runner is stopping: the job is handed back at this step boundary. */
class JobReleased extends Error {
  constructor() {
    super('Runner stopping');
    this.name = 'JobReleased';
  }
}

export interface StepOptions<T> {
  /** The transaction hash to show for this step, from the step's value. */
  txHash?: (value: T) => string | null | undefined;
}

export type ParallelStep<T> = readonly [name: string, fn: () => T | Promise<T>, options?: StepOptions<T>];

export interface JobContext<P = unknown> {
  jobId: string;
  type: string;
  userId: number | null;
  /** This claim's number (1 on the first run; higher after a crash, a takeover or a retry). */
  attempt: number;
  payload: P;
  /** The value each done step returned, by step name (persisted with the step). */
  readonly state: Readonly<Record<string, unknown>>;
  /** Aborted when the lease is lost (or the runner gave up draining); long step bodies may watch it. */
  signal: AbortSignal;
  /**
   * Runs `fn` as the step `name` unless it is already done, in which case its stored value is
   * returned without running it. The runner runs a body at least once; a body that touches the
   * ledger must be idempotent across a crash (use `intentKey(name)` with the submission service).
   * The value is stored as JSON and returned as its JSON copy, on the first run as on a replay.
   */
  step<T>(name: string, fn: () => T | Promise<T>, options?: StepOptions<T>): Promise<T>;
  /** Runs several steps concurrently, with `step`'s semantics; resolves with their values in order. */
  parallel<T extends unknown[]>(steps: [...{ [K in keyof T]: ParallelStep<T[K]> }]): Promise<T>;
  /** Records a step's transaction hash as soon as it is known (while the step runs, for the live view). */
  setTxHash(stepName: string, txHash: string): Promise<void>;
  /** `<type>:<jobId>:<step>[:<part>]`: the submission service intent key of a step's transaction. */
  intentKey(stepName: string, part?: string | number): string;
}

export type JobHandler<P = unknown, R = unknown> = (ctx: JobContext<P>) => Promise<R>;

export interface HandlerOptions {
  /** Claims before the job fails for good on transient errors or repeated crashes. */
  maxAttempts?: number;
  /** The user-facing error when the job gives up. */
  failureMessage?: string;
}

export interface JobLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

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

export const DEFAULT_FAILURE_MESSAGE = 'Something went wrong. Please try again.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FINAL: readonly JobStatus[] = ['completed', 'failed'];

const silentLog: JobLog = { info: () => {}, warn: () => {}, error: () => {} };

const defaultRetryDelay = (attempts: number): number =>
  Math.min(1000 * 2 ** Math.max(0, attempts - 1), 60_000);

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function toJob(row: JobRow): Job {
  return {
    id: row.id,
    type: row.type,
    userId: row.userId,
    key: row.key,
    status: row.status,
    payload: row.payload,
    state: row.state ?? {},
    steps: row.steps ?? [],
    result: row.result ?? null,
    error: row.error,
    lastError: row.lastError,
    attempts: row.attempts,
    leaseOwner: row.leaseOwner,
    leaseExpiresAt: row.leaseExpiresAt,
    runAfter: row.runAfter,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    finishedAt: row.finishedAt,
  };
}

interface Registered {
  handler: JobHandler<never, unknown>;
  maxAttempts: number;
  failureMessage: string;
}

type Listener = (job: Job) => void;

/** What one run of a job needs from its runner. */
interface RunEnv {
  db: Db;
  log: JobLog;
  leaseMs: number;
  nowSql(): SQL;
  laterSql(ms: number): SQL;
  /** The runner's clock in ms, for local lease bookkeeping and step timestamps. */
  localNow(): number;
  retryDelayMs(attempts: number): number;
  isStopping(): boolean;
  emit(job: Job): void;
}

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
    });
    this.wake();
  }

  /**
   * Records a job (in `executor`, e.g. the caller's transaction, when given). With a `key` already
   * used, returns that job instead. Any instance running the type picks it up.
   */
  async enqueue<P>(input: EnqueueInput<P>, executor: Db = this.db): Promise<Job<P>> {
    const values = {
      id: randomUUID(),
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

/** One claim of one job: its lease, its in-memory copy of the row, and the context the handler gets. */
class JobRun {
  readonly finished: Promise<void>;
  private readonly token: string;
  private readonly controller = new AbortController();
  private readonly inFlight = new Set<string>();
  private writes: Promise<unknown> = Promise.resolve();
  private heartbeat: NodeJS.Timeout | undefined;
  /** Local time until which the lease is certainly ours (last renewal + lease). */
  private leaseUntil: number;
  private lost = false;

  constructor(
    private readonly env: RunEnv,
    private job: Job,
    private readonly registered: Registered,
  ) {
    this.token = job.leaseOwner!;
    this.leaseUntil = env.localNow() + env.leaseMs;
    this.finished = this.run();
  }

  abandon(): void {
    this.markLost();
  }

  private get log(): JobLog {
    return this.env.log;
  }

  private markLost(): void {
    if (this.lost) return;
    this.lost = true;
    clearInterval(this.heartbeat);
    this.controller.abort(new JobLeaseLost(this.job.id));
  }

  private async run(): Promise<void> {
    const { job } = this;
    this.env.emit(job);
    this.heartbeat = setInterval(() => void this.renew(), Math.max(10, Math.floor(this.env.leaseMs / 3)));
    try {
      if (job.attempts > this.registered.maxAttempts) {
        // Claimed again after crashing or timing out every time: a poison job, not run again.
        this.log.error({ jobId: job.id, type: job.type, attempts: job.attempts }, 'job gave up');
        await this.fail(null, this.registered.failureMessage);
        return;
      }
      let result: unknown;
      try {
        const value = await this.registered.handler(this.context() as never);
        try {
          result = clone(value) ?? null;
        } catch (err) {
          // A programming error that no retry fixes.
          this.log.error({ jobId: job.id, err: message(err) }, 'job result is not JSON');
          throw new JobFailure(null, this.registered.failureMessage, { cause: err });
        }
      } catch (err) {
        await this.settleError(err);
        return;
      }
      await this.finish({ status: 'completed', result, finishedAt: this.env.nowSql() });
    } catch (err) {
      if (err instanceof JobLeaseLost) {
        this.log.warn({ jobId: job.id, owner: this.token }, 'job lease lost; another instance continues');
      } else {
        // The final write itself failed (database gone): the lease expires and the job is retried.
        this.log.error({ jobId: job.id, err: message(err) }, 'job state could not be written');
      }
    } finally {
      clearInterval(this.heartbeat);
    }
  }

  private async settleError(err: unknown): Promise<void> {
    const { job } = this;
    if (err instanceof JobLeaseLost || this.lost) throw new JobLeaseLost(job.id);
    if (err instanceof JobReleased) {
      // A graceful stop: handed back at a step boundary, without counting as an attempt.
      await this.finish({
        status: 'queued',
        leaseOwner: null,
        leaseExpiresAt: null,
        runAfter: this.env.nowSql(),
        attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
      });
      this.log.info({ jobId: job.id, type: job.type }, 'job handed back at a step boundary (stopping)');
      return;
    }
    if (err instanceof JobFailure) {
      await this.fail(err.stepName, err.message);
      this.log.info({ jobId: job.id, type: job.type, step: err.stepName, error: err.message }, 'job failed');
      return;
    }
    const lastError = message(err);
    if (job.attempts >= this.registered.maxAttempts) {
      this.log.error(
        { jobId: job.id, type: job.type, attempts: job.attempts, err: lastError },
        'job gave up',
      );
      await this.fail(null, this.registered.failureMessage, lastError);
      return;
    }
    const delay = this.env.retryDelayMs(job.attempts);
    this.log.warn(
      { jobId: job.id, type: job.type, attempts: job.attempts, delay, err: lastError },
      'job retries',
    );
    for (const s of job.steps) if (s.status === 'running') s.status = 'pending';
    await this.finish({
      status: 'queued',
      leaseOwner: null,
      leaseExpiresAt: null,
      runAfter: this.env.laterSql(delay),
      lastError,
      steps: job.steps,
    });
  }

  private async fail(stepName: string | null, error: string, lastError?: string): Promise<void> {
    const steps = this.job.steps;
    const named = stepName === null ? undefined : steps.find((s) => s.name === stepName);
    for (const s of steps) {
      if (s === named || s.status === 'running') {
        s.status = 'failed';
        s.finishedAt = new Date(this.env.localNow()).toISOString();
      }
    }
    await this.finish({
      status: 'failed',
      error,
      steps,
      finishedAt: this.env.nowSql(),
      ...(lastError !== undefined ? { lastError } : {}),
    });
  }

  /** The last write of a claim: releases the lease (when still ours) and publishes the change. */
  private async finish(set: PgUpdateSetSource<typeof jobs>): Promise<void> {
    await this.writes.catch(() => {});
    clearInterval(this.heartbeat);
    const [row] = await this.env.db
      .update(jobs)
      .set({
        leaseOwner: null,
        leaseExpiresAt: null,
        updatedAt: this.env.nowSql(),
        ...set,
      })
      .where(this.ours())
      .returning();
    if (!row) {
      this.markLost();
      throw new JobLeaseLost(this.job.id);
    }
    this.job = toJob(row);
    this.env.emit(this.job);
  }

  private ours(): SQL {
    return and(eq(jobs.id, this.job.id), eq(jobs.leaseOwner, this.token), eq(jobs.status, 'running'))!;
  }

  private async renew(): Promise<void> {
    if (this.lost) return;
    const started = this.env.localNow();
    try {
      const rows = await this.env.db
        .update(jobs)
        .set({ leaseExpiresAt: this.env.laterSql(this.env.leaseMs) })
        .where(this.ours())
        .returning({ id: jobs.id });
      if (rows.length === 0) this.markLost();
      else this.leaseUntil = Math.max(this.leaseUntil, started + this.env.leaseMs);
    } catch (err) {
      // Not renewed: if this lasts past the lease, another instance takes over and our writes fail.
      this.log.warn({ jobId: this.job.id, err: message(err) }, 'job lease renewal failed');
    }
  }

  /** Persists the steps and state (and renews the lease), fenced by our lease token. */
  private persist(): Promise<void> {
    const write = this.writes.then(async () => {
      if (this.lost) throw new JobLeaseLost(this.job.id);
      const started = this.env.localNow();
      const [row] = await this.env.db
        .update(jobs)
        .set({
          steps: this.job.steps,
          state: this.job.state,
          leaseExpiresAt: this.env.laterSql(this.env.leaseMs),
          updatedAt: this.env.nowSql(),
        })
        .where(this.ours())
        .returning();
      if (!row) {
        this.markLost();
        throw new JobLeaseLost(this.job.id);
      }
      this.leaseUntil = Math.max(this.leaseUntil, started + this.env.leaseMs);
      this.env.emit(toJob(row));
    });
    this.writes = write.catch(() => {});
    return write;
  }

  /** Throws when no new step body may start: lease lost or stale, or the runner is stopping. */
  private checkBoundary(): void {
    if (!this.lost && this.env.localNow() >= this.leaseUntil) {
      // Not renewed in a whole lease (database unreachable?): another instance may own it now.
      this.markLost();
    }
    if (this.lost) throw new JobLeaseLost(this.job.id);
    if (this.env.isStopping()) throw new JobReleased();
  }

  private stepRecord(name: string): JobStep {
    let s = this.job.steps.find((x) => x.name === name);
    if (!s) {
      s = { name, status: 'pending' };
      this.job.steps.push(s);
    }
    return s;
  }

  private async runStep<T>(name: string, fn: () => T | Promise<T>, options?: StepOptions<T>): Promise<T> {
    const s = this.stepRecord(name);
    if (s.status === 'done') return clone(this.job.state[name]) as T;
    if (this.inFlight.has(name)) throw new Error(`Step ${name} is already running`);
    this.inFlight.add(name);
    try {
      s.status = 'running';
      s.startedAt = new Date(this.env.localNow()).toISOString();
      delete s.finishedAt;
      await this.persist();
      let value: T;
      try {
        value = await fn();
      } catch (err) {
        if (err instanceof JobFailure && err.stepName === null) {
          throw new JobFailure(name, err.message, { cause: err });
        }
        throw err;
      }
      let stored: unknown;
      try {
        stored = clone(value) ?? null;
      } catch (err) {
        this.log.error({ jobId: this.job.id, step: name, err: message(err) }, 'job step value is not JSON');
        throw new JobFailure(name, this.registered.failureMessage, { cause: err });
      }
      if (this.lost) throw new JobLeaseLost(this.job.id);
      const txHash = options?.txHash?.(value);
      s.status = 'done';
      s.finishedAt = new Date(this.env.localNow()).toISOString();
      if (txHash) s.txHash = txHash;
      this.job.state[name] = stored;
      await this.persist();
      return clone(stored) as T;
    } finally {
      this.inFlight.delete(name);
    }
  }

  private context(): JobContext {
    const { job } = this;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the getter below needs the run
    const run = this;
    return {
      jobId: job.id,
      type: job.type,
      userId: job.userId,
      attempt: job.attempts,
      payload: clone(job.payload),
      get state() {
        return clone(run.job.state);
      },
      signal: this.controller.signal,
      step: (name, fn, options) => {
        if (this.job.steps.find((x) => x.name === name)?.status !== 'done') this.checkBoundary();
        return this.runStep(name, fn, options);
      },
      parallel: (async (group: Array<ParallelStep<unknown>>) => {
        const names = group.map(([name]) => name);
        if (new Set(names).size !== names.length) throw new Error('Parallel step names must be unique');
        if (names.some((n) => this.job.steps.find((x) => x.name === n)?.status !== 'done')) {
          this.checkBoundary();
        }
        const settled = await Promise.allSettled(
          group.map(([name, fn, opts]) => this.runStep(name, fn, opts)),
        );
        const errors = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
        if (errors.length) {
          // Every step of the group has settled (the done ones are persisted); the most decisive
          // error wins: a lost lease, then a final failure, then the first transient error.
          throw (
            errors.find((e) => e instanceof JobLeaseLost) ??
            errors.find((e) => e instanceof JobFailure) ??
            errors[0]
          );
        }
        return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value);
      }) as JobContext['parallel'],
      setTxHash: async (stepName, txHash) => {
        const s = this.stepRecord(stepName);
        if (s.txHash === txHash) return;
        s.txHash = txHash;
        await this.persist();
      },
      intentKey: (stepName, part) =>
        `${job.type}:${job.id}:${stepName}${part === undefined ? '' : `:${part}`}`,
    };
  }
}
