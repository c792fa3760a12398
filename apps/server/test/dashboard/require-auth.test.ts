import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_MESSAGES, type TrustLinesResponse } from '@ledgerpad/shared';
import { BLACKHOLE_ADDRESS } from '../../src/modules/deploy';
import { TokenRegistry } from '../../src/modules/tokens';
import type { SignedIn } from '../helpers/test-app';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import {
  accountRoot,
  deployedToken,
  fundedUserWallet,
  rippleState,
  submitOk,
  submitTx,
  type FixtureToken,
} from './token-fixture';
import { AccountSetAsfFlags, LedgerEntry } from 'xrpl';

// A token whose issuer requires authorization: the deployer authorizes a holder's line from the
// dashboard (checked on the RippleState), the holder can then receive the token, and RequireAuth is
// cleared from the AccountRoot. Last, an issuer blackholed behind the app's back (the row still
// says it is not) is refused from what the ledger says.

const LSF_LOW_AUTH = LedgerEntry.RippleStateFlags.lsfLowAuth;
const LSF_HIGH_AUTH = LedgerEntry.RippleStateFlags.lsfHighAuth;
const LSF_REQUIRE_AUTH = LedgerEntry.AccountRootFlags.lsfRequireAuth;

let t: WalletTestApp;
let alice: SignedIn;
let bob: SignedIn;
let token: FixtureToken;
let bobWallet: { id: number; address: string };

const get = (who: SignedIn, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { cookie: who.cookie } });
const post = (who: SignedIn, url: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload });

beforeAll(async () => {
  t = await createWalletTestApp();
  alice = await t.signIn('alice');
  bob = await t.signIn('bob');
  bobWallet = await fundedUserWallet(t, bob);
  token = await deployedToken(t, alice, {
    ticker: 'GATE',
    requireAuth: true,
    holders: [{ wallet: bobWallet, amount: '0' }],
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const issue = (value: string) =>
  submitTx(t, token.issuer, {
    TransactionType: 'Payment',
    Destination: bobWallet.address,
    Amount: { currency: token.currency, issuer: token.issuer, value },
  });

describe('RequireAuth', () => {
  it('issuer-wallet says RequireAuth is on, as the AccountRoot does', async () => {
    expect((await accountRoot(t, token.issuer)).Flags & LSF_REQUIRE_AUTH).toBe(LSF_REQUIRE_AUTH);
    const res = await get(alice, `/api/dashboard/issuer-wallet/${token.row.id}`);
    expect(res.json()).toMatchObject({ requireAuthEnabled: true, isBlackholed: false });
  });

  it('authorizes a holder’s line, which can then receive the token', async () => {
    // Not authorized yet: the ledger refuses to deliver into the line.
    expect((await issue('10')).status).toBe('failed');
    const before = (
      await get(alice, `/api/dashboard/trust-lines/${token.row.id}`)
    ).json() as TrustLinesResponse;
    expect(before.trustLines.map((l) => [l.account_address, l.authorized])).toEqual([
      [bobWallet.address, false],
    ]);

    const res = await post(alice, `/api/dashboard/trust-lines/${token.row.id}/authorize`, {
      accountAddress: bobWallet.address,
      authorized: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, hash: expect.any(String) });
    const state = await rippleState(t, token.issuer, bobWallet.address, token.currency);
    const issuerAuth = state.issuerIsHigh ? LSF_HIGH_AUTH : LSF_LOW_AUTH;
    expect(state.flags & issuerAuth).toBe(issuerAuth);

    const paid = await issue('42');
    expect(paid.result).toBe('tesSUCCESS');
    const after = (
      await get(alice, `/api/dashboard/trust-lines/${token.row.id}`)
    ).json() as TrustLinesResponse;
    expect(after.trustLines).toEqual([
      expect.objectContaining({ account_address: bobWallet.address, authorized: true, balance: '42' }),
    ]);
    // Authorizing again signs nothing.
    const again = await post(alice, `/api/dashboard/trust-lines/${token.row.id}/authorize`, {
      accountAddress: bobWallet.address,
      authorized: true,
    });
    expect(again.json()).toEqual({ success: true });
  });

  it('disables RequireAuth on the ledger and in the row', async () => {
    const res = await post(alice, `/api/dashboard/disable-require-auth/${token.row.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, hash: expect.any(String) });
    expect((await accountRoot(t, token.issuer)).Flags & LSF_REQUIRE_AUTH).toBe(0);
    expect((await new TokenRegistry(t.database.db).byId(token.row.id))?.requireAuth).toBe(false);
    const wallet = await get(alice, `/api/dashboard/issuer-wallet/${token.row.id}`);
    expect(wallet.json()).toMatchObject({ requireAuthEnabled: false });
  });

  it('refuses writes for an issuer blackholed on the ledger even when the row does not know it', async () => {
    await submitOk(t, token.issuer, { TransactionType: 'SetRegularKey', RegularKey: BLACKHOLE_ADDRESS });
    await submitOk(t, token.issuer, {
      TransactionType: 'AccountSet',
      SetFlag: AccountSetAsfFlags.asfDisableMaster,
    });
    const registry = new TokenRegistry(t.database.db);
    expect((await registry.byId(token.row.id))?.isBlackholed).toBe(false);
    const res = await post(alice, `/api/dashboard/trust-lines/${token.row.id}/freeze`, {
      accountAddress: bobWallet.address,
      freeze: true,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(DASHBOARD_MESSAGES.issuerBlackholed);
    expect((await registry.byId(token.row.id))?.isBlackholed).toBe(true);
  });
});
