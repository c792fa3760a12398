import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { createTestDatabase } from '../db';
import { createTestApp, TEST_ORIGIN } from '../helpers/test-app';

describe('rate limits', () => {
  // Each test builds its own app (its own in-memory limit counters) on one shared database.
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('limits sign-in per IP and answers 429 with Retry-After and "Too Many Requests"', async () => {
    const t = await createTestApp({ ledger: 'none', database, env: { RATE_LIMIT_DEMO_PER_MIN: '3' } });
    try {
      let n = 0;
      const signIn = (ip: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/demo',
          remoteAddress: ip,
          headers: { origin: TEST_ORIGIN },
          payload: { username: `limited${n++}` },
        });
      for (let i = 0; i < 3; i++) expect((await signIn('10.0.0.1')).statusCode).toBe(200);
      const refused = await signIn('10.0.0.1');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(refused.json().error).toBe('rate_limited');
      expect(refused.body).toContain('Too Many Requests');
      // Another IP is not affected.
      expect((await signIn('10.0.0.2')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('defaults sign-in to 10 per minute', async () => {
    const t = await createTestApp({
      ledger: 'none',
      database,
      env: { RATE_LIMIT_AUTH_PER_MIN: '10', TELEGRAM_BOT_TOKEN: '1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/telegram',
          headers: { origin: TEST_ORIGIN },
          payload: { id: 1, auth_date: 1, hash: '0'.repeat(64) },
        });
        codes.push(res.statusCode);
      }
      expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
      expect(codes[10]).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('limits reads per client and writes per user', async () => {
    const t = await createTestApp({
      ledger: 'none',
      database,
      env: { RATE_LIMIT_READ_PER_MIN: '5', RATE_LIMIT_WRITE_PER_MIN: '2' },
    });
    try {
      const s = await t.signIn('writer');
      const logoutish = () =>
        // A CSRF-refused write still counts: the limit runs before the handler.
        t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: s.cookie } });
      expect((await logoutish()).statusCode).toBe(403);
      expect((await logoutish()).statusCode).toBe(403);
      const third = await logoutish();
      expect(third.statusCode).toBe(429);
      expect(third.headers['retry-after']).toBeDefined();

      const reads: number[] = [];
      for (let i = 0; i < 6; i++)
        reads.push((await t.app.inject({ url: '/api/auth/methods', remoteAddress: '10.9.9.9' })).statusCode);
      expect(reads.slice(0, 5).every((c) => c !== 429)).toBe(true);
      expect(reads[5]).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('limits the reads computed per question tighter, per anonymous IP, with Retry-After and a sentence', async () => {
    const t = await createTestApp({
      ledger: 'none',
      database,
      env: { RATE_LIMIT_EXPENSIVE_PER_MIN: '3', RATE_LIMIT_READ_PER_MIN: '100' },
    });
    try {
      // Chart history for ever-new ranges: each would be a fresh computation.
      const history = (ip: string, n: number) =>
        t.app.inject({
          url: `/api/tradingview/history?symbol=ABC&issuer=rrrrrrrrrrrrrrrrrrrrrhoLvTp&resolution=5&from=${n}&to=${n + 60}`,
          remoteAddress: ip,
        });
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) codes.push((await history('10.1.1.1', i)).statusCode);
      expect(codes.every((c) => c !== 429 && c < 500)).toBe(true);
      const refused = await history('10.1.1.1', 3);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json().message).toMatch(/^Too Many Requests: retry in \d+ s$/);
      // Another expensive route shares the budget; cheap reads from the same address go on.
      expect((await t.app.inject({ url: '/api/holders', remoteAddress: '10.1.1.1' })).statusCode).toBe(429);
      expect((await t.app.inject({ url: '/api/auth/methods', remoteAddress: '10.1.1.1' })).statusCode).toBe(
        200,
      );
      // Another address has its own budget.
      expect((await history('10.2.2.2', 0)).statusCode).not.toBe(429);
    } finally {
      await t.close();
    }
  });
});
