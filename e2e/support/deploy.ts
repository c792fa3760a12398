import type { APIRequestContext, Browser } from 'playwright-core';
import sharp from 'sharp';
import type { DeployResult, JobStatusView } from '@ledgerpad/shared';

// Tokens made through the app's own API, as a user would through the deploy page: a demo user, a
// wallet funded by the faucet, an uploaded logo, POST /api/deploy-token, the job followed to its end.

export interface DeploySpec {
  name: string;
  ticker: string;
  pair?: 'XRP' | 'RLUSD';
  blackholeIssuer?: boolean;
}

const POLL_MS = 200;
const JOB_TIMEOUT_MS = 60_000;

async function ok(what: string, res: Awaited<ReturnType<APIRequestContext['get']>>) {
  if (!res.ok()) throw new Error(`${what}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
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
  if (tokens.length > 5) throw new Error('at most 5 deploys per user a minute');
  const context = await browser.newContext();
  try {
    const api = context.request;
    await ok(
      'sign in',
      await api.post(`${url}/api/auth/demo`, { headers: { origin: url }, data: { username } }),
    );
    const { token } = (await ok('csrf', await api.get(`${url}/api/csrf-token`))) as { token: string };
    const headers = { 'x-csrf-token': token };
    const wallet = await ok('create wallet', await api.post(`${url}/api/wallets`, { headers, data: {} }));
    await ok('faucet', await api.post(`${url}/api/wallets/${String(wallet.id)}/fund`, { headers, data: {} }));
    if (tokens.some((t) => t.pair === 'RLUSD')) {
      await ok(
        'RLUSD faucet',
        await api.post(`${url}/api/wallets/${String(wallet.id)}/fund-rlusd`, { headers, data: {} }),
      );
    }
    const logo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#1461db' } })
      .png()
      .toBuffer();
    const upload = await ok(
      'upload',
      await api.post(`${url}/api/upload`, {
        headers,
        multipart: { logo: { name: 'logo.png', mimeType: 'image/png', buffer: logo } },
      }),
    );
    const results: DeployResult[] = [];
    for (const t of tokens) {
      const deploy = await ok(
        `deploy ${t.ticker}`,
        await api.post(`${url}/api/deploy-token`, {
          headers,
          data: {
            name: t.name,
            ticker: t.ticker,
            description: `${t.name}, deployed by the e2e suite`,
            supply: '1000000',
            devAllocation: '0',
            liquidityAmount: '10',
            ammFee: '0.5',
            logoUrl: upload.servedUrl,
            twitterLink: '',
            telegramLink: '',
            websiteLink: 'https://example.com/',
            blackholeIssuer: t.blackholeIssuer ?? false,
            requireAuth: false,
            liquidityPairType: t.pair ?? 'XRP',
            walletId: wallet.id,
          },
        }),
      );
      results.push(await waitForJob(api, url, String(deploy.jobId)));
    }
    return results;
  } finally {
    await context.close();
  }
}

async function waitForJob(api: APIRequestContext, url: string, jobId: string): Promise<DeployResult> {
  const deadline = Date.now() + JOB_TIMEOUT_MS;
  for (;;) {
    const status = (await ok(
      'job',
      await api.get(`${url}/api/job-status/${jobId}`),
    )) as unknown as JobStatusView<DeployResult>;
    if (status.status === 'completed') return status.result!;
    if (status.status === 'failed') throw new Error(`deploy failed: ${status.error}`);
    if (Date.now() > deadline) throw new Error(`deploy job ${jobId} still ${status.status}`);
    // The job page polls the same way; the job socket would need a session of its own.
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
