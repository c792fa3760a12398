import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client';
import { users } from '../../src/modules/users/schema';
import {
  DEFAULT_FAILURE_MESSAGE,
  JobFailure,
  JobRunner,
  jobs,
  toJobStatus,
  type JobContext,
  type JobLog,
  type JobRunnerOptions,
} from '../../src/platform/jobs';
import { createTestDatabase } from '../db';
import { sleep, until } from '../helpers/wait';

// The persisted job runner against a real database: PGlite by default, PostgreSQL with
// TEST_DATABASE_URL (then the two-instance test gives each runner its own connection pool).

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');

function gate(): { open: () => void; wait: Promise<void> } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { open, wait };
}

/** A log that keeps its lines, to see what a runner reported. */
function memoryLog(): JobLog & { lines: Array<{ level: string; msg: string; obj: object }> } {
  const lines: Array<{ level: string; msg: string; obj: object }> = [];
  return {
    lines,
    debug: (obj, msg) => lines.push({ level: 'debug', msg, obj }),
    info: (obj, msg) => lines.push({ level: 'info', msg, obj }),
    warn: (obj, msg) => lines.push({ level: 'warn', msg, obj }),
    error: (obj, msg) => lines.push({ level: 'error', msg, obj }),
  };
}

describe('job runner', () => {
  let database: Database;
  const runners: JobRunner[] = [];
  const extraDatabases: Database[] = [];

  const makeRunner = (opts: Partial<JobRunnerOptions> = {}) => {
    const runner = new JobRunner({
      database,
      pollMs: 20,
      leaseMs: 5_000,
      retryDelayMs: () => 0,
      ...opts,
    });
    runners.push(runner);
    return runner;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    for (const r of runners.splice(0)) await r.stop({ timeoutMs: 2_000 });
  });
  afterAll(async () => {
    for (const d of extraDatabases) await d.close();
    await database?.close();
  });

  it('runs the steps once, in order, persists each value and tells listeners about every change', async () => {
    const runner = makeRunner();
    const order: string[] = [];
    runner.register('t-basic', async (ctx) => {
      const a = await ctx.step('a', () => {
        order.push('a');
        return { n: 1 };
      });
      const b = await ctx.step(
        'b',
        async () => {
          order.push('b');
          return { hash: 'A1B2', n: a.n + 1 };
        },
        { txHash: (v) => v.hash },
      );
      const c = await ctx.step('c', () => {
        order.push('c');
        return undefined;
      });
      return { success: true, n: b.n, c, payload: ctx.payload };
    });
    const seen: string[] = [];
    runner.onChange((job) => {
      if (job.type === 't-basic') seen.push(`${job.status}:${job.steps.map((s) => s.status[0]).join('')}`);
    });
    const queued = await runner.enqueue({ type: 't-basic', payload: { x: 1 }, steps: ['a', 'b', 'c'] });
    expect(queued).toMatchObject({ status: 'queued', attempts: 0, userId: null, payload: { x: 1 } });
    expect(queued.steps).toEqual([
      { name: 'a', status: 'pending' },
      { name: 'b', status: 'pending' },
      { name: 'c', status: 'pending' },
    ]);
    runner.start();

    const done = await runner.waitFor(queued.id, { timeoutMs: 10_000 });
    expect(order).toEqual(['a', 'b', 'c']);
    expect(done).toMatchObject({
      status: 'completed',
      attempts: 1,
      error: null,
      leaseOwner: null,
      leaseExpiresAt: null,
      result: { success: true, n: 2, c: null, payload: { x: 1 } },
      state: { a: { n: 1 }, b: { hash: 'A1B2', n: 2 }, c: null },
    });
    expect(done.finishedAt).toBeInstanceOf(Date);
    expect(done.steps.map((s) => [s.name, s.status, s.txHash])).toEqual([
      ['a', 'done', undefined],
      ['b', 'done', 'A1B2'],
      ['c', 'done', undefined],
    ]);
    for (const s of done.steps)
      expect(Date.parse(s.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(s.startedAt!));
    expect(toJobStatus(done)).toEqual({
      status: 'completed',
      error: null,
      result: { success: true, n: 2, c: null, payload: { x: 1 } },
      steps: [
        { name: 'a', status: 'done', txHash: null },
        { name: 'b', status: 'done', txHash: 'A1B2' },
        { name: 'c', status: 'done', txHash: null },
      ],
    });
    // What the database holds is what waitFor answered.
    expect(await runner.get(queued.id)).toEqual(done);
    expect(seen).toEqual([
      'queued:ppp',
      'running:ppp',
      'running:rpp',
      'running:dpp',
      'running:drp',
      'running:ddp',
      'running:ddr',
      'running:ddd',
      'completed:ddd',
    ]);
  });

  it('fails the job and the step with the JobFailure message, without retrying', async () => {
    const runner = makeRunner();
    let runs = 0;
    runner.register('t-fail', async (ctx) => {
      await ctx.step('a', () => 1);
      await ctx.step('b', () => {
        runs += 1;
        throw new JobFailure(null, 'Insufficient XRP balance.');
      });
      await ctx.step('c', () => 3);
    });
    runner.register('t-fail-named', async (ctx) => {
      await ctx.step('a', () => 1);
      if (ctx.payload !== null) throw new JobFailure('b', 'Ticker already taken.');
    });
    runner.start();
    const job = await runner.enqueue({ type: 't-fail', payload: {}, steps: ['a', 'b', 'c'] });
    const failed = await runner.waitFor(job.id);
    await runner.idle();
    expect(runs).toBe(1);
    expect(failed).toMatchObject({ status: 'failed', error: 'Insufficient XRP balance.', attempts: 1 });
    expect(failed.steps.map((s) => s.status)).toEqual(['done', 'failed', 'pending']);
    expect(toJobStatus(failed)).toMatchObject({
      status: 'failed',
      error: 'Insufficient XRP balance.',
      result: null,
    });

    const named = await runner.enqueue({ type: 't-fail-named', payload: {}, steps: ['a', 'b'] });
    const namedFailed = await runner.waitFor(named.id);
    expect(namedFailed).toMatchObject({ status: 'failed', error: 'Ticker already taken.' });
    expect(namedFailed.steps.map((s) => s.status)).toEqual(['done', 'failed']);
  });

  it('retries a transient error with backoff, without running done steps again, and gives up after maxAttempts', async () => {
    const delays: number[] = [];
    const runner = makeRunner({
      retryDelayMs: (attempts) => {
        delays.push(attempts);
        return 30;
      },
    });
    let aRuns = 0;
    let bRuns = 0;
    runner.register('t-retry', async (ctx) => {
      await ctx.step('a', () => ++aRuns);
      const b = await ctx.step('b', () => {
        bRuns += 1;
        if (bRuns < 3) throw new Error('Connection terminated unexpectedly');
        return 'ok';
      });
      return { b };
    });
    let cRuns = 0;
    runner.register(
      't-give-up',
      async (ctx) => {
        await ctx.step('c', () => {
          cRuns += 1;
          throw new Error('still down');
        });
      },
      { maxAttempts: 2 },
    );
    runner.start();

    const job = await runner.enqueue({ type: 't-retry', payload: {}, steps: ['a', 'b'] });
    const done = await runner.waitFor(job.id);
    expect(done).toMatchObject({
      status: 'completed',
      attempts: 3,
      result: { b: 'ok' },
      lastError: 'Connection terminated unexpectedly',
      error: null,
    });
    expect([aRuns, bRuns]).toEqual([1, 3]);
    expect(delays).toEqual([1, 2]);
    expect(done.runAfter.getTime() - done.createdAt.getTime()).toBeGreaterThanOrEqual(30);

    const doomed = await runner.enqueue({ type: 't-give-up', payload: {}, steps: ['c'] });
    const failed = await runner.waitFor(doomed.id);
    expect(cRuns).toBe(2);
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: 2,
      error: DEFAULT_FAILURE_MESSAGE,
      lastError: 'still down',
    });
    expect(failed.steps.map((s) => s.status)).toEqual(['failed']);
  });

  it('runs a parallel group concurrently, persisting each step, and returns the values in order', async () => {
    const runner = makeRunner();
    const started: string[] = [];
    const both = gate();
    runner.register('t-parallel', async (ctx) => {
      const [x, y] = await ctx.parallel([
        [
          'x',
          async () => {
            started.push('x');
            await both.wait;
            return 1;
          },
        ],
        [
          'y',
          async () => {
            started.push('y');
            await both.wait;
            return 'two';
          },
          { txHash: () => 'HASHY' },
        ],
      ]);
      const sum: number = x + y.length;
      return ctx.step('z', () => `${sum}:${y}`);
    });
    let zRuns = 0;
    runner.register('t-parallel-fail', async (ctx) => {
      await ctx.parallel([
        ['ok', () => 'fine'],
        [
          'bad',
          async () => {
            await sleep(20);
            throw new JobFailure(null, 'The AMM pool already exists.');
          },
        ],
      ]);
      await ctx.step('z', () => ++zRuns);
    });
    runner.start();

    const job = await runner.enqueue({ type: 't-parallel', payload: {}, steps: ['x', 'y', 'z'] });
    await until(() => started.length === 2);
    // Both bodies are inside their step at the same time, and the database says so.
    await until(
      async () => (await runner.get(job.id))!.steps.filter((s) => s.status === 'running').length === 2,
    );
    both.open();
    const done = await runner.waitFor(job.id);
    expect(done.result).toBe('4:two');
    expect(done.state).toEqual({ x: 1, y: 'two', z: '4:two' });
    expect(done.steps.map((s) => [s.name, s.status, s.txHash ?? null])).toEqual([
      ['x', 'done', null],
      ['y', 'done', 'HASHY'],
      ['z', 'done', null],
    ]);

    const bad = await runner.enqueue({ type: 't-parallel-fail', payload: {}, steps: ['ok', 'bad', 'z'] });
    const failed = await runner.waitFor(bad.id);
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'The AMM pool already exists.',
      state: { ok: 'fine' },
    });
    expect(failed.steps.map((s) => s.status)).toEqual(['done', 'failed', 'pending']);
    expect(zRuns).toBe(0);
  });

  it('resumes a job whose instance stopped renewing its lease on another instance, without re-running done steps; the stale instance cannot write', async () => {
    const runs = { a: 0, b: 0, c: 0 };
    const stuck = gate();
    const handler = (who: string) => async (ctx: JobContext) => {
      await ctx.step('a', () => {
        runs.a += 1;
        return 'a';
      });
      await ctx.step('b', async () => {
        runs.b += 1;
        if (who === 'A') await stuck.wait; // instance A hangs here (paused, partitioned, dying)
        return `b by ${who}`;
      });
      await ctx.step('c', () => {
        runs.c += 1;
        return 'c';
      });
      return { by: who };
    };
    const logA = memoryLog();
    const a = makeRunner({ instanceId: 'A', leaseMs: 60_000, log: logA });
    a.register('t-takeover', handler('A'));
    a.start();
    const job = await a.enqueue({ type: 't-takeover', payload: {}, steps: ['a', 'b', 'c'] });
    await until(() => runs.b === 1);
    const held = (await a.get(job.id))!;
    expect(held.leaseOwner).toMatch(/^A\//);
    expect(held.steps.map((s) => s.status)).toEqual(['done', 'running', 'pending']);

    // Instance B's clock is two minutes ahead: A's lease looks expired to it, as it would after A died.
    const b = makeRunner({ instanceId: 'B', now: () => new Date(Date.now() + 120_000) });
    b.register('t-takeover', handler('B'));
    b.start();
    const done = await b.waitFor(job.id);
    expect(done).toMatchObject({ status: 'completed', attempts: 2, result: { by: 'B' } });
    expect(done.state).toEqual({ a: 'a', b: 'b by B', c: 'c' });
    expect(runs).toEqual({ a: 1, b: 2, c: 1 }); // the interrupted step ran again, done steps did not

    // A wakes up and finishes its step: the write is refused and nothing of B's progress changes.
    stuck.open();
    await until(() => a.running === 0);
    expect(await a.get(job.id)).toEqual(done);
    expect(runs.c).toBe(1);
    expect(logA.lines.map((l) => l.msg)).toContain('job lease lost; another instance continues');
  });

  it('stop() waits for the step boundary and hands the job back; another runner finishes it', async () => {
    const runs = { a: 0, b: 0, c: 0 };
    const slow = gate();
    const handler = async (ctx: JobContext) => {
      await ctx.step('a', () => ++runs.a);
      await ctx.step('b', async () => {
        runs.b += 1;
        if (runs.b === 1) await slow.wait;
        return runs.b;
      });
      await ctx.step('c', () => ++runs.c);
      return 'finished';
    };
    const first = makeRunner({ instanceId: 'first' });
    first.register('t-drain', handler);
    first.start();
    const job = await first.enqueue({ type: 't-drain', payload: {}, steps: ['a', 'b', 'c'] });
    await until(() => runs.b === 1);
    let stopped = false;
    const stopping = first.stop().then(() => (stopped = true));
    await sleep(50);
    expect(stopped).toBe(false); // still draining: step b is running
    slow.open();
    await stopping;
    const handedBack = (await first.get(job.id))!;
    expect(handedBack).toMatchObject({ status: 'queued', attempts: 0, leaseOwner: null });
    expect(handedBack.steps.map((s) => s.status)).toEqual(['done', 'done', 'pending']);

    const second = makeRunner({ instanceId: 'second' });
    second.register('t-drain', handler);
    second.start();
    const done = await second.waitFor(job.id);
    expect(done).toMatchObject({ status: 'completed', attempts: 1, result: 'finished' });
    expect(runs).toEqual({ a: 1, b: 1, c: 1 });
  });

  it('two runners on one database run each of 20 jobs exactly once', async () => {
    // PGlite is one in-process connection: both runners share it. On PostgreSQL each runner gets
    // its own pool on the same schema, as two server instances would.
    const other =
      database.driver === 'postgres'
        ? await openDatabase({
            url: database.postgres!.url,
            schema: database.postgres!.schema,
            migrate: false,
          })
        : database;
    if (other !== database) extraDatabases.push(other);
    await database.sql.exec(
      'create table job_effects (job_id text not null, step text not null, runner text not null)',
    );
    const handler = (runnerDb: Database, name: string) => async (ctx: JobContext) => {
      for (const step of ['one', 'two', 'three']) {
        await ctx.step(step, async () => {
          await runnerDb.sql.query('insert into job_effects (job_id, step, runner) values ($1, $2, $3)', [
            ctx.jobId,
            step,
            name,
          ]);
          await sleep(5);
        });
      }
      return name;
    };
    const a = makeRunner({ database, instanceId: 'A', concurrency: 2, pollMs: 10 });
    const b = makeRunner({ database: other, instanceId: 'B', concurrency: 2, pollMs: 10 });
    a.register('t-many', handler(database, 'A'));
    b.register('t-many', handler(other, 'B'));
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      ids.push((await a.enqueue({ type: 't-many', payload: { i }, steps: ['one', 'two', 'three'] })).id);
    }
    a.start();
    b.start();
    // Each waits through its own connection; a job finished by the other instance is seen by polling.
    const finals = await Promise.all(ids.map((id, i) => (i % 2 ? a : b).waitFor(id, { timeoutMs: 20_000 })));
    expect(finals.every((j) => j.status === 'completed' && j.attempts === 1)).toBe(true);

    const effects = await database.sql.query<{ job_id: string; n: number; runners: number }>(
      'select job_id, count(*)::int as n, count(distinct runner)::int as runners from job_effects group by job_id',
    );
    expect(effects).toHaveLength(20);
    expect(effects.every((e) => e.n === 3 && e.runners === 1)).toBe(true);
    const byRunner = new Map<unknown, number>();
    for (const j of finals) byRunner.set(j.result, (byRunner.get(j.result) ?? 0) + 1);
    expect(byRunner.get('A')).toBeGreaterThan(0);
    expect(byRunner.get('B')).toBeGreaterThan(0);
  });

  it('gives up on a job that keeps dying without running it again (crash loop)', async () => {
    const runner = makeRunner({ maxAttempts: 3 });
    let runs = 0;
    runner.register('t-poison', async (ctx) => {
      await ctx.step('boom', () => ++runs);
    });
    const job = await runner.enqueue({ type: 't-poison', payload: {}, steps: ['boom'] });
    // Three instances claimed it and died (the claim counts the attempt; nobody released it).
    await database.db
      .update(jobs)
      .set({
        status: 'running',
        attempts: 3,
        leaseOwner: 'dead/1',
        leaseExpiresAt: sql`now() - interval '1 second'`,
      })
      .where(eq(jobs.id, job.id));
    runner.start();
    const failed = await runner.waitFor(job.id);
    expect(runs).toBe(0);
    expect(failed).toMatchObject({ status: 'failed', attempts: 4, error: DEFAULT_FAILURE_MESSAGE });
  });

  it('logs a completed job at the level its type registered (debug unless it asks for info)', async () => {
    const log = memoryLog();
    const runner = makeRunner({ log });
    runner.register('t-followed', () => Promise.resolve('ok'), { completedLog: 'info' });
    runner.register('t-routine', () => Promise.resolve('ok'));
    runner.start();
    const followed = await runner.enqueue({ type: 't-followed', payload: {} });
    const routine = await runner.enqueue({ type: 't-routine', payload: {} });
    await runner.waitFor(followed.id);
    await runner.waitFor(routine.id);
    // Only these two jobs' lines: on a shared PostgreSQL database the runner may also finish a job
    // another test (or an earlier run) left behind.
    const ours = new Set([followed.id, routine.id]);
    const ourLines = () =>
      log.lines.filter(
        (l) =>
          l.msg.endsWith(' completed') && ours.has((l.obj as { jobId?: string } | undefined)?.jobId ?? ''),
      );
    // The line follows the completed state's write, which waitFor may see first (on PostgreSQL its
    // notification can arrive before the runner's next line runs).
    const completed = await until(() => ourLines().length >= 2 && ourLines());
    expect(completed.map((l) => [l.level, l.msg]).sort()).toEqual([
      ['debug', 't-routine completed'],
      ['info', 't-followed completed'],
    ]);
    expect(completed.find((l) => l.level === 'info')!.obj).toMatchObject({
      jobId: followed.id,
      type: 't-followed',
    });
  });

  it('enqueues once per key, keeps the owner, and answers unknown ids with undefined', async () => {
    const runner = makeRunner();
    const [owner] = await database.db.insert(users).values({ demoUsername: 'job-owner' }).returning();
    const first = await runner.enqueue({
      type: 't-keyed',
      userId: owner!.id,
      payload: { n: 1 },
      key: 'deploy:1:abc',
    });
    const again = await runner.enqueue({
      type: 't-keyed',
      userId: owner!.id,
      payload: { n: 2 },
      key: 'deploy:1:abc',
    });
    expect(again.id).toBe(first.id);
    expect(again.payload).toEqual({ n: 1 });
    expect(first.userId).toBe(owner!.id);
    expect(await runner.get('not-a-uuid')).toBeUndefined();
    expect(await runner.get('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    // Nobody runs t-keyed: waitFor gives up after its timeout.
    await expect(runner.waitFor(first.id, { timeoutMs: 100 })).rejects.toThrow(
      /did not finish within 100 ms/,
    );
  });

  it('survives kill -9 at three different steps: the job completes and every side effect happens exactly once', async () => {
    // A separate process (PGlite data directory, or the test's PostgreSQL schema) is killed inside
    // step s2 after its side effect, inside the parallel group after s3a's effect, and inside s5
    // before its effect; each restart waits out the dead process's lease (1 s) and continues.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ledgerpad-jobs-kill-'));
    const env: Record<string, string> =
      database.driver === 'postgres'
        ? { JOBS_DB_URL: database.postgres!.url, JOBS_DB_SCHEMA: database.postgres!.schema }
        : { JOBS_DATA_DIR: dataDir };
    const runChild = (kill?: string) =>
      new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'test/platform/jobs-child.ts'], {
          cwd: SERVER_DIR,
          env: { ...process.env, ...env, JOBS_KILL: kill ?? '' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (out += c.toString()));
        child.once('error', reject);
        child.once('exit', (code, signal) => resolve({ code, signal, out }));
      });
    try {
      for (const kill of ['s2:after', 's3a:after', 's5:before']) {
        const crashed = await runChild(kill);
        expect(crashed.signal, crashed.out).toBe('SIGKILL');
      }
      const last = await runChild();
      expect(last.code, last.out).toBe(0);
      expect(JSON.parse(last.out.trim().split('\n').pop()!)).toMatchObject({ status: 'completed' });

      const check = database.driver === 'postgres' ? database : await openDatabase({ dataDir });
      try {
        const [job] = await check.db.select().from(jobs).where(eq(jobs.key, 'kill-test'));
        expect(job).toMatchObject({
          status: 'completed',
          attempts: 4,
          leaseOwner: null,
          result: { success: true },
        });
        expect(job!.steps.every((s) => s.status === 'done')).toBe(true);
        const count = async (table: string) =>
          Object.fromEntries(
            (
              await check.sql.query<{ step: string; n: number }>(
                `select step, count(*)::int as n from ${table} group by step`,
              )
            ).map((r) => [r.step, r.n]),
          );
        // Each effect exactly once, whatever the number of runs.
        expect(await count('kill_effects')).toEqual({ s1: 1, s2: 1, s3a: 1, s3b: 1, s4: 1, s5: 1 });
        // Bodies interrupted by a kill ran again; a step persisted as done never did.
        const runs = await count('kill_runs');
        expect(runs).toMatchObject({ s1: 1, s2: 2, s3a: 2, s4: 1, s5: 2 });
        expect([1, 2]).toContain(runs.s3b); // in the group with s3a: done before the kill, or not
      } finally {
        if (check !== database) await check.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    // Four processes, each loading the sources through tsx and opening its database: on the 2-core
    // machine under a load of ~20 that took over 60 s of wall clock (a timeout, not a failure of
    // the runner). Speed is not this test's subject.
  }, 240_000);
});
