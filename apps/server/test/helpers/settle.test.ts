import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app';
import { until } from './wait';

// settle(): the one call that drains the test world (issue 41), awaited instead of sleeps and polls.
// On the test app's default ledger, which closes only on request, it has to close ledgers itself.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.ready();
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const validated = async () =>
  (await t.ledger!.client.request({ command: 'ledger', ledger_index: 'validated' })).result.ledger_index;

describe('the test app’s settle()', () => {
  it('returns at once when nothing is going on, with the indexer at the validated ledger', async () => {
    await t.settle({ timeoutMs: 20_000 });
    expect(t.app.platform.submissions!.openCount).toBe(0);
    expect(t.app.platform.jobs.running).toBe(0);
    expect(t.app.platform.indexer!.lastIndexed).toBe(await validated());
  });

  it('closes ledgers until an in-flight payment is final and indexed', async () => {
    const alice = await t.signIn('alice');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/wallets',
      headers: alice.headers,
      payload: {},
    });
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json() as { id: number };
    const before = await validated();
    // The faucet's payment is submitted; no ledger closes by itself, so the request waits.
    const funding = t.app.inject({ method: 'POST', url: `/api/wallets/${id}/fund`, headers: alice.headers });
    await until(() => t.app.platform.submissions!.openCount > 0, { what: 'the faucet payment in flight' });
    await t.settle({ timeoutMs: 30_000 });
    expect(t.app.platform.submissions!.openCount).toBe(0);
    const after = await validated();
    expect(after).toBeGreaterThan(before);
    expect(t.app.platform.indexer!.lastIndexed).toBe(after);
    const funded = await funding;
    expect(funded.statusCode, funded.body).toBe(200);
  });
});
