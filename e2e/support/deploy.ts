import { randomBytes } from 'node:crypto';
import { request, type APIRequestContext, type Browser } from 'playwright-core';
import sharp from 'sharp';
import { AccountSetAsfFlags, Client, Wallet } from 'xrpl';
import type { DeployResult, JobStatusView } from '@ledgerpad/shared';
import { until } from '../../apps/server/test/helpers/wait';

// Tokens made through the app's own API, as a user would through the deploy page: a demo user, a
// wallet funded by the faucet, an uploaded logo, POST /api/deploy-token, the job followed to its end.

export interface DeploySpec {
  name: string;
  ticker: string;
  pair?: 'XRP' | 'RLUSD';
  blackholeIssuer?: boolean;
  /** Percent of the supply sent to the deployer's wallet (not locked); default 0. */
  devAllocation?: string;
  /** Links besides the website (none by default). */
  twitterLink?: string;
  telegramLink?: string;
}

const POLL_MS = 200;
const JOB_TIMEOUT_MS = 60_000;

async function ok(what: string, res: Awaited<ReturnType<APIRequestContext['get']>>) {
  if (!res.ok()) throw new Error(`${what}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** A fresh demo user in `api`'s session with `wallets` faucet-funded wallets and an uploaded logo. */
async function newDeployer(
  api: APIRequestContext,
  url: string,
  username: string,
  wallets = 1,
  rlusd = false,
) {
  await ok(
    'sign in',
    await api.post(`${url}/api/auth/demo`, { headers: { origin: url }, data: { username } }),
  );
  const { token } = (await ok('csrf', await api.get(`${url}/api/csrf-token`))) as { token: string };
  const headers = { 'x-csrf-token': token };
  const { user } = (await ok('user', await api.get(`${url}/api/user`))) as { user: { id: number } };
  const created: Array<{ id: number; wallet_address: string; wallet_seed: string }> = [];
  for (let i = 0; i < wallets; i++) {
    const wallet = (await ok(
      'create wallet',
      await api.post(`${url}/api/wallets`, { headers, data: {} }),
    )) as {
      id: number;
      wallet_address: string;
      wallet_seed: string;
    };
    await ok('faucet', await api.post(`${url}/api/wallets/${wallet.id}/fund`, { headers, data: {} }));
    created.push(wallet);
  }
  if (rlusd) {
    await ok(
      'RLUSD faucet',
      await api.post(`${url}/api/wallets/${created[0]!.id}/fund-rlusd`, { headers, data: {} }),
    );
  }
  return { userId: user.id, headers, wallets: created, logoUrl: await uploadLogo(api, url, headers) };
}

/**
 * A logo of its own, uploaded as the deploy page does: a 64×64 PNG of a random colour. Every token
 * needs its own (issue 35: a deploy may not show another token's logo), and the suite shares one server.
 */
export async function uploadLogo(
  api: APIRequestContext,
  url: string,
  headers: Record<string, string>,
): Promise<string> {
  const background = `#${randomBytes(3).toString('hex')}`;
  const logo = await sharp({ create: { width: 64, height: 64, channels: 3, background } })
    .png()
    .toBuffer();
  const upload = await ok(
    'upload',
    await api.post(`${url}/api/upload`, {
      headers,
      multipart: { logo: { name: 'logo.png', mimeType: 'image/png', buffer: logo } },
    }),
  );
  return String(upload.servedUrl);
}

/** POST /api/deploy-token from `walletId`; the job id. */
async function startDeploy(
  api: APIRequestContext,
  url: string,
  headers: Record<string, string>,
  walletId: number,
  logoUrl: string,
  t: DeploySpec & { devAllocation?: string },
): Promise<string> {
  const deploy = await ok(
    `deploy ${t.ticker}`,
    await api.post(`${url}/api/deploy-token`, {
      headers,
      data: {
        name: t.name,
        ticker: t.ticker,
        description: `${t.name}, deployed by the e2e suite`,
        supply: '1000000',
        devAllocation: t.devAllocation ?? '0',
        liquidityAmount: '10',
        ammFee: '0.5',
        logoUrl,
        twitterLink: t.twitterLink ?? '',
        telegramLink: t.telegramLink ?? '',
        websiteLink: 'https://example.com/',
        blackholeIssuer: t.blackholeIssuer ?? false,
        requireAuth: false,
        liquidityPairType: t.pair ?? 'XRP',
        walletId,
      },
    }),
  );
  return String(deploy.jobId);
}

/**
 * Signs a fresh demo user in (its own browser context), funds one wallet and deploys `tokens` one
 * after another from it. The server allows 5 deploy attempts per user a minute: pass at most 5.
 */
export async function deployAsNewUser(
  browser: Browser,
  url: string,
  username: string,
  tokens: DeploySpec[],
): Promise<DeployResult[]> {
  const context = await browser.newContext();
  try {
    return (await deployWithApi(context.request, url, username, tokens)).tokens;
  } finally {
    await context.close();
  }
}

/**
 * The same in the session of `api` (a page's `page.request`: the page is then signed in as the
 * deployer), with what a test needs to go on trading from the deployer's wallet.
 */
export async function deployWithApi(
  api: APIRequestContext,
  url: string,
  username: string,
  tokens: DeploySpec[],
): Promise<{
  tokens: DeployResult[];
  headers: Record<string, string>;
  /** The deployer's wallet, with its seed (shown once at creation), as an outside wallet would sign. */
  wallet: { id: number; wallet_address: string; wallet_seed: string };
}> {
  if (tokens.length > 5) throw new Error('at most 5 deploys per user a minute');
  const user = await newDeployer(
    api,
    url,
    username,
    1,
    tokens.some((t) => t.pair === 'RLUSD'),
  );
  const results: DeployResult[] = [];
  for (const [i, t] of tokens.entries()) {
    const logoUrl = i === 0 ? user.logoUrl : await uploadLogo(api, url, user.headers);
    const jobId = await startDeploy(api, url, user.headers, user.wallets[0]!.id, logoUrl, t);
    const status = await waitForJob(api, url, jobId);
    if (status.status !== 'completed') throw new Error(`deploy failed: ${status.error}`);
    results.push(status.result!);
  }
  return { tokens: results, headers: user.headers, wallet: user.wallets[0]! };
}

export interface FailedDeploy {
  userId: number;
  /** The wallet that paid (the deploy failed paying it). */
  payer: { id: number; wallet_address: string };
  /** A second wallet of the same user, untouched by the deploy. */
  other: { id: number; wallet_address: string };
  error: string;
}

/**
 * A deploy that fails on the ledger after its staged wallets were funded, as a user can make one:
 * the paying wallet turns on DepositAuth with its own seed (xrpl.js, on the server's ledger), so the
 * issuer's payment of the dev allocation to it is refused (tecNO_PERMISSION). What is left is an
 * issuer and a hot wallet holding XRP: the admin's staged wallets to refund.
 */
export async function failedDeployAsNewUser(
  url: string,
  ledgerUrl: string,
  username: string,
): Promise<FailedDeploy> {
  const api = await request.newContext();
  try {
    const user = await newDeployer(api, url, username, 2);
    const [payer, other] = user.wallets as [(typeof user.wallets)[0], (typeof user.wallets)[0]];
    const client = new Client(ledgerUrl);
    await client.connect();
    try {
      const w = Wallet.fromSeed(payer.wallet_seed);
      const set = await client.submitAndWait(
        { TransactionType: 'AccountSet', Account: w.address, SetFlag: AccountSetAsfFlags.asfDepositAuth },
        { wallet: w },
      );
      const result = (set.result.meta as { TransactionResult?: string } | undefined)?.TransactionResult;
      if (result !== 'tesSUCCESS') throw new Error(`DepositAuth not set: ${result}`);
    } finally {
      await client.disconnect();
    }
    // A server that has just started may still be setting up its fee wallet (503 'try again').
    const jobId = await until(
      'the deploy to start (503 while the fee wallet is set up)',
      () =>
        startDeploy(api, url, user.headers, payer.id, user.logoUrl, {
          name: 'Stranded Token',
          ticker: 'STRD',
          devAllocation: '10',
        }).catch((err: unknown) => {
          if (/: 503 /.test(String(err))) return undefined;
          throw err;
        }),
      { timeoutMs: JOB_TIMEOUT_MS, everyMs: POLL_MS },
    );
    const status = await waitForJob(api, url, jobId);
    if (status.status !== 'failed')
      throw new Error(`the deploy was meant to fail: ${JSON.stringify(status)}`);
    return { userId: user.userId, payer, other, error: status.error ?? '' };
  } finally {
    await api.dispose();
  }
}

async function waitForJob(
  api: APIRequestContext,
  url: string,
  jobId: string,
): Promise<JobStatusView<DeployResult>> {
  // The job page polls the same way; the job socket would need a session of its own.
  return until(
    `deploy job ${jobId} to end`,
    async () => {
      const status = (await ok(
        'job',
        await api.get(`${url}/api/job-status/${jobId}`),
      )) as unknown as JobStatusView<DeployResult>;
      return status.status === 'completed' || status.status === 'failed' ? status : undefined;
    },
    { timeoutMs: JOB_TIMEOUT_MS, everyMs: POLL_MS },
  );
}
