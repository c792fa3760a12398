import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { RLUSD_CURRENCY_HEX } from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { platformWallet } from '../../src/platform/custody';
import { WalletService } from '../../src/modules/wallets/service';
import { registerTrustlineLimit } from '../../src/modules/wallets/trustline-limit';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/test-app';

// POST /api/wallets/set-trustline-limit through HTTP against the embedded ledger (closing every
// 100 ms), with RLUSD bootstrapped so a wallet funded with RLUSD has a real trust line to change.

const URL = '/api/wallets/set-trustline-limit';

let t: TestApp;
let alice: SignedIn;
let mallory: SignedIn;
let issuer: string;
let wallet: { id: number; wallet_address: string };

beforeAll(async () => {
  t = await createTestApp({
    env: { PLATFORM_BOOTSTRAP: 'on', FAUCET_XRP: '1000', FAUCET_RLUSD: '500' },
    closeIntervalMs: 100,
  });
  // Registered here until routes.ts carries the line; skipped once it does (Fastify refuses twins).
  if (!t.app.apiRoutes.some((r) => r.url === URL)) {
    const platform = t.app.platform;
    const service = new WalletService({
      db: platform.database.db,
      keyring: platform.keyring,
      connection: platform.connection,
      submissions: platform.submissions,
      network: platform.config.XRPL_NETWORK,
    });
    registerTrustlineLimit(t.app, { service, submissions: platform.submissions });
  }
  await t.app.ready();
  alice = await t.signIn('alice');
  mallory = await t.signIn('mallory');
  const created = await t.app.inject({ method: 'POST', url: '/api/wallets', headers: alice.headers });
  wallet = created.json();
  await t.app.platform.accounts.bootstrapped();
  issuer = (await platformWallet(t.database.db, PLATFORM_ROLES.rlusdIssuer))!.address;
});
afterAll(async () => {
  await t?.close();
});

const setLimit = (who: SignedIn | null, payload: object) =>
  t.app.inject({ method: 'POST', url: URL, headers: who ? who.headers : {}, payload });

const submissionsOf = async (walletId: number) =>
  (await t.database.db.select().from(ledgerSubmissions).where(eq(ledgerSubmissions.walletId, walletId)))
    .length;

async function rlusdLine(address: string) {
  const res = await t.ledger!.client.request({
    command: 'account_lines',
    account: address,
    peer: issuer,
    ledger_index: 'validated',
  });
  return res.result.lines.find((l) => l.currency === RLUSD_CURRENCY_HEX);
}

describe('set trust line limit', () => {
  it('needs a session and the CSRF token', async () => {
    expect((await setLimit(null, {})).statusCode).toBe(401);
    const noCsrf = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { cookie: alice.cookie },
      payload: { walletId: wallet.id, issuer, currency: 'RLUSD', limit: '10' },
    });
    expect(noCsrf.statusCode).toBe(403);
  });

  it('validates with the shared schema: empty, negative, not a number, too precise', async () => {
    const base = { walletId: wallet.id, issuer, currency: 'RLUSD' };
    const cases: Array<[unknown, string]> = [
      ['', 'Please fill in all fields.'],
      ['   ', 'Please fill in all fields.'],
      ['-1', 'Limit must be a number of 0 or more.'],
      ['1e5', 'Limit must be a number of 0 or more.'],
      ['abc', 'Limit must be a number of 0 or more.'],
      ['12345678901234567', 'Limit can have at most 16 significant digits.'],
    ];
    for (const [limit, message] of cases) {
      const res = await setLimit(alice, { ...base, limit });
      expect(res.statusCode, String(limit)).toBe(400);
      expect(res.json().message, String(limit)).toBe(message);
      expect(res.json().fields).toEqual([{ path: 'limit', message }]);
    }
    const badIssuer = await setLimit(alice, { ...base, issuer: 'rNotAnAddress', limit: '1' });
    expect(badIssuer.json().message).toBe('issuer must be a valid XRPL address');
  });

  it('answers 404 for a wallet that is not the user’s', async () => {
    for (const walletId of [wallet.id, 999999]) {
      const res = await setLimit(mallory, { walletId, issuer, currency: 'RLUSD', limit: '10' });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Wallet not found');
    }
  });

  it('refuses a line the wallet does not have, and signs nothing', async () => {
    const before = await submissionsOf(wallet.id);
    const res = await setLimit(alice, {
      walletId: wallet.id,
      issuer: Wallet.generate().classicAddress,
      currency: 'USD',
      limit: '10',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This wallet has no trust line for that token.');
    expect(await submissionsOf(wallet.id)).toBe(before);
  });

  it('changes the limit of an RLUSD line and keeps its other settings', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/wallets/${wallet.id}/fund`, headers: alice.headers }))
        .statusCode,
    ).toBe(200);
    const fund = await t.app.inject({
      method: 'POST',
      url: `/api/wallets/${wallet.id}/fund-rlusd`,
      headers: alice.headers,
    });
    expect(fund.statusCode).toBe(200);
    const before = await rlusdLine(wallet.wallet_address);
    expect(before).toMatchObject({ balance: '500', limit: '1000000000' });

    const res = await setLimit(alice, {
      walletId: wallet.id,
      issuer,
      currency: 'RLUSD',
      limit: '750.50',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, limit: '750.5' });
    const tx = await t.ledger!.client.request({ command: 'tx', transaction: res.json().hash });
    expect(tx.result.validated).toBe(true);
    const json = (tx.result as unknown as { tx_json: Record<string, unknown> }).tx_json;
    expect(json).toMatchObject({
      TransactionType: 'TrustSet',
      Account: wallet.wallet_address,
      LimitAmount: { currency: RLUSD_CURRENCY_HEX, issuer, value: '750.5' },
    });

    const after = await rlusdLine(wallet.wallet_address);
    expect(after).toMatchObject({ balance: '500', limit: '750.5' });
    expect(after!.no_ripple).toBe(before!.no_ripple);
    expect(after!.freeze).toBe(before!.freeze);
    const lines = await t.app.inject({
      method: 'GET',
      url: `/api/wallets/${wallet.id}/trustlines`,
      headers: alice.headers,
    });
    expect(lines.json().trustlines).toEqual([
      expect.objectContaining({ currency: 'RLUSD', issuer, balance: '500', limit: '750.5' }),
    ]);
    const [row] = await t.database.db
      .select()
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.hash, res.json().hash));
    expect(row).toMatchObject({ purpose: 'set-trustline-limit', walletId: wallet.id });
    expect(row!.intentKey).toMatch(new RegExp(`^set-limit:${wallet.id}:[0-9a-f-]{36}$`));
  });

  it('accepts the hex currency code and a limit equal to the balance', async () => {
    const res = await setLimit(alice, {
      walletId: wallet.id,
      issuer,
      currency: RLUSD_CURRENCY_HEX,
      limit: '500',
    });
    expect(res.statusCode).toBe(200);
    expect((await rlusdLine(wallet.wallet_address))!.limit).toBe('500');
  });

  it('refuses a limit below the balance with a clear 400, and signs nothing', async () => {
    const before = await submissionsOf(wallet.id);
    const res = await setLimit(alice, { walletId: wallet.id, issuer, currency: 'RLUSD', limit: '499.99' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'The limit cannot be lower than the 500 RLUSD this wallet holds.',
      balance: '500',
    });
    expect(await submissionsOf(wallet.id)).toBe(before);
    expect((await rlusdLine(wallet.wallet_address))!.limit).toBe('500');
  });
});
