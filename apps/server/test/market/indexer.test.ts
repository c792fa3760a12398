import Decimal from 'decimal.js';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getBalanceChanges,
  Wallet,
  type Client,
  type Payment,
  type SubmittableTransaction,
  type TransactionMetadata,
  AccountSetAsfFlags,
  OfferCreateFlags,
  PaymentFlags,
} from 'xrpl';
import {
  RLUSD_CURRENCY_HEX,
  type DeployResult,
  type JobStatusView,
  type TokenStatsView,
  type TradeView,
} from '@ledgerpad/shared';
import { tokens as tokensTable } from '../../src/modules/tokens/schema';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { PLATFORM_ROLES, STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import { platformWallet } from '../../src/platform/custody';
import {
  issuerFacts,
  marketCandles,
  marketHolders,
  marketPools,
  marketTrades,
} from '../../src/modules/market/schema';
import { createMarketIndexer } from '../../src/modules/market/indexer';
import { TxBalanceChanges } from '../../src/platform/indexer/balance-changes';
import { LedgerFollower } from '../../src/platform/indexer/follower';
import { ledgerCursor } from '../../src/platform/indexer/schema';
import { createTestDatabase } from '../db';
import { dayReferencePrices } from '../../src/modules/market/day-change';
import { TestSocket } from '../helpers/socket-client';
import { TEST_ORIGIN, type SignedIn } from '../helpers/test-app';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { submitOk } from '../helpers/submit-and-wait';
import { tokenBalance } from '../helpers/ledger-reads';
import { testLogo } from '../helpers/test-logo';

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
      logoUrl: await testLogo(t.database.db),
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

const submit = (tx: SubmittableTransaction, wallet: Wallet) => submitOk(client, wallet, tx);

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

const lineBalance = async (account: string, token: DeployResult): Promise<Decimal> =>
  new Decimal(await tokenBalance(client, account, token.issuer_address, token.currency));

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
          Flags: OfferCreateFlags.tfSell | OfferCreateFlags.tfImmediateOrCancel,
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
      Flags: PaymentFlags.tfPartialPayment, // deliver what the SendMax buys
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
        Flags: OfferCreateFlags.tfSell | OfferCreateFlags.tfImmediateOrCancel,
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
      { TransactionType: 'AccountSet', SetFlag: AccountSetAsfFlags.asfDisableMaster },
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

  it('catches up after being stopped for 20 ledgers, missing no trade nor a token listed meanwhile', async () => {
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
          Flags: OfferCreateFlags.tfSell | OfferCreateFlags.tfImmediateOrCancel,
        },
        trader,
      );
      hashes.push(r.hash);
      now = (r.ledger_index as number) ?? now + 1;
    }
    // A token deployed and listed while the follower is behind: its issuer does not exist yet in the
    // ledgers the follower reads first, which must not stall it.
    const late = await deploy('LATE', false);
    expect(indexer.lastIndexed).toBeLessThan(start + 1);
    indexer.start();
    await caughtUp();
    for (const h of hashes) expect((await tradesOf(h)).map((x) => x.side)).toEqual(['BUY']);
    const pools = await t.database.db.select().from(marketPools);
    expect(pools.some((p) => p.ammAccount === late.amm_account)).toBe(true);
  }, 60_000);

  it('writes the same rows catching up in batches as one ledger at a time', async () => {
    // Two more followers, each on its own fresh database, both starting at ledger `from` with the
    // market handler alone: one indexes a ledger per transaction, the other up to 16 ledgers per
    // transaction. Every market table must come out identical, digit for digit.
    const from = (await client.request({ command: 'ledger', ledger_index: 'validated' })).result.ledger_index;
    const second = Wallet.generate();
    await submit(
      {
        TransactionType: 'Payment',
        Account: genesis.classicAddress,
        Destination: second.classicAddress,
        Amount: '500000000',
      },
      genesis,
    );
    await submit(
      {
        TransactionType: 'TrustSet',
        Account: second.classicAddress,
        LimitAmount: { currency: tokenA.currency, issuer: tokenA.issuer_address, value: '1000000000' },
      },
      second,
    );
    // Buys and sells of both tokens by two accounts, several in one ledger and over several candles.
    for (let round = 0; round < 6; round++) {
      await Promise.all([
        submit(
          {
            TransactionType: 'OfferCreate',
            Account: trader.classicAddress,
            TakerGets: String(1_000_000 + round * 137_000),
            TakerPays: { currency: tokenA.currency, issuer: tokenA.issuer_address, value: '0.000001' },
            Flags: OfferCreateFlags.tfSell | OfferCreateFlags.tfImmediateOrCancel,
          },
          trader,
        ),
        submit(
          {
            TransactionType: 'OfferCreate',
            Account: second.classicAddress,
            TakerGets: String(2_000_000 + round * 71_000),
            TakerPays: { currency: tokenA.currency, issuer: tokenA.issuer_address, value: '0.000001' },
            Flags: OfferCreateFlags.tfSell | OfferCreateFlags.tfImmediateOrCancel,
          },
          second,
        ),
      ]);
      await submit(
        {
          TransactionType: 'OfferCreate',
          Account: trader.classicAddress,
          // A sell: at most 100 tokens for 1,000 drops (the pool pays about 100 drops a token).
          TakerGets: { currency: tokenA.currency, issuer: tokenA.issuer_address, value: '100' },
          TakerPays: String(1_000 + round * 7),
          Flags: OfferCreateFlags.tfImmediateOrCancel,
        },
        trader,
      );
      await submit(
        {
          TransactionType: 'OfferCreate',
          Account: trader.classicAddress,
          TakerGets: String(500_000 + round * 10_000),
          TakerPays: { currency: tokenB.currency, issuer: tokenB.issuer_address, value: '0.000001' },
          Flags: OfferCreateFlags.tfSell | OfferCreateFlags.tfImmediateOrCancel,
        },
        trader,
      );
    }
    const to = (await client.request({ command: 'ledger', ledger_index: 'validated' })).result.ledger_index;
    expect(to - from).toBeGreaterThan(16); // more than one batch

    const listed = await t.database.db
      .select({
        id: tokensTable.id,
        currency: tokensTable.currency,
        issuerAddress: tokensTable.issuerAddress,
      })
      .from(tokensTable);
    const rlusd = (await platformWallet(t.database.db, PLATFORM_ROLES.rlusdIssuer))!.address;
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    const tables = async (batchLedgers: number) => {
      const database = await createTestDatabase();
      try {
        await database.db.insert(ledgerCursor).values({ name: 'main', lastLedger: from });
        const follower = new LedgerFollower({ database, connection: t.connection, log: quiet, batchLedgers });
        follower.register(
          createMarketIndexer(
            {
              client,
              listTokens: async () => listed,
              rlusdIssuer: async () => rlusd,
              publishTrade: async () => {},
            },
            database.db,
          ),
        );
        follower.start();
        await follower.caughtUp(to);
        await follower.stop();
        const q = (text: string) => database.sql.query(text);
        return {
          trades: await q(
            'select token_id, quote, ledger_index, tx_index, hash, account, side, price::text, token_amount::text, quote_amount::text, time from market_trades order by ledger_index, tx_index, token_id, quote',
          ),
          candles: await q(
            'select token_id, quote, resolution, bucket, open::text, high::text, low::text, close::text, volume::text, trades from market_candles order by 1, 2, 3, 4',
          ),
          holders: await q('select token_id, account, balance::text from market_holders order by 1, 2'),
          pools: await q(
            'select token_id, quote, amm_account, token_amount::text, quote_amount::text, lp_supply::text, lp_currency, trading_fee, ledger_index from market_pools order by 1, 2',
          ),
          facts: await q('select * from issuer_facts order by issuer_address'),
          synced: await q('select token_id, ledger_index from market_synced order by 1'),
        };
      } finally {
        await database.close();
      }
    };
    const one = await tables(1);
    const batched = await tables(16);
    expect(one.trades.length).toBeGreaterThanOrEqual(24);
    expect(one.candles.length).toBeGreaterThan(0);
    expect(batched).toEqual(one);
  }, 120_000);

  it("reads every transaction's balance changes as xrpl's getBalanceChanges does", async () => {
    // The handlers' own reading (bigint drops, exact decimals, computed per account asked about)
    // against xrpl.js's, on every transaction this file made: deploys (AMM creation, trust lines,
    // blackholing), swaps both ways, the auto-bridged payment, deletions of zeroed lines.
    const to = (await client.request({ command: 'ledger', ledger_index: 'validated' })).result.ledger_index;
    const norm = (value: string | Decimal) => new Decimal(value.toString()).toFixed();
    let compared = 0;
    let lines = 0;
    for (let index = to; index > 1; index--) {
      const r = await client.request({
        command: 'ledger',
        ledger_index: index,
        transactions: true,
        expand: true,
      });
      for (const entry of (r.result.ledger.transactions ?? []) as Array<{ meta?: TransactionMetadata }>) {
        const meta = entry.meta!;
        const theirs = getBalanceChanges(meta).map(({ account, balances }) => ({
          account,
          balances: balances.map((b) => ({ currency: b.currency, issuer: b.issuer, value: norm(b.value) })),
        }));
        const changes = new TxBalanceChanges(meta);
        const ours = changes.accounts.map((account) => ({
          account,
          balances: changes
            .of(account)
            .map((b) => ({ currency: b.currency, issuer: b.issuer, value: norm(b.value) })),
        }));
        expect(ours).toEqual(theirs);
        compared++;
        lines += theirs.filter((c) => c.balances.some((b) => b.currency !== 'XRP')).length;
      }
    }
    expect(compared).toBeGreaterThan(60);
    expect(lines).toBeGreaterThan(30);
  }, 60_000);
});

describe('public market API', () => {
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  let xrpUsd: Decimal;

  beforeAll(async () => {
    await caughtUp();
    await t.app.marketSnapshot.refresh();
    const rlusdIssuer = (await platformWallet(t.database.db, PLATFORM_ROLES.rlusdIssuer))!.address;
    const r = await client.request({
      command: 'amm_info',
      asset: { currency: 'XRP' },
      asset2: { currency: RLUSD_CURRENCY_HEX, issuer: rlusdIssuer },
      ledger_index: 'validated',
    });
    xrpUsd = new Decimal((r.result.amm.amount2 as { value: string }).value).div(
      new Decimal(r.result.amm.amount as string).div(1e6),
    );
  });

  it('serves the token list precompressed, with an ETag answered by 304', async () => {
    const plain = await get('/api/tokens?limit=10000');
    const list = plain.json() as Array<{ issuer_address: string; is_blackholed: boolean }>;
    expect(list.map((x) => x.issuer_address)).toEqual(
      expect.arrayContaining([tokenA.issuer_address, tokenB.issuer_address]),
    );
    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    expect((await get('/api/tokens?limit=10000', { 'if-none-match': etag })).statusCode).toBe(304);
    const br = await get('/api/tokens?limit=10000', { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await get('/api/tokens?limit=10000', { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect((await get('/api/tokens?limit=1')).json()).toHaveLength(1);
    expect((await get('/api/tokens?limit=10001')).statusCode).toBe(400);
    expect((await get('/api/tokens?limit=abc')).statusCode).toBe(400);
  });

  it('prices each token from its pool, in XRP and in USD through the XRP/RLUSD pool', async () => {
    const p = await pool(tokenB);
    const priceXrp = new Decimal(p.xrp.toString()).div(1e6).div(p.token);
    const prices = (await get('/api/prices')).json() as Array<Record<string, string>>;
    const b = prices.find((x) => x.issuer === tokenB.issuer_address)!;
    expect(b).toMatchObject({ tokenCode: tokenB.currency, supply: '1000000', liquidityPair: 'XRP' });
    const rel = (a: Decimal.Value, e: Decimal) => new Decimal(a).minus(e).abs().lte(e.abs().mul('1e-13'));
    expect(rel(b.priceInXRP!, priceXrp)).toBe(true);
    expect(rel(b.priceInUSD!, priceXrp.mul(xrpUsd))).toBe(true);
    expect(new Decimal(b.marketCapInUSD!).minus(priceXrp.mul(xrpUsd).mul(1_000_000)).abs().lte('0.01')).toBe(
      true,
    );
    const one = (await get(`/api/price?tokenCode=BRAV&issuer=${tokenB.issuer_address}`)).json();
    expect(one).toMatchObject({
      priceInXRP: b.priceInXRP,
      supply: '1000000',
      marketCapInUSD: b.marketCapInUSD,
    });
    expect((await get(`/api/price?tokenCode=BRAV&issuer=rBadAddress`)).statusCode).toBe(400);
    expect((await get(`/api/price?tokenCode=NOPE&issuer=${tokenB.issuer_address}`)).statusCode).toBe(404);
    const usd = (await get('/api/xrp-usd-price')).json() as { price: string };
    expect(rel(usd.price, xrpUsd)).toBe(true);
  });

  it('gives each price its 24h change: since the first trade for a young token, else since the close 24 h ago', async () => {
    const [listedB] = await t.database.db
      .select()
      .from(tokensTable)
      .where(eq(tokensTable.issuerAddress, tokenB.issuer_address));
    const bars = await t.database.db
      .select()
      .from(marketCandles)
      .where(
        and(
          eq(marketCandles.tokenId, listedB!.id),
          eq(marketCandles.quote, 'XRP'),
          eq(marketCandles.resolution, 300),
        ),
      )
      .orderBy(marketCandles.bucket);
    expect(bars.length).toBeGreaterThan(0);
    // Younger than a day: from the first bar's open to the price the list shows now.
    const open = new Decimal(bars[0]!.open);
    const b = ((await get('/api/prices')).json() as Array<Record<string, string>>).find(
      (x) => x.issuer === tokenB.issuer_address,
    )!;
    const pct = new Decimal(b.priceInXRP!).minus(open).div(open).mul(100).toDecimalPlaces(2);
    expect(b.change24h).toBe(`${pct.gte(0) ? '+' : ''}${pct.toFixed(2)}`);
    // Older: the close of the last bar that ended 24 h ago (two bars before it, the later one counts).
    const now = Date.now();
    const bucket = (hoursAgo: number) =>
      new Date(Math.floor((now - hoursAgo * 3_600_000) / 300_000) * 300_000);
    await t.database.db.insert(marketCandles).values(
      [
        { at: 30, open: '0.5', close: '0.6' },
        { at: 25, open: '0.6', close: '0.8' },
        // Inside the last day: not the reference.
        { at: 23, open: '0.8', close: '0.9' },
      ].map((c) => ({
        tokenId: listedB!.id,
        quote: 'XRP',
        resolution: 300,
        bucket: bucket(c.at),
        open: c.open,
        high: c.close,
        low: c.open,
        close: c.close,
        volume: '1',
        trades: 1,
      })),
    );
    const refs = await dayReferencePrices(t.database.db, [
      { id: listedB!.id, quote: 'XRP' },
      // No bars in RLUSD: no reference, no change.
      { id: listedB!.id, quote: 'RLUSD' },
    ]);
    expect([...refs.entries()]).toEqual([[listedB!.id, '0.8']]);
    await t.database.db
      .delete(marketCandles)
      .where(
        and(
          eq(marketCandles.tokenId, listedB!.id),
          sql`${marketCandles.bucket} < ${new Date(now - 20 * 3_600_000).toISOString()}::timestamptz`,
        ),
      );
  });

  it('gives each price its 24h volume (the trades of the last 24 h, exact) and its liquidity (both sides of the pool)', async () => {
    type Rec = Record<string, string | null>;
    const recordOf = async () => {
      await caughtUp();
      await t.app.marketSnapshot.refresh();
      return ((await get('/api/prices')).json() as Rec[]).find((x) => x.issuer === tokenA.issuer_address)!;
    };
    const before = await recordOf();
    // Two trades made here with xrpl.js: a buy for 10 XRP and a sell of half of what it bought.
    // Each one's XRP is what the pool's XRP side moved by (the AMM is the only counterparty).
    const moved: Decimal[] = [];
    const traded = async (tx: SubmittableTransaction) => {
      const p0 = await pool(tokenA);
      await submit(tx, trader);
      const p1 = await pool(tokenA);
      moved.push(new Decimal((p1.xrp - p0.xrp).toString()).abs().div(1e6));
    };
    const held = await lineBalance(trader.classicAddress, tokenA);
    await traded({
      TransactionType: 'OfferCreate',
      Account: trader.classicAddress,
      TakerGets: '10000000',
      TakerPays: { currency: tokenA.currency, issuer: tokenA.issuer_address, value: '1' },
      Flags: OfferCreateFlags.tfSell | OfferCreateFlags.tfImmediateOrCancel,
    });
    const bought = (await lineBalance(trader.classicAddress, tokenA)).minus(held);
    await traded({
      TransactionType: 'OfferCreate',
      Account: trader.classicAddress,
      TakerGets: {
        currency: tokenA.currency,
        issuer: tokenA.issuer_address,
        value: bought.div(2).toSignificantDigits(15).toFixed(),
      },
      TakerPays: '1',
      Flags: OfferCreateFlags.tfSell | OfferCreateFlags.tfImmediateOrCancel,
    });
    const after = await recordOf();
    const expected = new Decimal(before.volume24h!).plus(moved[0]!).plus(moved[1]!);
    expect(new Decimal(after.volume24h!).eq(expected), `${after.volume24h} vs ${expected.toFixed()}`).toBe(
      true,
    );
    expect(
      new Decimal(after.volume24hUSD!).minus(expected.mul(xrpUsd)).abs().lte('0.01'),
      `${after.volume24hUSD} vs ${expected.mul(xrpUsd).toFixed()}`,
    ).toBe(true);
    // Liquidity: both sides of the pool in XRP (twice the XRP side), and in USD.
    const p = await pool(tokenA);
    const xrpSide = new Decimal(p.xrp.toString()).div(1e6);
    expect(after.liquidity).toBe(xrpSide.mul(2).toFixed());
    expect(new Decimal(after.liquidityUSD!).minus(xrpSide.mul(2).mul(xrpUsd)).abs().lte('0.01')).toBe(true);

    // The window: a trade 25 h ago no longer counts, one 23 h ago still does.
    const [listedA] = await t.database.db
      .select()
      .from(tokensTable)
      .where(eq(tokensTable.issuerAddress, tokenA.issuer_address));
    const old = (hours: number, quoteAmount: string) => ({
      tokenId: listedA!.id,
      quote: 'XRP',
      ledgerIndex: 1,
      txIndex: hours,
      hash: `VOLUME-WINDOW-${hours}`,
      account: trader.classicAddress,
      side: 'BUY',
      price: '0.001',
      tokenAmount: '1000',
      quoteAmount,
      time: new Date(Date.now() - hours * 3_600_000),
    });
    await t.database.db.insert(marketTrades).values([old(25, '1000'), old(23, '0.000001')]);
    try {
      const windowed = await recordOf();
      expect(windowed.volume24h).toBe(expected.plus('0.000001').toFixed());
    } finally {
      await t.database.db.delete(marketTrades).where(sql`${marketTrades.hash} like 'VOLUME-WINDOW-%'`);
    }
    // A token without trades in the window reads '0', not nothing.
    const b = ((await get('/api/prices')).json() as Rec[]).find((x) => x.issuer === tokenB.issuer_address)!;
    expect(new Decimal(b.volume24h!).gte(0)).toBe(true);
  });

  it("answers one token's figures from the snapshot: price, market cap, liquidity, holders", async () => {
    const p = await pool(tokenB);
    const xrpReserve = new Decimal(p.xrp.toString()).div(1e6);
    const priceXrp = xrpReserve.div(p.token);
    const rel = (a: Decimal.Value, e: Decimal) => new Decimal(a).minus(e).abs().lte(e.abs().mul('1e-13'));
    const res = await get(`/api/tokens/${tokenB.issuer_address}/stats`);
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json() as TokenStatsView;
    expect(s).toMatchObject({
      issuer: tokenB.issuer_address,
      currency: tokenB.currency,
      liquidityPair: 'XRP',
      supply: '1000000',
      holders: 1,
    });
    expect(rel(s.priceInXRP!, priceXrp)).toBe(true);
    expect(rel(s.priceInUSD!, priceXrp.mul(xrpUsd))).toBe(true);
    // Market cap = USD price × supply; liquidity = both sides in USD (the token side at spot).
    expect(new Decimal(s.marketCapInUSD!).minus(priceXrp.mul(xrpUsd).mul(1_000_000)).abs().lte('0.01')).toBe(
      true,
    );
    expect(new Decimal(s.liquidityUSD!).minus(xrpReserve.mul(2).mul(xrpUsd)).abs().lte('0.01')).toBe(true);
    expect(s.ledger).toBeGreaterThan(0);

    // By ticker, the same figures (a ledger may close between the two reads: its index moves on).
    const same = await get(`/api/tokens/${tokenB.issuer_address}/stats?currency=BRAV`);
    expect({ ...(same.json() as TokenStatsView), ledger: s.ledger }).toEqual(s);
    const missing = await get(`/api/tokens/${trader.classicAddress}/stats`);
    expect([missing.statusCode, missing.json().message]).toEqual([404, 'Token not found']);
    expect((await get(`/api/tokens/${tokenB.issuer_address}/stats?currency=NOPE`)).statusCode).toBe(404);
    expect((await get('/api/tokens/rBadAddress/stats')).statusCode).toBe(400);
  });

  it("lists a token's trades newest first, both amounts and the price between them", async () => {
    const [row] = await t.database.db
      .select({ id: tokensTable.id })
      .from(tokensTable)
      .where(eq(tokensTable.issuerAddress, tokenA.issuer_address));
    const stored = await t.database.db
      .select()
      .from(marketTrades)
      .where(and(eq(marketTrades.tokenId, row!.id), eq(marketTrades.quote, 'XRP')));
    expect(stored.length).toBeGreaterThan(1);
    const res = await get(`/api/tokens/${tokenA.issuer_address}/trades`);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json() as TradeView[];
    expect(list.map((x) => x.hash).sort()).toEqual(stored.map((x) => x.hash).sort());
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [list[i - 1]!, list[i]!];
      expect(a.time > b.time || (a.time === b.time && a.ledgerIndex >= b.ledgerIndex)).toBe(true);
    }
    for (const trade of list) {
      expect(trade.quote).toBe('XRP');
      expect(['BUY', 'SELL']).toContain(trade.side);
      const implied = new Decimal(trade.quoteAmount).div(trade.tokenAmount);
      expect(new Decimal(trade.price).minus(implied).abs().lte(implied.mul('1e-12'))).toBe(true);
      const own = stored.find((x) => x.hash === trade.hash)!;
      expect(trade.time).toBe(own.time.getTime());
    }
    const one = (await get(`/api/tokens/${tokenA.issuer_address}/trades?limit=1`)).json() as TradeView[];
    expect(one).toEqual([list[0]]);
    for (const bad of ['0', '201', 'abc', '1.5']) {
      const r = await get(`/api/tokens/${tokenA.issuer_address}/trades?limit=${bad}`);
      expect([r.statusCode, r.json().message]).toEqual([400, 'limit must be a whole number from 1 to 200.']);
    }
    expect((await get(`/api/tokens/${trader.classicAddress}/trades`)).statusCode).toBe(404);
  });

  it('counts holders and answers blackhole status in bulk (10,000 at most)', async () => {
    const holders = (await get('/api/holders')).json() as Array<{
      issuer_address: string;
      holders_count: number;
    }>;
    // The trader holds BRAV (bought above); the AMM account and the issuer are not holders.
    expect(holders.find((h) => h.issuer_address === tokenB.issuer_address)?.holders_count).toBe(1);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blackhole-status/bulk',
      payload: { issuers: [tokenA.issuer_address, tokenB.issuer_address, trader.classicAddress] },
    });
    expect(res.json()).toEqual({
      [tokenA.issuer_address]: true,
      [tokenB.issuer_address]: true,
      [trader.classicAddress]: false,
    });
    // A signed-in browser sending its cookie but no CSRF token gets the same answer: it changes nothing.
    const visitor = await t.signIn('bulk_reader');
    const withCookie = await t.app.inject({
      method: 'POST',
      url: '/api/blackhole-status/bulk',
      headers: { cookie: visitor.cookie },
      payload: { issuers: [tokenA.issuer_address] },
    });
    expect([withCookie.statusCode, withCookie.json()]).toEqual([200, { [tokenA.issuer_address]: true }]);
    const many = Array.from({ length: 10_001 }, () => tokenA.issuer_address);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/blackhole-status/bulk', payload: { issuers: many } }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/blackhole-status/bulk',
          payload: { issuers: ['nope'] },
        })
      ).statusCode,
    ).toBe(400);
  });

  it('answers TradingView history with equal-length arrays, and no_data with nextTime', async () => {
    // BRAV's last trade (other tests trade ALFA after it).
    const [listedB] = await t.database.db
      .select()
      .from(tokensTable)
      .where(eq(tokensTable.issuerAddress, tokenB.issuer_address));
    const last = (
      await t.database.db
        .select()
        .from(marketTrades)
        .where(eq(marketTrades.tokenId, listedB!.id))
        .orderBy(sql`${marketTrades.id} desc`)
        .limit(1)
    )[0]!;
    // Candles are on ledger time, and the embedded ledger's clock runs ahead of the wall clock when
    // it closes faster than once a second (each close moves it on by a second at least): the range
    // ends after the last trade's own time, not the wall clock's (a CI run missed its bar).
    const now = Math.max(Math.floor(Date.now() / 1000), Math.floor(last.time.getTime() / 1000));
    const ok = (
      await get(
        `/api/tradingview/history?symbol=BRAV&issuer=${tokenB.issuer_address}&resolution=1&from=${now - 3600}&to=${now + 60}`,
      )
    ).json() as Record<string, unknown[]> & { s: string };
    expect(ok.s).toBe('ok');
    const n = ok.t!.length;
    expect(n).toBeGreaterThan(0);
    for (const k of ['o', 'h', 'l', 'c', 'v']) expect(ok[k]).toHaveLength(n);
    expect(ok.c!.at(-1)).toBe(Number(last.price));
    const future = (
      await get(
        `/api/tradingview/history?symbol=BRAV&issuer=${tokenB.issuer_address}&resolution=1&from=${now + 3600}&to=${now + 7200}`,
      )
    ).json();
    expect(future).toEqual({ s: 'no_data', nextTime: ok.t!.at(-1) });
    const bad = [
      `symbol=BRAV&issuer=${tokenB.issuer_address}&resolution=7&from=1&to=2`,
      `symbol=BRAV&issuer=${tokenB.issuer_address}&resolution=1&from=10&to=5`,
      `symbol=BRAV&issuer=${tokenB.issuer_address}&resolution=1&from=0&to=${now}`,
      `symbol=BRAV&issuer=nope&resolution=1&from=1&to=2`,
    ];
    for (const q of bad) expect((await get(`/api/tradingview/history?${q}`)).statusCode).toBe(400);
    expect(
      (
        await get(
          `/api/tradingview/history?symbol=ZZZ&issuer=${tokenB.issuer_address}&resolution=1&from=1&to=2`,
        )
      ).statusCode,
    ).toBe(404);
  });

  it('searches tokens by name, ticker or issuer; amm_info as rippled gives it; no bonding curve yet', async () => {
    expect((await get('/api/swapsearch/search-tokens/alf')).json()).toEqual([
      // Deployed here: verified by construction.
      {
        ticker: 'ALFA',
        currency: Buffer.from('ALFA', 'ascii').toString('hex').toUpperCase().padEnd(40, '0'),
        name: 'Token ALFA',
        issuer_address: tokenA.issuer_address,
        verified: true,
        verified_by: 'deploy',
        verified_domain: null,
        lookalike_of: null,
        same_as: null,
      },
    ]);
    const amm = (await get(`/api/amm_info?issuer=${tokenB.issuer_address}&ticker=BRAV`)).json() as {
      result: { amm: { account: string } };
    };
    expect(amm.result.amm.account).toBe(tokenB.amm_account);
    expect((await get(`/api/pump/bonding/marketcap/1`)).statusCode).toBe(404);
  });
});

describe('order book and risk', () => {
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('lists resting orders by side in XRP per token, dust hidden', async () => {
    const brav = (value: string) => ({ currency: tokenB.currency, issuer: tokenB.issuer_address, value });
    // Far from the pool's price, so they rest on the book.
    await submit(
      {
        TransactionType: 'OfferCreate',
        Account: trader.classicAddress,
        TakerGets: brav('2'),
        TakerPays: '50000000',
      },
      trader,
    );
    await submit(
      {
        TransactionType: 'OfferCreate',
        Account: trader.classicAddress,
        TakerGets: '1000',
        TakerPays: brav('4'),
      },
      trader,
    );
    await submit(
      {
        TransactionType: 'OfferCreate',
        Account: trader.classicAddress,
        TakerGets: '1',
        TakerPays: brav('0.00000000001'),
      },
      trader,
    );
    const book = (await get(`/api/wallets/open-orders/${tokenB.issuer_address}/BRAV`)).json() as {
      buyOrders: Array<{ price: string; amount: string }>;
      sellOrders: Array<{ price: string; amount: string }>;
    };
    expect(book.sellOrders).toEqual([{ price: '25', amount: '2' }]);
    // 0.001 XRP for 4 BRAV; the 1e-11 BRAV order is dust and hidden.
    expect(book.buyOrders).toEqual([{ price: '0.00025', amount: '4' }]);
    expect((await get(`/api/wallets/open-orders/nope/BRAV`)).statusCode).toBe(400);
  });

  it('reports the risk facts and a one-line verdict', async () => {
    await caughtUp();
    const risk = (await get(`/api/tokens/${tokenB.issuer_address}/risk`)).json() as Record<string, unknown>;
    const held = await lineBalance(trader.classicAddress, tokenB);
    expect(risk).toMatchObject({
      issuer: tokenB.issuer_address,
      blackholed: true,
      masterDisabled: true,
      regularKey: 'rrrrrrrrrrrrrrrrrrrrBZbvji',
      requireAuth: false,
      clawback: false,
      transferFeePercent: '0',
      devSharePercent: '0',
      top10SharePercent: held.div(1_000_000).mul(100).toDecimalPlaces(2).toFixed(),
      lpLockedPercent: '0',
    });
    // Red flags none; amber: nothing of the pool is locked (the owner's LP tokens can be withdrawn).
    expect(risk.level).toBe('warn');
    expect(risk.verdict).toBe(
      `Caution: ${(risk.signals as Array<{ sentence: string; severity: string }>)
        .filter((s) => s.severity === 'warn')
        .map((s) => s.sentence)
        .join(' ')}`,
    );
    expect(risk.verdict).toContain(
      'None of the pool is locked: its liquidity providers can withdraw all of it.',
    );
    expect((await get(`/api/tokens/${trader.classicAddress}/risk`)).statusCode).toBe(404);
  });

  it("keeps the token page's reads for one ledger: the next ledger's trade and offer show at once", async () => {
    await caughtUp();
    const to = Math.floor(Date.now() / 1000) + 60;
    const urls = {
      trades: `/api/tokens/${tokenA.issuer_address}/trades?limit=30`,
      history: `/api/tradingview/history?symbol=ALFA&issuer=${tokenA.issuer_address}&resolution=1D&from=${to - 3 * 86_400}&to=${to}`,
      book: `/api/wallets/open-orders/${tokenA.issuer_address}/ALFA`,
      details: `/api/tokens/issuer/${tokenA.issuer_address}`,
    };
    const read = async () => ({
      trades: (await get(urls.trades)).json() as TradeView[],
      history: (await get(urls.history)).json() as { s: string; v: number[]; c: number[] },
      book: (await get(urls.book)).json() as { buyOrders: Array<{ price: string; amount: string }> },
      details: (await get(urls.details)).json() as { issuer_address: string },
    });
    // No close during the two rounds of reads (a loaded machine can take longer than one 200 ms
    // ledger for them): "kept for one ledger" is then about this one ledger.
    t.ledger.setCloseInterval(60_000);
    const before = await read();
    expect(before.details.issuer_address).toBe(tokenA.issuer_address);
    const kept = t.app.platform.readCache.size;
    expect(kept).toBeGreaterThanOrEqual(4);
    expect(await read()).toEqual(before); // answered from what was kept
    expect(t.app.platform.readCache.size).toBe(kept);
    t.ledger.setCloseInterval(200);

    const swap = await submit(
      {
        TransactionType: 'OfferCreate',
        Account: trader.classicAddress,
        TakerGets: '3000000',
        TakerPays: { currency: tokenA.currency, issuer: tokenA.issuer_address, value: '0.000001' },
        Flags: OfferCreateFlags.tfSell | OfferCreateFlags.tfImmediateOrCancel,
      },
      trader,
    );
    // Far below the pool's price: it rests (1 XRP for 1,000,000 ALFA).
    await submit(
      {
        TransactionType: 'OfferCreate',
        Account: trader.classicAddress,
        TakerGets: '1000000',
        TakerPays: { currency: tokenA.currency, issuer: tokenA.issuer_address, value: '1000000' },
      },
      trader,
    );
    await caughtUp();
    const after = await read();
    expect(after.trades[0]!.hash).toBe(swap.hash);
    expect(after.trades.slice(1)).toEqual(before.trades.slice(0, 29));
    // Today's daily bar took the trade's volume (3 XRP less the pool's fee side: more than 2.9).
    expect(
      after.history.v.at(-1)! - (before.history.s === 'ok' ? before.history.v.at(-1)! : 0),
    ).toBeGreaterThan(2.9);
    expect(after.book.buyOrders).toContainEqual({ price: '0.000001', amount: '1000000' });
    expect(before.book.buyOrders).not.toContainEqual({ price: '0.000001', amount: '1000000' });
  });
});
