import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { LEDGER_UNAVAILABLE_MESSAGE } from '@ledgerpad/shared';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/test-app';

// One rule when the ledger is away (lib/errors.ts `withLedger`): every route is there, and one whose
// work needs the ledger answers 503 with the sentence, never 404 for a route that was left out and
// never a made-up '0'. The route table of an app without a ledger is the one with a ledger.

let away: TestApp;
let alice: SignedIn;
let withLedgerRoutes: string[];

const key = (r: { method: string; url: string; access: string }) => `${r.method} ${r.url} ${r.access}`;

beforeAll(async () => {
  const full = await createTestApp({});
  await full.app.ready();
  withLedgerRoutes = full.app.apiRoutes.map(key).sort();
  await full.close();
  away = await createTestApp({ ledger: 'none' });
  await away.app.ready();
  alice = await away.signIn('alice');
}, 120_000);
afterAll(async () => {
  await away?.close();
});

describe('without a ledger', () => {
  it('keeps every route of the app with a ledger', () => {
    expect(away.app.apiRoutes.map(key).sort()).toEqual(withLedgerRoutes);
  });

  it('answers the routes that need the ledger 503 with the one sentence', async () => {
    const wallet = (
      await away.app.inject({
        method: 'POST',
        url: '/api/wallets',
        headers: alice.headers,
        payload: { name: 'w' },
      })
    ).json<{ id: number }>();
    const calls: Array<[InjectOptions['method'], string, object?]> = [
      ['GET', `/api/orders/get-orders/${alice.user.id}`],
      ['GET', '/api/check-orders-status'],
      ['DELETE', '/api/cancel-order/1'],
      ['GET', '/api/intents/00000000-0000-4000-8000-000000000000'],
      ['POST', `/api/wallets/${wallet.id}/fund`, {}],
      ['POST', `/api/wallets/${wallet.id}/fund-rlusd`, {}],
      [
        'POST',
        '/api/get-lp-price',
        { issuer: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', token: 'USD', amountLp: '1' },
      ],
    ];
    const failures: string[] = [];
    for (const [method, url, payload] of calls) {
      const res = await away.app.inject({
        method,
        url,
        headers: alice.headers,
        ...(payload ? { payload } : {}),
      });
      const message = res.headers['content-type']?.toString().includes('json')
        ? (res.json<{ message?: string }>().message ?? '')
        : res.body;
      if (res.statusCode !== 503 || message !== LEDGER_UNAVAILABLE_MESSAGE) {
        failures.push(`${method} ${url} → ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
