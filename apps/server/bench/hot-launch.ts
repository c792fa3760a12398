import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildHotLaunch, hotBurst, hotLaunchDatabase, type BurstResult } from '../test/helpers/hot-launch';
import { describeMemoryPeak, memoryPeak, type MemoryPeak } from '../test/helpers/memory-peak';
import { createWalletTestApp } from '../test/wallets/wallet-app';

// Issue 40's hot launch: 1,000 signed-in users (HOT_LAUNCH_USERS in bench/run.ts), each with its own funded
// custodial wallet, buy one new curve token, arriving evenly over 10 s, then one new instant-AMM
// token the same way, through the HTTP API of a listening server (one Idempotency-Key each), ledgers
// closing every second. Every buy
// is then checked against the database and the validated ledger (test/helpers/hot-launch.ts, the
// same check as test/perf/hot-launch.test.ts at 100 users), and 1,000 sockets on the token's page
// must each receive every trade, timed from its ledger's close. Measured as deployed (`npm start`):
// the embedded ledger in its worker thread, the 1,000 buyers and the 1,000 page sockets in a child
// process of their own (test/helpers/hot-launch-clients.ts), so the RSS sampled here is the server
// process's (with its ledger thread) and the server's event loop serves the requests and nothing
// else; PGlite in a data directory, as main.ts opens it (`hotLaunchDatabase`; HOT_DB=memory: the
// tests' in-memory one); in the bench's PostgreSQL pass (TEST_DATABASE_URL) a fresh schema on that
// server, production's path, where the statements run in PostgreSQL's processes, not on the server's
// event loop. The clients' RSS is reported beside it, the server's broken down in the
// row's note (test/helpers/memory-peak.ts).

/**
 * Issue 40: "1,000 users buy … within 10 s": the buyers arrive evenly over 10 s, an open schedule
 * (`fireBuys`), each answer timed from its own request. HOT_WINDOW_MS=0: all 1,000 in one turn, the
 * spike the bench measured until 2026-12-01 (docs/benchmarks.md), for comparison.
 */
const windowMs = Number(process.env.HOT_WINDOW_MS ?? 10_000);
/** HOT_SHAPE=one-process: the earlier shape (ledger, server and clients on one loop), for comparison. */
const deployed = process.env.HOT_SHAPE !== 'one-process';

export interface HotLaunchBenchResult {
  name: string;
  users: number;
  /** The window the buyers' requests were spread over (0: all at once). */
  windowMs: number;
  setupMs: number;
  curve: Omit<BurstResult, 'problems'> & { problems: string[] };
  amm: Omit<BurstResult, 'problems'> & { problems: string[] };
  /** The server process's peak RSS (its ledger thread included, not the clients). */
  peakRssMb: number;
  /** What made up that peak (heap, external, PGlite, the ledger thread): a line for the note. */
  memory: string;
  memoryPeak: MemoryPeak;
  /** The clients' process's peak RSS over the two bursts. */
  clientRssMb: number;
}

export async function benchHotLaunch(
  opts: { users?: number; sockets?: number } = {},
): Promise<HotLaunchBenchResult> {
  const users = opts.users ?? 1000;
  const sockets = opts.sockets ?? 1000;
  const t0 = performance.now();
  const db = await hotLaunchDatabase();
  // Setup closes every 200 ms; the bursts run at production's 1 s.
  const t = await createWalletTestApp(
    // The fee in the trade's own Batch, as in production ('auto' leaves it to the fee job in tests).
    {
      PLATFORM_BOOTSTRAP: 'on',
      TRADE_FEE_BATCH: 'on',
      RATE_LIMIT_WRITE_PER_MIN: '1000000',
      RATE_LIMIT_READ_PER_MIN: '1000000',
      // The token page's 1,000 sockets come from this one address.
      WS_MAX_CONNECTIONS_PER_IP: String(sockets + 100),
    },
    { closeIntervalMs: 200, ledgerThread: deployed, database: db.database },
  );
  try {
    const world = await buildHotLaunch(t, { users, xrpEach: 30, tag: 'B' });
    t.setCloseInterval(1000);
    const setupMs = Math.round(performance.now() - t0);
    const memory = memoryPeak({ database: t.database, ledgerHeap: t.ledgerHeap });
    const curve = await hotBurst(world, 'curve', '0.5', { sockets, clientProcess: deployed, windowMs });
    const amm = await hotBurst(world, 'amm', '0.02', { sockets, clientProcess: deployed, windowMs });
    const short = (r: BurstResult) => ({ ...r, problems: r.problems.slice(0, 10) });
    const peak = await memory.stop();
    return {
      name: 'hot launch',
      users,
      windowMs,
      setupMs,
      curve: short(curve),
      amm: short(amm),
      peakRssMb: peak.atPeak.rssMb,
      memory: describeMemoryPeak(peak),
      memoryPeak: peak,
      clientRssMb: Math.max(curve.clientRssMb ?? 0, amm.clientRssMb ?? 0),
    };
  } finally {
    await t.close();
    await db.close();
  }
}

/**
 * The hot launch in a Node process of its own, as the server runs deployed: run inside the bench's
 * process it inherited every earlier section's heap (a 10,000-token market, 10,000 sockets, 10,000
 * trades: 1,308 MB at its peak in a quiet full run, 898 MB alone in the next), so its RSS row and
 * its garbage collections measured the bench, not the server.
 */
export async function benchHotLaunchAlone(users: number): Promise<HotLaunchBenchResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hot-launch-'));
  const out = path.join(dir, 'result.json');
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      cwd: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'),
      env: { ...process.env, HOT_LAUNCH_USERS: String(users), HOT_LAUNCH_RESULT: out },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`the hot launch's process exited with ${code}`);
    return JSON.parse(await readFile(out, 'utf8')) as HotLaunchBenchResult;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchHotLaunch({ users: Number(process.env.HOT_LAUNCH_USERS ?? 1000) });
  if (process.env.HOT_LAUNCH_RESULT) await writeFile(process.env.HOT_LAUNCH_RESULT, JSON.stringify(result));
  else console.log(JSON.stringify(result, null, 2));
  // The ledger's worker and the clients' process are closed; nothing else should hold the loop.
  process.exit(0);
}
