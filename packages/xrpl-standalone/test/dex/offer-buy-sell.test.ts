// OfferCreate with and without tfSell (rippled CreateOffer::flowCross). Without tfSell the offer
// buys: crossing delivers at most TakerPays (the "taker pays" side limits the cross) and the owner
// keeps the rest of TakerGets; with tfSell it sells all of TakerGets, possibly for more than
// TakerPays. What is left rests at the offer's original quality: without tfSell
// TakerPays' = TakerPays - received and TakerGets' = TakerPays' * rate rounded up; with tfSell
// TakerGets' = TakerGets - sold and TakerPays' = TakerGets' / rate rounded down, where
// rate = TakerGets / TakerPays. Both directions (XRP or a token as TakerPays), against the order
// book and against an AMM pool. Expected amounts are worked out by hand in the comments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Wallet } from 'xrpl';
import {
  type Dex,
  type Submitted,
  expectResult,
  funded,
  issue,
  issuer,
  request,
  startDex,
  tokenBalance,
  trust,
  usd,
  xrpBalance,
} from './helpers';

const TF_SELL = 0x00080000;
const LSF_SELL = 0x00020000;

interface OfferView {
  flags: number;
  taker_gets: unknown;
  taker_pays: unknown;
}

async function offersOf(dex: Dex, w: Wallet): Promise<OfferView[]> {
  return (
    await request<{ offers: OfferView[] }>(dex, {
      command: 'account_offers',
      account: w.address,
      ledger_index: 'current',
    })
  ).offers;
}

function fee(r: Submitted): bigint {
  return BigInt((r.tx as { Fee: string }).Fee);
}

describe('OfferCreate against the order book: buy (no tfSell) vs tfSell', () => {
  let dex: Dex;
  beforeAll(async () => {
    dex = await startDex();
  });
  afterAll(() => dex.close());

  /** A fresh gateway, a maker with a USD line and a taker holding `takerUsd` USD. */
  async function parties(takerUsd: string) {
    const gw = await issuer(dex);
    const maker = await funded(dex);
    const taker = await funded(dex);
    await trust(dex, maker, gw, 'USD');
    await issue(dex, gw, taker, 'USD', takerUsd);
    return { gw, maker, taker };
  }

  it('XRP as TakerPays: receives exactly TakerPays from a better offer, keeps the rest of TakerGets', async () => {
    const { gw, maker, taker } = await parties('100');
    // the maker sells 110 XRP for 90 USD: 90 / 110,000,000 = 8.181818181818182e-7 USD per drop
    await expectResult(dex, maker, {
      TransactionType: 'OfferCreate',
      TakerGets: '110000000',
      TakerPays: usd(gw, '90'),
    });
    const before = await xrpBalance(dex, taker.address);
    // the taker asks 100 XRP for 100 USD (1e-6 USD per drop, worse than the maker's price):
    // without tfSell it receives exactly 100 XRP, paying 100,000,000 * 8.181818181818182e-7 =
    // 81.81818181818182 USD (the product is exact), and keeps 100 - 81.81818181818182 =
    // 18.18181818181818 USD. Before the fix it sold all 100 USD for 110 XRP.
    const r = await expectResult(dex, taker, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '100'),
      TakerPays: '100000000',
    });
    expect((await xrpBalance(dex, taker.address)) - before).toBe(100_000_000n - fee(r));
    expect(await tokenBalance(dex, taker.address, gw.address, 'USD')).toBe('18.18181818181818');
    expect(await offersOf(dex, taker)).toEqual([]);
    // the maker's offer keeps 10 XRP for 90 - 81.81818181818182 = 8.18181818181818 USD
    expect(await tokenBalance(dex, maker.address, gw.address, 'USD')).toBe('81.81818181818182');
    const left = await offersOf(dex, maker);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ taker_gets: '10000000', taker_pays: usd(gw, '8.18181818181818') });
  });

  it('XRP as TakerPays with tfSell: sells all of TakerGets for more XRP; the rest rests', async () => {
    const { gw, maker, taker } = await parties('100');
    await expectResult(dex, maker, {
      TransactionType: 'OfferCreate',
      TakerGets: '110000000',
      TakerPays: usd(gw, '90'),
    });
    const before = await xrpBalance(dex, taker.address);
    // with tfSell the taker takes the whole maker offer (90 USD -> 110 XRP, more than the 100 XRP
    // asked); the 10 USD not sold rest at the original rate 100 USD / 100,000,000 drops:
    // TakerPays = 10 / 1e-6 = 10,000,000 drops, flagged lsfSell.
    const r = await expectResult(dex, taker, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '100'),
      TakerPays: '100000000',
      Flags: TF_SELL,
    });
    expect((await xrpBalance(dex, taker.address)) - before).toBe(110_000_000n - fee(r));
    expect(await tokenBalance(dex, taker.address, gw.address, 'USD')).toBe('10');
    expect(await offersOf(dex, maker)).toEqual([]);
    expect(await tokenBalance(dex, maker.address, gw.address, 'USD')).toBe('90');
    expect(await offersOf(dex, taker)).toEqual([
      expect.objectContaining({ flags: LSF_SELL, taker_gets: usd(gw, '10'), taker_pays: '10000000' }),
    ]);
  });

  it('XRP as TakerPays across two price levels stops at TakerPays; a partial cross rests the remainder', async () => {
    const gw = await issuer(dex);
    const carol = await funded(dex);
    const dave = await funded(dex);
    const alice = await funded(dex);
    const erin = await funded(dex);
    await trust(dex, carol, gw, 'USD');
    await trust(dex, dave, gw, 'USD');
    await issue(dex, gw, alice, 'USD', '200');
    await issue(dex, gw, erin, 'USD', '200');
    // carol sells 55 XRP for 45 USD (8.181818181818182e-7 USD/drop), dave 100 XRP for 110 USD
    // (1.1e-6 USD/drop)
    await expectResult(dex, carol, {
      TransactionType: 'OfferCreate',
      TakerGets: '55000000',
      TakerPays: usd(gw, '45'),
    });
    await expectResult(dex, dave, {
      TransactionType: 'OfferCreate',
      TakerGets: '100000000',
      TakerPays: usd(gw, '110'),
    });
    // alice buys 100 XRP for up to 120 USD (1.2e-6 USD/drop): all of carol's 55 XRP for 45 USD,
    // then 45,000,000 drops of dave's at 45,000,000 * 1.1e-6 = 49.5 USD; 94.5 USD in all, 105.5
    // kept, nothing rests. (Selling all 120 USD would have taken 75 USD of dave's offer.)
    const before = await xrpBalance(dex, alice.address);
    const r = await expectResult(dex, alice, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '120'),
      TakerPays: '100000000',
    });
    expect((await xrpBalance(dex, alice.address)) - before).toBe(100_000_000n - fee(r));
    expect(await tokenBalance(dex, alice.address, gw.address, 'USD')).toBe('105.5');
    expect(await offersOf(dex, alice)).toEqual([]);
    expect(await offersOf(dex, carol)).toEqual([]);
    expect(await tokenBalance(dex, carol.address, gw.address, 'USD')).toBe('45');
    expect(await tokenBalance(dex, dave.address, gw.address, 'USD')).toBe('49.5');
    expect(await offersOf(dex, dave)).toEqual([
      expect.objectContaining({ taker_gets: '55000000', taker_pays: usd(gw, '60.5') }),
    ]);
    // erin makes the same offer: only dave's 55 XRP (for 60.5 USD) are left. The rest keeps erin's
    // rate: TakerPays = 100,000,000 - 55,000,000 = 45,000,000 drops, TakerGets = 45,000,000 * 1.2e-6
    // = 54 USD (rounded up; exact here).
    const before2 = await xrpBalance(dex, erin.address);
    const r2 = await expectResult(dex, erin, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '120'),
      TakerPays: '100000000',
    });
    expect((await xrpBalance(dex, erin.address)) - before2).toBe(55_000_000n - fee(r2));
    expect(await tokenBalance(dex, erin.address, gw.address, 'USD')).toBe('139.5');
    expect(await offersOf(dex, dave)).toEqual([]);
    expect(await tokenBalance(dex, dave.address, gw.address, 'USD')).toBe('110');
    expect(await offersOf(dex, erin)).toEqual([
      expect.objectContaining({ flags: 0, taker_gets: usd(gw, '54'), taker_pays: '45000000' }),
    ]);
  });

  it('tfFillOrKill / tfImmediateOrCancel buying XRP: filled at TakerPays, killed or cut short otherwise', async () => {
    const { gw, maker, taker } = await parties('300');
    await expectResult(dex, maker, {
      TransactionType: 'OfferCreate',
      TakerGets: '110000000',
      TakerPays: usd(gw, '90'),
    });
    // fill-or-kill 100 XRP for 100 USD: filled exactly as without the flag (81.81818181818182 USD)
    const before = await xrpBalance(dex, taker.address);
    const r = await expectResult(dex, taker, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '100'),
      TakerPays: '100000000',
      Flags: 0x00040000,
    });
    expect((await xrpBalance(dex, taker.address)) - before).toBe(100_000_000n - fee(r));
    expect(await tokenBalance(dex, taker.address, gw.address, 'USD')).toBe('218.1818181818182');
    // 10 XRP (for 8.18181818181818 USD) are left: fill-or-kill 20 XRP is killed, nothing moves
    const killed = await expectResult(
      dex,
      taker,
      { TransactionType: 'OfferCreate', TakerGets: usd(gw, '20'), TakerPays: '20000000', Flags: 0x00040000 },
      'tecKILLED',
    );
    expect(killed.result).toBe('tecKILLED');
    expect(await tokenBalance(dex, taker.address, gw.address, 'USD')).toBe('218.1818181818182');
    expect(await offersOf(dex, maker)).toHaveLength(1);
    // immediate-or-cancel 20 XRP takes the 10 left for 8.18181818181818 USD and places nothing:
    // 218.1818181818182 - 8.18181818181818 = 210.00000000000002 -> 210 (16 digits)
    const before2 = await xrpBalance(dex, taker.address);
    const r2 = await expectResult(dex, taker, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '20'),
      TakerPays: '20000000',
      Flags: 0x00020000,
    });
    expect((await xrpBalance(dex, taker.address)) - before2).toBe(10_000_000n - fee(r2));
    expect(await tokenBalance(dex, taker.address, gw.address, 'USD')).toBe('210');
    expect(await offersOf(dex, maker)).toEqual([]);
    expect(await offersOf(dex, taker)).toEqual([]);
  });

  it('a token as TakerPays: receives exactly TakerPays and pays the maker price in XRP', async () => {
    const { gw, maker, taker } = await parties('1');
    await issue(dex, gw, maker, 'USD', '110');
    // the maker sells 110 USD for 90 XRP: 90,000,000 / 110 = 818,181.8181818182 drops per USD
    await expectResult(dex, maker, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '110'),
      TakerPays: '90000000',
    });
    const before = await xrpBalance(dex, taker.address);
    const makerBefore = await xrpBalance(dex, maker.address);
    // the taker buys 100 USD for up to 100 XRP: 100 * 818,181.8181818182 = 81,818,181.81818182,
    // rounded up to 81,818,182 drops. The maker keeps 10 USD for 90,000,000 - 81,818,182 drops.
    const r = await expectResult(dex, taker, {
      TransactionType: 'OfferCreate',
      TakerGets: '100000000',
      TakerPays: usd(gw, '100'),
    });
    expect(before - (await xrpBalance(dex, taker.address))).toBe(81_818_182n + fee(r));
    expect(await tokenBalance(dex, taker.address, gw.address, 'USD')).toBe('101');
    expect(await offersOf(dex, taker)).toEqual([]);
    expect((await xrpBalance(dex, maker.address)) - makerBefore).toBe(81_818_182n);
    expect(await offersOf(dex, maker)).toEqual([
      expect.objectContaining({ taker_gets: usd(gw, '10'), taker_pays: '8181818' }),
    ]);
  });

  it('a token as TakerPays with tfSell: sells all the XRP for more USD; the rest rests', async () => {
    const { gw, maker, taker } = await parties('1');
    await issue(dex, gw, maker, 'USD', '110');
    await expectResult(dex, maker, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '110'),
      TakerPays: '90000000',
    });
    const before = await xrpBalance(dex, taker.address);
    // selling 100 XRP: the whole maker offer (90 XRP -> 110 USD); the 10 XRP left rest at
    // 100,000,000 drops / 100 USD: TakerPays = 10,000,000 / 1,000,000 = 10 USD.
    const r = await expectResult(dex, taker, {
      TransactionType: 'OfferCreate',
      TakerGets: '100000000',
      TakerPays: usd(gw, '100'),
      Flags: TF_SELL,
    });
    expect(before - (await xrpBalance(dex, taker.address))).toBe(90_000_000n + fee(r));
    expect(await tokenBalance(dex, taker.address, gw.address, 'USD')).toBe('111');
    expect(await offersOf(dex, maker)).toEqual([]);
    expect(await offersOf(dex, taker)).toEqual([
      expect.objectContaining({ flags: LSF_SELL, taker_gets: '10000000', taker_pays: usd(gw, '10') }),
    ]);
  });
});

// Pool: 10,000 XRP (10^10 drops) and 10,000 USD, trading fee 1000 (1%, so 1 - fee = 0.99). The
// AMM offer is synthesized at the pool's quality; sized to the taker's limit on the out side it is
// XLS-30 swap-out, in = ((I * O) / (O - out) - I) / (1 - fee), with rippled's rounding (fixAMMv1_1:
// the product and ratio rounded up, O - out down, the result up); on the in side swap-in,
// out = O - (I * O) / (I + in * (1 - fee)) (denominator down, ratio up, result down). Numbers
// keep 16 significant digits.
describe('OfferCreate against an AMM pool: buy (no tfSell) vs tfSell', () => {
  let dex: Dex;
  beforeAll(async () => {
    dex = await startDex();
  });
  afterAll(() => dex.close());

  async function pool(takerUsd?: string) {
    const gw = await issuer(dex);
    const lp = await funded(dex, 30_000);
    const taker = await funded(dex);
    await issue(dex, gw, lp, 'USD', '10000');
    if (takerUsd) await issue(dex, gw, taker, 'USD', takerUsd);
    await expectResult(dex, lp, {
      TransactionType: 'AMMCreate',
      Amount: '10000000000',
      Amount2: usd(gw, '10000'),
      TradingFee: 1000,
    });
    const info = async () =>
      (
        await request<{ amm: { amount: string; amount2: { value: string } } }>(dex, {
          command: 'amm_info',
          asset: { currency: 'XRP' },
          asset2: { currency: 'USD', issuer: gw.address },
        })
      ).amm;
    return { gw, taker, info };
  }

  it('XRP as TakerPays: swaps out exactly TakerPays', async () => {
    const { gw, taker, info } = await pool('1000');
    const before = await xrpBalance(dex, taker.address);
    // 100 XRP for up to 150 USD: out = 10^8 drops, I = 10^4 USD, O = 10^10 drops.
    // I * O = 10^14; O - out = 9.9e9; ratio = 10^14 / 9.9e9 = 10101.0101010101.. -> (up)
    // 10101.01010101011; minus I = 101.01010101011; / 0.99 = 102.030405060717171.. -> (up)
    // 102.0304050607172 USD. Kept: 1000 - 102.0304050607172 = 897.9695949392828. (Selling all
    // 150 USD would have swapped in 150 USD instead.)
    const r = await expectResult(dex, taker, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '150'),
      TakerPays: '100000000',
    });
    expect((await xrpBalance(dex, taker.address)) - before).toBe(100_000_000n - fee(r));
    expect(await tokenBalance(dex, taker.address, gw.address, 'USD')).toBe('897.9695949392828');
    expect(await offersOf(dex, taker)).toEqual([]);
    const amm = await info();
    expect(amm.amount).toBe('9900000000');
    // 10000 + 102.0304050607172 = 10102.0304050607172 -> 10102.03040506072
    expect(amm.amount2.value).toBe('10102.03040506072');
  });

  it('XRP as TakerPays with tfSell: swaps in all of TakerGets', async () => {
    const { gw, taker, info } = await pool('1000');
    const before = await xrpBalance(dex, taker.address);
    // selling 150 USD: I + in * 0.99 = 10148.5; 10^14 / 10148.5 = 9853672956.5945706.. -> (up)
    // 9853672956.594571; out = 10^10 - 9853672956.594571 = 146327043.405429 -> 146,327,043 drops,
    // more than the 100 XRP asked; all 150 USD sold, nothing rests.
    const r = await expectResult(dex, taker, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '150'),
      TakerPays: '100000000',
      Flags: TF_SELL,
    });
    expect((await xrpBalance(dex, taker.address)) - before).toBe(146_327_043n - fee(r));
    expect(await tokenBalance(dex, taker.address, gw.address, 'USD')).toBe('850');
    expect(await offersOf(dex, taker)).toEqual([]);
    expect((await info()).amount).toBe(String(10_000_000_000 - 146_327_043));
  });

  it('XRP as TakerPays limited by its quality: takes what the pool gives at that price, rests the rest', async () => {
    const { gw, taker } = await pool('1000');
    const before = await xrpBalance(dex, taker.address);
    // 500 XRP for up to 510 USD: rate = 510 / 5e8 = 1.02e-6 USD per drop. rippled limits the
    // output so the average quality is the limit (QualityFunction::outFromAvgQ): with
    // m = -0.99 / I = -0.000099 and b = O * 0.99 / I = 990,000, out = (1/rate - b) / m rounded up:
    // 1/1.02e-6 = 980392.1568627451 (up); - 990,000 = -9607.8431372549; / -0.000099 =
    // 97048920.57833233 -> 97,048,921 drops (nearest). in = swap-out: O - out = 9,902,951,079;
    // 10^14 / 9,902,951,079 -> (up) 10098.00000042998; - I = 98.00000042998; / 0.99 -> (up)
    // 98.98989942422223 USD; kept 1000 - 98.98989942422223 -> 901.0101005757778.
    // The rest: TakerPays = 5e8 - 97,048,921 = 402,951,079 drops, TakerGets = 402,951,079 * 1.02e-6
    // = 411.01010058 USD.
    const r = await expectResult(dex, taker, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '510'),
      TakerPays: '500000000',
    });
    expect((await xrpBalance(dex, taker.address)) - before).toBe(97_048_921n - fee(r));
    expect(await tokenBalance(dex, taker.address, gw.address, 'USD')).toBe('901.0101005757778');
    expect(await offersOf(dex, taker)).toEqual([
      expect.objectContaining({ flags: 0, taker_gets: usd(gw, '411.01010058'), taker_pays: '402951079' }),
    ]);
  });

  it('the same limit with tfSell crosses as much, and rests the unsold TakerGets', async () => {
    const { gw, taker } = await pool('1000');
    const before = await xrpBalance(dex, taker.address);
    // same swap as above (the quality limit binds before the 510 USD run out); the rest is
    // TakerGets = 510 - 98.98989942422223 -> 411.0101005757778 USD and TakerPays =
    // 411.0101005757778 / 1.02e-6 = 402,951,078.99.. -> (down) 402,951,078 drops.
    const r = await expectResult(dex, taker, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '510'),
      TakerPays: '500000000',
      Flags: TF_SELL,
    });
    expect((await xrpBalance(dex, taker.address)) - before).toBe(97_048_921n - fee(r));
    expect(await tokenBalance(dex, taker.address, gw.address, 'USD')).toBe('901.0101005757778');
    expect(await offersOf(dex, taker)).toEqual([
      expect.objectContaining({
        flags: LSF_SELL,
        taker_gets: usd(gw, '411.0101005757778'),
        taker_pays: '402951078',
      }),
    ]);
  });

  it('a token as TakerPays: swaps out exactly TakerPays', async () => {
    const { gw, taker, info } = await pool();
    const before = await xrpBalance(dex, taker.address);
    // 100 USD for up to 200 XRP: I = 10^10 drops, O = 10^4 USD. O - out = 9900;
    // 10^14 / 9900 = 10101010101.0101.. -> (up) 10101010101.01011; - I = 101010101.01011;
    // / 0.99 = 102030405.06071717.. -> (up) 102030405.0607172 -> 102,030,406 drops.
    const r = await expectResult(dex, taker, {
      TransactionType: 'OfferCreate',
      TakerGets: '200000000',
      TakerPays: usd(gw, '100'),
    });
    expect(before - (await xrpBalance(dex, taker.address))).toBe(102_030_406n + fee(r));
    expect(await tokenBalance(dex, taker.address, gw.address, 'USD')).toBe('100');
    expect(await offersOf(dex, taker)).toEqual([]);
    expect((await info()).amount).toBe('10102030406');
  });

  it('a token as TakerPays with tfSell: swaps in all the XRP', async () => {
    const { gw, taker } = await pool();
    const before = await xrpBalance(dex, taker.address);
    // selling 200 XRP: I + in * 0.99 = 10,198,000,000; 10^14 / 10,198,000,000 = 9805.8442831927829..
    // -> (up) 9805.844283192783; out = 10^4 - 9805.844283192783 = 194.155716807217 USD.
    const r = await expectResult(dex, taker, {
      TransactionType: 'OfferCreate',
      TakerGets: '200000000',
      TakerPays: usd(gw, '100'),
      Flags: TF_SELL,
    });
    expect(before - (await xrpBalance(dex, taker.address))).toBe(200_000_000n + fee(r));
    expect(await tokenBalance(dex, taker.address, gw.address, 'USD')).toBe('194.155716807217');
    expect(await offersOf(dex, taker)).toEqual([]);
  });
});
