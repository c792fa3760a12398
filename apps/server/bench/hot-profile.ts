import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { buildHotLaunch, hotBurst, hotLaunchDatabase } from '../test/helpers/hot-launch';
import { describeMemoryPeak, memoryPeak } from '../test/helpers/memory-peak';
import { createWalletTestApp } from '../test/wallets/wallet-app';
import { timeStatements } from './statement-time';

// Issue 40's profiling driver (docs/benchmarks.md "Why the hot launch takes so many closes"): the
// hot launch's world at HOT_LAUNCH_USERS users (default 100), then its bursts (HOT_KIND: 'curve',
// 'amm' or both), each printed with PGlite's time per statement text. HOT_PROF=<dir> also writes
// a CPU profile of each burst alone (not the setup) to <dir>/<kind>-<users>.cpuprofile.
// As the bench runs it (deployed: the ledger in its worker thread, the buyers in a child process)
// unless HOT_SHAPE=one-process (ledger, server and clients on one event loop, the earlier shape).
// HOT_SOCKETS=<n> also opens n page sockets per burst. PGlite in a data directory as deployed
// (HOT_DB=memory: the tests' in-memory one). Prints the server process's peak RSS, broken down.
//   npx tsx bench/hot-profile.ts        (in apps/server)

const users = Number(process.env.HOT_LAUNCH_USERS ?? 100);
const kinds = (process.env.HOT_KIND ?? 'curve,amm').split(',') as Array<'curve' | 'amm'>;
const profileDir = process.env.HOT_PROF;
const deployed = process.env.HOT_SHAPE !== 'one-process';
const sockets = Number(process.env.HOT_SOCKETS ?? 0);

const db = await hotLaunchDatabase();
const t = await createWalletTestApp(
  {
    PLATFORM_BOOTSTRAP: 'on',
    TRADE_FEE_BATCH: 'on',
    RATE_LIMIT_WRITE_PER_MIN: '1000000',
    RATE_LIMIT_READ_PER_MIN: '1000000',
    // The page's sockets come from this one address (as bench/hot-launch.ts).
    WS_MAX_CONNECTIONS_PER_IP: String(sockets + 100),
  },
  { closeIntervalMs: 200, ledgerThread: deployed, database: db.database },
);
try {
  const world = await buildHotLaunch(t, { users, xrpEach: 30, tag: 'P' });
  t.setCloseInterval(1000);
  const memory = memoryPeak({ database: t.database, ledgerHeap: t.ledgerHeap });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  for (const kind of kinds) {
    const printTimes = timeStatements(`the ${kind} burst`);
    if (profileDir) await session.post('Profiler.start');
    // CPU time of the whole server process (its threads: the ledger's too) during the burst: a
    // figure the machine's other load moves less than wall time does.
    const cpu0 = process.cpuUsage();
    const r = await hotBurst(world, kind, kind === 'curve' ? '0.5' : '0.02', {
      sockets,
      clientProcess: deployed,
    });
    if (profileDir) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(`${profileDir}/${kind}-${users}.cpuprofile`, JSON.stringify(profile));
    }
    const cpu = process.cpuUsage(cpu0);
    printTimes();
    console.log(
      kind,
      JSON.stringify({
        ok: r.ok,
        burstMs: r.burstMs,
        cpuMs: Math.round((cpu.user + cpu.system) / 1000),
        answerMs: r.answerMs,
        closesAfterLastRequest: r.closesAfterLastRequest,
        perLedger: r.perLedger,
        problems: r.problems.slice(0, 3),
        refusals: r.refusals,
        executedOnce: r.executedOnce,
        sockets: r.sockets,
        clientRssMb: r.clientRssMb,
      }),
    );
  }
  session.disconnect();
  const peak = await memory.stop();
  console.log(`shape: ${deployed ? 'deployed' : 'one process'}; server process ${describeMemoryPeak(peak)}`);
  console.log('each figure at its own highest:', JSON.stringify(peak.max));
} finally {
  await t.close();
  await db.close();
}
