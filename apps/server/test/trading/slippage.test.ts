import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SWAP_MESSAGES } from '@ledgerpad/shared';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/test-app';

// The saved slippage (spec 001 §7): 0.50 until saved, the swap's own rule when saving, and only the
// session's own id in the path.

let t: TestApp;
let alice: SignedIn;
let bob: SignedIn;

beforeAll(async () => {
  t = await createTestApp({ ledger: 'none' });
  alice = await t.signIn('alice_slip');
  bob = await t.signIn('bob_slip');
});
afterAll(async () => {
  await t?.close();
});

const read = (who: SignedIn, id: number | string) =>
  t.app.inject({ url: `/api/user/slippage/${id}`, headers: { cookie: who.cookie } });
const save = (who: SignedIn, slippage: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/user/slippage', headers: who.headers, payload: { slippage } });

describe('slippage preference', () => {
  it('is 0.50 until saved, then what was saved; never another user’s', async () => {
    expect((await read(alice, alice.user.id)).json()).toEqual({ slippage: '0.50' });
    expect((await save(alice, '1.25')).statusCode).toBe(200);
    expect((await read(alice, alice.user.id)).json()).toEqual({ slippage: '1.25' });
    expect((await read(bob, bob.user.id)).json()).toEqual({ slippage: '0.50' });
    expect((await read(bob, alice.user.id)).statusCode).toBe(403);
    expect((await read(bob, 'abc')).statusCode).toBe(400);
  });

  it('refuses what a swap would refuse, and needs the CSRF token', async () => {
    for (const bad of ['1.234', '51', '-1', 'x']) {
      const r = await save(alice, bad);
      expect([r.statusCode, r.json().message]).toEqual([400, SWAP_MESSAGES.slippage]);
    }
    const noCsrf = await t.app.inject({
      method: 'PUT',
      url: '/api/user/slippage',
      headers: { cookie: alice.cookie },
      payload: { slippage: '2' },
    });
    expect(noCsrf.statusCode).toBe(403);
    expect((await read(alice, alice.user.id)).json()).toEqual({ slippage: '1.25' });
  });
});
