import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Wallet,
  type AccountSet,
  type Client,
  type OfferCreate,
  type Payment,
  type TrustSet,
  AccountSetAsfFlags,
  OfferCreateFlags,
} from 'xrpl';
import {
  ORDER_MESSAGES,
  SWAP_MESSAGES,
  type CheckOrdersResult,
  type LimitOrderResult,
  type OrderView,
  type QuoteView,
  type SwapResult,
} from '@ledgerpad/shared';
import { eq } from 'drizzle-orm';
import { STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import { jobs } from '../../src/platform/jobs';
import { TRADING_FEE_JOB } from '../../src/modules/trading';
import { tradingOrders, tradingTrades } from '../../src/modules/trading/schema';
import { TEST_ORIGIN, type SignedIn } from '../helpers/test-app';
import { TestSocket } from '../helpers/socket-client';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { submitAndWait, submitOk } from '../helpers/submit-and-wait';

// Limit orders on the embedded ledger's book (a token with no pool, so every crossing is the book's
// and the numbers are exact): an order rests, is crossed by an account outside Ledgerpad
// (partially_filled, then filled, each pushed as orderUpdated), is cancelled, expires, or fills at
// once; every order route refuses another user's order or user id.

const CLOCK_BEHIND_MS = 30 * 60_000;
const TOKEN = 'LIM';

let t: WalletTestApp;
let client: Client;
let alice: SignedIn;
let bob: SignedIn;
let aliceWallet: string;
let ws: TestSocket;
const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);
const issuer = Wallet.generate();
const outsider = Wallet.generate();

const call = (who: SignedIn, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

const submit = (wallet: Wallet, tx: Payment | TrustSet | OfferCreate | AccountSet) =>
  submitOk(client, wallet, tx);

async function orders(who: SignedIn, userId: number, query = ''): Promise<OrderView[]> {
  const r = await call(who, 'GET', `/api/orders/get-orders/${userId}${query}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as OrderView[];
}

/** The next orderUpdated for `orderId` (others, such as the 'open' of a placement, are skipped). */
async function update(orderId: number) {
  for (;;) {
    const f = await ws.next('orderUpdated', 10_000);
    if (f.data.orderId === orderId) return f.data;
  }
}

async function offersOf(account: string) {
  const r = await client.request({ command: 'account_offers', account, ledger_index: 'validated' });
  return r.result.offers ?? [];
}

const limit = (payload: Record<string, unknown>) =>
  call(alice, 'POST', '/api/limit-order', {
    walletAddress: aliceWallet,
    issuer: issuer.classicAddress,
    token: TOKEN,
    ...payload,
  });

/** The outsider sells `tokens` at `price` XRP each, taking what rests at that price or better. */
const outsiderSells = (tokens: string, price: string) =>
  submit(outsider, {
    TransactionType: 'OfferCreate',
    Account: outsider.classicAddress,
    TakerGets: { currency: TOKEN, issuer: issuer.classicAddress, value: tokens },
    TakerPays: String(new Decimal(tokens).mul(price).mul(1e6).toFixed(0)),
    Flags: OfferCreateFlags.tfImmediateOrCancel, // it takes, it never rests
  });

beforeAll(async () => {
  t = await createWalletTestApp(
    { PLATFORM_BOOTSTRAP: 'on' },
    { closeIntervalMs: 200, clockOffsetMs: CLOCK_BEHIND_MS },
  );
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  // A token issued outside Ledgerpad, with no pool: the outsider holds 1,000 of it.
  for (const w of [issuer, outsider]) {
    await submit(genesis, {
      TransactionType: 'Payment',
      Account: genesis.classicAddress,
      Destination: w.classicAddress,
      Amount: '1000000000',
    });
  }
  // Issuers of tradable tokens ripple by default (AMMCreate requires it), as Ledgerpad's deploys do.
  await submit(issuer, {
    TransactionType: 'AccountSet',
    Account: issuer.classicAddress,
    SetFlag: AccountSetAsfFlags.asfDefaultRipple,
  });
  await submit(outsider, {
    TransactionType: 'TrustSet',
    Account: outsider.classicAddress,
    LimitAmount: { currency: TOKEN, issuer: issuer.classicAddress, value: '1000000' },
  });
  await submit(issuer, {
    TransactionType: 'Payment',
    Account: issuer.classicAddress,
    Destination: outsider.classicAddress,
    Amount: { currency: TOKEN, issuer: issuer.classicAddress, value: '1000' },
  });
  alice = await t.signIn('alice_orders');
  bob = await t.signIn('bob_orders');
  const w = (await call(alice, 'POST', '/api/wallets', {})).json() as { id: number; wallet_address: string };
  aliceWallet = w.wallet_address;
  for (let i = 0; i < 2; i++) await call(alice, 'POST', `/api/wallets/${w.id}/fund`);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const token = (
    await t.app.inject({ url: '/api/auth/socket-token', headers: { cookie: alice.cookie } })
  ).json().token as string;
  ws = await TestSocket.open(`ws://127.0.0.1:${address.port}/ws?token=${encodeURIComponent(token)}`, {
    origin: TEST_ORIGIN,
  });
  await ws.next('ready');
}, 120_000);

afterAll(async () => {
  ws?.ws.close();
  await t?.close();
});

describe('limit orders', () => {
  let order: OrderView;

  it('rests a BUY at the price: 10 XRP at 0.5 XRP per token is an offer for 20 tokens', async () => {
    const r = await limit({ amount: '10', price: '0.5', type: 'BUY' });
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json() as LimitOrderResult;
    expect(body.message).toBe('📌 1 limit order(s) placed.');
    order = body.order;
    expect(order).toMatchObject({
      status: 'open',
      order_type: 'BUY',
      amount: '10',
      expected_tokens: '20',
      remaining_tokens: '20',
      price: '0.5',
      quote: 'XRP',
      wallet_address: aliceWallet,
      token_currency: TOKEN,
    });
    const [offer] = await offersOf(aliceWallet);
    expect(offer).toMatchObject({
      taker_gets: '10000000',
      taker_pays: { currency: TOKEN, issuer: issuer.classicAddress, value: '20' },
    });
    expect((await orders(alice, alice.user.id)).map((o) => o.id)).toContain(order.id);
  });

  it('is partly crossed by an account outside Ledgerpad (partially_filled, pushed), then filled', async () => {
    await outsiderSells('8', '0.5');
    expect(await update(order.id)).toEqual({ orderId: order.id, status: 'open' });
    expect(await update(order.id)).toEqual({ orderId: order.id, status: 'partially_filled' });
    const [now] = await orders(alice, alice.user.id, `?status=partially_filled`);
    // 20 − 8 tokens still wanted.
    expect(now).toMatchObject({ id: order.id, remaining_tokens: '12' });

    await outsiderSells('12', '0.5');
    expect(await update(order.id)).toEqual({ orderId: order.id, status: 'filled' });
    expect(await offersOf(aliceWallet)).toHaveLength(0);
    const lines = await client.request({
      command: 'account_lines',
      account: aliceWallet,
      ledger_index: 'validated',
    });
    expect(lines.result.lines.find((l) => l.currency === TOKEN)?.balance).toBe('20');
    // Each fill is a platform trade with its fee: 0.75% of the XRP it paid — 8 × 0.5 = 4 XRP → 0.03,
    // then 12 × 0.5 = 6 XRP → 0.045 — charged once each and paid to the fee wallet.
    const fills = await t.database.db
      .select()
      .from(tradingTrades)
      .where(eq(tradingTrades.walletAddress, aliceWallet))
      .orderBy(tradingTrades.id);
    expect(fills.map((f) => [f.side, f.spent, f.received, f.fee])).toEqual([
      ['BUY', '4', '8', '0.03'],
      ['BUY', '6', '12', '0.045'],
    ]);
    for (const f of fills) {
      const [job] = await t.database.db
        .select()
        .from(jobs)
        .where(eq(jobs.key, `${TRADING_FEE_JOB}:${f.hash}`));
      expect((await t.app.platform.jobs.waitFor(job!.id, { timeoutMs: 30_000 })).status).toBe('completed');
      expect(
        (await t.database.db.select().from(tradingTrades).where(eq(tradingTrades.id, f.id)))[0]?.feeStatus,
      ).toBe('paid');
    }
  });

  it('cancels an open order (OfferCancel); only the owner, only while it rests', async () => {
    const placed = (await limit({ amount: '4', price: '0.4', type: 'BUY' })).json() as LimitOrderResult;
    expect(placed.order.expected_tokens).toBe('10');

    expect((await call(bob, 'DELETE', `/api/cancel-order/${placed.order.id}`)).statusCode).toBe(404);
    expect(await offersOf(aliceWallet)).toHaveLength(1);

    const r = await call(alice, 'DELETE', `/api/cancel-order/${placed.order.id}`);
    expect(r.statusCode, r.body).toBe(200);
    expect((r.json() as OrderView).status).toBe('canceled');
    expect(await offersOf(aliceWallet)).toHaveLength(0);

    const again = await call(alice, 'DELETE', `/api/cancel-order/${placed.order.id}`);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(ORDER_MESSAGES.notCancellable);
    expect((await call(alice, 'DELETE', '/api/cancel-order/abc')).statusCode).toBe(400);
    // Filled orders cannot be cancelled either.
    expect((await call(alice, 'DELETE', `/api/cancel-order/${order.id}`)).statusCode).toBe(400);
  });

  it('fills at once when the book already has a better price (nothing rests)', async () => {
    // The outsider rests a sell at 0.5; Alice bids 0.6 for 3 XRP = 5 tokens and pays the resting
    // price: 5 × 0.5 = 2.5 XRP.
    await submit(outsider, {
      TransactionType: 'OfferCreate',
      Account: outsider.classicAddress,
      TakerGets: { currency: TOKEN, issuer: issuer.classicAddress, value: '5' },
      TakerPays: '2500000',
    });
    const r = await limit({ amount: '3', price: '0.6', type: 'BUY' });
    expect(r.statusCode, r.body).toBe(200);
    const placed = (r.json() as LimitOrderResult).order;
    expect(placed).toMatchObject({ status: 'filled', expected_tokens: '5' });
    expect(await offersOf(aliceWallet)).toHaveLength(0);
    // The crossing is the placing transaction's own trade: 2.5 XRP paid, fee 0.75% = 0.01875 XRP.
    const [trade] = await t.database.db
      .select()
      .from(tradingTrades)
      .where(eq(tradingTrades.hash, placed.hash));
    expect(trade).toMatchObject({ side: 'BUY', spent: '2.5', received: '5', fee: '0.01875' });
  });

  it('expires: the ledger drops it after its Expiration, the order reads canceled', async () => {
    const placed = (
      await limit({ amount: '2', price: '0.2', type: 'BUY', expiresInMinutes: 5 })
    ).json() as LimitOrderResult;
    expect(placed.order.status).toBe('open');
    expect(placed.order.expires_at).not.toBeNull();
    // The ledger clock jumps 30 minutes forward: the next close is past the Expiration.
    t.ledger.setClockOffset(0);
    expect(await update(placed.order.id)).toEqual({ orderId: placed.order.id, status: 'open' });
    expect(await update(placed.order.id)).toEqual({ orderId: placed.order.id, status: 'canceled' });
    const check = await call(alice, 'GET', '/api/check-orders-status');
    expect(check.statusCode, check.body).toBe(200);
  });

  it("check-orders-status repairs a record that missed ledgers, from the wallet's own history", async () => {
    // As if this instance had missed every ledger since the placement: the record says open.
    await t.database.db
      .update(tradingOrders)
      .set({ status: 'open', remainingTokens: '20', ledgerIndex: 1 })
      .where(eq(tradingOrders.id, order.id));
    const r = await call(alice, 'GET', '/api/check-orders-status');
    expect(r.statusCode, r.body).toBe(200);
    expect((r.json() as CheckOrdersResult).updated).toContainEqual({ orderId: order.id, status: 'filled' });
    expect((await orders(alice, alice.user.id, '?status=filled')).map((o) => o.id)).toContain(order.id);
  });

  it('refuses bad input and sends nothing', async () => {
    const before = await offersOf(aliceWallet);
    const noPrice = await limit({ amount: '1', type: 'BUY' });
    expect(noPrice.statusCode).toBe(400);
    expect(noPrice.json().message).toBe(SWAP_MESSAGES.limitPrice);
    const zero = await limit({ amount: '1', price: '0', type: 'BUY' });
    expect(zero.json().message).toBe(SWAP_MESSAGES.limitPrice);
    const tiny = await limit({ amount: '0.0000001', price: '1', type: 'BUY' });
    expect(tiny.json().message).toBe(SWAP_MESSAGES.invalidAmount);
    const notMine = await call(bob, 'POST', '/api/limit-order', {
      walletAddress: aliceWallet,
      issuer: issuer.classicAddress,
      token: TOKEN,
      amount: '1',
      price: '1',
      type: 'BUY',
    });
    expect(notMine.statusCode).toBe(404);
    expect(await offersOf(aliceWallet)).toEqual(before);
  });

  it("refuses another user's orders list", async () => {
    expect((await call(bob, 'GET', `/api/orders/get-orders/${alice.user.id}`)).statusCode).toBe(403);
    expect((await call(bob, 'GET', '/api/orders/get-orders/x')).statusCode).toBe(400);
    expect(await orders(bob, bob.user.id)).toEqual([]);
  });
});

describe('market swaps against the book, then the book and a pool together', () => {
  const ask = (tokens: string, xrp: string) =>
    submit(outsider, {
      TransactionType: 'OfferCreate',
      Account: outsider.classicAddress,
      TakerGets: { currency: TOKEN, issuer: issuer.classicAddress, value: tokens },
      TakerPays: String(new Decimal(xrp).mul(1e6).toFixed(0)),
    });
  const quoteBuy = async (xrp: string) => {
    const r = await call(alice, 'POST', '/api/amm-info', {
      issuer: issuer.classicAddress,
      token: TOKEN,
      amountXrp: xrp,
      tradeType: 'BUY',
      wallet: aliceWallet,
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as QuoteView;
  };
  const buy = async (xrp: string, expected: string) => {
    const r = await call(alice, 'POST', '/api/swap', {
      walletAddress: aliceWallet,
      issuer: issuer.classicAddress,
      token: TOKEN,
      amount: xrp,
      type: 'BUY',
      slippage: '1',
      expected,
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as SwapResult;
  };

  const bid = (tokens: string, xrp: string) =>
    submit(outsider, {
      TransactionType: 'OfferCreate',
      Account: outsider.classicAddress,
      TakerGets: String(new Decimal(xrp).mul(1e6).toFixed(0)),
      TakerPays: { currency: TOKEN, issuer: issuer.classicAddress, value: tokens },
    });
  const sellQuoted = async (tokens: string) => {
    const r = await call(alice, 'POST', '/api/amm-info', {
      issuer: issuer.classicAddress,
      token: TOKEN,
      amountToken: tokens,
      tradeType: 'SELL',
      wallet: aliceWallet,
    });
    expect(r.statusCode, r.body).toBe(200);
    const q = r.json() as QuoteView;
    const s = await call(alice, 'POST', '/api/swap', {
      walletAddress: aliceWallet,
      issuer: issuer.classicAddress,
      token: TOKEN,
      amount: tokens,
      type: 'SELL',
      slippage: '1',
      expected: q.receive,
    });
    expect(s.statusCode, s.body).toBe(200);
    return { q, s: s.json() as SwapResult };
  };

  it('book only, sell: 5 tokens into a bid of 10 at 0.4 — 2 XRP, as quoted', async () => {
    await bid('10', '4');
    const { q, s } = await sellQuoted('5');
    // 5 tokens × 0.4 XRP = 2 XRP.
    expect(q).toMatchObject({ spend: '5', receive: '2', partial: false });
    expect(s).toMatchObject({ status: 'success', spent: '5', received: '2' });
  });

  it('book only: 8 XRP takes 10 at 0.5 then 5 at 0.6 — 15 tokens, as quoted', async () => {
    await ask('10', '5');
    await ask('10', '6');
    const q = await quoteBuy('8');
    // 5 XRP buys the first 10 tokens; the other 3 XRP buy 3 / 0.6 = 5 of the second ask.
    expect(q).toMatchObject({ spend: '8', receive: '15', partial: false });
    const s = await buy('8', q.receive);
    expect(s).toMatchObject({ status: 'success', spent: '8', received: '15' });
  });

  it('reports a partial fill: 10 XRP finds only 5 tokens (3 XRP) left on the book', async () => {
    const q = await quoteBuy('10');
    expect(q).toMatchObject({ spend: '3', receive: '5', partial: true });
    const s = await buy('10', q.receive);
    // Spent 3 XRP of 10; the fee is 0.75% of what executed: 0.0225 XRP.
    expect(s).toMatchObject({ status: 'partial', spent: '3', received: '5', fee: '0.0225' });
    expect(s.message).toContain('Partly filled');
  });

  it('book and pool together: the executed amount is the quote to the last digit, and both moved', async () => {
    await submitAndWait(
      client,
      {
        TransactionType: 'AMMCreate',
        Account: outsider.classicAddress,
        Amount: '100000000',
        Amount2: { currency: TOKEN, issuer: issuer.classicAddress, value: '200' },
        TradingFee: 300,
      },
      outsider,
    );
    // The pool prices the token at 0.5 XRP; an ask at 0.52 sits just above it.
    await ask('10', '5.2');
    const poolXrp = async () =>
      new Decimal(
        (
          await client.request({
            command: 'amm_info',
            asset: { currency: 'XRP' },
            asset2: { currency: TOKEN, issuer: issuer.classicAddress },
            ledger_index: 'validated',
          })
        ).result.amm.amount as string,
      );
    const before = await poolXrp();
    const q = await quoteBuy('12');
    expect(q.partial).toBe(false);
    const s = await buy('12', q.receive);
    expect(s).toMatchObject({ status: 'success', spent: '12', received: q.receive });
    // The ask was taken whole (5.2 XRP) and the pool took the rest of the 12 XRP.
    const asks = (await offersOf(outsider.classicAddress)).filter((o) => typeof o.taker_gets !== 'string');
    expect(asks).toHaveLength(0);
    expect((await poolXrp()).minus(before).gt(6_000_000)).toBe(true);

    // And a sell with pool and book both open to it (the bid at 0.4 under the pool): as quoted.
    const poolBefore = await poolXrp();
    const { q: sq, s: ss } = await sellQuoted('20');
    expect(sq.partial).toBe(false);
    expect(ss).toMatchObject({ status: 'success', spent: '20', received: sq.receive });
    expect((await poolXrp()).lt(poolBefore)).toBe(true);
  });
});
