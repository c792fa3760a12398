import { pathToFileURL } from 'node:url';
import type { DeployResult, JobStatusView } from '@ledgerpad/shared';
import { Wallet } from 'xrpl';
import { planDeploy } from '../src/modules/deploy';
import { PLATFORM_ROLES } from '../src/platform/accounts';
import { insertWallet, platformWallet } from '../src/platform/custody';
import { createTestApp } from '../test/helpers/test-app';
import { testLogo } from '../test/helpers/test-logo';

// Ledger closes from a deploy's first submit to done, on the embedded ledger closing every second
// (as `npm start` runs it), through the real app (POST /api/deploy-token, the job, the submission
// service). Beside it, the naive way peers' scripts deploy: the same transactions, one at a time,
// each waiting for its validated ledger. Target: ≤ 2 closes.

export interface DeployBenchResult {
  name: string;
  closeIntervalMs: number;
  transactions: number;
  pipelined: Array<{ closes: number; ms: number }>;
  naive: { closes: number; ms: number };
  ok: boolean;
}

const FORM = {
  description: '',
  supply: '1000000',
  devAllocation: '10',
  liquidityAmount: '100',
  ammFee: '0.5',
  blackholeIssuer: true,
  requireAuth: false,
  liquidityPairType: 'XRP',
  // The deploy form's default since issue 28: the dev allocation locked in 7 escrows (+ the issuer's
  // AllowTrustLineLocking), 19 transactions in all.
  vesting: { enabled: process.env.BENCH_DEPLOY_VESTING !== 'off' },
};

export async function benchDeploy(
  opts: { runs?: number; closeIntervalMs?: number } = {},
): Promise<DeployBenchResult> {
  const runs = opts.runs ?? 3;
  const closeIntervalMs = opts.closeIntervalMs ?? 1000;
  const t = await createTestApp({ env: { PLATFORM_BOOTSTRAP: 'on' }, closeIntervalMs });
  try {
    await t.app.ready();
    await t.app.platform.accounts.bootstrapped();
    const submissions = t.app.platform.submissions!;
    const client = t.ledger!.client;
    const validated = async () =>
      (await client.request({ command: 'ledger', ledger_index: 'validated' })).result.ledger_index;
    const user = await t.signIn('bench_deployer');
    const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: user.headers, payload });
    const wallet = (await inject('POST', '/api/wallets', {})).json() as {
      id: number;
      wallet_address: string;
    };
    for (let i = 0; i < 2; i++) await inject('POST', `/api/wallets/${wallet.id}/fund`);

    const pipelined: Array<{ closes: number; ms: number }> = [];
    let transactions = 0;
    for (let i = 0; i < runs; i++) {
      const start = await validated();
      const t0 = performance.now();
      const res = await inject('POST', '/api/deploy-token', {
        ...FORM,
        name: `Bench Token ${i}`,
        ticker: `BNCH${i}`,
        // A stored logo of its own (issue 35: a deploy names an image uploaded here, no other token's).
        logoUrl: await testLogo(t.database.db),
        walletId: wallet.id,
      });
      if (res.statusCode !== 202) throw new Error(`deploy refused: ${res.body}`);
      const { jobId } = res.json() as { jobId: string };
      await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 120_000 });
      const status = (await inject('GET', `/api/job-status/${jobId}`)).json() as JobStatusView<DeployResult>;
      if (status.status !== 'completed') throw new Error(`deploy failed: ${status.error}`);
      const ledgers = Object.values(status.result!.ledgers ?? {}).filter((v): v is number => v !== null);
      transactions = ledgers.length;
      pipelined.push({ closes: Math.max(...ledgers) - start, ms: Math.round(performance.now() - t0) });
    }

    // The naive baseline: the same plan, each transaction submitted after the previous validated.
    const issuer = Wallet.generate();
    const hot = Wallet.generate();
    for (const w of [issuer, hot]) {
      await insertWallet(t.database.db, t.app.platform.keyring, {
        userId: null,
        role: `bench-${w.classicAddress}`,
        wallet: w,
      });
    }
    const plan = planDeploy({
      userAddress: wallet.wallet_address,
      issuerAddress: issuer.classicAddress,
      hotAddress: hot.classicAddress,
      feeAddress: (await platformWallet(t.database.db, PLATFORM_ROLES.fee))!.address,
      currency: 'BNV',
      supply: '1000000',
      devAmount: '100000',
      hotAmount: '900000',
      pair: 'XRP',
      liquidity: '100000000',
      rlusd: null,
      issuerFundDrops: '1100000',
      hotFundDrops: '102000000',
      serviceFeeDrops: '15000000',
      tradingFee: 500,
      requireAuth: false,
      blackhole: true,
    });
    const accounts = { user: wallet.wallet_address, issuer: issuer.classicAddress, hot: hot.classicAddress };
    const start = await validated();
    const t0 = performance.now();
    let last = start;
    for (const step of plan) {
      const out = await submissions.submit({
        intentKey: `bench-naive:${step.name}`,
        account: accounts[step.account],
        tx: step.tx,
        purpose: 'bench',
      });
      if (out.status !== 'success') throw new Error(`naive ${step.name}: ${out.result}`);
      last = out.ledgerIndex ?? last;
    }
    const naive = { closes: last - start, ms: Math.round(performance.now() - t0) };

    return {
      name: 'deploy: ledger closes from first submit to done',
      closeIntervalMs,
      transactions,
      pipelined,
      naive,
      ok: pipelined.every((p) => p.closes <= 2),
    };
  } finally {
    await t.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchDeploy();
  console.log(JSON.stringify(result, null, 2));
  if (!result.ok) process.exitCode = 1;
}
