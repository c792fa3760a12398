import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, LedgerEntry } from 'xrpl';
import {
  DASHBOARD_MESSAGES,
  type IssuerWalletResponse,
  type SyncTrustLinesResponse,
  type TrustLinesResponse,
  type UserTokensResponse,
  EDGE_MESSAGES,
} from '@ledgerpad/shared';
import { TokenRegistry } from '../../src/modules/tokens';
import type { SignedIn } from '../helpers/test-app';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import {
  accountRoot,
  deployedToken,
  fundedUserWallet,
  rippleState,
  TRUST_LIMIT,
  type FixtureToken,
} from './token-fixture';

// The issuer's dashboard on the embedded ledger (closing every 100 ms): a token built as the deploy
// leaves one, its holders' lines read from the ledger, the issuer's freeze and blackhole checked on
// the ledger afterwards, and every route refusing anyone but the deployer.

const LSF_LOW_FREEZE = LedgerEntry.RippleStateFlags.lsfLowFreeze;
const LSF_HIGH_FREEZE = LedgerEntry.RippleStateFlags.lsfHighFreeze;
const LSF_DISABLE_MASTER = LedgerEntry.AccountRootFlags.lsfDisableMaster;
const ACCOUNT_ONE = 'rrrrrrrrrrrrrrrrrrrrBZbvji';

let t: WalletTestApp;
let alice: SignedIn;
let bob: SignedIn;
let mallory: SignedIn;
let token: FixtureToken;
let bobWallet: { id: number; address: string };
let bobEmpty: { id: number; address: string };
let aliceHolder: { id: number; address: string };
const BOB_AMOUNT = '250.5';
const ALICE_AMOUNT = '100';

const get = (who: SignedIn | null, url: string) =>
  t.app.inject({ method: 'GET', url, headers: who ? { cookie: who.cookie } : {} });
const post = (who: SignedIn | null, url: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, headers: who ? who.headers : {}, payload });

beforeAll(async () => {
  t = await createWalletTestApp();
  alice = await t.signIn('alice');
  bob = await t.signIn('bob');
  mallory = await t.signIn('mallory');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('before any token', () => {
  it('has-deployed-token is false and the token list is empty', async () => {
    const res = await get(alice, '/api/dashboard/has-deployed-token');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ hasDeployed: false });
    expect((await get(alice, `/api/dashboard/user-tokens/${alice.user.id}`)).json()).toEqual({ tokens: [] });
    expect((await get(null, '/api/dashboard/has-deployed-token')).statusCode).toBe(401);
  });
});

describe('a deployed token', () => {
  beforeAll(async () => {
    bobWallet = await fundedUserWallet(t, bob);
    bobEmpty = await fundedUserWallet(t, bob);
    aliceHolder = await fundedUserWallet(t, alice);
    token = await deployedToken(t, alice, {
      ticker: 'MOON',
      holders: [
        { wallet: bobWallet, amount: BOB_AMOUNT },
        { wallet: bobEmpty, amount: '0' },
        { wallet: aliceHolder, amount: ALICE_AMOUNT },
      ],
    });
  }, 60_000);

  it('has-deployed-token is true for the deployer only', async () => {
    expect((await get(alice, '/api/dashboard/has-deployed-token')).json()).toEqual({ hasDeployed: true });
    expect((await get(bob, '/api/dashboard/has-deployed-token')).json()).toEqual({ hasDeployed: false });
  });

  it('user-tokens lists the caller’s own tokens and refuses another user id', async () => {
    const own = await get(alice, `/api/dashboard/user-tokens/${alice.user.id}`);
    expect(own.statusCode).toBe(200);
    const body = own.json() as UserTokensResponse;
    expect(body.tokens.map((x) => [x.id, x.ticker, x.issuer_address])).toEqual([
      [token.row.id, 'MOON', token.issuer],
    ]);
    const foreign = await get(mallory, `/api/dashboard/user-tokens/${alice.user.id}`);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe(EDGE_MESSAGES.notOwnUser);
    expect(foreign.body).not.toContain(token.issuer);
    expect((await get(mallory, '/api/dashboard/user-tokens/abc')).statusCode).toBe(400);
  });

  it('issuer-wallet reads the AccountRoot flags from the ledger', async () => {
    const res = await get(alice, `/api/dashboard/issuer-wallet/${token.row.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      issuerAddress: token.issuer,
      requireAuthEnabled: false,
      isBlackholed: false,
    } satisfies IssuerWalletResponse);
  });

  it('lists the trust lines with the holders’ balances', async () => {
    const res = await get(alice, `/api/dashboard/trust-lines/${token.row.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as TrustLinesResponse;
    expect(body.issuerAddress).toBe(token.issuer);
    const byAccount = Object.fromEntries(body.trustLines.map((l) => [l.account_address, l]));
    expect(Object.keys(byAccount).sort()).toEqual(
      [bobWallet.address, bobEmpty.address, aliceHolder.address].sort(),
    );
    for (const [wallet, amount] of [
      [bobWallet, BOB_AMOUNT],
      [bobEmpty, '0'],
      [aliceHolder, ALICE_AMOUNT],
    ] as const) {
      const line = byAccount[wallet.address]!;
      expect(new Decimal(line.balance).eq(amount)).toBe(true);
      expect(new Decimal(line.limit_amount).eq(TRUST_LIMIT)).toBe(true);
      expect(line).toMatchObject({ authorized: false, freeze: false, currency: token.currency });
    }
  });

  it('freezes and unfreezes a line (issuer-side freeze flag on the RippleState)', async () => {
    const url = `/api/dashboard/trust-lines/${token.row.id}/freeze`;
    const frozen = await post(alice, url, {
      accountAddress: bobWallet.address,
      currency: token.currency,
      freeze: true,
    });
    expect(frozen.statusCode).toBe(200);
    expect(frozen.json()).toMatchObject({ success: true, hash: expect.any(String) });
    const state = await rippleState(t, token.issuer, bobWallet.address, token.currency);
    const issuerFreeze = state.issuerIsHigh ? LSF_HIGH_FREEZE : LSF_LOW_FREEZE;
    const holderFreeze = state.issuerIsHigh ? LSF_LOW_FREEZE : LSF_HIGH_FREEZE;
    expect(state.flags & issuerFreeze).toBe(issuerFreeze);
    expect(state.flags & holderFreeze).toBe(0);
    const lines = (
      await get(alice, `/api/dashboard/trust-lines/${token.row.id}`)
    ).json() as TrustLinesResponse;
    expect(lines.trustLines.find((l) => l.account_address === bobWallet.address)?.freeze).toBe(true);
    // The frozen holder cannot send the token on.
    const send = await post(bob, '/api/wallets/transfer', {
      walletId: bobWallet.id,
      recipient: aliceHolder.address,
      amount: '1',
      token: { currency: token.currency, issuer: token.issuer },
      memo: '',
    });
    expect(send.statusCode).toBeGreaterThanOrEqual(400);

    const thawed = await post(alice, url, {
      accountAddress: bobWallet.address,
      currency: token.currency,
      freeze: false,
    });
    expect(thawed.statusCode).toBe(200);
    const after = await rippleState(t, token.issuer, bobWallet.address, token.currency);
    expect(after.flags & issuerFreeze).toBe(0);
  });

  it('refuses a freeze of a line that does not exist, of an account that does not, and of another currency', async () => {
    const url = `/api/dashboard/trust-lines/${token.row.id}/freeze`;
    const lineless = await fundedUserWallet(t, mallory);
    const noLine = await post(alice, url, { accountAddress: lineless.address, freeze: true });
    expect(noLine.statusCode).toBe(400);
    expect(noLine.json().message).toBe(DASHBOARD_MESSAGES.noLine);
    // An address with no account at all is named (issue 34), not 'no trust line'.
    const ghost = Wallet.generate().classicAddress;
    const noAccount = await post(alice, url, { accountAddress: ghost, freeze: true });
    expect(noAccount.statusCode).toBe(400);
    expect(noAccount.json().message).toBe(
      `The holder ${ghost.slice(0, 6)}…${ghost.slice(-4)} does not exist on the XRP Ledger.`,
    );
    const other = await post(alice, url, {
      accountAddress: bobWallet.address,
      currency: 'USD',
      freeze: true,
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toBe(DASHBOARD_MESSAGES.wrongCurrency);
  });

  it('authorize: refuses un-authorizing and lines of a token without RequireAuth', async () => {
    const url = `/api/dashboard/trust-lines/${token.row.id}/authorize`;
    const off = await post(alice, url, { accountAddress: bobWallet.address, authorized: false });
    expect(off.statusCode).toBe(400);
    expect(off.json().message).toBe(DASHBOARD_MESSAGES.cannotUnauthorize);
    const noAuth = await post(alice, url, { accountAddress: bobWallet.address, authorized: true });
    expect(noAuth.statusCode).toBe(400);
    expect(noAuth.json().message).toBe(DASHBOARD_MESSAGES.requireAuthOff);
  });

  it('sets the limit of a line held by one of the caller’s wallets, and explains why not for others', async () => {
    const setLimit = (who: SignedIn, holder: string, limitAmount: string) =>
      post(who, '/api/dashboard/set-trust-line-limit', {
        issuerAddress: token.issuer,
        holderAddress: holder,
        currency: token.currency,
        limitAmount,
      });
    expect((await setLimit(alice, aliceHolder.address, '5000')).statusCode).toBe(200);
    const lines = (
      await get(alice, `/api/dashboard/trust-lines/${token.row.id}`)
    ).json() as TrustLinesResponse;
    expect(lines.trustLines.find((l) => l.account_address === aliceHolder.address)?.limit_amount).toBe(
      '5000',
    );

    const foreignHolder = await setLimit(alice, bobWallet.address, '5000');
    expect(foreignHolder.statusCode).toBe(400);
    expect(foreignHolder.json().message).toBe(DASHBOARD_MESSAGES.limitHolderOnly);
    // The Wallets page's rule, reused: never below what the wallet holds.
    expect((await setLimit(alice, aliceHolder.address, '1')).statusCode).toBe(400);

    const notDeployer = await setLimit(bob, bobWallet.address, '5000');
    expect(notDeployer.statusCode).toBe(404);
    expect(notDeployer.json().message).toBe(DASHBOARD_MESSAGES.tokenNotFound);
  });

  it('sync re-reads supply and issuer flags into the row and returns the lines', async () => {
    const registry = new TokenRegistry(t.database.db);
    await registry.update(token.row.id, { supply: '1', requireAuth: true, isBlackholed: true });
    const wrongIssuer = await post(alice, `/api/dashboard/sync-trust-lines/${token.row.id}`, {
      issuerAddress: bobWallet.address,
      currency: token.currency,
    });
    expect(wrongIssuer.statusCode).toBe(400);
    const res = await post(alice, `/api/dashboard/sync-trust-lines/${token.row.id}`, {
      issuerAddress: token.issuer,
      currency: token.currency,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as SyncTrustLinesResponse;
    const outstanding = new Decimal(BOB_AMOUNT).plus(ALICE_AMOUNT);
    expect(new Decimal(body.token.supply).eq(outstanding)).toBe(true);
    expect(body.trustLines).toHaveLength(3);
    const row = await registry.byId(token.row.id);
    expect(new Decimal(row!.supply).eq(outstanding)).toBe(true);
    expect(row).toMatchObject({ requireAuth: false, isBlackholed: false });
  });

  it('disable-require-auth with RequireAuth already off succeeds without signing', async () => {
    const res = await post(alice, `/api/dashboard/disable-require-auth/${token.row.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
  });

  it("answers another user's token exactly like an unknown token on every route", async () => {
    const id = token.row.id;
    const routes: Array<[string, string, object?]> = [
      ['GET', `/api/dashboard/issuer-wallet/${id}`],
      ['GET', `/api/dashboard/trust-lines/${id}`],
      [
        'POST',
        `/api/dashboard/trust-lines/${id}/freeze`,
        { accountAddress: bobWallet.address, freeze: true },
      ],
      [
        'POST',
        `/api/dashboard/trust-lines/${id}/authorize`,
        { accountAddress: bobWallet.address, authorized: true },
      ],
      [
        'POST',
        `/api/dashboard/sync-trust-lines/${id}`,
        { issuerAddress: token.issuer, currency: token.currency },
      ],
      ['POST', `/api/dashboard/blackhole-issuer/${id}`, {}],
      ['POST', `/api/dashboard/disable-require-auth/${id}`, {}],
    ];
    for (const [method, url, payload] of routes) {
      const call = (who: SignedIn, u: string) => (method === 'GET' ? get(who, u) : post(who, u, payload));
      const foreign = await call(mallory, url);
      const unknown = await call(mallory, url.replace(`/${id}`, '/999999'));
      expect(foreign.statusCode, url).toBe(404);
      expect(foreign.json(), url).toEqual(unknown.json());
      expect(foreign.json().message).toBe(DASHBOARD_MESSAGES.tokenNotFound);
      // The holder of a line is not its issuer's owner either.
      expect((await call(bob, url)).statusCode, url).toBe(404);
    }
    const limit = await post(mallory, '/api/dashboard/set-trust-line-limit', {
      issuerAddress: token.issuer,
      holderAddress: bobWallet.address,
      currency: token.currency,
      limitAmount: '1',
    });
    expect(limit.statusCode).toBe(404);
    // Nothing was signed for the token's issuer by any of these.
    const root = await accountRoot(t, token.issuer);
    expect(root.RegularKey).toBeUndefined();
  });

  it('blackholes the issuer; afterwards every issuer write answers a clear 400', async () => {
    const res = await post(alice, `/api/dashboard/blackhole-issuer/${token.row.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true });
    const root = await accountRoot(t, token.issuer);
    expect(root.RegularKey).toBe(ACCOUNT_ONE);
    expect((root.Flags >>> 0) & LSF_DISABLE_MASTER).toBe(LSF_DISABLE_MASTER);
    const row = await new TokenRegistry(t.database.db).byId(token.row.id);
    expect(row?.isBlackholed).toBe(true);
    const wallet = (
      await get(alice, `/api/dashboard/issuer-wallet/${token.row.id}`)
    ).json() as IssuerWalletResponse;
    expect(wallet.isBlackholed).toBe(true);

    const id = token.row.id;
    // Blackholing again is what the ledger already is: success, nothing signed (irreversible actions
    // answer from the ledger, never 'failed' for a change that happened).
    const again = await post(alice, `/api/dashboard/blackhole-issuer/${id}`, {});
    expect([again.statusCode, again.json()]).toEqual([200, { success: true }]);
    const writes: Array<[string, object]> = [
      [`/api/dashboard/trust-lines/${id}/freeze`, { accountAddress: bobWallet.address, freeze: true }],
      [`/api/dashboard/trust-lines/${id}/authorize`, { accountAddress: bobWallet.address, authorized: true }],
    ];
    for (const [url, payload] of writes) {
      const refused = await post(alice, url, payload);
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json().message, url).toBe(DASHBOARD_MESSAGES.issuerBlackholed);
    }
    // Reading still works: the lines are still there to look at.
    const lines = await get(alice, `/api/dashboard/trust-lines/${id}`);
    expect(lines.statusCode).toBe(200);
    expect((lines.json() as TrustLinesResponse).trustLines).toHaveLength(3);
  });
});
