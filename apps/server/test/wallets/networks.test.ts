import { LEDGER_UNAVAILABLE_MESSAGE } from '@ledgerpad/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RLUSD_ISSUERS } from '@ledgerpad/shared';
import { PLATFORM_ROLES, rlusdIssuer } from '../../src/platform/accounts';
import { platformWallet } from '../../src/platform/custody';
import { createTestApp } from '../helpers/test-app';
import { createWalletTestApp, type WalletTestApp } from './wallet-app';

// A server configured for mainnet (pointed at a local ledger so nothing leaves the machine): no
// faucet routes at all, Ripple's RLUSD issuer, and platform wallets recorded but not bootstrapped.

describe('on mainnet', () => {
  let t: WalletTestApp;
  beforeAll(async () => {
    t = await createWalletTestApp({ XRPL_NETWORK: 'mainnet', XRPL_URL: 'ws://127.0.0.1:1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has no faucet routes', async () => {
    for (const url of ['/api/wallets/1/fund', '/api/wallets/1/fund-rlusd']) {
      const res = await t.app.inject({ method: 'POST', url });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toMatch(/^No API route/);
    }
    // The other wallet routes exist (401 without a session, not 404).
    expect((await t.app.inject({ method: 'GET', url: '/api/wallets' })).statusCode).toBe(401);
  });

  it('uses Ripple’s RLUSD issuer and records only the fee and service wallets', async () => {
    expect(await rlusdIssuer(t.database.db, 'mainnet')).toBe(RLUSD_ISSUERS.mainnet);
    expect(await rlusdIssuer(t.database.db, 'testnet')).toBe(RLUSD_ISSUERS.testnet);
    expect(await platformWallet(t.database.db, PLATFORM_ROLES.fee)).toBeDefined();
    expect(await platformWallet(t.database.db, PLATFORM_ROLES.service)).toBeDefined();
    expect(await platformWallet(t.database.db, PLATFORM_ROLES.rlusdIssuer)).toBeUndefined();
    expect(await platformWallet(t.database.db, PLATFORM_ROLES.genesis)).toBeUndefined();
  });
});

describe('without a ledger connection', () => {
  it('keeps wallet records working and answers 503 for ledger calls', async () => {
    const t = await createTestApp({ ledger: 'none' });
    try {
      const user = await t.signIn('offline');
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/wallets',
        headers: user.headers,
        payload: {},
      });
      expect(created.statusCode).toBe(200);
      const list = await t.app.inject({ method: 'GET', url: '/api/wallets', headers: user.headers });
      expect(list.json().wallets).toHaveLength(1);
      const balances = await t.app.inject({
        method: 'POST',
        url: '/api/wallets/balances',
        headers: user.headers,
        payload: {},
      });
      expect(balances.statusCode).toBe(503);
      expect((await t.app.inject({ method: 'GET', url: '/api/wallets/xrpl/status' })).json()).toEqual({
        connected: false,
      });
    } finally {
      await t.close();
    }
  });
});

describe('when the ledger connection is down', () => {
  it('answers 503 with a plain message, not a 500', async () => {
    const t = await createWalletTestApp();
    try {
      const user = await t.signIn('unlucky');
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/wallets',
        headers: user.headers,
        payload: {},
      });
      const id = created.json().id as number;
      await t.connection.close();
      for (const [method, url, payload] of [
        ['POST', '/api/wallets/balances', {}],
        ['GET', `/api/wallets/${id}/trustlines`, undefined],
        [
          'POST',
          '/api/wallets/transfer',
          { walletId: id, recipient: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', amount: '1', token: null },
        ],
      ] as const) {
        const res = await t.app.inject({
          method,
          url,
          headers: user.headers,
          ...(payload ? { payload } : {}),
        });
        expect(res.statusCode).toBe(503);
        expect(res.json().message).toBe(LEDGER_UNAVAILABLE_MESSAGE);
      }
      expect((await t.app.inject({ method: 'GET', url: '/api/wallets/xrpl/status' })).json()).toEqual({
        connected: false,
      });
    } finally {
      await t.close();
    }
  });
});
