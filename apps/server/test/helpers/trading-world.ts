import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Client } from 'xrpl';
import type { DeployResult, JobStatusView, SwapResult } from '@ledgerpad/shared';
import { TRADING_FEE_JOB } from '../../src/modules/trading';
import { jobs } from '../../src/platform/jobs';
import { tokenBalance, xrpBalance } from './ledger-reads';
import { testLogo } from './test-logo';
import type { SignedIn } from './test-app';
import type { WalletTestApp } from '../wallets/wallet-app';

// The world the trading tests share: a user's new wallet funded by the faucet, and a token launched
// through the real deploy job (issuer, hot wallet, AMM pool) — built once per test file. `seed(t)`
// wraps them with the rest a trading test needs (swap and wait for its platform fee, balances read
// from the validated ledger), in the spirit of atproto's dev-env SeedClient.

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

/**
 * The deploy form of an XRP-paired token with a 100 XRP pool at a 0.3% fee (POST /api/deploy-token).
 * `logoUrl`: a stored logo of its own (`testLogo`); `runDeploy` stores one when it is left out.
 */
export const ammLaunchBody = (
  walletId: number | unknown,
  token: { name: string; ticker: string },
  logoUrl?: string,
) => ({
  ...token,
  description: '',
  supply: '1000000',
  devAllocation: '0',
  liquidityAmount: '100',
  ammFee: '0.3',
  ...(logoUrl ? { logoUrl } : {}),
  blackholeIssuer: false,
  requireAuth: false,
  liquidityPairType: 'XRP',
  walletId,
});

/** An XRP-paired token with a 100 XRP pool at a 0.3% fee, deployed by `owner` from `walletId`. */
export const deployToken = (
  t: WalletTestApp,
  owner: SignedIn,
  walletId: number,
  token: { name: string; ticker: string },
): Promise<DeployResult> => runDeploy(t, owner, ammLaunchBody(walletId, token), 60_000);

/** POST /api/deploy-token with `body`, then the deploy job to completion: its result. */
export async function runDeploy(
  t: WalletTestApp,
  owner: SignedIn,
  body: Record<string, unknown>,
  timeoutMs: number,
): Promise<DeployResult> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/deploy-token',
    headers: owner.headers,
    // Every token its own stored logo (issue 35: a deploy names a logo that exists, no other token's).
    payload: { ...body, logoUrl: body.logoUrl ?? (await testLogo(t.database.db)) },
  });
  expect(res.statusCode, res.body).toBe(202);
  const job = await t.app.platform.jobs.waitFor((res.json() as { jobId: string }).jobId, { timeoutMs });
  expect(job.status, job.error ?? '').toBe('completed');
  return (job as unknown as JobStatusView<DeployResult>).result!;
}

/** The body of POST /api/swap. */
export interface SwapRequest {
  walletAddress: string;
  issuer: string;
  token: string;
  amount: string;
  type: 'BUY' | 'SELL';
  slippage: string;
}

export interface TradingWorld {
  readonly t: WalletTestApp;
  /** The embedded ledger's xrpl.js client. */
  readonly client: Client;
  /** A new wallet of `who`, funded by the faucet `fundings` times. */
  wallet(who: SignedIn, fundings?: number): Promise<{ id: number; address: string }>;
  /** An XRP-paired token with a 100 XRP pool at a 0.3% fee, through the deploy job. */
  deploy(owner: SignedIn, walletId: number, token: { name: string; ticker: string }): Promise<DeployResult>;
  /** POST /api/swap answered 200, and its platform fee (a payment of its own) landed. */
  swap(who: SignedIn, body: SwapRequest): Promise<SwapResult>;
  /** The platform-fee job of a trade, if the trade owes a fee. */
  feeJob(hash: string): Promise<typeof jobs.$inferSelect | undefined>;
  /** Waits for a trade's platform-fee job, when there is one. */
  feePaid(hash: string): Promise<void>;
  /** Every platform-fee job so far has run and nothing of the platform is in flight. */
  feesSettled(): Promise<void>;
  /** XRP drops on the validated ledger. */
  xrp(address: string): Promise<bigint>;
  /** The token balance on the validated ledger ('0' without a trust line). */
  tokens(address: string, token: { issuer_address: string; currency: string }): Promise<string>;
}

export function seed(t: WalletTestApp): TradingWorld {
  const feeJob = async (hash: string) =>
    (
      await t.database.db
        .select()
        .from(jobs)
        .where(eq(jobs.key, `${TRADING_FEE_JOB}:${hash}`))
    )[0];
  const feePaid = async (hash: string) => {
    const job = await feeJob(hash);
    if (job) await t.app.platform.jobs.waitFor(job.id, { timeoutMs: 30_000 });
  };
  return {
    t,
    get client() {
      return t.connection.client;
    },
    wallet: (who, fundings) => fundedWallet(t, who, fundings),
    deploy: (owner, walletId, token) => deployToken(t, owner, walletId, token),
    swap: async (who, body) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/swap',
        headers: who.headers,
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(200);
      const s = res.json() as SwapResult;
      await feePaid(s.hash);
      return s;
    },
    feeJob,
    feePaid,
    feesSettled: () => t.settle({ timeoutMs: 30_000 }),
    xrp: (address) => xrpBalance(t.connection.client, address),
    tokens: (address, token) =>
      tokenBalance(t.connection.client, address, token.issuer_address, token.currency),
  };
}
