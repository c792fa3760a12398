import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTest } from '../../bench/load';
import { createTestApp, type TestApp } from '../helpers/test-app';

// One anonymous visitor must not slow the whole server down: four loops on the public fee
// configuration (its bonding view cost 150–210 ms of CPU per call before it was computed once per
// settings change) leave the health check answering within 50 ms at p99. Real HTTP over loopback,
// the load from a worker thread; a few seconds.

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_READ_PER_MIN: '100000000' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  port = address.port;
});

afterAll(async () => {
  await t?.close();
});

describe('public load', () => {
  it('four loops on GET /api/config/fees leave /api/health p99 under 50 ms', async () => {
    // The view is computed once per settings change: the first call after start pays for it; half
    // a second of the same load first, unmeasured, so the routes are compiled (JIT) before timing.
    expect((await t.app.inject({ url: '/api/config/fees' })).statusCode).toBe(200);
    // The four loops run in a child process at the lowest priority: an attacker's loops run on
    // their own machine, not on the server's cores.
    await Promise.all([
      loadTest({ port, paths: ['/api/config/fees'], connections: 4, seconds: 0.5, niceness: 19 }),
      loadTest({ port, paths: ['/api/health'], connections: 1, seconds: 0.5 }),
    ]);
    // Up to three measured rounds: a timing on a shared 2-core machine can meet a burst from
    // elsewhere once; the regression this guards (150 ms of CPU per fee read) fails every round.
    const rounds: string[] = [];
    let best = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 3; round++) {
      const [fees, health] = await Promise.all([
        loadTest({ port, paths: ['/api/config/fees'], connections: 4, seconds: 3, niceness: 19 }),
        loadTest({ port, paths: ['/api/health'], connections: 1, seconds: 3 }),
      ]);
      expect(fees.statuses).toEqual({ 200: fees.requests });
      expect(health.statuses).toEqual({ 200: health.requests });
      // The loops really ran, even from their low priority on a busy machine: more fee reads than
      // four loops could get in 3 s when each took 150 ms of the server's CPU (80 at most).
      expect(fees.requests).toBeGreaterThan(100);
      expect(health.requests).toBeGreaterThan(30);
      rounds.push(`${fees.requests} fee reads, health p99 ${health.p99Ms.toFixed(1)} ms`);
      best = Math.min(best, health.p99Ms);
      if (best < 50) break;
    }
    expect(best, rounds.join('; ')).toBeLessThan(50);
  }, 60_000);
});
