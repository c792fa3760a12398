import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TokenView } from '@ledgerpad/shared';
import { seededDemo } from './public-api';

// Where an uncached public read's CPU goes (issue 40): the demo market as the public-API section
// seeds it, then for each route `READS_CALLS` calls with the read cache emptied before each — the
// CPU per call (min / median / max), the statements per call, the garbage collections that ran
// during the slowest calls, and (READS_PROF=<dir>) a CPU profile of those calls.
// `npx tsx bench/reads-profile.ts [route words…]` in apps/server; TEST_DATABASE_URL for PostgreSQL.

const CALLS = Number(process.env.READS_CALLS ?? 300);
const words = process.argv.slice(2);

let statements = 0;
/** The texts of the statements of the last call (READS_SQL=1 prints them). */
let texts: string[] = [];
const pgProto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
const pgQuery = pgProto.query;
pgProto.query = function (this: unknown, ...args: unknown[]) {
  statements++;
  const q = args[0] as string | { text?: string };
  texts.push(
    String(typeof q === 'string' ? q : q?.text)
      .replace(/\s+/g, ' ')
      .slice(0, 160),
  );
  return pgQuery.apply(this, args);
};
const liteProto = PGlite.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
for (const name of ['query', 'exec'] as const) {
  const original = liteProto[name]!;
  liteProto[name] = function (this: unknown, ...args: unknown[]) {
    statements++;
    texts.push(String(args[0]).replace(/\s+/g, ' ').slice(0, 160));
    return original.apply(this, args);
  };
}

const gcs: Array<{ at: number; ms: number; kind: number }> = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcs.push({
      at: e.startTime,
      ms: e.duration,
      kind: (e as PerformanceEntry & { detail?: { kind: number } }).detail?.kind ?? -1,
    });
  }
}).observe({ entryTypes: ['gc'] });

const { t, stopCloses } = await seededDemo();
stopCloses();
const tokens = (await t.app.inject({ url: '/api/tokens?limit=10000' })).json() as TokenView[];
const token = tokens.find((x) => !x.is_bonding_curve && x.liquidity_pair !== 'RLUSD')!;
const i = token.issuer_address;
const routes = [
  `/api/tokens/${i}/trades?limit=30`,
  `/api/tokens/${i}/risk`,
  `/api/tokens/issuer/${i}`,
  '/api/airdrops',
  '/api/tokens?limit=10000',
  '/api/config/fees',
].filter((r) => !words.length || words.some((w) => r.includes(w)));

const session = new Session();
session.connect();
await session.post('Profiler.enable');
for (const url of routes) {
  const once = async () => {
    t.app.platform.readCache.invalidate();
    texts = [];
    const n0 = statements;
    const w0 = performance.now();
    const c0 = process.cpuUsage();
    const res = await t.app.inject({ url });
    const c = process.cpuUsage(c0);
    if (res.statusCode >= 500) throw new Error(`${url}: ${res.statusCode}`);
    return { cpu: (c.user + c.system) / 1000, n: statements - n0, at: w0, wall: performance.now() - w0 };
  };
  for (let k = 0; k < 20; k++) await once();
  if (process.env.READS_PROF) await session.post('Profiler.start');
  const samples = [];
  for (let k = 0; k < CALLS; k++) samples.push(await once());
  if (process.env.READS_PROF) {
    const { profile } = await session.post('Profiler.stop');
    const name = url.replace(/r[1-9A-HJ-NP-Za-km-z]{24,34}/g, 'I').replace(/[^a-z0-9]+/gi, '_');
    writeFileSync(`${process.env.READS_PROF}/${name}.cpuprofile`, JSON.stringify(profile));
  }
  const cpu = samples.map((s) => s.cpu).sort((a, b) => a - b);
  const q = (p: number) => cpu[Math.min(cpu.length - 1, Math.floor((p / 100) * cpu.length))]!.toFixed(2);
  const slow = [...samples].sort((a, b) => b.cpu - a.cpu).slice(0, 3);
  console.log(
    `${url.slice(0, 60)}: cpu min ${q(0)} median ${q(50)} p90 ${q(90)} p99 ${q(99)} max ${q(100)} ms; ` +
      `statements/call ${(samples.reduce((s, x) => s + x.n, 0) / samples.length).toFixed(2)}; ` +
      `body ${(await t.app.inject({ url })).body.length} B`,
  );
  if (process.env.READS_SQL) for (const text of texts) console.log(`   sql: ${text}`);
  for (const s of slow) {
    const during = gcs.filter((g) => g.at + g.ms >= s.at && g.at <= s.at + s.wall);
    console.log(
      `   slow: ${s.cpu.toFixed(2)} ms cpu, ${s.wall.toFixed(2)} ms wall; gc ${during.map((g) => `${g.kind}:${g.ms.toFixed(2)}`).join(' ')}`,
    );
  }
}
await t.close();
