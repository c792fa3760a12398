// Cross-currency payments through the order book and AMMs, via xrpl.js. Expected amounts follow
// the XLS-30 swap formulas with rippled's rounding, worked out step by step in the comments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Wallet } from 'xrpl';
import {
  type Dex,
  expectResult,
  funded,
  issue,
  issuer,
  startDex,
  submit,
  tokenBalance,
  trust,
  usd,
  xrpBalance,
  request,
} from './helpers';

const XRP = { currency: 'XRP' };

async function pool(dex: Dex, gw: Wallet, currency: string): Promise<{ xrp: string; token: string }> {
  const r = await request<{ amm: { amount: string; amount2: { value: string } } }>(dex, {
    command: 'amm_info',
    asset: XRP,
    asset2: { currency, issuer: gw.address },
  });
  const amm = r.amm;
  return { xrp: amm.amount, token: amm.amount2.value };
}

describe('XRP to token through the AMM and the order book', () => {
  let dex: Dex;
  let gw: Wallet;
  let lp: Wallet;
  let maker: Wallet;
  let bob: Wallet;
  let dan: Wallet;
  beforeAll(async () => {
    dex = await startDex();
    gw = await issuer(dex);
    lp = await funded(dex, 30_000);
    maker = await funded(dex);
    bob = await funded(dex);
    dan = await funded(dex);
    await issue(dex, gw, lp, 'USD', '20000');
    await issue(dex, gw, maker, 'USD', '1000');
    await trust(dex, dan, gw, 'USD');
  });
  afterAll(() => dex.close());

  it('a swap at 0.5% fee pays exactly swapAssetOut (101,517,690 drops for 100 USD)', async () => {
    await expectResult(dex, lp, {
      TransactionType: 'AMMCreate',
      Amount: '10000000000',
      Amount2: usd(gw, '10000'),
      TradingFee: 500,
    });
    const before = await xrpBalance(dex, bob.address);
    const r = await expectResult(dex, bob, {
      TransactionType: 'Payment',
      Destination: dan.address,
      Amount: usd(gw, '100'),
      SendMax: '200000000',
    });
    // in = (10^10 * 10^4 / (10^4 - 100) - 10^10) / 0.995 = 101,517,689.457... rounded up to whole drops
    const fee = BigInt((r.tx as { Fee: string }).Fee);
    expect(before - (await xrpBalance(dex, bob.address))).toBe(101_517_690n + fee);
    expect(await tokenBalance(dex, dan.address, gw.address, 'USD')).toBe('100');
    expect(await pool(dex, gw, 'USD')).toEqual({ xrp: '10101517690', token: '9900' });
    expect(r.meta?.delivered_amount).toEqual(usd(gw, '100'));
    // withdraw the pool so the next test starts from a fresh one
    await expectResult(dex, lp, {
      TransactionType: 'AMMWithdraw',
      Asset: XRP,
      Asset2: { currency: 'USD', issuer: gw.address },
      Flags: 0x00020000,
    });
  });

  it('a payment takes the AMM and a resting offer, best quality first', async () => {
    // Pool 10,000 XRP / 10,000 USD, no fee; maker sells 100 USD at 1.21 XRP each.
    await expectResult(dex, lp, {
      TransactionType: 'AMMCreate',
      Amount: '10000000000',
      Amount2: usd(gw, '10000'),
      TradingFee: 0,
    });
    await expectResult(dex, maker, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '100'),
      TakerPays: '121000000',
    });
    const bobBefore = await xrpBalance(dex, bob.address);
    const danBefore = Number(await tokenBalance(dex, dan.address, gw.address, 'USD'));
    const r = await expectResult(dex, bob, {
      TransactionType: 'Payment',
      Destination: dan.address,
      Amount: usd(gw, '1100'),
      SendMax: '2000000000',
    });
    // 1) The AMM offer is sized so the pool's spot price reaches the offer's 1.21 XRP/USD:
    //    i^2 + 2*10^10*i + 10^20 - 1.21*10^20 = 0 -> i = 1,000 XRP in, out = 10^4 - 10^14/(1.1*10^10)
    //    = 909.090909090909 USD (ratio rounded up to 9090.909090909091).
    // 2) The pool's spot price now equals the offer's quality, so the offer goes next: 100 USD for 121 XRP.
    // 3) The last 90.909090909091 USD come from the pool alone: 1.1*10^10 * 9090.909090909091 (up)
    //    / 9000 (up) - 1.1*10^10 = 111,111,111.11113 -> 111,111,112 drops.
    const fee = BigInt((r.tx as { Fee: string }).Fee);
    expect(bobBefore - (await xrpBalance(dex, bob.address))).toBe(
      1_000_000_000n + 121_000_000n + 111_111_112n + fee,
    );
    expect(Number(await tokenBalance(dex, dan.address, gw.address, 'USD')) - danBefore).toBeCloseTo(1100, 9);
    expect(await pool(dex, gw, 'USD')).toEqual({ xrp: '11111111112', token: '9000' });
    const offers = await dex.client.request({ command: 'account_offers', account: maker.address });
    expect(offers.result.offers).toEqual([]);
    expect(await tokenBalance(dex, maker.address, gw.address, 'USD')).toBe('900');
  });

  it('without enough SendMax the payment fails (tecPATH_PARTIAL) and changes only the fee', async () => {
    const before = await xrpBalance(dex, bob.address);
    const poolBefore = await pool(dex, gw, 'USD');
    const r = await submit(dex, bob, {
      TransactionType: 'Payment',
      Destination: dan.address,
      Amount: usd(gw, '100'),
      SendMax: '1000000',
    });
    expect(r.result).toBe('tecPATH_PARTIAL');
    const fee = BigInt((r.tx as { Fee: string }).Fee);
    expect(before - (await xrpBalance(dex, bob.address))).toBe(fee);
    expect(await pool(dex, gw, 'USD')).toEqual(poolBefore);
  });

  it('tfPartialPayment delivers what SendMax buys and reports delivered_amount; DeliverMin guards it', async () => {
    // 1 XRP into 11,111,111,112 drops / 9,000 USD: out = 9000 - 10^14.. rounded down
    const r = await expectResult(dex, bob, {
      TransactionType: 'Payment',
      Destination: dan.address,
      Amount: usd(gw, '100'),
      SendMax: '1000000',
      Flags: 0x00020000,
    });
    const delivered = r.meta?.delivered_amount as { value: string };
    expect(Number(delivered.value)).toBeGreaterThan(0.8);
    expect(Number(delivered.value)).toBeLessThan(0.82);
    const r2 = await submit(dex, bob, {
      TransactionType: 'Payment',
      Destination: dan.address,
      Amount: usd(gw, '100'),
      SendMax: '1000000',
      DeliverMin: usd(gw, '50'),
      Flags: 0x00020000,
    });
    expect(r2.result).toBe('tecPATH_PARTIAL');
  });
});

describe('token to token through XRP (two AMMs)', () => {
  let dex: Dex;
  let gw: Wallet;
  let lp: Wallet;
  let alice: Wallet;
  let dan: Wallet;
  beforeAll(async () => {
    dex = await startDex();
    gw = await issuer(dex);
    lp = await funded(dex, 50_000);
    alice = await funded(dex);
    dan = await funded(dex);
    await issue(dex, gw, lp, 'USD', '20000');
    await issue(dex, gw, lp, 'EUR', '20000');
    await issue(dex, gw, alice, 'USD', '1000');
    await trust(dex, dan, gw, 'EUR');
    await expectResult(dex, lp, {
      TransactionType: 'AMMCreate',
      Amount: '10000000000',
      Amount2: usd(gw, '10000'),
      TradingFee: 0,
    });
    await expectResult(dex, lp, {
      TransactionType: 'AMMCreate',
      Amount: '10000000000',
      Amount2: { currency: 'EUR', issuer: gw.address, value: '10000' },
      TradingFee: 0,
    });
  });
  afterAll(() => dex.close());

  it('ripple_path_find offers the XRP-bridged path and the payment follows it', async () => {
    const found = await request<{
      alternatives: Array<{ paths_computed: unknown[][]; source_amount: { value: string } }>;
    }>(dex, {
      command: 'ripple_path_find',
      source_account: alice.address,
      destination_account: dan.address,
      destination_amount: { currency: 'EUR', issuer: gw.address, value: '100' },
      source_currencies: [{ currency: 'USD', issuer: gw.address }],
    });
    const alt = found.alternatives;
    expect(alt.length).toBe(1);
    // 100 EUR out of pool 2 needs 10^14/9,900 - 10^10 = 101,010,101.01011 -> 101,010,102 drops;
    // those drops out of pool 1 need 10^14/(10^10 - 101,010,102) - 10^4 = 102.04081733674 USD.
    expect(alt[0]!.source_amount.value).toBe('102.04081733674');
    const r = await expectResult(dex, alice, {
      TransactionType: 'Payment',
      Destination: dan.address,
      Amount: { currency: 'EUR', issuer: gw.address, value: '100' },
      SendMax: usd(gw, '103'),
      Paths: alt[0]!.paths_computed,
    });
    expect(r.meta?.delivered_amount).toEqual({ currency: 'EUR', issuer: gw.address, value: '100' });
    expect(await pool(dex, gw, 'USD')).toEqual({ xrp: '9898989898', token: '10102.04081733674' });
    expect(await pool(dex, gw, 'EUR')).toEqual({ xrp: '10101010102', token: '9900' });
    expect(await tokenBalance(dex, alice.address, gw.address, 'USD')).toBe('897.95918266326');
  });

  it('without a path through XRP there is no liquidity (tecPATH_PARTIAL, or tecPATH_DRY when partial)', async () => {
    const pay = {
      TransactionType: 'Payment',
      Destination: dan.address,
      Amount: { currency: 'EUR', issuer: gw.address, value: '1' },
      SendMax: usd(gw, '2'),
    };
    expect((await submit(dex, alice, pay)).result).toBe('tecPATH_PARTIAL');
    expect((await submit(dex, alice, { ...pay, Flags: 0x00020000 })).result).toBe('tecPATH_DRY');
  });
});

describe('token to XRP, and issuer transfer fees', () => {
  let dex: Dex;
  let gw: Wallet;
  let lp: Wallet;
  let bob: Wallet;
  let dan: Wallet;
  beforeAll(async () => {
    dex = await startDex();
    gw = await issuer(dex);
    // a 0.2% transfer fee on gw's USD
    await expectResult(dex, gw, { TransactionType: 'AccountSet', TransferRate: 1_002_000_000 });
    lp = await funded(dex, 30_000);
    bob = await funded(dex);
    dan = await funded(dex);
    await issue(dex, gw, lp, 'USD', '20000');
    await issue(dex, gw, bob, 'USD', '1000');
    await trust(dex, dan, gw, 'USD');
    await expectResult(dex, lp, {
      TransactionType: 'AMMCreate',
      Amount: '10000000000',
      Amount2: usd(gw, '10000'),
      TradingFee: 0,
    });
  });
  afterAll(() => dex.close());

  it('USD -> XRP: 100 XRP out of the pool cost 10^14/(10^10 - 10^8) - 10^4 = 101.01010101011 USD, plus the 0.2% fee', async () => {
    const danBefore = await xrpBalance(dex, dan.address);
    await expectResult(dex, bob, {
      TransactionType: 'Payment',
      Destination: dan.address,
      Amount: '100000000',
      SendMax: usd(gw, '200'),
    });
    expect((await xrpBalance(dex, dan.address)) - danBefore).toBe(100_000_000n);
    // bob sends his IOUs through the issuer into the pool, so the issuer's 0.2% applies:
    // 101.01010101011 * 1.002 = 101.21212121213022 -> 101.2121212121303 (rounded up)
    expect(await tokenBalance(dex, bob.address, gw.address, 'USD')).toBe('898.7878787878697');
    expect(await pool(dex, gw, 'USD')).toEqual({ xrp: '9900000000', token: '10101.01010101011' });
  });

  it('XRP -> USD to a third party: the pool pays the 0.2% on what it delivers', async () => {
    const before = await xrpBalance(dex, bob.address);
    const r = await expectResult(dex, bob, {
      TransactionType: 'Payment',
      Destination: dan.address,
      Amount: usd(gw, '100'),
      SendMax: '200000000',
    });
    const fee = BigInt((r.tx as { Fee: string }).Fee);
    expect(await tokenBalance(dex, dan.address, gw.address, 'USD')).toBe('100');
    // the pool gives 100.2 USD: in = 9.9e9 * 10101.01010101011 (up) / (10101.01010101011 - 100.2) - 9.9e9
    const paid = before - (await xrpBalance(dex, bob.address)) - fee;
    const pool2 = await pool(dex, gw, 'USD');
    expect(Number(pool2.token)).toBeCloseTo(10101.01010101011 - 100.2, 9);
    expect(BigInt(pool2.xrp)).toBe(9_900_000_000n + paid);
  });
});

describe('tfLimitQuality', () => {
  let dex: Dex;
  let gw: Wallet;
  let lp: Wallet;
  let bob: Wallet;
  let dan: Wallet;
  beforeAll(async () => {
    dex = await startDex();
    gw = await issuer(dex);
    lp = await funded(dex, 30_000);
    bob = await funded(dex);
    dan = await funded(dex);
    await issue(dex, gw, lp, 'USD', '20000');
    await trust(dex, dan, gw, 'USD');
    await expectResult(dex, lp, {
      TransactionType: 'AMMCreate',
      Amount: '10000000000',
      Amount2: usd(gw, '10000'),
      TradingFee: 0,
    });
  });
  afterAll(() => dex.close());

  it('takes only what the pool gives at no worse than SendMax/Amount on average', async () => {
    // limit = 1,020 XRP / 1,000 USD = 1.02 XRP per USD. The largest swap at that average price:
    // i = O * 1.02e6 - I = 10^4 * 1.02e6 - 10^10 = 200,000,000 drops, out = 10^4 - 10^14/(1.02*10^10)
    // = 196.078431372549 USD (ratio rounded up).
    const before = await xrpBalance(dex, bob.address);
    const r = await expectResult(dex, bob, {
      TransactionType: 'Payment',
      Destination: dan.address,
      Amount: usd(gw, '1000'),
      SendMax: '1020000000',
      Flags: 0x00020000 | 0x00040000,
    });
    expect(r.meta?.delivered_amount).toEqual(usd(gw, '196.078431372549'));
    expect(before - (await xrpBalance(dex, bob.address))).toBe(
      200_000_000n + BigInt((r.tx as { Fee: string }).Fee),
    );
    // without tfPartialPayment the same limit cannot deliver the full amount
    const r2 = await submit(dex, bob, {
      TransactionType: 'Payment',
      Destination: dan.address,
      Amount: usd(gw, '1000'),
      SendMax: '1020000000',
      Flags: 0x00040000,
    });
    expect(r2.result).toBe('tecPATH_PARTIAL');
  });
});
