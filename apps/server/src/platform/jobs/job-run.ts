import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import {
  clone,
  JobFailure,
  JobLeaseLost,
  JobReleased,
  message,
  toJob,
  type Job,
  type JobContext,
  type JobLog,
  type ParallelStep,
  type Registered,
  type RunEnv,
  type StepOptions,
} from './job';
import { jobs, type JobStep } from './schema';

/** One claim of one job: its lease, its in-memory copy of the row, and the context the handler gets. */
export class JobRun {
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
      const line = { jobId: job.id, type: job.type, userId: job.userId };
      if (this.registered.completedLog === 'info') this.log.info(line, `${job.type} completed`);
      else this.log.debug?.(line, `${job.type} completed`);
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
