import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { DeployResult } from '@ledgerpad/shared';
import { sql } from 'drizzle-orm';
import { Wallet, type LedgerStream } from 'xrpl';
import { marketTrades } from '../src/modules/market/schema';
import { PLATFORM_ROLES } from '../src/platform/accounts';
import { insertWallet, platformWallet } from '../src/platform/custody';
import { TestSocket } from '../test/helpers/socket-client';
import { createTestApp, TEST_ORIGIN } from '../test/helpers/test-app';
import { testLogo } from '../test/helpers/test-logo';

// The market indexer's two figures, on the embedded ledger through the real app:
// - catch-up: the indexer stopped while 100 ledgers of swaps are made, then restarted; trades
//   indexed per second until it has caught up (target ≥ 2,000/s). The process's CPU time over the
//   catch-up is reported beside it (trades per CPU second): on a shared machine the wall-clock rate
//   measures the neighbours as much as the indexer;
// - live: from the moment a ledger close is announced on the ledger's stream to the `new_trade`
//   frame for a swap in that ledger on a subscribed socket, median over 20 swaps (target ≤ 20 ms).

export interface IndexerBenchResult {
  name: string;
  catchUp: {
    ledgers: number;
    trades: number;
    ms: number;
    tradesPerSec: number;
    cpuMs: number;
    tradesPerCpuSec: number;
  };
  live: { samples: number; medianMs: number; maxMs: number };
  ok: boolean;
}

/**
 * `BENCH_INDEXER_PROFILE=<file.cpuprofile>`: a CPU profile of the catch-up alone (open it in Chrome's
 * DevTools or speedscope); `node --cpu-prof` would also profile the setup's minute of swaps.
 */
async function startProfile() {
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop(file: string) {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

const TRADERS = 20;
const LEDGERS = 100;
export const INDEXER_TARGETS = { tradesPerSec: 2_000, liveMedianMs: 20 };

export async function benchIndexer(): Promise<IndexerBenchResult> {
  const t = await createTestApp({ env: { PLATFORM_BOOTSTRAP: 'on' }, closeIntervalMs: 150 });
  try {
    await t.app.ready();
    await t.app.platform.accounts.bootstrapped();
    const submissions = t.app.platform.submissions!;
    const client = t.ledger!.client;
    const indexer = t.app.platform.indexer!;
    const owner = await t.signInOwner();
    const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: owner.headers, payload });
    const wallet = (await inject('POST', '/api/wallets', {})).json() as { id: number };
    await inject('POST', `/api/wallets/${wallet.id}/fund`);
    const res = await inject('POST', '/api/deploy-token', {
      name: 'Bench Market',
      ticker: 'BMKT',
      description: '',
      supply: '1000000000',
      devAllocation: '0',
      liquidityAmount: '500',
      ammFee: '0.3',
      // A stored logo of its own (issue 35: a deploy names an image uploaded here, no other token's).
      logoUrl: await testLogo(t.database.db),
      blackholeIssuer: true,
      requireAuth: false,
      liquidityPairType: 'XRP',
      walletId: wallet.id,
    });
    if (res.statusCode !== 202) throw new Error(`deploy: ${res.statusCode} ${res.body}`);
    const job = await t.app.platform.jobs.waitFor((res.json() as { jobId: string }).jobId, {
      timeoutMs: 60_000,
    });
    const token = job.result as DeployResult;

    const genesis = (await platformWallet(t.database.db, PLATFORM_ROLES.genesis))!.address;
    const traders = Array.from({ length: TRADERS }, () => Wallet.generate());
    for (const w of traders) {
      await insertWallet(t.database.db, t.app.platform.keyring, {
        userId: 1,
        role: 'bench_trader',
        wallet: w,
      });
    }
    await Promise.all(
      traders.map((w, i) =>
        submissions.submit({
          intentKey: `bench-fund-${i}`,
          account: genesis,
          tx: { TransactionType: 'Payment', Destination: w.classicAddress, Amount: '10000000000' },
          purpose: 'bench',
        }),
      ),
    );
    await Promise.all(
      traders.map((w, i) =>
        submissions.submit({
          intentKey: `bench-line-${i}`,
          account: w.classicAddress,
          tx: {
            TransactionType: 'TrustSet',
            LimitAmount: { currency: token.currency, issuer: token.issuer_address, value: '1000000000000' },
          },
          purpose: 'bench',
        }),
      ),
    );
    const swap = (w: Wallet, drops = 1_000_000) =>
      submissions.submit({
        intentKey: `bench-swap-${randomUUID()}`,
        account: w.classicAddress,
        tx: {
          TransactionType: 'OfferCreate',
          TakerGets: String(drops),
          TakerPays: { currency: token.currency, issuer: token.issuer_address, value: '0.000001' },
          Flags: 0x00080000 | 0x00020000,
        },
        purpose: 'bench',
      });
    await indexer.caughtUp();

    // Catch-up: 100 ledgers of swaps while the indexer is stopped.
    await indexer.stop();
    const before = (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(marketTrades))[0]!.n;
    const startLedger = indexer.lastIndexed;
    let last = startLedger;
    while (last < startLedger + LEDGERS) {
      const outs = await Promise.all(traders.map((w) => swap(w)));
      last = Math.max(last, ...outs.map((o) => o.ledgerIndex ?? 0));
    }
    const target = (await client.request({ command: 'ledger', ledger_index: 'validated' })).result
      .ledger_index;
    const profile = process.env.BENCH_INDEXER_PROFILE ? await startProfile() : undefined;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    indexer.start();
    await indexer.caughtUp(target);
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (profile) await profile.stop(process.env.BENCH_INDEXER_PROFILE!);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const after = (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(marketTrades))[0]!.n;
    const trades = after - before;

    // Live: ledger close announced → new_trade frame.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const socketToken = (await t.app.inject({ url: '/api/auth/socket-token' })).json().token as string;
    const socket = await TestSocket.open(
      `ws://127.0.0.1:${address.port}/ws?token=${encodeURIComponent(socketToken)}`,
      {
        origin: TEST_ORIGIN,
      },
    );
    await socket.next('ready');
    socket.send({ event: 'subscribe', token: token.currency, issuer: token.issuer_address });
    await socket.next('subscribed');
    const closedAt = new Map<number, number>();
    const onClosed = (ev: LedgerStream) => closedAt.set(ev.ledger_index, performance.now());
    client.on('ledgerClosed', onClosed);
    const samples: number[] = [];
    try {
      for (let i = 0; i < 20; i++) {
        const out = await swap(traders[i % TRADERS]!);
        for (;;) {
          const frame = await socket.next('new_trade', 10_000);
          if (frame.data.hash !== out.hash) continue;
          const at = performance.now();
          const closed = closedAt.get(out.ledgerIndex!);
          if (closed !== undefined) samples.push(at - closed);
          break;
        }
      }
    } finally {
      client.off('ledgerClosed', onClosed);
      socket.close();
    }
    samples.sort((a, b) => a - b);
    const median = samples[Math.floor(samples.length / 2)] ?? Number.NaN;
    const tradesPerSec = Math.round((trades / ms) * 1000);
    return {
      name: 'market indexer: catch-up rate and close-to-frame latency',
      catchUp: {
        ledgers: target - startLedger,
        trades,
        ms: Math.round(ms),
        tradesPerSec,
        cpuMs: Math.round(cpuMs),
        tradesPerCpuSec: Math.round((trades / cpuMs) * 1000),
      },
      live: {
        samples: samples.length,
        medianMs: Math.round(median * 10) / 10,
        maxMs: Math.round((samples.at(-1) ?? Number.NaN) * 10) / 10,
      },
      ok: tradesPerSec >= INDEXER_TARGETS.tradesPerSec && median <= INDEXER_TARGETS.liveMedianMs,
    };
  } finally {
    await t.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchIndexer();
  console.log(JSON.stringify(result, null, 2));
  if (!result.ok) process.exitCode = 1;
}
