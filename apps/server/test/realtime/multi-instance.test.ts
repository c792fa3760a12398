import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { tickerToCurrency } from '@ledgerpad/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client';
import { channelName, NOTIFY_MAX_BYTES } from '../../src/realtime/pg-event-bus';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { TestSocket } from '../helpers/socket-client';
import { until } from '../helpers/wait';

// Two server instances on one PostgreSQL: an event published on A reaches a socket held by B.
// Uses TEST_DATABASE_URL, else the local PostgreSQL of the README and CI (.ci/run). Without a
// PostgreSQL server this test fails with the connection error: it needs one to mean anything.
const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ISSUER = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';

describe('event bus across instances (PostgreSQL LISTEN/NOTIFY)', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let dbA: Database;
  let dbB: Database;
  let a: TestApp;
  let b: TestApp;
  let wsB: string;

  beforeAll(async () => {
    // Each instance has its own pool, as separate processes would; one schema = one deployment.
    dbA = await openDatabase({ url, schema });
    dbB = await openDatabase({ url, schema });
    const env = { SOCKET_TOKEN_SECRET: randomBytes(32).toString('hex') };
    a = await createTestApp({ ledger: 'none', database: dbA, env });
    b = await createTestApp({ ledger: 'none', database: dbB, env });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    const address = b.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    wsB = `ws://127.0.0.1:${address.port}/ws`;
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await dbA?.close();
    await dbB?.close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  it('uses the PostgreSQL bus automatically', () => {
    expect(a.app.realtime.bus.kind).toBe('postgres');
    expect(b.app.realtime.bus.kind).toBe('postgres');
  });

  it('delivers a trade published on instance A to a socket on instance B', async () => {
    // Instance A issues the token, instance B accepts it: tokens are instance-independent.
    const token = (await a.app.inject({ url: '/api/auth/socket-token' })).json().token as string;
    const s = await TestSocket.open(`${wsB}?token=${token}`);
    await s.next('ready');
    s.send({ event: 'subscribe', token: 'PEPE', issuer: ISSUER });
    await s.next('subscribed');
    const trade = {
      type: 'SELL' as const,
      baseCurrency: tickerToCurrency('PEPE'),
      baseIssuer: ISSUER,
      quoteCurrency: 'XRP',
      quoteIssuer: null,
      price: '0.5',
    };
    await a.app.realtime.publishTrade(trade);
    expect((await s.next('new_trade')).data).toEqual(trade);
    s.close();
  });

  it('delivers a user’s order update from A to that user’s socket on B (sessions are shared)', async () => {
    const alice = await a.signIn('alice');
    // The session made on A is valid on B: both read the same sessions table.
    const token = (
      await b.app.inject({ url: '/api/auth/socket-token', headers: { cookie: alice.cookie } })
    ).json().token as string;
    const s = await TestSocket.open(`${wsB}?token=${token}`);
    expect((await s.next('ready')).data).toEqual({ userId: alice.user.id });
    await a.app.realtime.publishOrderUpdate(alice.user.id, { orderId: 42, status: 'partially_filled' });
    expect((await s.next('orderUpdated')).data).toEqual({ orderId: 42, status: 'partially_filled' });
    s.close();
  });

  it('delivers a turn’s events in publish order, identical ones as often as they were published', async () => {
    // A ledger's trades are published in one turn and leave in as few NOTIFY statements as the
    // queue allows; PostgreSQL would deliver an identical payload repeated within one statement once.
    const received: unknown[] = [];
    const off = b.app.realtime.bus.subscribe('test:order', (p) => received.push(p));
    const sent = Array.from({ length: 300 }, (_, i) => ({ i: i % 100 === 50 ? 'same' : i }));
    await Promise.all(sent.map((p) => a.app.realtime.bus.publish('test:order', p)));
    await until(() => received.length >= sent.length, 5000);
    off();
    expect(received).toEqual(sent);
    expect(received.filter((p) => (p as { i: unknown }).i === 'same')).toHaveLength(3);
  });

  it('sends its notifications on the listening connection, not through the pool', async () => {
    // Through the pool a ledger's announcement queued behind a launch's statements (docs/realtime.md).
    await a.app.realtime.bus.publish('test:conn', { n: 1 });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ query: string }>(
        'select query from pg_stat_activity where application_name = $1',
        [`ledgerpad-events:${schema}`],
      );
      expect(rows.some((r) => r.query.includes('pg_notify'))).toBe(true);
    } finally {
      await admin.end();
    }
  });

  it('carries payloads larger than a NOTIFY allows through the payload table', async () => {
    const received: unknown[] = [];
    const off = b.app.realtime.bus.subscribe('test:big', (p) => received.push(p));
    const big = { blob: 'y'.repeat(NOTIFY_MAX_BYTES * 2) };
    await a.app.realtime.bus.publish('test:big', big);
    await until(() => received.length > 0, 3000);
    off();
    expect(received).toEqual([big]);
    await expect(
      a.app.realtime.bus.publish('test:big', { blob: 'z'.repeat(2 * 1024 * 1024) }),
    ).rejects.toThrow(/limit/);
  });

  it('re-listens after the LISTEN connection is killed', async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const killed = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
        [`ledgerpad-events:${schema}`],
      );
      // One listener per instance.
      expect(killed.rowCount).toBe(2);
    } finally {
      await admin.end();
    }
    const received: unknown[] = [];
    const off = b.app.realtime.bus.subscribe('test:after-reconnect', (p) => received.push(p));
    // Events published while B is reconnecting are lost (best-effort); keep publishing until one lands.
    await until(
      async () => {
        await a.app.realtime.bus.publish('test:after-reconnect', { n: 1 });
        return received.length > 0;
      },
      { timeoutMs: 8000, everyMs: 100 },
    );
    off();
    expect(received.length).toBeGreaterThan(0);
  }, 15_000);

  it('isolates schemas: the channel name carries the schema', () => {
    expect(channelName(schema)).toBe(`${schema}_ledgerpad_events`);
  });
});
