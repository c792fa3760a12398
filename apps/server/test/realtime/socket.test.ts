import { tickerToCurrency, type NewTrade } from '@ledgerpad/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { signSocketToken } from '../../src/modules/auth/socket-token';
import { createTestDatabase } from '../db';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../helpers/test-app';
import { TestSocket } from '../helpers/socket-client';
import { sleep, until } from '../helpers/wait';

const ISSUER = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const OTHER_ISSUER = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';

const trade = (ticker: string, issuer: string, price = '0.0123'): NewTrade => ({
  type: 'BUY',
  baseCurrency: tickerToCurrency(ticker),
  baseIssuer: issuer,
  quoteCurrency: 'XRP',
  quoteIssuer: null,
  price,
});

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `ws://127.0.0.1:${address.port}/ws`;
}

async function socketToken(t: TestApp, cookie?: string): Promise<string> {
  const res = await t.app.inject({ url: '/api/auth/socket-token', headers: cookie ? { cookie } : {} });
  expect(res.statusCode).toBe(200);
  return (res.json() as { token: string }).token;
}

// One database for the file's apps; each app keeps its own hub, limits and counters.
let shared: Database;
beforeAll(async () => {
  shared = await createTestDatabase();
});
afterAll(async () => {
  await shared.close();
});

describe('live socket /ws', () => {
  let t: TestApp;
  let wsUrl: string;

  beforeAll(async () => {
    t = await createTestApp({
      ledger: 'none',
      database: shared,
      env: { WS_MAX_BUFFERED_BYTES: '65536', WS_MAX_MESSAGES_PER_SEC: '100' },
    });
    wsUrl = await listen(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('delivers new_trade to subscribers of that token only', async () => {
    const token = await socketToken(t);
    const a = await TestSocket.open(`${wsUrl}?token=${encodeURIComponent(token)}`, { origin: TEST_ORIGIN });
    const b = await TestSocket.open(`${wsUrl}?token=${encodeURIComponent(token)}`);
    expect((await a.next('ready')).data).toEqual({ userId: null });
    a.send({ event: 'subscribe', token: 'PEPE', issuer: ISSUER });
    expect((await a.next()).event).toBe('subscribed');
    b.send({ event: 'subscribe', token: 'PEPE', issuer: OTHER_ISSUER });
    expect((await b.next('subscribed')).data).toEqual({ token: 'PEPE', issuer: OTHER_ISSUER });

    await t.app.realtime.publishTrade(trade('PEPE', ISSUER));
    const got = await a.next('new_trade');
    expect(got.data).toEqual(trade('PEPE', ISSUER));

    // b subscribed to another issuer's PEPE: its next trade frame is the one for its issuer.
    await t.app.realtime.publishTrade(trade('PEPE', OTHER_ISSUER, '2'));
    expect((await b.next('new_trade')).data.price).toBe('2');
    expect(b.frames.filter((f) => f.event === 'new_trade')).toHaveLength(0);

    a.send({ event: 'unsubscribe', token: 'PEPE', issuer: ISSUER });
    await a.next('unsubscribed');
    await t.app.realtime.publishTrade(trade('PEPE', ISSUER, '3'));
    a.send({ event: 'subscribe', token: 'ABC', issuer: ISSUER });
    await a.next('subscribed');
    await t.app.realtime.publishTrade(trade('ABC', ISSUER, '4'));
    expect((await a.next('new_trade')).data.price).toBe('4');
    a.close();
    b.close();
  });

  it('writes the trades of one turn to each socket at once, each still its own message in order', async () => {
    const open = async () => {
      const s = await TestSocket.open(`${wsUrl}?token=${encodeURIComponent(await socketToken(t))}`);
      await s.next('ready');
      s.send({ event: 'subscribe', token: 'MANY', issuer: ISSUER });
      await s.next('subscribed');
      return s;
    };
    const [a, b] = [await open(), await open()];
    const { stats } = t.app.realtime.hub;
    const [writes, sent] = [stats.fanOutWrites, stats.sent];
    // A ledger's trades, published one after the other in one turn, as the indexer's announce does.
    const prices = Array.from({ length: 50 }, (_, i) => String(i + 1));
    for (const p of prices) await t.app.realtime.publishTrade(trade('MANY', ISSUER, p));
    for (const s of [a, b]) {
      const got = [];
      for (const _ of prices) got.push((await s.next('new_trade')).data.price);
      expect(got).toEqual(prices);
    }
    expect(stats.sent - sent).toBe(100);
    // The in-process bus hands the hub all 50 in that turn: one write per socket. (On the PostgreSQL
    // bus each event is a notification read off the LISTEN connection as it comes: gathered only
    // when several arrive in one read, so only the order and the count hold there.)
    const memory = t.app.realtime.bus.kind === 'memory';
    if (memory) expect(stats.fanOutWrites - writes).toBe(2);
    // A trade of a later turn is a write of its own.
    const before = stats.fanOutWrites;
    await t.app.realtime.publishTrade(trade('MANY', ISSUER, '51'));
    for (const s of [a, b]) expect((await s.next('new_trade')).data.price).toBe('51');
    expect(stats.fanOutWrites - before).toBe(2);
    a.close();
    b.close();
  });

  it('sends orderUpdated only to the owner’s sockets', async () => {
    const alice = await t.signIn('alice');
    const bob = await t.signIn('bob');
    const aliceWs = await TestSocket.open(`${wsUrl}?token=${await socketToken(t, alice.cookie)}`);
    const bobWs = await TestSocket.open(`${wsUrl}?token=${await socketToken(t, bob.cookie)}`);
    expect((await aliceWs.next('ready')).data).toEqual({ userId: alice.user.id });
    expect((await bobWs.next('ready')).data).toEqual({ userId: bob.user.id });
    for (const s of [aliceWs, bobWs]) {
      s.send({ event: 'subscribe', token: 'XYZ', issuer: ISSUER });
      await s.next('subscribed');
    }
    await t.app.realtime.publishOrderUpdate(alice.user.id, { orderId: 'o-1', status: 'filled' });
    await t.app.realtime.publishTrade(trade('XYZ', ISSUER));
    expect((await aliceWs.next()).data).toEqual({ orderId: 'o-1', status: 'filled' });
    // Bob's first frame after both publishes is the trade: he never got Alice's order.
    expect((await bobWs.next()).event).toBe('new_trade');
    aliceWs.close();
    bobWs.close();
  });

  it('answers invalid messages with error frames and keeps the socket open', async () => {
    const s = await TestSocket.open(`${wsUrl}?token=${await socketToken(t)}`);
    await s.next('ready');
    s.send('not json {');
    expect((await s.next('error')).data.code).toBe('invalid_json');
    s.send({ event: 'explode' });
    expect((await s.next('error')).data).toEqual({
      code: 'unknown_event',
      message: 'Unknown event: explode',
    });
    s.send({ event: 'subscribe', token: 'PEPE', issuer: 'not-an-address' });
    expect((await s.next('error')).data.code).toBe('invalid_message');
    s.send([1, 2, 3]);
    expect((await s.next('error')).data.code).toBe('invalid_message');
    s.send({ event: 'subscribe', data: { token: 'PEPE', issuer: ISSUER } });
    expect((await s.next('subscribed')).data).toEqual({ token: 'PEPE', issuer: ISSUER });
    expect(s.closed).toBeNull();
    s.close();
  });

  it('limits subscriptions per socket', async () => {
    const s = await TestSocket.open(`${wsUrl}?token=${await socketToken(t)}`);
    await s.next('ready');
    for (let i = 0; i < 50; i++) {
      s.send({ event: 'subscribe', token: `T${String(i).padStart(2, '0')}`, issuer: ISSUER });
      await s.next('subscribed');
    }
    s.send({ event: 'subscribe', token: 'ONEMORE', issuer: ISSUER });
    expect((await s.next('error')).data.code).toBe('too_many_subscriptions');
    s.close();
  });

  it('closes a socket that floods messages', async () => {
    const s = await TestSocket.open(`${wsUrl}?token=${await socketToken(t)}`);
    await s.next('ready');
    for (let i = 0; i < 150; i++) s.send({ event: 'unsubscribe', token: 'AAA', issuer: ISSUER });
    expect((await s.waitClosed()).code).toBe(1008);
  });

  it('refuses missing, forged and expired tokens and foreign origins before upgrading', async () => {
    await expect(TestSocket.open(wsUrl)).rejects.toThrow('HTTP 401');
    const good = await socketToken(t);
    const forged = `${good.split('.')[0]}.${'A'.repeat(43)}`;
    await expect(TestSocket.open(`${wsUrl}?token=${forged}`)).rejects.toThrow('HTTP 401');
    const other = signSocketToken(Buffer.alloc(32, 7), null);
    await expect(TestSocket.open(`${wsUrl}?token=${other}`)).rejects.toThrow('HTTP 401');
    const secret = Buffer.from(t.config.SOCKET_TOKEN_SECRET!, 'utf8');
    const expired = signSocketToken(secret, null, Date.now() - 11 * 60_000);
    await expect(TestSocket.open(`${wsUrl}?token=${expired}`)).rejects.toThrow('HTTP 401');
    const fresh = signSocketToken(secret, null);
    await expect(
      TestSocket.open(`${wsUrl}?token=${fresh}`, { origin: 'https://evil.example' }),
    ).rejects.toThrow('HTTP 403');
    (await TestSocket.open(`${wsUrl}?token=${fresh}`, { origin: TEST_ORIGIN })).close();
  });

  it('drops a slow consumer instead of buffering without bound', async () => {
    const s = await TestSocket.open(`${wsUrl}?token=${await socketToken(t)}`);
    await s.next('ready');
    s.send({ event: 'subscribe', token: 'SLOW', issuer: ISSUER });
    await s.next('subscribed');
    // Stop reading: the kernel buffers fill, then the server's bufferedAmount grows.
    (s.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const before = t.app.realtime.hub.stats.droppedSlow;
    const big = 'x'.repeat(4000);
    for (let i = 0; i < 5000 && t.app.realtime.hub.stats.droppedSlow === before; i++) {
      await t.app.realtime.publishTrade({ ...trade('SLOW', ISSUER), price: big });
      if (i % 50 === 0) await sleep(1);
    }
    expect(t.app.realtime.hub.stats.droppedSlow).toBe(before + 1);
    (s.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    await s.waitClosed();
  });
});

describe('sockets per IP', () => {
  it('refuses more open sockets from one address than allowed, and counts closes', async () => {
    const t = await createTestApp({
      ledger: 'none',
      database: shared,
      env: { WS_MAX_CONNECTIONS_PER_IP: '2' },
    });
    try {
      const url = await listen(t);
      const token = await socketToken(t);
      const first = await TestSocket.open(`${url}?token=${token}`);
      const second = await TestSocket.open(`${url}?token=${token}`);
      await expect(TestSocket.open(`${url}?token=${token}`)).rejects.toThrow('HTTP 429');
      first.close();
      await first.waitClosed();
      // The server notices the close asynchronously.
      const third = await until(() => TestSocket.open(`${url}?token=${token}`).catch(() => undefined), {
        what: 'a third socket after the first closed',
        timeoutMs: 3000,
        everyMs: 50,
      });
      expect(third).toBeDefined();
      second.close();
      third.close();
    } finally {
      await t.close();
    }
  });
});

describe('socket heartbeat', () => {
  it('terminates peers that stop answering pings', async () => {
    const t = await createTestApp({ ledger: 'none', database: shared, env: { WS_HEARTBEAT_MS: '150' } });
    try {
      const url = await listen(t);
      const token = await socketToken(t);
      const healthy = await TestSocket.open(`${url}?token=${token}`);
      const dead = await TestSocket.open(`${url}?token=${token}`);
      await healthy.next('ready');
      await dead.next('ready');
      (dead.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      await until(() => t.app.realtime.hub.stats.droppedDead >= 1, { timeoutMs: 3000, everyMs: 50 });
      expect(t.app.realtime.hub.stats.droppedDead).toBe(1);
      expect(t.app.realtime.hub.connectionCount).toBe(1);
      expect(healthy.closed).toBeNull();
      healthy.close();
    } finally {
      await t.close();
    }
  });
});
