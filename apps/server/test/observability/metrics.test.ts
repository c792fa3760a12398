import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeployResult } from '@ledgerpad/shared';
import type { SignedIn } from '../helpers/test-app';
import { TestSocket } from '../helpers/socket-client';
import { deployToken, fundedWallet } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// Prometheus /metrics after a real swap on the embedded ledger: the swap's route with its count and
// latency, the ledger connection and the validated ledger's lag, the indexer's lag, the job queue
// (a job no instance runs sits queued with its age), the submission states, the open sockets.

const TOKEN = 'metrics-token-0123456789abcdef';

let t: WalletTestApp;
let alice: SignedIn;
let aliceWallet: string;
let token: DeployResult;

/** `name{labels} value` lines → the value of the first line whose labels include all of `labels`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const body = /\{([^}]*)\}/.exec(line)?.[1] ?? '';
    const have = Object.fromEntries([...body.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(line.split(' ').at(-1));
  }
  return undefined;
}

const scrape = async () => {
  const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  return res.body;
};

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on', METRICS_TOKEN: TOKEN }, { closeIntervalMs: 200 });
  await t.app.platform.accounts.bootstrapped();
  const owner = await t.signInOwner();
  const ownerWallet = await fundedWallet(t, owner);
  token = await deployToken(t, owner, ownerWallet.id, { name: 'Metric Token', ticker: 'METRIC' });
  alice = await t.signIn('alice_metrics');
  aliceWallet = (await fundedWallet(t, alice)).address;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /metrics', () => {
  it('needs the bearer token', async () => {
    expect((await t.app.inject('/metrics')).statusCode).toBe(401);
    const wrong = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
  });

  it('after a swap: its route, the ledger lag, the job and submission metrics, the sockets', async () => {
    const before = await scrape();
    expect(sample(before, 'ledgerpad_http_requests_total', { route: '/api/swap' })).toBeUndefined();

    const swap = await t.app.inject({
      method: 'POST',
      url: '/api/swap',
      headers: alice.headers,
      payload: {
        walletAddress: aliceWallet,
        issuer: token.issuer_address,
        token: 'METRIC',
        amount: '5',
        type: 'BUY',
        slippage: '1',
        baseAsset: 'XRP',
      },
    });
    expect(swap.statusCode, swap.body).toBe(200);
    // A job no instance runs (an unregistered type), due a minute ago: queued, with its age.
    await t.app.platform.jobs.enqueue({
      type: 'metrics-probe',
      payload: {},
      runAfter: new Date(Date.now() - 60_000),
    });
    const socketToken = (await t.app.inject('/api/auth/socket-token')).json().token as string;
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const socket = await TestSocket.open(`${url.replace('http', 'ws')}/ws?token=${socketToken}`);
    await socket.next('ready');

    const text = await scrape();
    // The swap's route, counted once with its latency.
    expect(
      sample(text, 'ledgerpad_http_requests_total', { method: 'POST', route: '/api/swap', status: '200' }),
    ).toBe(1);
    expect(sample(text, 'ledgerpad_http_request_duration_seconds_count', { route: '/api/swap' })).toBe(1);
    expect(
      sample(text, 'ledgerpad_http_request_duration_seconds_sum', { route: '/api/swap' }),
    ).toBeGreaterThan(0);
    // The ledger: connected, ledgers closing every 200 ms, so the last validated one is fresh.
    expect(sample(text, 'ledgerpad_ledger_connected')).toBe(1);
    const validated = (await t.connection.client.request({ command: 'ledger', ledger_index: 'validated' }))
      .result.ledger_index;
    const seen = sample(text, 'ledgerpad_ledger_validated_index')!;
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThanOrEqual(validated);
    const lag = sample(text, 'ledgerpad_ledger_validated_lag_seconds')!;
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(2);
    expect(sample(text, 'ledgerpad_indexer_lag_ledgers')).toBeGreaterThanOrEqual(0);
    // The job queue: the probe is queued and at least a minute overdue.
    expect(sample(text, 'ledgerpad_jobs', { status: 'queued', type: 'metrics-probe' })).toBe(1);
    expect(sample(text, 'ledgerpad_jobs', { status: 'queued', type: 'all' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'ledgerpad_jobs_oldest_queued_age_seconds')).toBeGreaterThanOrEqual(60);
    // Submission states: the swap's payment final and successful; the open ones by state.
    expect(
      sample(text, 'ledgerpad_submissions_finalized_total', { status: 'success', purpose: 'swap' }),
    ).toBe(1);
    expect(sample(text, 'ledgerpad_submissions_open', { status: 'pending' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'ledgerpad_submissions_open', { status: 'submitted' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'ledgerpad_sockets')).toBe(1);
    socket.close();
  }, 60_000);
});
