import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { pathToFileURL } from 'node:url';
import type { ClaimAirdropResult, CreateAirdropResult, SwapResult } from '@ledgerpad/shared';
import { createWalletTestApp } from '../test/wallets/wallet-app';
import { deployToken, fundedWallet } from '../test/helpers/trading-world';
import { Decimal } from '@ledgerpad/shared';
import { countStatements } from './statement-count';

// 500 claims submitted at once on one airdrop (fixed amount, trust lines set by the claim), through
// the real routes, on the embedded ledger closing every second: how many ledger closes from the
// burst until every claim is paid (target ≤ 3), and the wall time.

export interface AirdropBenchResult {
  name: string;
  claims: number;
  closeIntervalMs: number;
  paid: number;
  refused: number;
  refusals: Record<string, number>;
  ledgerCloses: number;
  perLedger: Record<number, number>;
  /** From the burst until the ledger holding the last payment closed (ms). */
  lastPaidMs: number;
  /** When the claimers got their answers, from the burst (ms): first, median, last. */
  answeredMs: { first: number; median: number; last: number };
  totalMs: number;
  /**
   * CPU time of this process (the API, the payer, PGlite and the embedded ledger, every thread)
   * from the burst until every claimer had an answer (ms): what the burst costs whatever the load.
   */
  burstCpuMs: number;
  ok: boolean;
}

export async function benchAirdrops(
  opts: { claims?: number; closeIntervalMs?: number; ledgerThread?: boolean } = {},
): Promise<AirdropBenchResult> {
  const count = opts.claims ?? 500;
  const closeIntervalMs = opts.closeIntervalMs ?? 1000;
  const t = await createWalletTestApp(
    { PLATFORM_BOOTSTRAP: 'on', RATE_LIMIT_WRITE_PER_MIN: '1000000', RATE_LIMIT_READ_PER_MIN: '1000000' },
    { closeIntervalMs, ledgerThread: opts.ledgerThread },
  );
  try {
    await t.app.platform.accounts.bootstrapped();
    const client = t.connection.client;
    const owner = await t.signInOwner();
    const ownerWallet = await fundedWallet(t, owner);
    const token = await deployToken(t, owner, ownerWallet.id, { name: 'Bench Drop', ticker: 'BDROP' });
    const creator = await t.signIn('bench_drop_creator');
    const source = await fundedWallet(t, creator);
    const bought = await t.app.inject({
      method: 'POST',
      url: '/api/swap',
      headers: creator.headers,
      payload: {
        walletAddress: source.address,
        issuer: token.issuer_address,
        token: 'BDROP',
        amount: '50',
        type: 'BUY',
        slippage: '5',
      },
    });
    if (bought.statusCode !== 200) throw new Error(`buy: ${bought.body}`);
    const tokens = new Decimal((bought.json() as SwapResult).received);
    // One whole allocation per claimer, to 6 decimals.
    const each = tokens.div(count).toDecimalPlaces(6, Decimal.ROUND_DOWN);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/airdrops',
      headers: creator.headers,
      payload: {
        sourceWalletId: source.id,
        tokenCode: 'BDROP',
        issuerAddress: token.issuer_address,
        projectName: 'Bench Drop',
        tagline: 'Five hundred claims',
        logoUrl: '',
        description: '',
        perUserType: 'fixed',
        totalTokenAmount: each.mul(count).toFixed(),
        fixedAmount: each.toFixed(),
        deadline: new Date(Date.now() + 3600_000).toISOString(),
        website: '',
        twitter: '',
        trustlineMode: 'auto',
      },
    });
    if (created.statusCode !== 202) throw new Error(`create: ${created.body}`);
    const { id, jobId } = created.json() as CreateAirdropResult;
    const job = await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 120_000 });
    if (job.status !== 'completed') throw new Error(`create job: ${job.error}`);

    const claimers = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const who = await t.signIn(`bench_claimer_${i}`);
        return { who, wallet: await fundedWallet(t, who, 1) };
      }),
    );
    const startLedger = Number(
      (await client.request({ command: 'ledger', ledger_index: 'validated' })).result.ledger_index,
    );
    const closedAt = new Map<number, number>();
    const onClosed = (l: { ledger_index: number }) => closedAt.set(Number(l.ledger_index), performance.now());
    client.on('ledgerClosed', onClosed);
    // BENCH_PROFILE=file: a CPU profile of the main thread during the burst only.
    const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    // BENCH_SQL_COUNT=1: the statements PGlite ran during the burst, by text (printed at the end).
    const statementsDone = countStatements('the burst');
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const at: number[] = [];
    const answers = await Promise.all(
      claimers.map((c) =>
        t.app
          .inject({
            method: 'POST',
            url: `/api/airdrops/${id}/claim`,
            headers: c.who.headers,
            payload: { destinationWalletId: c.wallet.id },
          })
          .finally(() => at.push(Math.round(performance.now() - t0))),
      ),
    );
    const totalMs = Math.round(performance.now() - t0);
    const cpu = process.cpuUsage(cpu0);
    const burstCpuMs = Math.round((cpu.user + cpu.system) / 1000);
    statementsDone();
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
      profiler.disconnect();
    }
    at.sort((a, b) => a - b);
    const perLedger: Record<number, number> = {};
    let paid = 0;
    // What the refused claims were told, by answer (a bench that only counts hides the cause).
    const refusals: Record<string, number> = {};
    for (const r of answers) {
      if (r.statusCode !== 200) {
        const why = `${r.statusCode} ${(r.json() as { message?: string }).message ?? r.body.slice(0, 80)}`;
        refusals[why] = (refusals[why] ?? 0) + 1;
        continue;
      }
      paid++;
      const tx = await client.request({ command: 'tx', transaction: (r.json() as ClaimAirdropResult).hash });
      const index = Number(tx.result.ledger_index);
      perLedger[index] = (perLedger[index] ?? 0) + 1;
    }
    client.off('ledgerClosed', onClosed);
    const lastLedger = paid ? Math.max(...Object.keys(perLedger).map(Number)) : startLedger;
    const ledgerCloses = lastLedger - startLedger;
    return {
      name: 'airdrop claims',
      claims: count,
      closeIntervalMs,
      paid,
      refused: count - paid,
      refusals,
      ledgerCloses,
      perLedger,
      lastPaidMs: Math.round((closedAt.get(lastLedger) ?? t0) - t0),
      answeredMs: { first: at[0] ?? 0, median: at[Math.floor(at.length / 2)] ?? 0, last: at.at(-1) ?? 0 },
      totalMs,
      burstCpuMs,
      ok: paid === count && ledgerCloses <= 3,
    };
  } finally {
    await t.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchAirdrops(), null, 2));
}
