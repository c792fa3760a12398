import { expect } from 'vitest';
import type { DeployResult, JobStatusView } from '@ledgerpad/shared';
import type { SignedIn } from './test-app';
import type { WalletTestApp } from '../wallets/wallet-app';

// The world the trading tests share: a user's new wallet funded by the faucet, and a token launched
// through the real deploy job (issuer, hot wallet, AMM pool) — built once per test file.

export async function fundedWallet(
  t: WalletTestApp,
  who: SignedIn,
  fundings = 2,
): Promise<{ id: number; address: string }> {
  const w = await t.app.inject({ method: 'POST', url: '/api/wallets', headers: who.headers, payload: {} });
  const { id, wallet_address: address } = w.json() as { id: number; wallet_address: string };
  for (let i = 0; i < fundings; i++)
    await t.app.inject({ method: 'POST', url: `/api/wallets/${id}/fund`, headers: who.headers });
  return { id, address };
}

/** The deploy form of an XRP-paired token with a 100 XRP pool at a 0.3% fee (POST /api/deploy-token). */
export const ammLaunchBody = (walletId: number | unknown, token: { name: string; ticker: string }) => ({
  ...token,
  description: '',
  supply: '1000000',
  devAllocation: '0',
  liquidityAmount: '100',
  ammFee: '0.3',
  logoUrl: '/images/x.webp',
  blackholeIssuer: false,
  requireAuth: false,
  liquidityPairType: 'XRP',
  walletId,
});

/** An XRP-paired token with a 100 XRP pool at a 0.3% fee, deployed by `owner` from `walletId`. */
export async function deployToken(
  t: WalletTestApp,
  owner: SignedIn,
  walletId: number,
  token: { name: string; ticker: string },
): Promise<DeployResult> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/deploy-token',
    headers: owner.headers,
    payload: ammLaunchBody(walletId, token),
  });
  expect(res.statusCode, res.body).toBe(202);
  const job = await t.app.platform.jobs.waitFor((res.json() as { jobId: string }).jobId, {
    timeoutMs: 60_000,
  });
  expect(job.status, job.error ?? '').toBe('completed');
  return (job as unknown as JobStatusView<DeployResult>).result!;
}
