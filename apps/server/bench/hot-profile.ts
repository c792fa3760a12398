import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { buildHotLaunch, hotBurst, hotLaunchDatabase } from '../test/helpers/hot-launch';
import { describeMemoryPeak, memoryPeak } from '../test/helpers/memory-peak';
import { createWalletTestApp } from '../test/wallets/wallet-app';
import { timeStatements } from './statement-time';

// Issue 40's profiling driver (docs/benchmarks.md "Why the hot launch takes so many closes"): the
// hot launch's world at HOT_LAUNCH_USERS users (default 100), then its bursts (HOT_KIND: 'curve',
// 'amm' or both), each printed with PGlite's time per statement text. HOT_PROF=<dir> also writes
// a CPU profile of each burst alone (not the setup) to <dir>/<kind>-<users>.cpuprofile, and (deployed)
// one of each worker thread (the ledger's among them) to <dir>/<kind>-<users>-worker<id>.cpuprofile.
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
// HOT_HEAP=<dir>: V8's sampling heap profiler runs through each burst; every second the live
// (not yet collected) samples are read, and the read with the most bytes is written to
// <dir>/<kind>-<users>.heapprofile (open in Chrome DevTools' Memory tab): where the peak's heap was allocated.
const heapDir = process.env.HOT_HEAP;

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
  const workerProfiler = profileDir && deployed ? await workerProfilers(session) : undefined;
  for (const kind of kinds) {
    const printTimes = timeStatements(`the ${kind} burst`);
    if (profileDir) await session.post('Profiler.start');
    await workerProfiler?.start();
    if (heapDir) {
      await session.post('HeapProfiler.collectGarbage');
      console.log(
        kind,
        'heap used before the burst, after a full GC:',
        Math.round(process.memoryUsage().heapUsed / 2 ** 20),
        'MB',
      );
    }
    const heap = heapDir ? await heapSampler(session) : undefined;
    // CPU time of the whole server process (its threads: the ledger's too) during the burst: a
    // figure the machine's other load moves less than wall time does.
    const cpu0 = process.cpuUsage();
    const r = await hotBurst(world, kind, kind === 'curve' ? '0.5' : '0.02', {
      sockets,
      clientProcess: deployed,
      // HOT_WINDOW_MS: the buyers spread over that window (bench/hot-launch.ts); unset, at once.
      windowMs: Number(process.env.HOT_WINDOW_MS ?? 0),
    });
    if (profileDir) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(`${profileDir}/${kind}-${users}.cpuprofile`, JSON.stringify(profile));
      await workerProfiler?.write(`${profileDir}/${kind}-${users}`);
    }
    if (heap && heapDir) {
      const peakProfile = await heap.stop();
      writeFileSync(`${heapDir}/${kind}-${users}.heapprofile`, JSON.stringify(peakProfile.profile));
      console.log(
        kind,
        'heap profile at its largest read:',
        Math.round(peakProfile.bytes / 2 ** 20),
        'MB sampled live',
      );
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

/**
 * The server's worker threads (the ledger's, and any signature thread) are isolates of their own:
 * this session's Profiler sees only the main thread. The inspector's NodeWorker domain attaches to
 * each and relays Profiler calls to it; each profile is written as <name>-worker<id>.cpuprofile.
 */
async function workerProfilers(session: Session) {
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  const workers: Array<{ sessionId: string; workerId: string }> = [];
  session.on('NodeWorker.attachedToWorker', (m) => {
    workers.push({ sessionId: m.params.sessionId, workerId: m.params.workerInfo.workerId });
  });
  session.on('NodeWorker.receivedMessageFromWorker', (m) => {
    const reply = JSON.parse(m.params.message) as { id?: number; result?: unknown };
    if (reply.id !== undefined) pending.get(reply.id)?.(reply.result);
  });
  await session.post('NodeWorker.enable', { waitForDebuggerOnStart: false });
  // The attach events of running workers arrive right after enable.
  await new Promise((resolve) => setImmediate(resolve));
  const call = (sessionId: string, method: string) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      void session.post('NodeWorker.sendMessageToWorker', {
        sessionId,
        message: JSON.stringify({ id, method }),
      });
    });
  const all = (method: string) => Promise.all(workers.map((w) => call(w.sessionId, method)));
  return {
    start: async () => {
      await all('Profiler.enable');
      await all('Profiler.start');
    },
    write: async (name: string) => {
      const results = (await all('Profiler.stop')) as Array<{ profile: unknown }>;
      results.forEach((r, i) =>
        writeFileSync(`${name}-worker${workers[i]!.workerId}.cpuprofile`, JSON.stringify(r.profile)),
      );
    },
  };
}

interface HeapNode {
  selfSize: number;
  children: HeapNode[];
}

/** Starts V8's sampling heap profiler and keeps the largest of its once-a-second live reads. */
async function heapSampler(session: Session) {
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', { samplingInterval: 64 * 1024 });
  const total = (n: HeapNode): number => n.children.reduce((sum, c) => sum + total(c), n.selfSize);
  let best = { bytes: 0, profile: undefined as unknown };
  let reading = false;
  const read = async () => {
    if (reading) return;
    reading = true;
    try {
      const { profile } = await session.post('HeapProfiler.getSamplingProfile');
      const bytes = total(profile.head as unknown as HeapNode);
      if (bytes > best.bytes) best = { bytes, profile };
    } finally {
      reading = false;
    }
  };
  const timer = setInterval(() => void read(), 1000);
  return {
    async stop() {
      clearInterval(timer);
      await read();
      await session.post('HeapProfiler.stopSampling');
      return best;
    },
  };
}
