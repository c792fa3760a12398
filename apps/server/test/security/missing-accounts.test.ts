import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { fundedWallet } from '../helpers/trading-world';
import type { SignedIn } from '../helpers/test-app';

// An address a user gives that has no account on the ledger is the user's mistake: every route
// that takes one answers 400 with a sentence naming it (issue 34), before anything is signed —
// not 502 'The XRP Ledger refused the request' (a swap, a batch, a limit order did), not a
// TrustSet paid for and refused (tecNO_DST: add-trustline did), not 'Insufficient Liquidity'.

let t: WalletTestApp;
let alice: SignedIn;
let wallet: { id: number; address: string };
/** A valid address nobody funded. */
const ghost = Wallet.generate().classicAddress;
const short = `${ghost.slice(0, 6)}…${ghost.slice(-4)}`;

beforeAll(async () => {
  t = await createWalletTestApp();
  alice = await t.signIn('alice');
  wallet = await fundedWallet(t, alice, 1);
}, 120_000);
afterAll(() => t?.close());

const post = (url: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: alice.headers, payload: payload as object });

const signedFor = async () =>
  (
    await t.database.sql.query<{ n: number }>(
      'select count(*)::int as n from ledger_submissions where user_id = $1',
      [alice.user.id],
    )
  )[0]!.n;

describe('an issuer or account that does not exist', () => {
  it('is a 400 naming it on every route that takes one, and nothing is signed', async () => {
    const before = await signedFor();
    const issuerMissing = `The issuer ${short} does not exist on the XRP Ledger.`;
    const cases: Array<[string, unknown, string]> = [
      [
        '/api/swap',
        {
          walletAddress: wallet.address,
          issuer: ghost,
          token: 'GHO',
          amount: '1',
          type: 'BUY',
          slippage: '1',
        },
        issuerMissing,
      ],
      [
        '/api/swap',
        {
          walletAddress: wallet.address,
          issuer: ghost,
          token: 'GHO',
          amount: '1',
          type: 'SELL',
          slippage: '1',
        },
        issuerMissing,
      ],
      [
        '/api/swap/batch',
        {
          issuer: ghost,
          token: 'GHO',
          type: 'BUY',
          slippage: '1',
          orders: [{ walletAddress: wallet.address, amount: '1' }],
        },
        issuerMissing,
      ],
      [
        '/api/limit-order',
        { walletAddress: wallet.address, issuer: ghost, token: 'GHO', amount: '1', type: 'BUY', price: '1' },
        issuerMissing,
      ],
      ['/api/add-trustline', { wallet: wallet.address, issuer: ghost, token: 'GHO' }, issuerMissing],
      [
        '/api/amm-info',
        { wallet: wallet.address, issuer: ghost, token: 'GHO', tradeType: 'BUY', amountXrp: '1' },
        issuerMissing,
      ],
      [
        '/api/add-liquidity',
        {
          wallet: wallet.address,
          issuer: ghost,
          token: 'GHO',
          mode: 'double-asset',
          amountXrp: '1',
          amountToken: '1',
        },
        issuerMissing,
      ],
      ['/api/lp-token-balance', { wallet: wallet.address, issuer: ghost, token: 'GHO' }, issuerMissing],
      [
        '/api/burn/burn',
        { walletAddress: wallet.address, issuerAddress: ghost, tokenCode: 'GHO', amount: '1' },
        issuerMissing,
      ],
      [
        '/api/airdrops',
        {
          sourceWalletId: wallet.id,
          tokenCode: 'GHO',
          issuerAddress: ghost,
          projectName: 'Ghost drop',
          perUserType: 'fixed',
          totalTokenAmount: '100',
          fixedAmount: '1',
          deadline: new Date(Date.now() + 86_400_000).toISOString(),
        },
        issuerMissing,
      ],
      ['/api/gateway-balances', { account: ghost }, issuerMissing],
      // Tokens go only to an account (its own token: the wallet holds nothing else to send).
      [
        '/api/wallets/transfer',
        {
          walletId: wallet.id,
          recipient: ghost,
          amount: '1',
          token: { currency: 'USD', issuer: wallet.address },
        },
        `The recipient ${short} does not exist on the XRP Ledger.`,
      ],
      // XRP creates the account only from the base reserve up (1 XRP on this ledger).
      [
        '/api/wallets/transfer',
        { walletId: wallet.id, recipient: ghost, amount: '0.5' },
        'The recipient account is not activated yet: send at least 1 XRP to activate it.',
      ],
    ];
    const failures: string[] = [];
    for (const [url, payload, message] of cases) {
      const res = await post(url, payload);
      if (res.statusCode !== 400 || res.json().message !== message)
        failures.push(
          `${url} ${JSON.stringify(payload).slice(0, 80)} → ${res.statusCode} ${res.body.slice(0, 200)}`,
        );
    }
    expect(failures).toEqual([]);
    expect(await signedFor()).toBe(before);
  }, 120_000);
});
