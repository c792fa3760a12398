import { openDatabase } from '../../src/db/client';
import { JobRunner, type JobContext } from '../../src/platform/jobs';

// A server-like process for the kill -9 test in jobs.test.ts: it enqueues (or finds, by its key)
// one job, runs it, and SIGKILLs itself inside the step named by JOBS_KILL (`<step>:before` = before
// the step's side effect, `<step>:after` = after it, before the step is persisted as done). Run
// again without JOBS_KILL it finishes the job and prints `{"id","status"}`.
//
// Environment: JOBS_DATA_DIR (PGlite) or JOBS_DB_URL + JOBS_DB_SCHEMA (PostgreSQL); JOBS_KILL.

export const KILL_STEPS = ['s1', 's2', 's3a', 's3b', 's4', 's5'];

const kill = process.env.JOBS_KILL ?? '';
const url = process.env.JOBS_DB_URL;
const database = url
  ? await openDatabase({ url, schema: process.env.JOBS_DB_SCHEMA, migrate: false })
  : await openDatabase({ dataDir: process.env.JOBS_DATA_DIR });

await database.sql.exec(`
  create table if not exists kill_effects (key text primary key, job_id text not null, step text not null);
  create table if not exists kill_runs (id serial primary key, job_id text not null, step text not null, pid int not null);
`);

// Every run of a step body is counted in kill_runs; its side effect carries the step's intent key,
// the way a ledger step's transaction does, so a body run again after a crash changes nothing.
const body = (ctx: JobContext, step: string) => async () => {
  await database.sql.query('insert into kill_runs (job_id, step, pid) values ($1, $2, $3)', [
    ctx.jobId,
    step,
    process.pid,
  ]);
  if (kill === `${step}:before`) process.kill(process.pid, 'SIGKILL');
  await database.sql.query(
    'insert into kill_effects (key, job_id, step) values ($1, $2, $3) on conflict (key) do nothing',
    [ctx.intentKey(step), ctx.jobId, step],
  );
  if (kill === `${step}:after`) process.kill(process.pid, 'SIGKILL');
  return { step, pid: process.pid };
};

const runner = new JobRunner({ database, leaseMs: 1000, pollMs: 50, instanceId: `child-${process.pid}` });
runner.register('kill-test', async (ctx) => {
  await ctx.step('s1', body(ctx, 's1'));
  await ctx.step('s2', body(ctx, 's2'));
  await ctx.parallel([
    ['s3a', body(ctx, 's3a')],
    ['s3b', body(ctx, 's3b')],
  ]);
  await ctx.step('s4', body(ctx, 's4'));
  await ctx.step('s5', body(ctx, 's5'));
  return { success: true };
});

const job = await runner.enqueue({ type: 'kill-test', key: 'kill-test', payload: {}, steps: KILL_STEPS });
runner.start();
const final = await runner.waitFor(job.id, { timeoutMs: 20_000 });
await runner.stop();
await database.close();
process.stdout.write(`${JSON.stringify({ id: final.id, status: final.status })}\n`);
