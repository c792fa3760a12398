import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'xrpl';
import { startStandaloneLedger, type StandaloneLedger } from 'xrpl-standalone';
import { LedgerLiveness, type LedgerHealth } from '../../src/ledger/liveness';
import { createTestApp, type TestApp } from '../helpers/test-app';

// The lag rule of ledger/liveness.ts: a ledger that answers pings but stops validating is
// unhealthy once its last validated ledger is older than LEDGER_MAX_LAG_CLOSES closes at its
// cadence (configured for the embedded ledger, observed for one elsewhere); a ledger that closes
// only on request has no lag to judge. The hung ledger (pings unanswered): hung-ledger.test.ts.

const TOKEN = 'metrics-token-liveness-0123456789';

function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('the embedded ledger stops closing under the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      closeIntervalMs: 200,
      env: { HEALTH_DETAILS: 'public', METRICS_TOKEN: TOKEN },
    });
  });
  afterAll(() => t?.close());

  const verdict = (test: (h: LedgerHealth) => boolean): Promise<LedgerHealth> =>
    new Promise((resolve) => {
      if (test(t.ledger!.health())) return resolve(t.ledger!.health());
      const off = t.ledger!.onHealthChange((h) => {
        if (!test(h)) return;
        off();
        resolve(h);
      });
    });
  const nextClose = () =>
    new Promise<void>((resolve) => t.ledger!.client.once('ledgerClosed', () => resolve()));
  const scrape = async () =>
    (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;

  it('is 503 (lagging) after 5 closes’ worth with no validated ledger, 200 again at the next close', async () => {
    await nextClose();
    const fresh = await t.app.inject('/api/health');
    expect(fresh.statusCode).toBe(200);
    // 5 closes of 200 ms are 1 s, under the 3 s floor: the bound is 3 s.
    expect(fresh.json().ledger).toMatchObject({ healthy: true, responsive: true, maxLagSeconds: 3 });
    expect(sample(await scrape(), 'ledgerpad_ledger_healthy')).toBe(1);

    await nextClose();
    const lastClose = performance.now();
    t.standalone!.setCloseInterval(600_000);
    const lagging = await verdict((h) => !h.healthy);
    const afterMs = performance.now() - lastClose;
    expect(lagging).toMatchObject({ reason: 'lagging', responsive: true, connected: true, maxLagMs: 3000 });
    expect(afterMs).toBeGreaterThanOrEqual(3000);
    // Noticed by the monitor's next look (every 250 ms), on a loaded machine a little later.
    expect(afterMs).toBeLessThan(5000);
    const res = await t.app.inject('/api/health');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'degraded', ledger: { connected: true, problem: 'lagging' } });
    expect(res.json().ledger.lagSeconds).toBeGreaterThanOrEqual(3);
    const text = await scrape();
    expect(sample(text, 'ledgerpad_ledger_healthy')).toBe(0);
    expect(sample(text, 'ledgerpad_ledger_responsive')).toBe(1);
    expect(sample(text, 'ledgerpad_ledger_validated_lag_seconds')).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'ledgerpad_ledger_validated_lag_max_seconds')).toBe(3);
    // The configured 200 ms, or the observed median when closes came a little slower.
    expect(sample(text, 'ledgerpad_ledger_close_interval_seconds')).toBeGreaterThanOrEqual(0.2);
    expect(sample(text, 'ledgerpad_ledger_close_interval_seconds')).toBeLessThan(0.6);
    expect(sample(text, 'ledgerpad_ledger_ping_seconds')).toBeGreaterThanOrEqual(0);

    t.standalone!.setCloseInterval(200);
    await verdict((h) => h.healthy);
    expect((await t.app.inject('/api/health')).statusCode).toBe(200);
  }, 30_000);
});

describe('the lag bound follows the cadence', () => {
  let ledger: StandaloneLedger;
  let client: Client;
  let liveness: LedgerLiveness | undefined;
  let clock = 1_000_000;
  beforeAll(async () => {
    ledger = await startStandaloneLedger({ port: 0, closeIntervalMs: 0 });
    client = new Client(ledger.url);
    await client.connect();
    // The stream the test awaits closes on (the monitor subscribes too; one subscription per socket).
    await client.request({ command: 'subscribe', streams: ['ledger'] });
  });
  afterEach(() => liveness?.stop());
  afterAll(async () => {
    await client?.disconnect();
    await ledger?.close();
  });

  /** A monitor on a clock the test moves; it follows the real ledger stream. */
  const monitor = async (closeIntervalMs: number | undefined) => {
    liveness = new LedgerLiveness(client, {
      responseTimeoutMs: 2000,
      closeIntervalMs,
      maxLagCloses: 5,
      onUnresponsive: () => undefined,
      now: () => clock,
    });
    liveness.start();
    liveness.connected();
    // Answers come in request order: after this ping's, the monitor's subscribe answer is in.
    await client.request({ command: 'ping' });
    return liveness;
  };
  /** Closes one ledger `ms` after the last on the test's clock, and waits for its stream message. */
  const closeAfter = async (ms: number) => {
    clock += ms;
    const seen = new Promise((resolve) => client.once('ledgerClosed', resolve));
    ledger.closeLedger();
    await seen;
  };

  it('has no bound for a ledger that closes only on request (LEDGER_CLOSE_INTERVAL_MS=0)', async () => {
    const live = await monitor(0);
    await closeAfter(10);
    clock += 24 * 3_600_000;
    expect(live.health()).toMatchObject({ healthy: true, maxLagMs: undefined, closeIntervalMs: undefined });
    expect(live.health().lagMs).toBeGreaterThanOrEqual(24 * 3_600_000);
  });

  it('observes a ledger elsewhere: 5 closes at its median interval, once 4 intervals are seen', async () => {
    const live = await monitor(undefined);
    // The first streamed close follows the subscribe answer, not a streamed close: no interval.
    for (const gap of [4000, 3500, 4200, 4000]) await closeAfter(gap);
    // Three intervals: not enough to judge yet.
    clock += 60_000;
    expect(live.health()).toMatchObject({ healthy: true, maxLagMs: undefined });
    // 60 s then 4 s: the median of [3500, 4200, 4000, 64000] (the upper middle) is 4200; 5 × 4200.
    await closeAfter(4000);
    expect(live.health()).toMatchObject({ healthy: true, closeIntervalMs: 4200, maxLagMs: 21_000 });
    clock += 21_000;
    expect(live.health().healthy).toBe(true);
    clock += 1;
    expect(live.health()).toMatchObject({ healthy: false, reason: 'lagging', lagMs: 21_001 });
  });

  it('takes the configured cadence, or the observed one when closes come slower', async () => {
    const live = await monitor(1000);
    expect(live.health()).toMatchObject({ closeIntervalMs: 1000, maxLagMs: 5000 });
    // Five closes 2 s apart: four intervals (the first close has no streamed one before it).
    for (const gap of [2000, 2000, 2000, 2000, 2000]) await closeAfter(gap);
    expect(live.health()).toMatchObject({ closeIntervalMs: 2000, maxLagMs: 10_000, healthy: true });
    clock += 10_001;
    expect(live.health()).toMatchObject({ healthy: false, reason: 'lagging' });
  });
});
