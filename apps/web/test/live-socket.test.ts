import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as LiveSocket from '../src/lib/live-socket';
import { FakeSocket } from './fake-socket';
import { stubFetch } from './support';

// The live socket client (spec 000 §4, §9): token from /api/auth/socket-token reused for 9 minutes,
// reconnect after 1 s × 2^attempt capped at 30 s, reset on open, subscriptions sent again.

const ISSUER = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
let tokens: number;
let live: typeof LiveSocket;

beforeEach(async () => {
  vi.useFakeTimers();
  vi.resetModules();
  FakeSocket.all = [];
  tokens = 0;
  vi.stubGlobal('WebSocket', FakeSocket);
  stubFetch((path) => {
    if (path === '/api/auth/socket-token') return { body: { token: `t${++tokens}` } };
    return undefined;
  });
  live = await import('../src/lib/live-socket');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Lets the token fetch settle and a scheduled reconnect run. */
const tick = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

describe('live socket', () => {
  it('connects with the socket token and delivers frames to listeners', async () => {
    const seen: unknown[] = [];
    live.onSocketEvent('new_trade', (d) => seen.push(d));
    await tick();
    expect(FakeSocket.all).toHaveLength(1);
    expect(FakeSocket.last.url).toMatch(/\/ws\?token=t1$/);
    FakeSocket.last.open();
    FakeSocket.last.receive({ event: 'new_trade', data: { price: '1' } });
    FakeSocket.last.receive({ event: 'orderUpdated', data: {} });
    expect(seen).toEqual([{ price: '1' }]);
  });

  it('reconnects after 1, 2, 4, 8, 16, 30, 30 s, and from 1 s again once a connection opens', async () => {
    live.onSocketEvent('new_trade', () => undefined);
    await tick();
    const delays: number[] = [];
    for (let i = 0; i < 7; i++) {
      const before = FakeSocket.all.length;
      FakeSocket.last.close();
      const closedAt = Date.now();
      while (FakeSocket.all.length === before) await tick(100);
      delays.push(Date.now() - closedAt);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    FakeSocket.last.open();
    const before = FakeSocket.all.length;
    FakeSocket.last.close();
    await tick(999);
    expect(FakeSocket.all.length).toBe(before);
    await tick(1);
    expect(FakeSocket.all.length).toBe(before + 1);
  });

  it('sends its subscriptions again on every new connection', async () => {
    live.onSocketEvent('new_trade', () => undefined);
    live.subscribeToken('ABC', ISSUER);
    await tick();
    FakeSocket.last.open();
    const subscribe = JSON.stringify({ event: 'subscribe', token: 'ABC', issuer: ISSUER });
    expect(FakeSocket.last.sent).toEqual([subscribe]);
    FakeSocket.last.close();
    await tick(1_000);
    FakeSocket.last.open();
    expect(FakeSocket.all).toHaveLength(2);
    expect(FakeSocket.last.sent).toEqual([subscribe]);
  });

  it('reuses the socket token for 9 minutes, then asks again', async () => {
    live.onSocketEvent('new_trade', () => undefined);
    await tick();
    FakeSocket.last.open();
    // Reconnects within 9 minutes of the first token reuse it.
    await tick(8 * 60_000);
    FakeSocket.last.close();
    await tick(1_000);
    expect(tokens).toBe(1);
    expect(FakeSocket.last.url).toMatch(/token=t1$/);
    FakeSocket.last.open();
    await tick(60_000);
    FakeSocket.last.close();
    await tick(1_000);
    expect(tokens).toBe(2);
    expect(FakeSocket.last.url).toMatch(/token=t2$/);
  });

  it('asks for a fresh token after the server closes the socket because its session ended (4401)', async () => {
    live.onSocketEvent('new_trade', () => undefined);
    await tick();
    FakeSocket.last.open();
    FakeSocket.last.close(4401);
    await tick(1_000);
    expect(tokens).toBe(2);
    expect(FakeSocket.last.url).toMatch(/token=t2$/);
  });
});
