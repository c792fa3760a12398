import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type Client } from 'xrpl';
import {
  Decimal,
  type DeployResult,
  type JobStatusView,
  type QuoteView,
  minimumReceived,
  type SwapBatchQuote,
  type SwapBatchResult,
  type SwapResult,
} from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { createTestApp, type SignedIn } from '../helpers/test-app';
import { submitAndWait } from '../helpers/submit-and-wait';
import { fundedWallet, seed, type TradingWorld } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { testLogo } from '../helpers/test-logo';

// Done once, and not competing with oneself (issue 23), on the embedded ledger checked with
// xrpl.js: 3 wallets × 10 XRP at the default 0.50% slippage on a 1,000-XRP pool all fill, sent as
// three requests at once (today's screen) or as one batch; one Idempotency-Key is one transaction,
// however often and whenever the request is sent (a new app instance on the same database
// included); an AccountSet signed outside Ledgerpad with the wallet's own seed does not break the
// next swap.

let t: WalletTestApp;
let world: TradingWorld;
let client: Client;
let owner: SignedIn;
let token: DeployResult;

const post = (
  url: string,
  who: SignedIn,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
) => t.app.inject({ method: 'POST', url, headers: { ...who.headers, ...headers }, payload });

async function poolXrp(): Promise<Decimal> {
  const r = await client.request({
    command: 'amm_info',
    asset: { currency: 'XRP' },
    asset2: { currency: token.currency, issuer: token.issuer_address },
    ledger_index: 'validated',
  });
  return new Decimal(r.result.amm.amount as string).div(1e6);
}

/** The account's validated Payments to itself (swaps) and all its transactions, from the ledger. */
async function ledgerTxs(address: string) {
  const r = await client.request({ command: 'account_tx', account: address, limit: 200 });
  return r.result.transactions.map((e) => {
    const tx = (e as unknown as { tx_json?: Record<string, unknown> }).tx_json ?? {};
    const meta = e.meta as { TransactionResult?: string } | undefined;
    return {
      type: String(tx.TransactionType),
      from: tx.Account,
      to: tx.Destination,
      result: meta?.TransactionResult,
    };
  });
}
const swapsOf = async (address: string) =>
  (await ledgerTxs(address)).filter((x) => x.type === 'Payment' && x.from === address && x.to === address);

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  world = seed(t);
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  owner = await t.signInOwner();
  const ownerWallet = await fundedWallet(t, owner, 1);
  // A 1,000-XRP pool (the owner pays no service fee: 1,000 + 1.1 + 2 + fees of its 1,000 XRP… so
  // the faucet funds it twice, a minute apart being the faucet's rule, by a second wallet's transfer).
  const second = await fundedWallet(t, owner, 1);
  const moved = await post('/api/wallets/transfer', owner, {
    walletId: second.id,
    recipient: ownerWallet.address,
    amount: '900',
    token: null,
  });
  expect(moved.statusCode, moved.body).toBe(200);
  const res = await post('/api/deploy-token', owner, {
    name: 'Once Token',
    ticker: 'ONCE',
    description: '',
    supply: '1000000',
    devAllocation: '0',
    liquidityAmount: '1000',
    ammFee: '0.3',
    logoUrl: await testLogo(t.database.db),
    blackholeIssuer: false,
    requireAuth: false,
    liquidityPairType: 'XRP',
    walletId: ownerWallet.id,
  });
  expect(res.statusCode, res.body).toBe(202);
  const job = await t.app.platform.jobs.waitFor((res.json() as { jobId: string }).jobId, {
    timeoutMs: 60_000,
  });
  expect(job.status, job.error ?? '').toBe('completed');
  token = (job as unknown as JobStatusView<DeployResult>).result!;
  expect((await poolXrp()).eq(1000)).toBe(true);
}, 180_000);

afterAll(async () => {
  await t?.close();
});

const swapBody = (wallet: string, extra: Record<string, unknown> = {}) => ({
  walletAddress: wallet,
  issuer: token.issuer_address,
  token: 'ONCE',
  amount: '10',
  type: 'BUY',
  slippage: '0.50',
  ...extra,
});

describe('multi-wallet buys do not compete with themselves', () => {
  it('3 wallets × 10 XRP at 0.50% on a 1,000-XRP pool, sent at the same moment: 3 fills', async () => {
    const mia = await t.signIn('mia_multi');
    const wallets = [
      await fundedWallet(t, mia, 1),
      await fundedWallet(t, mia, 1),
      await fundedWallet(t, mia, 1),
    ];
    // The screen quotes its selected wallet and sends that quote; the others are quoted by the server.
    const quote = (
      await post('/api/amm-info', mia, {
        issuer: token.issuer_address,
        token: 'ONCE',
        amountXrp: '10',
        tradeType: 'BUY',
        wallet: wallets[0]!.address,
      })
    ).json() as QuoteView;
    const answers = await Promise.all(
      wallets.map((w, i) =>
        post('/api/swap', mia, swapBody(w.address, i === 0 ? { expected: quote.receive } : {})),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const swaps = answers.map((a) => a.json() as SwapResult);
    expect(swaps.map((s) => s.status)).toEqual(['success', 'success', 'success']);
    for (const w of wallets)
      expect(await swapsOf(w.address)).toEqual([
        { type: 'Payment', from: w.address, to: w.address, result: 'tesSUCCESS' },
      ]);
    // Each 10 XRP moves a 1,000-XRP pool's price by about 2% (x·y = k): the last wallet got more
    // than 0.5% fewer tokens than the first one's quote — had its floor been that quote less 0.50%,
    // the ledger would have refused it (tecPATH_PARTIAL). Each floor was the pool it met.
    const got = swaps.map((s) => new Decimal(s.received)).sort((a, b) => b.cmp(a));
    expect(got[2]!.lt(new Decimal(quote.receive).mul('0.995'))).toBe(true);
    expect((await poolXrp()).eq(1030)).toBe(true);
  });

  it('the same three as one batch: 3 fills, each wallet named', async () => {
    const noah = await t.signIn('noah_batch');
    const wallets = [
      await fundedWallet(t, noah, 1),
      await fundedWallet(t, noah, 1),
      await fundedWallet(t, noah, 1),
    ];
    const res = await post('/api/swap/batch', noah, {
      issuer: token.issuer_address,
      token: 'ONCE',
      type: 'BUY',
      slippage: '0.50',
      orders: wallets.map((w) => ({ walletAddress: w.address, amount: '10' })),
    });
    expect(res.statusCode, res.body).toBe(200);
    const batch = res.json() as SwapBatchResult;
    expect(batch).toMatchObject({
      status: 'success',
      succeeded: 3,
      failed: 0,
      message: '✅ 3 swap(s) successful!',
    });
    expect(batch.results.map((r) => [r.walletAddress, r.status])).toEqual(
      wallets.map((w) => [w.address, 'success']),
    );
    for (const w of wallets) expect(await swapsOf(w.address)).toHaveLength(1);
    expect((await poolXrp()).eq(1060)).toBe(true);
  });

  it('a batch quoted first: each wallet its own figures after the ones before it, and the floor signed is the one shown (issue 39)', async () => {
    const pia = await t.signIn('pia_batch_quote');
    const wallets = [
      await fundedWallet(t, pia, 1),
      await fundedWallet(t, pia, 1),
      await fundedWallet(t, pia, 1),
    ];
    // A randomized buy's amounts, fixed before the click.
    const amounts = ['12', '7.5', '20'];
    const body = {
      issuer: token.issuer_address,
      token: 'ONCE',
      type: 'BUY',
      slippage: '0.50',
      orders: wallets.map((w, i) => ({ walletAddress: w.address, amount: amounts[i]! })),
    };
    const pool = await client.request({
      command: 'amm_info',
      asset: { currency: 'XRP' },
      asset2: { currency: token.currency, issuer: token.issuer_address },
      ledger_index: 'validated',
    });
    const x = new Decimal(pool.result.amm.amount as string).div(1e6);
    const y = new Decimal((pool.result.amm.amount2 as { value: string }).value);
    const res = await post('/api/swap/batch/quote', pia, body);
    expect(res.statusCode, res.body).toBe(200);
    const quoted = (res.json() as SwapBatchQuote).wallets;
    expect(quoted.map((q) => [q.walletAddress, q.amount])).toEqual(
      wallets.map((w, i) => [w.address, amounts[i]]),
    );
    // Each wallet alone would be quoted by the ledger; after the ones before it, the pool (x·y = k,
    // 0.3% fee on the input) has given out what they took: wallet i gets out(C_i) − out(C_{i−1}).
    const out = (c: Decimal) => y.mul(new Decimal(1).minus(x.div(x.plus(c.mul('0.997')))));
    let before = new Decimal(0);
    for (const [i, q] of quoted.entries()) {
      const after = before.plus(amounts[i]!);
      const byHand = out(after).minus(out(before));
      expect(new Decimal(q.quote!.receive).minus(byHand).abs().div(byHand).lt('1e-9'), q.quote!.receive).toBe(
        true,
      );
      // Its own amount, fee (0.75%), network fees and the trust line its first buy opens.
      expect(q.quote).toMatchObject({
        spend: amounts[i],
        fee: new Decimal(amounts[i]!).mul('0.0075').toFixed(),
        opensTrustLine: true,
        reserve: '0.2',
      });
      expect(q.minimumReceived).toBe(minimumReceived(q.quote!.receive, '0.50', false));
      before = after;
    }
    const sent = await post('/api/swap/batch', pia, {
      ...body,
      orders: body.orders.map((o, i) => ({ ...o, expected: quoted[i]!.quote!.receive })),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const batch = sent.json() as SwapBatchResult;
    expect(batch.results.map((r) => r.status)).toEqual(['success', 'success', 'success']);
    for (const [i, w] of wallets.entries()) {
      // The floor the ledger held the trade to is the minimum the screen showed, to the digit.
      const r = await client.request({ command: 'account_tx', account: w.address, limit: 20 });
      const swapTx = r.result.transactions
        .map((e) => (e as unknown as { tx_json: Record<string, unknown> }).tx_json)
        .find((tx) => tx.TransactionType === 'Payment' && tx.Destination === w.address)!;
      expect((swapTx.DeliverMin as { value: string }).value).toBe(quoted[i]!.minimumReceived);
      expect(new Decimal(batch.results[i]!.swap!.received).gte(quoted[i]!.minimumReceived!)).toBe(true);
    }
  });
});

describe('done once', () => {
  let olga: SignedIn;
  let wallet: { id: number; address: string };
  beforeAll(async () => {
    olga = await t.signIn('olga_once');
    wallet = await fundedWallet(t, olga, 1);
  });

  it('the same request twice with one Idempotency-Key is one transaction; the second gets the first answer', async () => {
    const key = { 'idempotency-key': 'olga-swap-0001' };
    const first = await post('/api/swap', olga, swapBody(wallet.address, { amount: '5' }), key);
    expect(first.statusCode, first.body).toBe(200);
    const again = await post('/api/swap', olga, swapBody(wallet.address, { amount: '5' }), key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    // A double click: both at once, one transaction between them.
    const click = { 'idempotency-key': 'olga-swap-0002' };
    const [a, b] = await Promise.all([
      post('/api/swap', olga, swapBody(wallet.address, { amount: '5' }), click),
      post('/api/swap', olga, swapBody(wallet.address, { amount: '5' }), click),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect((a.json() as SwapResult).hash).toBe((b.json() as SwapResult).hash);
    expect(await swapsOf(wallet.address)).toHaveLength(2);
    const trades = await t.database.db
      .select()
      .from(ledgerSubmissions)
      .where(like(ledgerSubmissions.intentKey, `swap:${olga.user.id}:%:trade`));
    expect(trades).toHaveLength(2);
    // The same key for another request is refused rather than answered with the wrong result.
    const other = await post('/api/swap', olga, swapBody(wallet.address, { amount: '6' }), key);
    expect([other.statusCode, other.json().message]).toEqual([
      409,
      'This Idempotency-Key was already used for a different request.',
    ]);
  });

  it('after a restart (a new instance on the same database) the key still answers the first result', async () => {
    const key = { 'idempotency-key': 'olga-swap-0001' };
    // Nothing of this instance may still be at work (the second instance shares its job queue).
    await world.feesSettled();
    const before = (await t.database.db.select().from(ledgerSubmissions)).length;
    const restarted = await createTestApp({ database: t.database });
    try {
      const res = await restarted.app.inject({
        method: 'POST',
        url: '/api/swap',
        headers: { ...olga.headers, ...key },
        payload: swapBody(wallet.address, { amount: '5' }),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['idempotent-replayed']).toBe('true');
      expect((res.json() as SwapResult).hash).toBe(
        ((await post('/api/swap', olga, swapBody(wallet.address, { amount: '5' }), key)).json() as SwapResult)
          .hash,
      );
    } finally {
      await restarted.close();
    }
    expect((await t.database.db.select().from(ledgerSubmissions)).length).toBe(before);
    expect(await swapsOf(wallet.address)).toHaveLength(2);
  });
});

describe('outside transactions do not break the wallet', () => {
  it('an AccountSet signed outside for an app wallet, then a swap: success, one transaction', async () => {
    const paul = await t.signIn('paul_outside');
    const created = (await post('/api/wallets', paul, {})).json() as {
      id: number;
      wallet_address: string;
      wallet_seed: string;
    };
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/wallets/${created.id}/fund`, headers: paul.headers }))
        .statusCode,
    ).toBe(200);
    // A first swap: the server knows the wallet's sequence from now on.
    const first = await post('/api/swap', paul, swapBody(created.wallet_address, { amount: '2' }));
    expect(first.statusCode, first.body).toBe(200);
    // Its platform fee (a payment of its own, sent after the answer) lands first: an outside
    // transaction racing that payment makes it re-sign (tefPAST_SEQ, then success) — handled, but
    // not what this test is about, which is the next action after an outside transaction.
    await world.feePaid((first.json() as SwapResult).hash);
    // The user signs with the seed they were shown, somewhere else.
    const own = Wallet.fromSeed(created.wallet_seed);
    const outside = await submitAndWait(
      client,
      { TransactionType: 'AccountSet', Account: own.classicAddress },
      own,
    );
    expect((outside.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');

    const res = await post('/api/swap', paul, swapBody(created.wallet_address, { amount: '2' }));
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as SwapResult).status).toBe('success');
    // On the ledger: two swaps and the outside AccountSet, nothing failed; in our records no
    // transaction of the second swap met tefPAST_SEQ (the sequence was caught up before signing).
    const txs = await ledgerTxs(created.wallet_address);
    expect(
      txs.filter(
        (x) => x.type === 'Payment' && x.from === created.wallet_address && x.to === created.wallet_address,
      ),
    ).toHaveLength(2);
    expect(txs.every((x) => x.result === 'tesSUCCESS')).toBe(true);
    const rows = await t.database.db
      .select()
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.account, created.wallet_address));
    expect(rows.filter((r) => r.result !== null && r.result !== 'tesSUCCESS')).toEqual([]);
  });
});
