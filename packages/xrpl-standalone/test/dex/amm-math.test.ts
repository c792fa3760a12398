import { describe, expect, it } from 'vitest';
import { Num } from '../../src/core/number';
import { XRP_ISSUE, amt, amtText, xrpDrops, type Issue } from '../../src/amm/amount';
import { DEFAULT_AMENDMENTS, Rules, withRules } from '../../src/core/amendments';
import {
  ammAssetIn,
  ammLPTokens,
  lpTokensOut,
  lpTokensIn,
  ammAssetOut,
  swapAssetIn,
  swapAssetOut,
} from '../../src/amm/math';
import { equalDepositTokens, singleDeposit } from '../../src/amm/deposit';
import { equalWithdrawTokens, singleWithdraw } from '../../src/amm/withdraw';
import { ammIndex, ammLptCurrency, ammAccountId } from '../../src/amm/ids';
import { applyVote, auctionTimeSlot, minSlotPrice, outbidPrice } from '../../src/amm/governance';

const USD: Issue = { currency: 'USD', issuer: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh' };
const LPT: Issue = { currency: '03', issuer: 'rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf' };

// Pool used throughout: 10,000 XRP (10^10 drops) and 10,000 USD; LP tokens sqrt(10^10 * 10^4) = 10^7.
const poolXrp = xrpDrops(10_000_000_000n);
const poolUsd = amt(USD, '10000');
const lpt = amt(LPT, '10000000');

describe('XLS-30 swap formulas (fixAMMv1_1 rounding)', () => {
  it('swap in: 100 XRP into 10,000/10,000 at 0.5% fee', () => {
    // out = O - I*O / (I + in*(1-fee)); I*O = 10^14 (up), denom = 10,099,500,000 (down),
    // ratio = 10^14 / 10,099,500,000 = 9901.480271300559|4 -> up -> 9901.480271300560,
    // out = 10000 - 9901.480271300560 = 98.51972869944 (rounded down, exact value 98.5197286994405...).
    const out = swapAssetIn({ in: poolXrp, out: poolUsd }, xrpDrops(100_000_000n), 500);
    expect(amtText(out)).toBe('98.51972869944');
  });

  it('swap out: 100 USD out of 10,000/10,000 at 0.5% fee costs whole drops rounded up', () => {
    // in = (I*O/(O - out) - I) / (1 - fee) = (10^14/9900 - 10^10)/0.995 = 101,517,689.457... -> 101,517,690 drops
    const paid = swapAssetOut({ in: poolXrp, out: poolUsd }, amt(USD, '100'), 500);
    expect(amtText(paid)).toBe('101517690');
  });

  it('swap in with zero fee on an IOU/IOU pool', () => {
    // 1000/1000 EUR-USD, 10 in: out = 1000 - 10^6/1010 = 1000 - 990.0990099009901 (up) = 9.9009900990099
    const EUR: Issue = { currency: 'EUR', issuer: USD.issuer };
    const out = swapAssetIn({ in: amt(EUR, '1000'), out: amt(USD, '1000') }, amt(EUR, '10'), 0);
    expect(amtText(out)).toBe('9.9009900990099');
  });

  it('swap out of the whole pool is impossible (maximum amount)', () => {
    const paid = swapAssetOut({ in: poolXrp, out: poolUsd }, amt(USD, '10000'), 0);
    expect(paid.value.toBigInt()).toBe(100_000_000_000_000_000n);
  });
});

describe('LP token formulas (fixAMMv1_3 rounding)', () => {
  it('creation issues sqrt(A*B) tokens', () => {
    expect(amtText(ammLPTokens(poolXrp, poolUsd, LPT))).toBe('10000000');
    // sqrt(2 * 3) = 2.449489742783178098... rounded down
    expect(amtText(ammLPTokens(amt(USD, '2'), amt(USD, '3'), LPT))).toBe('2.449489742783178');
  });

  it('single-asset deposit of 100 USD with zero fee', () => {
    // r = 0.01, c = sqrt(1.01) - 1 = 0.004987562112089 (sqrt rounded to nearest first),
    // frac = (r - c)/(1 + c) = 0.005012437887911 / 1.004987562112089 = 0.004987562112089054,
    // tokens = 10^7 * frac rounded down = 49875.62112089054.
    expect(amtText(lpTokensOut(poolUsd, amt(USD, '100'), lpt, 0))).toBe('49875.62112089054');
    // the transactor then keeps only what survives 16-digit addition to the balance:
    // 10^7 + 49875.62112089054 = 10049875.62112089 (down) -> 49875.62112089 tokens.
    const res = singleDeposit(poolUsd, lpt, amt(USD, '100'), 0);
    expect(res.ter).toBe('tesSUCCESS');
    if (res.ter !== 'tesSUCCESS' || !('plan' in res)) throw new Error('unreachable');
    expect(amtText(res.plan.tokens)).toBe('49875.62112089');
    expect(Number(amtText(res.plan.amount))).toBeLessThanOrEqual(100);
  });

  it('single-asset deposit with a 0.5% fee mints fewer tokens', () => {
    // exact: T*(r - c)/(1 + c) with f1 = 0.995, f2 = 0.9975/0.995 -> 49750.6203396401...
    const t = lpTokensOut(poolUsd, amt(USD, '100'), lpt, 500);
    expect(t.value.lt(Num.parse('49750.62034'))).toBe(true);
    expect(t.value.gt(Num.parse('49750.62033'))).toBe(true);
  });

  it('proportional deposit for 1000 LP tokens takes 1/10,000 of each side', () => {
    const res = equalDepositTokens(poolXrp, poolUsd, lpt, amt(LPT, '1000'));
    if (!('plan' in res)) throw new Error(res.ter);
    expect(amtText(res.plan.amount)).toBe('1000000');
    expect(amtText(res.plan.amount2!)).toBe('1');
    expect(amtText(res.plan.tokens)).toBe('1000');
  });

  it('single-asset withdrawal of 100 USD with zero fee', () => {
    // lpTokensIn: c = 2, sqrt(3.96) = 1.989974874213240 (nearest), frac = 0.00501256289338,
    // tokens = 10^7 * frac rounded up = 50125.6289338.
    expect(amtText(lpTokensIn(poolUsd, amt(USD, '100'), lpt, 0))).toBe('50125.6289338');
    // the asset is re-derived from the tokens (eq. 8): 2*t1 - t1^2 = 0.009999999999999910,
    // times 10,000 rounded down = 99.99999999999910 <= 100.
    expect(amtText(ammAssetOut(poolUsd, lpt, amt(LPT, '50125.6289338'), 0))).toBe('99.9999999999991');
    const res = singleWithdraw(
      { balance: poolUsd, balance2: poolXrp, lptBalance: lpt, lpHolding: lpt, tfee: 0, withdrawAll: false },
      poolUsd,
      amt(USD, '100'),
    );
    if (!('plan' in res)) throw new Error(res.ter);
    expect(amtText(res.plan.amount)).toBe('99.9999999999991');
    expect(amtText(res.plan.tokens)).toBe('50125.6289338');
  });

  it('withdrawing every LP token empties both sides exactly', () => {
    const ctx = {
      balance: poolXrp,
      balance2: poolUsd,
      lptBalance: lpt,
      lpHolding: lpt,
      tfee: 0,
      withdrawAll: true,
    };
    const res = equalWithdrawTokens(ctx, lpt);
    if (!('plan' in res)) throw new Error(res.ter);
    expect(amtText(res.plan.amount)).toBe('10000000000');
    expect(amtText(res.plan.amount2!)).toBe('10000');
  });

  it('cannot redeem more LP tokens than held', () => {
    const ctx = {
      balance: poolXrp,
      balance2: poolUsd,
      lptBalance: lpt,
      lpHolding: amt(LPT, '10'),
      tfee: 0,
      withdrawAll: false,
    };
    expect(equalWithdrawTokens(ctx, amt(LPT, '11')).ter).toBe('tecAMM_INVALID_TOKENS');
  });
});

describe('identifiers', () => {
  it('LP token currency starts with 03 and is order independent', () => {
    const c = ammLptCurrency('XRP', 'USD');
    expect(c).toMatch(/^03[0-9A-F]{38}$/);
    expect(ammLptCurrency('USD', 'XRP')).toBe(c);
    expect(ammIndex(XRP_ISSUE, USD)).toBe(ammIndex(USD, XRP_ISSUE));
    expect(ammAccountId(0, '00'.repeat(32), ammIndex(XRP_ISSUE, USD))).toMatch(
      /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/,
    );
  });
});

describe('governance', () => {
  it('weights the trading fee by LP tokens held', () => {
    // a: 3M tokens vote 600, b: 1M tokens vote 200 -> (600*3 + 200*1)/4 = 500; weights 30000, 10000
    const total = Num.of(10_000_000);
    const first = applyVote([], { account: USD.issuer, tokens: Num.of(3_000_000), fee: 600 }, total);
    const out = applyVote(
      first.slots.map((s) => ({ account: s.account, fee: s.fee, tokens: Num.of(3_000_000) })),
      { account: LPT.issuer, tokens: Num.of(1_000_000), fee: 200 },
      total,
    );
    expect(out.tradingFee).toBe(500);
    expect(out.discountedFee).toBe(50);
    expect(out.slots.map((s) => s.weight)).toEqual([30000, 10000]);
  });

  it('prices the auction slot by interval', () => {
    // min price = 10^7 * 0.005 / 25 = 2000
    expect(minSlotPrice(Num.of(10_000_000), 500).toString()).toBe('2000');
    // 72-minute intervals: 1 hour in is interval 0, 2 hours in is interval 1, expired after 24h
    const exp = 100_000 + 86_400;
    expect(auctionTimeSlot(100_000 + 3_600, exp)).toBe(0);
    expect(auctionTimeSlot(100_000 + 7_200, exp)).toBe(1);
    expect(auctionTimeSlot(exp, exp)).toBeUndefined();
    // interval 0: 1.05 * 2000 + 2000 = 4100, refund 95% = 1900
    const p0 = outbidPrice(Num.of(2000), 0, Num.of(2000));
    expect(p0.price.toString()).toBe('4100');
    expect(p0.refund.toString()).toBe('1900');
    // interval 1: 2000*1.05*(1 - 0.1^60) + 2000 = 4100 (0.1^60 vanishes in 16 digits), refund 90%
    const p1 = outbidPrice(Num.of(2000), 1, Num.of(2000));
    expect(p1.price.toString()).toBe('4100');
    expect(p1.refund.toString()).toBe('1800');
    // interval 19: 1 - 1^60 = 0 -> only the minimum price, no refund
    const p19 = outbidPrice(Num.of(2000), 19, Num.of(2000));
    expect(p19.price.toString()).toBe('2000');
    expect(p19.refund.toString()).toBe('0');
  });
});

describe('amendment switch: before fixAMMv1_3', () => {
  it('single-asset deposit for 5 LP tokens: 31 drops rounded up with fixAMMv1_3, 30 to nearest before', () => {
    // 2,350 drops / 783.2953827461887 LP tokens, fee 12: about 2,350 * ((1 + 5/783.3)^2 - 1) = 30.1 drops
    const args = [xrpDrops(2350n), amt(LPT, '783.2953827461887'), amt(LPT, '5'), 12] as const;
    expect(amtText(ammAssetIn(...args))).toBe('31');
    const pre13 = new Rules(DEFAULT_AMENDMENTS.filter((n) => n !== 'fixAMMv1_3'));
    expect(withRules(pre13, () => amtText(ammAssetIn(...args)))).toBe('30');
    // The switch is scoped: outside withRules the default (mainnet) rules apply again.
    expect(amtText(ammAssetIn(...args))).toBe('31');
  });
});
