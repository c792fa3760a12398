import { expect } from 'vitest';
import { Wallet, type Client, type SubmittableTransaction } from 'xrpl';
import type { DeployResult } from '@ledgerpad/shared';
import { STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import {
  jobEndedOverHttp,
  json,
  rlusdIssuerOverHttp,
  signInOverHttp,
  signInOwnerOverHttp,
  uploadLogoOverHttp,
  type ChildServer,
} from '../helpers/child-server';
import { submitAndWait, submitNow, waitValidated } from '../helpers/submit-and-wait';
import type { SignedIn } from '../helpers/test-app';
import { runDeploy } from '../helpers/trading-world';
import type { WalletTestApp } from '../wallets/wallet-app';
import { until } from '../helpers/wait';

// What the bonding tests share: a ledger closed by the test (a closer it can pause, so "the next
// ledger" is a ledger the test chose), outside wallets funded from genesis (no Ledgerpad call), and
// a curve launch through the real deploy route and job.

export interface Closer {
  pause(): void;
  resume(): void;
  /** Closes one ledger now; its index. */
  close(): number;
  stop(): void;
}

export function startCloser(t: WalletTestApp, everyMs = 100): Closer {
  let timer: NodeJS.Timeout | undefined;
  const close = () => t.ledger.closeLedger().header.ledger_index as unknown as number;
  const resume = () => {
    if (!timer) timer = setInterval(close, everyMs);
  };
  const pause = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  resume();
  return { pause, resume, close: () => Number(close()), stop: pause };
}

export async function outsideWallets(client: Client, count: number, xrp = 1000): Promise<Wallet[]> {
  const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);
  const wallets = Array.from({ length: count }, () => Wallet.generate());
  const { result } = await client.request({
    command: 'account_info',
    account: genesis.classicAddress,
    ledger_index: 'current',
  });
  let seq = result.account_data.Sequence;
  // One sequence each from genesis, all into the same ledger, then wait for the last.
  const signed = [];
  for (const w of wallets) {
    const tx = await client.autofill({
      TransactionType: 'Payment',
      Account: genesis.classicAddress,
      Destination: w.classicAddress,
      Amount: String(xrp * 1_000_000),
      Sequence: seq++,
    });
    signed.push(genesis.sign(tx));
  }
  for (const s of signed) await client.request({ command: 'submit', tx_blob: s.tx_blob });
  for (const s of signed) await waitValidated(client, s.hash);
  return wallets;
}

export { submitNow, waitValidated };

export const send = (client: Client, wallet: Wallet, tx: SubmittableTransaction) =>
  submitAndWait(client, tx, wallet);

/** The deploy form of a curve launch (POST /api/deploy-token's body). */
export function curveLaunchBody(
  walletId: number | unknown,
  token: { name: string; ticker: string; pair?: 'XRP' | 'RLUSD' },
  /** A stored logo of its own (`runDeploy` stores one when it is left out). */
  logoUrl?: string,
): Record<string, unknown> {
  return {
    name: token.name,
    ticker: token.ticker,
    description: 'A fair launch on a curve',
    supply: '1000000000',
    devAllocation: '0',
    ammFee: '0.3',
    ...(logoUrl ? { logoUrl } : {}),
    blackholeIssuer: true,
    requireAuth: false,
    liquidityPairType: token.pair ?? 'XRP',
    launchType: 'bonding',
    walletId,
  };
}

/** A curve launch through POST /api/deploy-token and the deploy job. */
export const launchCurve = (
  t: WalletTestApp,
  who: SignedIn,
  walletId: number,
  token: { name: string; ticker: string; pair?: 'XRP' | 'RLUSD' },
): Promise<DeployResult> => runDeploy(t, who, curveLaunchBody(walletId, token), 120_000);

export async function offersOf(
  client: Client,
  account: string,
  ledger: 'validated' | 'current' | number = 'validated',
) {
  const r = await client.request({ command: 'account_offers', account, ledger_index: ledger, limit: 400 });
  return r.result.offers ?? [];
}

export { tokenBalance, xrpBalance } from '../helpers/ledger-reads';

/**
 * A curve launch on a real server process (the crash tests): the owner sets the curve settings,
 * waits for the platform bootstrap, and a demo creator deploys with a funded wallet over HTTP.
 */
export async function launchCurveOverHttp(
  server: ChildServer,
  settings: Record<string, string>,
  token: { name: string; ticker: string },
): Promise<{ deployed: DeployResult; creatorWallet: string }> {
  // The owner's one-time link is printed right after the server starts listening.
  await until('the owner link printed', () => server.output.join('').includes('Owner sign-in'), {
    timeoutMs: 5_000,
    everyMs: 50,
  });
  const owner = await signInOwnerOverHttp(server);
  const post = (url: string, headers: Record<string, string>, body: unknown) =>
    fetch(`${server.base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const saved = await post('/api/admin/platform-config/update', owner, { settings });
  expect(saved.status, await saved.text()).toBe(200);
  // The fee wallet exists once the bootstrap is done.
  await rlusdIssuerOverHttp(server.base, 40_000);
  const creator = await signInOverHttp(server.base, `${token.ticker.toLowerCase()}_creator`);
  const wallet = await json(await post('/api/wallets', creator, {}));
  for (let i = 0; i < 2; i++) await post(`/api/wallets/${wallet.id}/fund`, creator, {});
  const launch = await post(
    '/api/deploy-token',
    creator,
    curveLaunchBody(wallet.id, token, await uploadLogoOverHttp(server.base, creator)),
  );
  expect(launch.status, await launch.clone().text()).toBe(202);
  const { jobId } = (await launch.json()) as { jobId: string };
  const s = await jobEndedOverHttp<DeployResult>(server.base, jobId, creator, 60_000);
  if (s.status === 'failed') throw new Error(s.error ?? 'deploy failed');
  return { deployed: s.result!, creatorWallet: String(wallet.wallet_address) };
}
