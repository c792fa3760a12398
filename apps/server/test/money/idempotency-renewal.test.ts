import Fastify, { type FastifyInstance } from 'fastify';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { registerIdempotency } from '../../src/lib/idempotency';
import { createTestDatabase } from '../db';
import { until } from '../helpers/wait';

// The leases of running Idempotency-Keys are renewed together (issue 40): every RENEW_MS (2 s) one
// statement extends the lease of every request this process is running, instead of one timer and
// one UPDATE per request (a hot launch's 1,000 requests waiting for their ledger made 500 UPDATEs a
// second, a third of PGlite's time at 100 users). Checked: three requests held open past a renewal
// all have their leases extended, by one renewal statement, and a finished request's is not.

let database: Database;
let app: FastifyInstance;
const gates = new Map<string, () => void>();

beforeAll(async () => {
  database = await createTestDatabase();
  app = Fastify();
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    (request as unknown as { user: { id: number } }).user = { id: 7 };
  });
  registerIdempotency(app, database, { sweepMs: 0 });
  // Answers when the test opens its gate.
  app.post('/api/hold', async (request) => {
    const key = String(request.headers['idempotency-key']);
    await new Promise<void>((resolve) => gates.set(key, resolve));
    return { key };
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const leases = async () =>
  new Map(
    (
      await database.sql.query<{ key: string; lease_until: Date; state: string }>(
        'select key, lease_until, state from idempotent_requests where user_id = 7',
      )
    ).map((r) => [r.key, { until: new Date(r.lease_until).getTime(), state: r.state }]),
  );

describe('idempotency leases', () => {
  it('renews every running request in one statement per tick, and stops with the last', async () => {
    const keys = ['k-a', 'k-b', 'k-c'];
    const answers = keys.map((key) =>
      app.inject({ method: 'POST', url: '/api/hold', headers: { 'idempotency-key': key }, payload: {} }),
    );
    await until('all three running', () => keys.every((k) => gates.has(k)));
    const first = await leases();
    expect([...first.values()].map((l) => l.state)).toEqual(['running', 'running', 'running']);

    // Statements the renewals run, counted on PGlite's protocol entry (the only driver of this test
    // database unless TEST_DATABASE_URL points at PostgreSQL).
    let renewals = 0;
    const proto = PGlite.prototype as unknown as { query: (...a: unknown[]) => unknown };
    const query = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      if (/update "idempotent_requests" as r/.test(String(args[0]))) renewals++;
      return query.apply(this, args);
    };
    try {
      const renewed = await until(
        'a renewal',
        async () => {
          const now = await leases();
          return keys.every((k) => now.get(k)!.until > first.get(k)!.until) && now;
        },
        { timeoutMs: 8_000, everyMs: 100 },
      );
      expect([...renewed.values()].every((l) => l.state === 'running')).toBe(true);
    } finally {
      proto.query = query;
    }
    if (database.driver === 'pglite') expect(renewals).toBe(1);

    gates.get('k-a')!();
    expect((await answers[0]!).json()).toEqual({ key: 'k-a' });
    const done = await leases();
    expect(done.get('k-a')!.state).toBe('done');
    for (const k of ['k-b', 'k-c']) gates.get(k)!();
    await Promise.all(answers);
    expect([...(await leases()).values()].map((l) => l.state)).toEqual(['done', 'done', 'done']);
  }, 20_000);
});
