import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountTxTransaction } from 'xrpl';
import type { AddTrustlineResult, DeployResult, SwapResult } from '@ledgerpad/shared';
import type { SignedIn } from '../helpers/test-app';
import { fundedWallet, seed, type TradingWorld } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// One TrustSet per line (issue 34): 50 concurrent buys of a new token from 10 wallets signed 50
// TrustSets for 20 lines — each buy opened its own. Now concurrent buys (and the add-trustline
// button) of one wallet sign one TrustSet; the others wait for it and then trade. Counted on the
// ledger itself (account_tx), every buy executed.

const WALLETS = 3;
const BUYS_PER_WALLET = 4;

let t: WalletTestApp;
let world: TradingWorld;
let owner: SignedIn;
let alice: SignedIn;
let bob: SignedIn;
let token: DeployResult;

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  world = seed(t);
  await t.app.platform.accounts.bootstrapped();
  owner = await t.signInOwner();
  alice = await t.signIn('alice');
  bob = await t.signIn('bob');
  const deployer = await fundedWallet(t, owner, 1);
  token = await world.deploy(owner, deployer.id, { name: 'Once Token', ticker: 'ONCE' });
}, 180_000);
afterAll(() => t?.close());

/** The wallet's validated transactions of one type, with their results. */
async function ledgerTxs(address: string, type: string) {
  const r = await world.client.request({
    command: 'account_tx',
    account: address,
    ledger_index_min: -1,
    ledger_index_max: -1,
    limit: 400,
  });
  return (r.result.transactions as AccountTxTransaction[])
    .filter((x) => (x.tx_json ?? (x as { tx?: { TransactionType: string } }).tx)?.TransactionType === type)
    .map((x) => (x.meta as { TransactionResult: string }).TransactionResult);
}

describe('concurrent buys of a new token', () => {
  it('sign exactly one TrustSet per wallet and line, and every buy executes', async () => {
    const wallets = [
      ...(await Promise.all([fundedWallet(t, alice, 1), fundedWallet(t, alice, 1)])).map((w) => ({
        w,
        who: alice,
      })),
      { w: await fundedWallet(t, bob, 1), who: bob },
    ];
    expect(wallets).toHaveLength(WALLETS);
    const buy = (who: SignedIn, walletAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/swap',
        headers: who.headers,
        payload: {
          walletAddress,
          issuer: token.issuer_address,
          token: 'ONCE',
          amount: '1',
          type: 'BUY',
          slippage: '5',
        },
      });
    // All at once: every wallet's buys, and the add-trustline button of the first wallet in between.
    const [buys, button] = await Promise.all([
      Promise.all(
        wallets.flatMap(({ w, who }) => Array.from({ length: BUYS_PER_WALLET }, () => buy(who, w.address))),
      ),
      t.app.inject({
        method: 'POST',
        url: '/api/add-trustline',
        headers: alice.headers,
        payload: { wallet: wallets[0]!.w.address, issuer: token.issuer_address, token: 'ONCE' },
      }),
    ]);
    for (const res of buys) {
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as SwapResult).status).toBe('success');
    }
    expect(button.statusCode, button.body).toBe(200);
    expect((button.json() as AddTrustlineResult).status).toBe('success');
    await world.feesSettled();

    for (const { w } of wallets) {
      // One TrustSet, applied — no refused or duplicate ones — and every buy as its own Payment.
      expect(await ledgerTxs(w.address, 'TrustSet'), w.address).toEqual(['tesSUCCESS']);
      const payments = await ledgerTxs(w.address, 'Payment');
      expect(payments.filter((r) => r === 'tesSUCCESS').length, w.address).toBeGreaterThanOrEqual(
        BUYS_PER_WALLET,
      );
      expect(new Set(payments)).toEqual(new Set(['tesSUCCESS']));
      // The tokens of all four buys are there.
      expect(Number(await world.tokens(w.address, token))).toBeGreaterThan(0);
    }
    // What the server recorded agrees: one TrustSet per wallet.
    const rows = await t.database.sql.query<{ account: string; n: number }>(
      `select account, count(*)::int as n from ledger_submissions where tx_type = 'TrustSet' and account = any($1) group by account`,
      [wallets.map(({ w }) => w.address)],
    );
    expect(rows.map((r) => r.n)).toEqual(wallets.map(() => 1));
  }, 240_000);
});
