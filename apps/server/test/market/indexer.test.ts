import Decimal from 'decimal.js';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type Client, type Payment } from 'xrpl';
import { tickerToCurrency, type DeployResult, type JobStatusView } from '@ledgerpad/shared';
import { STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import {
  issuerFacts,
  marketCandles,
  marketHolders,
  marketPools,
  marketTrades,
} from '../../src/modules/market/schema';
import { TestSocket } from '../helpers/socket-client';
import { TEST_ORIGIN, type SignedIn } from '../helpers/test-app';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// The market indexer on the embedded ledger: trades made directly with xrpl.js (not through
// Ledgerpad) become trades, candles, holders and live frames; issuer facts follow the ledger; a
// stopped indexer catches up without missing a trade.

let t: WalletTestApp;
let client: Client;
let owner: SignedIn;
let trader: Wallet;
let tokenA: DeployResult;
let tokenB: DeployResult;
const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);

async function deploy(ticker: string, blackhole: boolean): Promise<DeployResult> {
  const wallets = (await t.app.inject({ url: '/api/wallets', headers: owner.headers })).json() as {
    wallets: Array<{ id: number }>;
  };
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/deploy-token',
    headers: owner.headers,
    payload: {
      name: `Token ${ticker}`,
      ticker,
      description: '',
      supply: '1000000',
      devAllocation: '0',
      liquidityAmount: '100',
      ammFee: '0.3',
      logoUrl: '/images/x.webp',
      blackholeIssuer: blackhole,
      requireAuth: false,
      liquidityPairType: 'XRP',
      walletId: wallets.wallets[0]!.id,
    },
  });
  expect(res.statusCode, res.body).toBe(202);
  const { jobId } = res.json() as { jobId: string };
  const job = await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 60_000 });
  expect(job.status, job.error ?? '').toBe('completed');
  return (job as unknown as JobStatusView<DeployResult>).result!;
}

const submit = async (tx: Parameters<Client['autofill']>[0], wallet: Wallet) => {
  const r = await client.submitAndWait(tx, { wallet, autofill: true });
  const meta = r.result.meta as { TransactionResult: string };
  expect(meta.TransactionResult).toBe('tesSUCCESS');
  return r.result;
};

const caughtUp = () => t.app.platform.indexer!.caughtUp();

async function pool(token: DeployResult) {
  const r = await client.request({
    command: 'amm_info',
    asset: { currency: 'XRP' },
    asset2: { currency: token.currency, issuer: token.issuer_address },
    ledger_index: 'validated',
  });
  return {
    xrp: BigInt(r.result.amm.amount as string),
    token: new Decimal((r.result.amm.amount2 as { value: string }).value),
  };
}

async function lineBalance(account: string, token: DeployResult): Promise<Decimal> {
  const r = await client.request({
    command: 'account_lines',
    account,
    peer: token.issuer_address,
    ledger_index: 'validated',
  });
  return new Decimal(r.result.lines.find((l) => l.currency === token.currency)?.balance ?? 0);
}

const tradesOf = (hash: string) =>
  t.database.db.select().from(marketTrades).where(eq(marketTrades.hash, hash));

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  owner = await t.signInOwner();
  const w = await t.app.inject({ method: 'POST', url: '/api/wallets', headers: owner.headers, payload: {} });
  const id = (w.json() as { id: number }).id;
  for (let i = 0; i < 2; i++)
    await t.app.inject({ method: 'POST', url: `/api/wallets/${id}/fund`, headers: owner.headers });
  tokenA = await deploy('ALFA', false);
  tokenB = await deploy('BRAV', true);
  // A trader outside Ledgerpad: funded from genesis and driven with xrpl.js directly.
  trader = Wallet.generate();
  await submit(
    {
      TransactionType: 'Payment',
      Account: genesis.classicAddress,
      Destination: trader.classicAddress,
      Amount: '1000000000',
    },
    genesis,
  );
  for (const tok of [tokenA, tokenB]) {
    await submit(
      {
        TransactionType: 'TrustSet',
        Account: trader.classicAddress,
        LimitAmount: { currency: tok.currency, issuer: tok.issuer_address, value: '1000000000' },
      },
      trader,
    );
  }
  await caughtUp();
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('market indexer', () => {
  let buyHash: string;

  it('synced each token on first sight: its pool and its issuer facts', async () => {
    const pools = await t.database.db.select().from(marketPools);
    const a = pools.find((p) => p.ammAccount === tokenA.amm_account)!;
    expect(a).toMatchObject({ quote: 'XRP', tradingFee: 300 });
    expect(new Decimal(a.tokenAmount).eq(1_000_000)).toBe(true);
    expect(new Decimal(a.quoteAmount).eq(100)).toBe(true);
    const facts = await t.database.db.select().from(issuerFacts);
    expect(facts.find((f) => f.issuerAddress === tokenA.issuer_address)?.blackholed).toBe(false);
    expect(facts.find((f) => f.issuerAddress === tokenB.issuer_address)).toMatchObject({
      blackholed: true,
      masterDisabled: true,
      regularKey: 'rrrrrrrrrrrrrrrrrrrrBZbvji',
    });
  });

  it('records a swap made with xrpl.js as a BUY, in the candles, and on a subscribed socket', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const token = (await t.app.inject({ url: '/api/auth/socket-token' })).json().token as string;
    const socket = await TestSocket.open(
      `ws://127.0.0.1:${address.port}/ws?token=${encodeURIComponent(token)}`,
      {
        origin: TEST_ORIGIN,
      },
    );
    try {
      await socket.next('ready');
      socket.send({ event: 'subscribe', token: tokenA.currency, issuer: tokenA.issuer_address });
      await socket.next('subscribed');

      const before = await pool(tokenA);
      // Sell exactly 10 XRP for ALFA, taking what the pool gives.
      const result = await submit(
        {
          TransactionType: 'OfferCreate',
          Account: trader.classicAddress,
          TakerGets: '10000000',
          TakerPays: { currency: tokenA.currency, issuer: tokenA.issuer_address, value: '1' },
          Flags: 0x00080000 | 0x00020000, // tfSell | tfImmediateOrCancel
        },
        trader,
      );
      buyHash = result.hash;
      await caughtUp();
      const after = await pool(tokenA);
      const got = await lineBalance(trader.classicAddress, tokenA);
      // XLS-30 swap in: out = T × (1 − X / (X + in × (1 − fee))), fee 0.3%.
      const expected = before.token.mul(
        new Decimal(1).minus(
          new Decimal(before.xrp.toString()).div(
            new Decimal(before.xrp.toString()).plus(new Decimal(10_000_000).mul(0.997)),
          ),
        ),
      );
      expect(got.minus(expected).abs().div(expected).lt('1e-12')).toBe(true);

      const [trade] = await tradesOf(buyHash);
      expect(trade).toMatchObject({ side: 'BUY', quote: 'XRP', account: trader.classicAddress });
      expect(new Decimal(trade!.tokenAmount).eq(got)).toBe(true);
      expect(
        new Decimal(trade!.quoteAmount).eq(new Decimal((after.xrp - before.xrp).toString()).div(1e6)),
      ).toBe(true);
      const price = new Decimal(trade!.quoteAmount).div(trade!.tokenAmount);
      expect(new Decimal(trade!.price).minus(price).abs().lte(price.mul('1e-15'))).toBe(true);

      const candles = await t.database.db
        .select()
        .from(marketCandles)
        .where(and(eq(marketCandles.tokenId, trade!.tokenId), eq(marketCandles.resolution, 60)));
      expect(candles).toHaveLength(1);
      expect(candles[0]).toMatchObject({ trades: 1 });
      for (const k of ['open', 'high', 'low', 'close'] as const) expect(candles[0]![k]).toBe(trade!.price);
      expect(new Decimal(candles[0]!.volume).eq(trade!.quoteAmount)).toBe(true);

      const frame = await socket.next('new_trade', 5000);
      expect(frame.data).toMatchObject({
        type: 'BUY',
        baseCurrency: tokenA.currency,
        baseIssuer: tokenA.issuer_address,
        quoteCurrency: 'XRP',
        hash: buyHash,
      });
      expect(new Decimal(frame.data.price as string).eq(trade!.price)).toBe(true);
    } finally {
      socket.close();
    }
  });

  it('counts an auto-bridged ALFA→BRAV payment once per token: a SELL of ALFA and a BUY of BRAV', async () => {
    const half = (await lineBalance(trader.classicAddress, tokenA))
      .div(2)
      .toSignificantDigits(15, Decimal.ROUND_DOWN);
    const payment: Payment = {
      TransactionType: 'Payment',
      Account: trader.classicAddress,
      Destination: trader.classicAddress,
      Amount: { currency: tokenB.currency, issuer: tokenB.issuer_address, value: '1000' },
      SendMax: { currency: tokenA.currency, issuer: tokenA.issuer_address, value: half.toFixed() },
      Paths: [[{ currency: 'XRP' }]],
      Flags: 0x00020000, // tfPartialPayment: deliver what the SendMax buys
    };
    const aBefore = await lineBalance(trader.classicAddress, tokenA);
    const bBefore = await lineBalance(trader.classicAddress, tokenB);
    const result = await submit(payment, trader);
    await caughtUp();
    const trades = await tradesOf(result.hash);
    const idA = trades.find((x) => x.side === 'SELL');
    const idB = trades.find((x) => x.side === 'BUY');
    expect(trades).toHaveLength(2);
    expect(idA && idB && idA.tokenId !== idB.tokenId).toBe(true);
    const spent = aBefore.minus(await lineBalance(trader.classicAddress, tokenA));
    expect(spent.gt(0) && spent.lte(half)).toBe(true);
    // What the pool received; it can differ from what left the trader's line in the last digit of
    // the 16-digit mantissa (the two balances have different magnitudes, so they round apart).
    expect(new Decimal(idA!.tokenAmount).minus(spent).abs().lte(spent.mul('1e-12'))).toBe(true);
    const bought = (await lineBalance(trader.classicAddress, tokenB)).minus(bBefore);
    expect(new Decimal(idB!.tokenAmount).minus(bought).abs().lte(bought.mul('1e-12'))).toBe(true);
    // The XRP the ALFA pool paid out is the XRP the BRAV pool took in.
    expect(new Decimal(idA!.quoteAmount).eq(idB!.quoteAmount)).toBe(true);
  });

  it('drops a holder whose balance goes to zero (the AMM account and the issuer never count)', async () => {
    const [trade] = await tradesOf(buyHash);
    const holders = async () =>
      (
        await t.database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(marketHolders)
          .where(
            and(
              eq(marketHolders.tokenId, trade!.tokenId),
              sql`${marketHolders.balance} > 0`,
              sql`${marketHolders.account} <> ${tokenA.amm_account}`,
            ),
          )
      )[0]!.n;
    expect(await holders()).toBe(1);
    const all = await lineBalance(trader.classicAddress, tokenA);
    await submit(
      {
        TransactionType: 'OfferCreate',
        Account: trader.classicAddress,
        TakerGets: { currency: tokenA.currency, issuer: tokenA.issuer_address, value: all.toFixed() },
        TakerPays: '1',
        Flags: 0x00080000 | 0x00020000,
      },
      trader,
    );
    await caughtUp();
    expect((await lineBalance(trader.classicAddress, tokenA)).eq(0)).toBe(true);
    expect(await holders()).toBe(0);
  });

  it('flips blackhole status when the issuer is blackholed', async () => {
    const submissions = t.app.platform.submissions!;
    for (const [i, tx] of [
      { TransactionType: 'SetRegularKey', RegularKey: 'rrrrrrrrrrrrrrrrrrrrrhoLvTp' },
      { TransactionType: 'AccountSet', SetFlag: 4 },
    ].entries()) {
      const out = await submissions.submit({
        intentKey: `test-blackhole-${i}`,
        account: tokenA.issuer_address,
        tx,
        purpose: 'test',
      });
      expect(out.result).toBe('tesSUCCESS');
    }
    await caughtUp();
    const [facts] = await t.database.db
      .select()
      .from(issuerFacts)
      .where(eq(issuerFacts.issuerAddress, tokenA.issuer_address));
    expect(facts).toMatchObject({
      blackholed: true,
      masterDisabled: true,
      regularKey: 'rrrrrrrrrrrrrrrrrrrrrhoLvTp',
    });
  });

  it('catches up after being stopped for 20 ledgers, missing no trade', async () => {
    const indexer = t.app.platform.indexer!;
    await indexer.stop();
    const start = (await client.request({ command: 'ledger', ledger_index: 'validated' })).result
      .ledger_index;
    const hashes: string[] = [];
    let now = start;
    while (now < start + 20) {
      const r = await submit(
        {
          TransactionType: 'OfferCreate',
          Account: trader.classicAddress,
          TakerGets: '1000000',
          TakerPays: { currency: tokenB.currency, issuer: tokenB.issuer_address, value: '0.000001' },
          Flags: 0x00080000 | 0x00020000,
        },
        trader,
      );
      hashes.push(r.hash);
      now = (r.ledger_index as number) ?? now + 1;
    }
    expect(indexer.lastIndexed).toBeLessThan(start + 1);
    indexer.start();
    await caughtUp();
    for (const h of hashes) expect((await tradesOf(h)).map((x) => x.side)).toEqual(['BUY']);
  }, 60_000);
});
