import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandaloneLedger, type StandaloneLedger } from 'xrpl-standalone';
import { isLocalLedgerUrl, reconnectDelay } from '../../src/ledger/connection';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/test-app';
import { sleep, until } from '../helpers/wait';

// The ledger goes away under the running app and comes back on the same port: the app serves ledger
// routes (a read and a signed write) within 2 s of its return, whatever the outage's length — a
// local ledger is retried every 100–500 ms, not on the public servers' 1 s … 30 s schedule.

const OUTAGE_MS = 4_000;

describe('the ledger restarted under the app', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ledgerpad-reconnect-'));
  let t: TestApp;
  let alice: SignedIn;
  let restarted: StandaloneLedger | undefined;
  beforeAll(async () => {
    t = await createTestApp({ closeIntervalMs: 200, ledgerDataDir: dir });
    alice = await t.signIn('alice');
  });
  afterAll(async () => {
    await t.close();
    await restarted?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const newWallet = async () =>
    (await t.app.inject({ method: 'POST', url: '/api/wallets', headers: alice.headers, payload: {} })).json()
      .id as number;
  const fund = (id: number) =>
    t.app.inject({ method: 'POST', url: `/api/wallets/${id}/fund`, headers: alice.headers });
  const connected = async () => (await t.app.inject('/api/wallets/xrpl/status')).json().connected as boolean;

  it('serves ledger routes within 2 s after the ledger returns', async () => {
    const first = await newWallet();
    expect((await fund(first)).statusCode).toBe(200);
    const second = await newWallet();
    const port = t.standalone!.port;

    await t.standalone!.close();
    await until('the app to see the ledger gone', async () => !(await connected()), { timeoutMs: 10_000 });
    const down = await t.app.inject({ url: `/api/wallets/${first}/trustlines`, headers: alice.headers });
    expect(down.statusCode).toBe(503);
    // The outage: long enough that the old 1 s, 2 s, 4 s schedule would wait 4 s more after it.
    await sleep(OUTAGE_MS);

    restarted = await startStandaloneLedger({ port, closeIntervalMs: 200, dataDir: dir });
    const back = performance.now();
    const { read } = await until(
      'a ledger read served after the restart',
      async () => {
        const r = await t.app.inject({ url: `/api/wallets/${first}/trustlines`, headers: alice.headers });
        return r.statusCode === 200 && { read: performance.now() - back };
      },
      { timeoutMs: 10_000, everyMs: 25 },
    );
    const paid = await fund(second);
    const wrote = performance.now() - back;
    process.stdout.write(
      `ledger back → read served in ${Math.round(read)} ms, a faucet payment done in ${Math.round(wrote)} ms\n`,
    );
    expect(read).toBeLessThanOrEqual(2000);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(wrote).toBeLessThanOrEqual(2000 + 1000); // the payment itself waits for its ledger
  }, 60_000);
});

describe('reconnect schedules', () => {
  it('a local ledger: 100 ms doubling to 500 ms, no jitter; public servers: 1 s … 30 s, jittered', () => {
    expect(isLocalLedgerUrl('ws://127.0.0.1:6006')).toBe(true);
    expect(isLocalLedgerUrl('ws://localhost:6006')).toBe(true);
    expect(isLocalLedgerUrl('ws://[::1]:6006')).toBe(true);
    expect(isLocalLedgerUrl('wss://xrplcluster.com')).toBe(false);
    expect([0, 1, 2, 3, 10].map((a) => reconnectDelay(a, 100, 500))).toEqual([100, 200, 400, 500, 500]);
    // Jitter: a point of the upper half of each step.
    expect(reconnectDelay(3, 1000, 30_000, () => 0)).toBe(4000);
    expect(reconnectDelay(3, 1000, 30_000, () => 1)).toBe(8000);
    expect(reconnectDelay(10, 1000, 30_000, () => 0.5)).toBe(22_500);
  });
});
