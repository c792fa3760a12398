import { pathToFileURL } from 'node:url';
import { createTestDatabase } from '../test/db';
import { createTestApp, type TestApp } from '../test/helpers/test-app';
import { percentile } from './load';

// What one budget across instances costs the hot path (issue 34): the same cheap public read
// (`GET /api/config/fees`, answered from memory) on an app whose limits count in memory and on one
// whose limits count in PostgreSQL (rate-limit-store.ts: one upsert per turn of the event loop for
// every request of the turn). Server CPU per request in-process (process.cpuUsage around each
// injected call: the pg driver's work included, PostgreSQL's own not), one at a time and in bursts
// of 50 arriving together (a loaded server's case: the burst shares one statement). Uses
// TEST_DATABASE_URL, else the local PostgreSQL of the README.

const URL_DEFAULT = 'postgres://postgres@127.0.0.1:5432/test';
const SEQUENTIAL = 2_000;
const BURSTS = 60;
const BURST = 50;

async function measure(t: TestApp) {
  const call = () => t.app.inject({ url: '/api/config/fees' });
  for (let i = 0; i < 200; i++) await call(); // warm-up
  const cpuUs: number[] = [];
  const wallUs: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const res = await call();
    wallUs.push((performance.now() - t0) * 1000);
    const used = process.cpuUsage(cpu);
    cpuUs.push(used.user + used.system);
    if (res.statusCode !== 200) throw new Error(`answered ${res.statusCode}`);
  }
  const cpu = process.cpuUsage();
  for (let i = 0; i < BURSTS; i++) await Promise.all(Array.from({ length: BURST }, call));
  const burst = process.cpuUsage(cpu);
  const round = (n: number) => Math.round(n);
  return {
    cpuMedianUs: round(percentile(cpuUs, 50)),
    cpuP99Us: round(percentile(cpuUs, 99)),
    wallMedianUs: round(percentile(wallUs, 50)),
    wallP99Us: round(percentile(wallUs, 99)),
    burstCpuPerRequestUs: round((burst.user + burst.system) / (BURSTS * BURST)),
  };
}

export async function benchRateLimit() {
  const database = await createTestDatabase(process.env.TEST_DATABASE_URL ?? URL_DEFAULT);
  // Limits high enough never to refuse: the cost of counting is what is measured.
  const env = { RATE_LIMIT_READ_PER_MIN: '100000000' };
  const memory = await createTestApp({
    ledger: 'none',
    database,
    env: { ...env, RATE_LIMIT_STORE: 'memory' },
  });
  const shared = await createTestApp({
    ledger: 'none',
    database,
    env: { ...env, RATE_LIMIT_STORE: 'database' },
  });
  try {
    // Alternated, so both meet the machine's load alike.
    const m1 = await measure(memory);
    const s1 = await measure(shared);
    const m2 = await measure(memory);
    const s2 = await measure(shared);
    const best = <T extends Record<string, number>>(x: T, y: T) =>
      Object.fromEntries(Object.keys(x).map((k) => [k, Math.min(x[k]!, y[k]!)])) as T;
    const inMemory = best(m1, m2);
    const inPostgres = best(s1, s2);
    return {
      inMemory,
      inPostgres,
      overheadCpuMedianUs: inPostgres.cpuMedianUs - inMemory.cpuMedianUs,
      overheadCpuP99Us: inPostgres.cpuP99Us - inMemory.cpuP99Us,
      overheadBurstCpuPerRequestUs: inPostgres.burstCpuPerRequestUs - inMemory.burstCpuPerRequestUs,
    };
  } finally {
    await memory.close();
    await shared.close();
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchRateLimit(), null, 2));
}
