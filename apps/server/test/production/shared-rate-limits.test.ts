import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { createTestDatabase } from '../db';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../helpers/test-app';

// One budget across instances (issue 34): two app instances on one PostgreSQL schema — each with
// its own limiter, as two processes would have — share every per-minute limit. Before, each kept
// its counters in memory and a caller got the budget once per instance. The same pair with
// RATE_LIMIT_STORE=memory shows what that was. Uses TEST_DATABASE_URL, else the local PostgreSQL of
// the README and CI (the real-process check is in two-instances.test.ts).

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const READS = 20;
const WRITES = 5;
const SIGN_INS = 4;

describe('per-minute limits on two instances of one PostgreSQL', () => {
  let database: Database;
  let a: TestApp;
  let b: TestApp;
  const env = {
    RATE_LIMIT_READ_PER_MIN: String(READS),
    RATE_LIMIT_WRITE_PER_MIN: String(WRITES),
    RATE_LIMIT_AUTH_PER_MIN: String(SIGN_INS),
    TELEGRAM_BOT_TOKEN: '1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  };

  beforeAll(async () => {
    database = await createTestDatabase(url);
    expect(database.driver).toBe('postgres');
    a = await createTestApp({ ledger: 'none', database, env });
    b = await createTestApp({ ledger: 'none', database, env });
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
  });

  /** A caller's request on instance `i % 2`, from its own address (its own budget). */
  const read = (i: number, ip: string, apps = [a, b]) =>
    apps[i % 2]!.app.inject({ url: '/api/config/fees', remoteAddress: ip });

  it('spends one read budget on both: the first request over it is refused by either', async () => {
    const codes: number[] = [];
    for (let i = 0; i < READS + 2; i++) codes.push((await read(i, '198.51.100.1')).statusCode);
    expect(codes.slice(0, READS)).toEqual(Array(READS).fill(200));
    expect(codes.slice(READS)).toEqual([429, 429]);
    const refused = await read(0, '198.51.100.1');
    expect(refused.json().error).toBe('rate_limited');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another address has its own budget, on either instance.
    expect((await read(1, '198.51.100.2')).statusCode).toBe(200);
  });

  it('counts requests that arrive at once on both exactly once each: the budget, not a request more', async () => {
    const all = await Promise.all(Array.from({ length: 2 * READS }, (_, i) => read(i, '198.51.100.3')));
    const passed = all.filter((r) => r.statusCode === 200).length;
    expect(passed).toBe(READS);
    expect(all.filter((r) => r.statusCode === 429)).toHaveLength(READS);
  });

  it('shares the write budget of a signed-in user, and the sign-in budget of an address', async () => {
    /** `n` requests, one after another, alternately on A and B: their statuses. */
    const alternately = async (n: number, options: InjectOptions) => {
      const codes: number[] = [];
      for (let i = 0; i < n; i++) codes.push((await (i % 2 ? b : a).app.inject(options)).statusCode);
      return codes;
    };
    const alice = await a.signIn('alice');
    const writes = await alternately(WRITES + 1, {
      method: 'PUT',
      url: '/api/user/slippage',
      headers: alice.headers,
      payload: { slippage: '1' },
    });
    expect(writes.slice(0, WRITES)).toEqual(Array(WRITES).fill(200));
    expect(writes[WRITES]).toBe(429);

    const signIns = await alternately(SIGN_INS + 1, {
      method: 'POST',
      url: '/api/auth/telegram',
      remoteAddress: '198.51.100.4',
      headers: { origin: TEST_ORIGIN },
      payload: { id: 1, auth_date: 1, hash: '0'.repeat(64) },
    });
    expect(signIns.slice(0, SIGN_INS)).toEqual(Array(SIGN_INS).fill(401));
    expect(signIns[SIGN_INS]).toBe(429);
  });

  it('kept in memory instead (RATE_LIMIT_STORE=memory), each instance gave the whole budget again', async () => {
    const memory = { ...env, RATE_LIMIT_STORE: 'memory' };
    const c = await createTestApp({ ledger: 'none', database, env: memory });
    const d = await createTestApp({ ledger: 'none', database, env: memory });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 2 * READS + 1; i++) codes.push((await read(i, '198.51.100.5', [c, d])).statusCode);
      expect(codes.filter((s) => s === 200)).toHaveLength(2 * READS);
      expect(codes[2 * READS]).toBe(429);
    } finally {
      await c.close();
      await d.close();
    }
  });
});
