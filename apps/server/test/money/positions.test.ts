import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type Client, OfferCreateFlags } from 'xrpl';
import {
  Decimal,
  RLUSD_CURRENCY_HEX,
  tickerToCurrency,
  type DeployResult,
  type JobStatusView,
  type PositionsResponse,
} from '@ledgerpad/shared';
import { and, asc, eq, like } from 'drizzle-orm';
import { TRADING_FEE_JOB, userFeePercent } from '../../src/modules/trading';
import { tradingTrades } from '../../src/modules/trading/schema';
import { jobs } from '../../src/platform/jobs';
import type { SignedIn } from '../helpers/test-app';
import { submitAndWait } from '../helpers/submit-and-wait';
import { fundedWallet, seed, type TradingWorld } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { testLogo } from '../helpers/test-logo';

// Exact accounting (issue 23): the positions worked example, by hand. The token is paired with
// RLUSD, so its XRP book holds only the offers placed here and nothing on an AMM: every trade below
// executes at the book's exact price. Net of fees (issue 39): each trade made here costs its
// platform fee p (its percent of the XRP, in drops, rounded down) and network fees n (the ledger's
// Fee of the trade and of the fee's payment; a fill's only its fee payment's) — a buy's cost adds
// them, a sale's proceeds lose them. The sale signed outside has no fee known here (none counted).
//
//   1. buy 100 at 0.5 (a swap: 50 XRP)              qty 100, cost c1 = 50 + p1 + n1
//   2. sell 40 at 2.0 (a swap: 80 XRP)              realized 80 − p2 − n2 − 0.4·c1; qty 60, cost 0.6·c1
//   3. limit sell 20 at 3.0 filled by another        realized += 60 − p3 − n3 − 0.2·c1; qty 40, cost 0.4·c1
//      account (60 XRP)
//   4. sell 10 at 2.0 signed outside Ledgerpad       realized += 20 − 0.1·c1; qty 30, cost 0.3·c1
//      with the wallet's own seed (20 XRP)
//   5. limit buy 10 at 0.4 filled by another         qty 40, cost 0.3·c1 + 4 + p5 + n5
//      account (4 XRP)
//
// Without fees: realized 160 − 35 = 125, cost 15 + 4 = 19. Balance 40 (100 − 40 − 20 − 10 + 10),
// valued at spot p (XRP per token, the RLUSD pool's spot ÷ the XRP/RLUSD pool's RLUSD per XRP): 40p;
// marked at what selling the 40 into the RLUSD pool returns (constant product, less the platform
// fee, in XRP): unrealized = that − cost. Then an XRP → RLUSD swap of 10 XRP: RLUSD appears as a
// holding, cost 10 + p6 + n6, marked at what selling it back into the XRP/RLUSD pool returns.

let t: WalletTestApp;
let world: TradingWorld;
let client: Client;
let owner: SignedIn;
let ownerWallet: { id: number; address: string };
let token: DeployResult;
let rlusd: string;

const TF_IMMEDIATE_OR_CANCEL = OfferCreateFlags.tfImmediateOrCancel;
/** Within a millionth: the ledger's swap rounds each step to 16 digits in the pool's favour. */
const near = (actual: string, expected: Decimal) =>
  expect(
    new Decimal(actual).minus(expected).abs().lte('0.000001'),
    `${actual} vs ${expected.toFixed()}`,
  ).toBe(true);
const xrp = (v: string) => new Decimal(v).mul(1e6).toFixed(0);

const post = (url: string, who: SignedIn, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload });

/** An account outside Ledgerpad, paid `amount` XRP by the owner's wallet. */
async function outsider(amount: string): Promise<Wallet> {
  const w = Wallet.generate();
  const paid = await post('/api/wallets/transfer', owner, {
    walletId: ownerWallet.id,
    recipient: w.classicAddress,
    amount,
    token: null,
  });
  expect(paid.statusCode, paid.body).toBe(200);
  return w;
}

async function trustAndReceive(w: Wallet, tokens: string): Promise<void> {
  await submitAndWait(
    client,
    {
      TransactionType: 'TrustSet',
      Account: w.classicAddress,
      LimitAmount: { currency: token.currency, issuer: token.issuer_address, value: '1000000' },
    },
    w,
  );
  if (tokens === '0') return;
  const sent = await post('/api/wallets/transfer', owner, {
    walletId: ownerWallet.id,
    recipient: w.classicAddress,
    amount: tokens,
    token: { currency: token.currency, issuer: token.issuer_address },
  });
  expect(sent.statusCode, sent.body).toBe(200);
}

/** Every platform-fee job so far has run and nothing of the platform is in flight. */
async function settled(): Promise<void> {
  await t.app.platform.indexer!.caughtUp();
  await world.feesSettled();
}

const tokens = (value: string) => ({ currency: token.currency, issuer: token.issuer_address, value });

async function offer(w: Wallet, takerGets: unknown, takerPays: unknown, flags = 0): Promise<string> {
  const r = await submitAndWait(
    client,
    {
      TransactionType: 'OfferCreate',
      Account: w.classicAddress,
      TakerGets: takerGets as never,
      TakerPays: takerPays as never,
      ...(flags ? { Flags: flags } : {}),
    },
    w,
  );
  return (r.meta as { TransactionResult: string }).TransactionResult;
}

async function pool(asset: object, asset2: object) {
  const r = await client.request({
    command: 'amm_info',
    asset: asset as never,
    asset2: asset2 as never,
    ledger_index: 'validated',
  });
  const v = (a: unknown) =>
    typeof a === 'string' ? new Decimal(a).div(1e6) : new Decimal((a as { value: string }).value);
  // amm_info answers the sides in the order asked; the fee as a fraction (TradingFee is 1/100,000).
  return {
    a: v(r.result.amm.amount),
    b: v(r.result.amm.amount2),
    fee: new Decimal(r.result.amm.trading_fee).div(100_000),
  };
}

/** Selling `b` of a pool's side T for its side X: (X − x)(T + b(1 − f)) = X·T. */
const swapOut = (X: Decimal, T: Decimal, b: Decimal | number, f: Decimal) =>
  X.minus(X.mul(T).div(T.plus(new Decimal(b).mul(new Decimal(1).minus(f)))));

/** The network fee the ledger charged for a validated transaction, in XRP (API v2: in tx_json). */
async function networkFee(hash: string): Promise<Decimal> {
  const r = (await client.request({ command: 'tx', transaction: hash })).result as {
    Fee?: string;
    tx_json?: { Fee?: string };
  };
  return new Decimal((r.tx_json ?? r).Fee!).div(1e6);
}

/** A trade's recorded row: its fee's payment is a transaction of its own (no Batch in tests). */
async function feePaymentFee(tradeHash: string): Promise<Decimal> {
  const [row] = await t.database.db.select().from(tradingTrades).where(eq(tradingTrades.hash, tradeHash));
  expect(row?.feeHash, `the fee of ${tradeHash} is paid`).toBeTruthy();
  return networkFee(row!.feeHash!);
}

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  world = seed(t);
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  owner = await t.signInOwner();
  ownerWallet = await fundedWallet(t, owner, 1);
  expect(
    (
      await t.app.inject({
        method: 'POST',
        url: `/api/wallets/${ownerWallet.id}/fund-rlusd`,
        headers: owner.headers,
      })
    ).statusCode,
  ).toBe(200);
  rlusd = ((await t.app.inject({ url: '/api/config/rlusd' })).json() as { issuer: string }).issuer;
  const res = await post('/api/deploy-token', owner, {
    name: 'Position Token',
    ticker: 'POSX',
    description: '',
    supply: '1000',
    devAllocation: '50',
    liquidityAmount: '100',
    ammFee: '0.3',
    logoUrl: await testLogo(t.database.db),
    blackholeIssuer: false,
    requireAuth: false,
    liquidityPairType: 'RLUSD',
    walletId: ownerWallet.id,
  });
  expect(res.statusCode, res.body).toBe(202);
  const job = await t.app.platform.jobs.waitFor((res.json() as { jobId: string }).jobId, {
    timeoutMs: 60_000,
  });
  expect(job.status, job.error ?? '').toBe('completed');
  token = (job as unknown as JobStatusView<DeployResult>).result!;
  expect(token.currency).toBe(tickerToCurrency('POSX'));
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('positions: the worked example', () => {
  it('counts swaps, fills of resting offers, outside trades and RLUSD, matching the hand figures to 6 decimals', async () => {
    const quinn = await t.signIn('quinn_positions');
    const created = (await post('/api/wallets', quinn, {})).json() as {
      id: number;
      wallet_address: string;
      wallet_seed: string;
    };
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/wallets/${created.id}/fund`, headers: quinn.headers }))
        .statusCode,
    ).toBe(200);
    const wallet = created.wallet_address;
    // The book: an ask of 100 at 0.5 from an account outside Ledgerpad (its bid comes after step 1:
    // a bid at 2.0 beside an ask at 0.5 would cross it).
    const maker = await outsider('150');
    await trustAndReceive(maker, '100');
    expect(await offer(maker, tokens('100'), xrp('50'))).toBe('tesSUCCESS');
    const taker1 = await outsider('80');
    await trustAndReceive(taker1, '0');
    const taker2 = await outsider('20');
    await trustAndReceive(taker2, '10');

    const swap = async (type: 'BUY' | 'SELL', amount: string) => {
      const r = await post('/api/swap', quinn, {
        walletAddress: wallet,
        issuer: token.issuer_address,
        token: 'POSX',
        amount,
        type,
        slippage: '0.50',
        baseAsset: 'XRP',
      });
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as { received: string; spent: string; hash: string };
    };
    // 1. buy 100 at 0.5.
    const step1 = await swap('BUY', '50');
    expect(step1).toMatchObject({ spent: '50', received: '100' });
    expect(await offer(maker, xrp('100'), tokens('50'))).toBe('tesSUCCESS');
    // 2. sell 40 at 2.0.
    const step2 = await swap('SELL', '40');
    expect(step2).toMatchObject({ spent: '40', received: '80' });
    // 3. a limit sell of 20 at 3.0 rests; an outside account buys it.
    const limitSell = await post('/api/limit-order', quinn, {
      walletAddress: wallet,
      issuer: token.issuer_address,
      token: 'POSX',
      amount: '20',
      type: 'SELL',
      price: '3',
      baseAsset: 'XRP',
    });
    expect(limitSell.statusCode, limitSell.body).toBe(200);
    expect(await offer(taker1, xrp('60'), tokens('20'))).toBe('tesSUCCESS');
    // 4. the wallet's own seed, elsewhere: sells 10 into the bid at 2.0. (Once the platform fees of
    // the fills so far are paid from the wallet: this signer, like a person elsewhere, does not
    // retry a sequence the platform took at the same moment.)
    await settled();
    const own = Wallet.fromSeed(created.wallet_seed);
    expect(await offer(own, tokens('10'), xrp('20'), TF_IMMEDIATE_OR_CANCEL)).toBe('tesSUCCESS');
    // 5. a limit buy of 10 at 0.4 rests; an outside account sells into it.
    const limitBuy = await post('/api/limit-order', quinn, {
      walletAddress: wallet,
      issuer: token.issuer_address,
      token: 'POSX',
      amount: '4',
      type: 'BUY',
      price: '0.4',
      baseAsset: 'XRP',
    });
    expect(limitBuy.statusCode, limitBuy.body).toBe(200);
    expect(await offer(taker2, tokens('10'), xrp('4'))).toBe('tesSUCCESS');
    // 6. XRP → RLUSD, 10 XRP.
    const toRlusd = await post('/api/swap', quinn, {
      walletAddress: wallet,
      issuer: rlusd,
      token: 'RLUSD',
      amount: '10',
      type: 'BUY',
      slippage: '0.50',
    });
    expect(toRlusd.statusCode, toRlusd.body).toBe(200);

    // Every platform fee paid (their payments' network fees are in the figures).
    await settled();
    const percent = await userFeePercent(t.database.db, t.app.platform.settings, quinn.user.id);
    // p: the percent of the trade's XRP, rounded down to the drop.
    const platform = (xrpAmount: string) =>
      new Decimal(xrpAmount).mul(1e6).mul(percent).div(100).floor().div(1e6);
    const [p1, p2, p3, p5, p6] = ['50', '80', '60', '4', '10'].map(platform) as Decimal[];
    expect(p1!.toFixed()).toBe(new Decimal(50).mul(percent).div(100).toFixed());
    const n1 = (await networkFee(step1.hash)).plus(await feePaymentFee(step1.hash));
    const n2 = (await networkFee(step2.hash)).plus(await feePaymentFee(step2.hash));
    // The fills of the resting orders, in order (step 3's sell, step 5's buy): their fee payments.
    const fills = await t.database.db
      .select()
      .from(tradingTrades)
      .where(and(eq(tradingTrades.walletAddress, wallet), like(tradingTrades.hash, 'fill:%')))
      .orderBy(asc(tradingTrades.id));
    expect(fills.map((f) => [f.side, f.fee])).toEqual([
      ['SELL', p3!.toFixed()],
      ['BUY', p5!.toFixed()],
    ]);
    const n3 = await networkFee(fills[0]!.feeHash!);
    const n5 = await networkFee(fills[1]!.feeHash!);
    const toRlusdHash = (toRlusd.json() as { hash: string }).hash;
    const n6 = (await networkFee(toRlusdHash)).plus(await feePaymentFee(toRlusdHash));
    const c1 = new Decimal(50).plus(p1!).plus(n1);
    const realized = new Decimal(160).minus(p2!).minus(n2).minus(p3!).minus(n3).minus(c1.mul('0.7'));
    const cost = c1.mul('0.3').plus(4).plus(p5!).plus(n5);
    // Each trade here paid at least a 10-drop network fee for itself and for its fee's payment.
    expect(n1.gte('0.00002') && n3.gte('0.00001')).toBe(true);
    // Prices from the pools, by hand: RLUSD per XRP, then the token's RLUSD spot in XRP.
    const xrpRlusd = await pool({ currency: 'XRP' }, { currency: RLUSD_CURRENCY_HEX, issuer: rlusd });
    const rlusdPerXrp = xrpRlusd.b.div(xrpRlusd.a).toSignificantDigits(15);
    const posxPool = await pool({ currency: RLUSD_CURRENCY_HEX, issuer: rlusd }, tokens('0'));
    const p = posxPool.a.div(posxPool.b).toSignificantDigits(15).div(rlusdPerXrp).toSignificantDigits(15);
    // The snapshot follows the ledger: once the test world is quiet (the indexer at the validated
    // ledger, the snapshot rebuilt after it) it prices RLUSD as the pool now does.
    await t.settle();
    const xrpUsd = (await t.app.inject({ url: '/api/xrp-usd-price' })).json() as { price: string };
    expect(new Decimal(xrpUsd.price).eq(rlusdPerXrp), `${xrpUsd.price} ≠ ${rlusdPerXrp.toFixed()}`).toBe(
      true,
    );
    const res = await t.app.inject({
      url: `/api/positions/${quinn.user.id}`,
      headers: { cookie: quinn.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    const mine = (res.json() as PositionsResponse).positions.find((x) => x.wallet === wallet)!;
    const r6 = (d: Decimal) => d.toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed();
    const posx = mine.tokens.find((x) => x.tokenCode === token.currency)!;
    // Selling the 40 into the RLUSD pool: RLUSD out, less the platform fee on it, in XRP (6 decimals, down).
    const rlusdOut = swapOut(posxPool.a, posxPool.b, 40, posxPool.fee);
    const sale = rlusdOut
      .minus(rlusdOut.mul(percent).div(100))
      .div(rlusdPerXrp)
      .toDecimalPlaces(6, Decimal.ROUND_DOWN);
    expect(sale.lt(p.mul(40))).toBe(true);
    expect(posx).toMatchObject({
      ticker: 'POSX',
      balance: '40',
      realizedPNL: r6(realized),
      valueInXRP: r6(p.mul(40)),
    });
    near(posx.realisableXRP, sale);
    near(posx.unrealizedPNL, sale.minus(cost));
    near(posx.totalPNL, realized.plus(sale).minus(cost));
    // RLUSD: what the ledger holds, cost 10 XRP, worth balance ÷ (RLUSD per XRP).
    const lines = await client.request({
      command: 'account_lines',
      account: wallet,
      peer: rlusd,
      ledger_index: 'validated',
    });
    const held = new Decimal(lines.result.lines[0]!.balance);
    const usd = mine.tokens.find((x) => x.tokenCode === RLUSD_CURRENCY_HEX)!;
    const value = held.mul(new Decimal(1).div(rlusdPerXrp));
    // Marked at selling it back into the XRP/RLUSD pool: XRP out in whole drops, less the fee's drops.
    const now = await pool({ currency: 'XRP' }, { currency: RLUSD_CURRENCY_HEX, issuer: rlusd });
    const drops = swapOut(now.a.mul(1e6), now.b, held, now.fee).floor();
    const back = drops.minus(drops.mul(percent).div(100).floor()).div(1e6);
    const rlusdCost = new Decimal(10).plus(p6!).plus(n6);
    expect(usd).toMatchObject({
      ticker: 'RLUSD',
      balance: held.toFixed(),
      realizedPNL: '0',
      valueInXRP: r6(value),
    });
    near(usd.realisableXRP, back);
    near(usd.unrealizedPNL, back.minus(rlusdCost));
    near(usd.totalPNL, back.minus(rlusdCost));
  }, 90_000);

  it('a 100% sell of a balance with more than 6 decimals leaves no dust', async () => {
    const rae = await t.signIn('rae_dust');
    const w = await fundedWallet(t, rae, 1);
    // 12.3456789 tokens, from the owner.
    const line = await post('/api/add-trustline', rae, {
      wallet: w.address,
      issuer: token.issuer_address,
      token: 'POSX',
    });
    expect(line.statusCode, line.body).toBe(200);
    const sent = await post('/api/wallets/transfer', owner, {
      walletId: ownerWallet.id,
      recipient: w.address,
      amount: '12.3456789',
      token: { currency: token.currency, issuer: token.issuer_address },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    // The screen's 100% is the 6-decimal floor of the balance: 12.345678.
    const sell = await post('/api/swap', rae, {
      walletAddress: w.address,
      issuer: token.issuer_address,
      token: 'POSX',
      amount: '12.345678',
      type: 'SELL',
      slippage: '5',
    });
    expect(sell.statusCode, sell.body).toBe(200);
    expect((sell.json() as { spent: string }).spent).toBe('12.3456789');
    // Its platform fee (RLUSD) is paid from the proceeds: wait for it, the balances settle then.
    const [feeJob] = await t.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `${TRADING_FEE_JOB}:${(sell.json() as { hash: string }).hash}`));
    expect((await t.app.platform.jobs.waitFor(feeJob!.id, { timeoutMs: 30_000 })).status).toBe('completed');
    const lines = await client.request({
      command: 'account_lines',
      account: w.address,
      peer: token.issuer_address,
      ledger_index: 'validated',
    });
    expect(lines.result.lines[0]!.balance).toBe('0');
    await t.app.platform.indexer!.caughtUp();
    const res = await t.app.inject({ url: `/api/positions/${rae.user.id}`, headers: { cookie: rae.cookie } });
    const mine = (res.json() as PositionsResponse).positions.find((x) => x.wallet === w.address)!;
    // No row with a dust balance: the token shows 0 (with what the sale realized) or not at all; the
    // proceeds are RLUSD, a holding of their own.
    const posx = mine.tokens.filter((x) => x.tokenCode === token.currency);
    expect(posx.filter((x) => x.balance !== '0')).toEqual([]);
    expect(mine.tokens.find((x) => x.ticker === 'RLUSD')?.balance).toBe(
      (
        await client.request({
          command: 'account_lines',
          account: w.address,
          peer: rlusd,
          ledger_index: 'validated',
        })
      ).result.lines[0]!.balance,
    );
  }, 60_000);
});
