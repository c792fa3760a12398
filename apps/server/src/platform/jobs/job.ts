import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { JobStatusView } from '@ledgerpad/shared';
import type { JobRow, JobStatus, JobStep } from './schema';

// A job as the runner and its handlers see it: the row's shape, the context a handler gets, the
// errors that end a run, and what one run needs from its runner (docs/jobs.md). The runner that
// claims jobs is in runner.ts; one claim of one job is in job-run.ts.

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
export class JobReleased extends Error {
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
  /**
   * The level of the job's `<type> completed` line: 'info' for the jobs an operator follows (a
   * deploy, a graduation, an airdrop, the demo seed), 'debug' (the default) for the many small ones
   * (fee payments, claims). Each module says it where it registers the job type.
   */
  completedLog?: CompletedLogLevel;
}

export type CompletedLogLevel = 'info' | 'debug';

export interface JobLog {
  /** Optional: a log without it drops debug lines. */
  debug?(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const DEFAULT_FAILURE_MESSAGE = 'Something went wrong. Please try again.';

export const FINAL: readonly JobStatus[] = ['completed', 'failed'];

export function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

export function toJob(row: JobRow): Job {
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

/** A registered job type: its handler and its options with their defaults filled in. */
export interface Registered {
  handler: JobHandler<never, unknown>;
  maxAttempts: number;
  failureMessage: string;
  completedLog: CompletedLogLevel;
}

/** What one run of a job needs from its runner. */
export interface RunEnv {
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
