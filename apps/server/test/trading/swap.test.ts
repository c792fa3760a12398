import Decimal from 'decimal.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type Client, type Payment, OfferCreateFlags } from 'xrpl';
import {
  SWAP_MESSAGES,
  type AddTrustlineResult,
  type DeployResult,
  type QuoteView,
  type SwapResult,
  TRUST_LINE_MAX_LIMIT,
} from '@ledgerpad/shared';
import { PLATFORM_ROLES, STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import { platformWallet } from '../../src/platform/custody';
import { jobs } from '../../src/platform/jobs';
import { tokens as tokensTable } from '../../src/modules/tokens/schema';
import { TRADING_FEE_JOB } from '../../src/modules/trading';
import { tradingTrades } from '../../src/modules/trading/schema';
import { users } from '../../src/modules/users/schema';
import type { SignedIn } from '../helpers/test-app';
import { deployToken, fundedWallet, seed, type TradingWorld } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { submitAndWait } from '../helpers/submit-and-wait';

// Market swaps from a custodial wallet on the embedded ledger: the quote is what then executes (to
// the last digit), the AMM's numbers match its formula, the ledger enforces slippage (no trade, no
// platform fee), and the platform fee is paid once with the creator's third accrued.

let t: WalletTestApp;
let world: TradingWorld;
let client: Client;
let owner: SignedIn;
let alice: SignedIn;
let aliceWallet: string;
let token: DeployResult;
const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);

const post = (url: string, who: SignedIn, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload });

const walletOf = (who: SignedIn) => fundedWallet(t, who);

async function pool() {
  const r = await client.request({
    command: 'amm_info',
    asset: { currency: 'XRP' },
    asset2: { currency: token.currency, issuer: token.issuer_address },
    ledger_index: 'validated',
  });
  return {
    xrp: new Decimal(r.result.amm.amount as string).div(1e6),
    tokens: new Decimal((r.result.amm.amount2 as { value: string }).value),
    fee: new Decimal(r.result.amm.trading_fee).div(100_000),
  };
}

const xrpOf = (address: string): Promise<bigint> => world.xrp(address);
const tokensOf = async (address: string): Promise<Decimal> => new Decimal(await world.tokens(address, token));
const feeJob = (hash: string) => world.feeJob(hash);

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  world = seed(t);
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  owner = await t.signInOwner();
  const ownerWallet = await walletOf(owner);
  token = await deployToken(t, owner, ownerWallet.id, { name: 'Swap Token', ticker: 'SWAP' });
  alice = await t.signIn('alice_trader');
  aliceWallet = (await walletOf(alice)).address;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('market swaps', () => {
  it('quotes a buy at the pool formula and executes exactly the quote; the fee is paid once, a third to the creator', async () => {
    const before = await pool();
    const quote = await post('/api/amm-info', alice, {
      issuer: token.issuer_address,
      token: 'SWAP',
      amountXrp: '10',
      tradeType: 'BUY',
      wallet: aliceWallet,
    });
    expect(quote.statusCode, quote.body).toBe(200);
    const q = quote.json() as QuoteView;
    // Constant product with the pool's fee on the input: out = T × (1 − X / (X + in × (1 − fee))).
    const formula = before.tokens.mul(
      new Decimal(1).minus(
        before.xrp.div(before.xrp.plus(new Decimal(10).mul(new Decimal(1).minus(before.fee)))),
      ),
    );
    expect(new Decimal(q.receive).minus(formula).abs().lte(formula.mul('1e-12'))).toBe(true);
    expect(q).toMatchObject({ spend: '10', quote: 'XRP', fee: '0.075', partial: false });
    expect(q.tokenAmountRounded).toBe(
      new Decimal(q.receive).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed(6),
    );
    expect(new Decimal(q.spotPrice!).eq(before.xrp.div(before.tokens))).toBe(true);
    expect(Number(q.priceImpactPercent)).toBeGreaterThan(0);
    // The swap box's disclosure: alice has no trust line yet, so the buy opens one (locking the
    // 0.2 XRP owner reserve) and signs three transactions: the line, the trade and the fee payment.
    expect(q).toMatchObject({ feePercent: '0.75', feeInPrice: '0', opensTrustLine: true, reserve: '0.2' });
    const xrpBefore = await xrpOf(aliceWallet);

    const feeWallet = (await platformWallet(t.database.db, PLATFORM_ROLES.fee))!.address;
    const feeBefore = await xrpOf(feeWallet);
    const swap = await post('/api/swap', alice, {
      walletAddress: aliceWallet,
      issuer: token.issuer_address,
      token: 'SWAP',
      amount: '10',
      type: 'BUY',
      slippage: '0.5',
      baseAsset: 'XRP',
    });
    expect(swap.statusCode, swap.body).toBe(200);
    const s = swap.json() as SwapResult;
    // Nothing traded in between: the executed amount is the quote to the last digit.
    expect(s).toMatchObject({ status: 'success', spent: '10', received: q.receive, fee: '0.075' });
    expect(s.swappedAmount).toBe(q.tokenAmountRounded);
    expect((await tokensOf(aliceWallet)).eq(q.receive)).toBe(true);

    const job = await feeJob(s.hash);
    expect(job).toBeDefined();
    const done = await t.app.platform.jobs.waitFor(job!.id, { timeoutMs: 30_000 });
    expect(done.status, done.error ?? '').toBe('completed');
    expect((await xrpOf(feeWallet)) - feeBefore).toBe(75_000n);
    // What the disclosure said the wallet pays, besides the reserve it locks, is what left it:
    // 10 + 0.075 + the network fees of its three transactions.
    const left = new Decimal((xrpBefore - (await xrpOf(aliceWallet))).toString()).div(1e6);
    expect(left.toFixed()).toBe(new Decimal(10).plus('0.075').plus(q.networkFee!).toFixed());
    const [row] = await t.database.db.select().from(tradingTrades).where(eq(tradingTrades.hash, s.hash));
    expect(row).toMatchObject({ feeStatus: 'paid', fee: '0.075', side: 'BUY', spent: '10' });
    const [listed] = await t.database.db
      .select()
      .from(tokensTable)
      .where(eq(tokensTable.issuerAddress, token.issuer_address));
    expect(listed).toMatchObject({ totalReward: '0.025', rewardCurrency: 'XRP' });
  });

  it('sells exactly the token amount for the quoted XRP', async () => {
    const held = await tokensOf(aliceWallet);
    const half = held.div(2).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed();
    const q = (
      await post('/api/amm-info', alice, {
        issuer: token.issuer_address,
        token: 'SWAP',
        amountToken: half,
        tradeType: 'SELL',
        wallet: aliceWallet,
      })
    ).json() as QuoteView;
    expect(q.spend).toBe(half);
    const s = (
      await post('/api/swap', alice, {
        wallet: aliceWallet,
        issuer: token.issuer_address,
        token: 'SWAP',
        amount: half,
        type: 'SELL',
        slippage: '1',
      })
    ).json() as SwapResult;
    expect(s).toMatchObject({ status: 'success', spent: half, received: q.receive });
    expect((await tokensOf(aliceWallet)).eq(held.minus(half))).toBe(true);
    // The fee is 0.75% of the XRP received, in whole drops.
    expect(s.fee).toBe(new Decimal(q.receive).mul('0.0075').mul(1e6).floor().div(1e6).toFixed());
  });

  it('fills a buy with a large price impact in full: slippage bounds the average price, not the last', async () => {
    const before = await pool();
    // Half the pool's XRP: the pool's price ends ~2.25× higher, the average ~1.5×.
    const amount = before.xrp.div(2).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed();
    const q = (
      await post('/api/amm-info', alice, {
        issuer: token.issuer_address,
        token: 'SWAP',
        amountXrp: amount,
        tradeType: 'BUY',
        wallet: aliceWallet,
      })
    ).json() as QuoteView;
    expect(Number(q.priceImpactPercent)).toBeGreaterThan(40);
    const res = await post('/api/swap', alice, {
      walletAddress: aliceWallet,
      issuer: token.issuer_address,
      token: 'SWAP',
      amount,
      type: 'BUY',
      slippage: '0.5',
      expected: q.receive,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'success', spent: amount, received: q.receive });
  });

  it('lets the ledger refuse a buy the market moved beyond the slippage: no trade, no platform fee', async () => {
    const q = (
      await post('/api/amm-info', alice, {
        issuer: token.issuer_address,
        token: 'SWAP',
        amountXrp: '5',
        tradeType: 'BUY',
        wallet: aliceWallet,
      })
    ).json() as QuoteView;
    // Someone outside Ledgerpad buys a lot first: the price rises well beyond 0.5%.
    const whale = Wallet.generate();
    const fund: Payment = {
      TransactionType: 'Payment',
      Account: genesis.address,
      Destination: whale.address,
      Amount: '100000000',
    };
    await submitAndWait(client, fund, genesis);
    await submitAndWait(
      client,
      {
        TransactionType: 'TrustSet',
        Account: whale.address,
        LimitAmount: { currency: token.currency, issuer: token.issuer_address, value: '1000000000' },
      },
      whale,
    );
    await submitAndWait(
      client,
      {
        TransactionType: 'OfferCreate',
        Account: whale.address,
        TakerGets: '30000000',
        TakerPays: { currency: token.currency, issuer: token.issuer_address, value: '1' },
        Flags: OfferCreateFlags.tfImmediateOrCancel | OfferCreateFlags.tfSell,
      },
      whale,
    );
    const tokensBefore = await tokensOf(aliceWallet);
    const xrpBefore = await xrpOf(aliceWallet);
    const tradesOfAlice = () =>
      t.database.db.select().from(tradingTrades).where(eq(tradingTrades.walletAddress, aliceWallet));
    const tradesBefore = (await tradesOfAlice()).length;
    const jobsBefore = (await t.database.db.select().from(jobs).where(eq(jobs.type, TRADING_FEE_JOB))).length;
    const res = await post('/api/swap', alice, {
      walletAddress: aliceWallet,
      issuer: token.issuer_address,
      token: 'SWAP',
      amount: '5',
      type: 'BUY',
      slippage: '0.5',
      expected: q.receive,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe(SWAP_MESSAGES.slippageExceeded);
    // Only the network fee left the wallet (the payment reached the ledger and failed there); no
    // token arrived; no trade recorded, no fee job.
    expect((await tokensOf(aliceWallet)).eq(tokensBefore)).toBe(true);
    const spent = xrpBefore - (await xrpOf(aliceWallet));
    expect(spent).toBeGreaterThan(0n);
    expect(spent).toBeLessThan(1000n);
    expect((await tradesOfAlice()).length).toBe(tradesBefore);
    expect((await t.database.db.select().from(jobs).where(eq(jobs.type, TRADING_FEE_JOB))).length).toBe(
      jobsBefore,
    );
  });

  it('swaps XRP → RLUSD and back against the XRP/RLUSD pool, with the spec texts', async () => {
    const { issuer, currency } = (await t.app.inject({ url: '/api/config/rlusd' })).json() as {
      issuer: string;
      currency: string;
    };
    const body = { walletAddress: aliceWallet, issuer, token: currency, baseAsset: 'XRP', slippage: '1' };
    const q = (
      await post('/api/amm-info', alice, {
        issuer,
        token: currency,
        amountXrp: '3',
        tradeType: 'BUY',
        wallet: aliceWallet,
      })
    ).json() as QuoteView;
    const there = await post('/api/swap', alice, { ...body, amount: '3', type: 'BUY', expected: q.receive });
    expect(there.statusCode, there.body).toBe(200);
    const r1 = there.json() as SwapResult;
    expect(r1.received).toBe(q.receive);
    expect(r1.message).toBe(
      `✅ Swapped 3.000000 XRP → ${new Decimal(q.receive).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed(6)} RLUSD`,
    );
    const half = new Decimal(r1.received).div(2).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed();
    const back = await post('/api/swap', alice, { ...body, amount: half, type: 'SELL' });
    expect(back.statusCode, back.body).toBe(200);
    const r2 = back.json() as SwapResult;
    expect(r2.message).toMatch(
      new RegExp(`^✅ Swapped ${new Decimal(half).toFixed(6)} RLUSD → \\d+\\.\\d{6} XRP$`),
    );
    expect(r2.spent).toBe(half);
  });

  it('adds trust lines for several wallets at once, without sequence clashes', async () => {
    const bob = await t.signIn('bob_lines');
    const wallets = [await walletOf(bob), await walletOf(bob), await walletOf(bob)];
    const results = await Promise.all(
      // Each wallet twice at the same time: the submission service orders a wallet's transactions.
      [...wallets, ...wallets].map((w) =>
        post('/api/add-trustline', bob, { wallet: w.address, issuer: token.issuer_address, token: 'SWAP' }),
      ),
    );
    for (const r of results) {
      expect(r.statusCode, r.body).toBe(200);
      expect((r.json() as AddTrustlineResult).status).toBe('success');
    }
    for (const w of wallets) {
      const lines = await client.request({
        command: 'account_lines',
        account: w.address,
        peer: token.issuer_address,
        ledger_index: 'validated',
      });
      expect(lines.result.lines.map((l) => [l.currency, l.limit])).toEqual([
        [token.currency, TRUST_LINE_MAX_LIMIT],
      ]);
    }
    // Once there, asking again sends nothing.
    const again = await post('/api/add-trustline', bob, {
      wallet: wallets[0]!.address,
      issuer: token.issuer_address,
      token: 'SWAP',
    });
    expect(again.json()).toEqual({ status: 'success', existed: true });
    // Someone else's wallet: the same answer as no wallet at all.
    const theirs = await post('/api/add-trustline', alice, {
      wallet: wallets[1]!.address,
      issuer: token.issuer_address,
      token: 'SWAP',
    });
    expect(theirs.statusCode).toBe(404);
    const bad = await post('/api/add-trustline', bob, {
      wallet: wallets[0]!.address,
      issuer: 'rBad',
      token: 'SWAP',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('takes 20 swaps at once from one user (4 wallets, 5 each) without a failure of its own making', async () => {
    const carol = await t.signIn('carol_multi');
    const wallets = await Promise.all([1, 2, 3, 4].map(() => walletOf(carol)));
    // The multi-wallet screen: one trust line request per wallet, all at once, then the buys.
    const lines = await Promise.all(
      wallets.map((w) =>
        post('/api/add-trustline', carol, { wallet: w.address, issuer: token.issuer_address, token: 'SWAP' }),
      ),
    );
    expect(lines.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const swaps = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post('/api/swap', carol, {
          walletAddress: wallets[i % 4]!.address,
          issuer: token.issuer_address,
          token: 'SWAP',
          amount: new Decimal(0.5).plus(new Decimal(i + 1).div(1e6)).toFixed(),
          type: 'BUY',
          // 20 buys move a 100 XRP pool: each is estimated alone, so allow for the others.
          slippage: '50',
        }),
      ),
    );
    for (const r of swaps) expect(r.statusCode, r.body).toBe(200);
    const results = swaps.map((r) => r.json() as SwapResult);
    expect(new Set(results.map((r) => r.hash)).size).toBe(20);
    expect(results.every((r) => r.status === 'success')).toBe(true);
    // Each wallet holds exactly what its five swaps received.
    for (const [k, w] of wallets.entries()) {
      const got = results
        .filter((_, i) => i % 4 === k)
        .reduce((sum, r) => sum.plus(r.received), new Decimal(0));
      expect((await tokensOf(w.address)).eq(got)).toBe(true);
    }
  }, 90_000); // 14 s alone; a loaded 2-core CI machine can take twice that and more

  it('answers a repeated quote from the ledger it was made on; the next ledger’s trade makes a new one, which then executes', async () => {
    const ask = async () => {
      const r = await post('/api/amm-info', alice, {
        issuer: token.issuer_address,
        token: 'SWAP',
        amountXrp: '3',
        tradeType: 'BUY',
        wallet: aliceWallet,
      });
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as QuoteView;
    };
    // The pool formula (as in the first test) for 3 XRP in, at the validated pool.
    const formula = async () => {
      const p = await pool();
      return p.tokens.mul(
        new Decimal(1).minus(p.xrp.div(p.xrp.plus(new Decimal(3).mul(new Decimal(1).minus(p.fee))))),
      );
    };
    const first = await ask();
    // Asked again with nothing traded: the same answer, digit for digit (the kept one).
    expect(await ask()).toEqual(first);
    const before = await formula();
    expect(new Decimal(first.receive).minus(before).abs().lte(before.mul('1e-12'))).toBe(true);
    // Someone outside Ledgerpad buys 2 XRP of tokens; it validates in a later ledger.
    const buyer = Wallet.generate();
    await submitAndWait(
      client,
      {
        TransactionType: 'Payment',
        Account: genesis.address,
        Destination: buyer.address,
        Amount: '50000000',
      },
      genesis,
    );
    await submitAndWait(
      client,
      {
        TransactionType: 'TrustSet',
        Account: buyer.address,
        LimitAmount: { currency: token.currency, issuer: token.issuer_address, value: '1000000000' },
      },
      buyer,
    );
    await submitAndWait(
      client,
      {
        TransactionType: 'OfferCreate',
        Account: buyer.address,
        TakerGets: '2000000',
        TakerPays: { currency: token.currency, issuer: token.issuer_address, value: '0.000001' },
        Flags: OfferCreateFlags.tfImmediateOrCancel | OfferCreateFlags.tfSell, // sell exactly 2 XRP
      },
      buyer,
    );
    // The kept quote is gone: the new one is the moved pool's formula, fewer tokens for the same XRP.
    const moved = await ask();
    const after = await formula();
    expect(new Decimal(moved.receive).minus(after).abs().lte(after.mul('1e-12'))).toBe(true);
    expect(new Decimal(moved.receive).lt(first.receive)).toBe(true);
    // And it is what executes, to the last digit.
    const swap = await post('/api/swap', alice, {
      walletAddress: aliceWallet,
      issuer: token.issuer_address,
      token: 'SWAP',
      amount: '3',
      type: 'BUY',
      slippage: '0.5',
      expected: moved.receive,
    });
    expect(swap.statusCode, swap.body).toBe(200);
    expect(swap.json()).toMatchObject({ status: 'success', spent: '3', received: moved.receive });
  });

  it('keeps a quote\u2019s database reads for the ledger it was made on: a fee rate changed behind the app shows from the next ledger, an admin\u2019s change at once', async () => {
    const ask = async () => {
      const r = await post('/api/amm-info', alice, {
        issuer: token.issuer_address,
        token: 'SWAP',
        amountXrp: '1',
        tradeType: 'BUY',
        wallet: aliceWallet,
      });
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as QuoteView;
    };
    const indexer = t.app.platform.indexer!;
    const nextLedger = async (after: number) => {
      await indexer.caughtUp(after + 1);
      expect(indexer.lastIndexed).toBeGreaterThan(after);
    };
    const rate = (fee: string | null) =>
      t.database.db.update(users).set({ customFeePercentage: fee }).where(eq(users.id, alice.user.id));
    try {
      const before = indexer.lastIndexed;
      const since = performance.now();
      // 0.75% of 1 XRP.
      expect(await ask()).toMatchObject({ feePercent: '0.75', fee: '0.0075' });
      // The ledger the rate was kept for: the one indexed after the quote (a ledger indexed while it
      // was asked would be the one it kept it for, and "the next" must be past that one).
      const mark = indexer.lastIndexed;
      // Another instance's admin (a write this app does not see): the kept rate answers until the
      // next indexed ledger (or for at most 1 s); asserted when neither happened meanwhile (a
      // ledger closes every 200 ms here).
      await rate('0.5');
      const kept = await ask();
      if (before === mark && indexer.lastIndexed === mark && performance.now() - since < 900)
        expect(kept).toMatchObject({ feePercent: '0.75', fee: '0.0075' });
      // The next ledger drops every kept read: 0.5% of 1 XRP.
      await nextLedger(mark);
      expect(await ask()).toMatchObject({ feePercent: '0.5', fee: '0.005' });
      // An admin's override through this app applies to the very next quote, whatever the ledger.
      const set = await post('/api/admin/fee-overrides/update', owner, {
        userId: alice.user.id,
        custom_fee_percentage: '0.25',
      });
      expect(set.statusCode, set.body).toBe(200);
      expect(await ask()).toMatchObject({ feePercent: '0.25', fee: '0.0025' });
    } finally {
      await rate(null);
    }
    await nextLedger(indexer.lastIndexed);
    expect(await ask()).toMatchObject({ feePercent: '0.75', fee: '0.0075' });
  });

  it('refuses bad input with the spec messages and other users\u2019 wallets, before any transaction', async () => {
    const base = {
      walletAddress: aliceWallet,
      issuer: token.issuer_address,
      token: 'SWAP',
      type: 'BUY',
      slippage: '0.5',
    };
    for (const amount of ['0', '0.0000001', 'abc', '1.1234567']) {
      const r = await post('/api/swap', alice, { ...base, amount });
      expect([r.statusCode, r.json().message]).toEqual([400, SWAP_MESSAGES.invalidAmount]);
    }
    const noWallet = await post('/api/swap', alice, { ...base, walletAddress: undefined, amount: '1' });
    expect([noWallet.statusCode, noWallet.json().message]).toEqual([400, SWAP_MESSAGES.selectWalletAndToken]);
    const slip = await post('/api/swap', alice, { ...base, amount: '1', slippage: '0.555' });
    expect([slip.statusCode, slip.json().message]).toEqual([400, SWAP_MESSAGES.slippage]);
    // The owner's wallet is not Alice's: the same answer as a wallet that does not exist.
    const ownerWallets = (await t.app.inject({ url: '/api/wallets', headers: owner.headers })).json() as {
      wallets: Array<{ wallet_address: string }>;
    };
    const theirs = await post('/api/swap', alice, {
      ...base,
      walletAddress: ownerWallets.wallets[0]!.wallet_address,
      amount: '1',
    });
    expect(theirs.statusCode).toBe(404);
    // A token nobody trades: no estimate is possible.
    const none = await post('/api/amm-info', alice, {
      issuer: genesis.address,
      token: 'ZZZ',
      amountXrp: '1',
      tradeType: 'BUY',
      wallet: aliceWallet,
    });
    expect([none.statusCode, none.json().message]).toEqual([400, SWAP_MESSAGES.insufficientLiquidity]);
    const anon = await t.app.inject({ method: 'POST', url: '/api/swap', payload: { ...base, amount: '1' } });
    expect([401, 403]).toContain(anon.statusCode);
  });
});
