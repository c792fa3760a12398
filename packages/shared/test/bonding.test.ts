import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  antiSniperRatePpm,
  BONDING_CURVE_SUPPLY,
  curveFeeInside,
  BONDING_POOL_RESERVE,
  boundaryValue,
  bondingProgress,
  curveValueAt,
  desiredLadder,
  endPrice,
  feeOn,
  feePercentToPpm,
  graduationTarget,
  isSoldOut,
  isValidStepCount,
  marginalPrice,
  maxLadderOffers,
  soldFromHeld,
  stepPrice,
  stepTokens,
  stepValue,
  type BondingParams,
} from '../src/bonding';

// pump.fun's curve with a 30 XRP virtual reserve (their 30 SOL): graduation at about 85 raised, a
// final price of about 4.1e-7 per token. Every expectation is worked out from the formula
// X(j) = ceil(k / (y0 − j·S)) − x0 with k = x0·y0, here in BigInt beside the code under test.
const p: BondingParams = { virtualQuote: 30_000_000n, steps: 200, fineSteps: 8 };
const x0 = 30_000_000n;
const y0 = 1_073_000_000n;
const k = x0 * y0; // 3.219e16 drops·tokens
const S = 793_100_000n / 200n; // 3,965,500 tokens a step
const X = (j: bigint) => (k + (y0 - j * S) - 1n) / (y0 - j * S) - x0;

describe('the bonding curve', () => {
  it('cuts the curve into equal steps and prices whole steps at the integral', () => {
    expect(stepTokens(p)).toBe(3_965_500n);
    expect(boundaryValue(p, 0)).toBe(0n);
    // ceil(3.219e16 / 1,069,034,500) − 3e7 = 30,111,283 − 30,000,000
    expect(boundaryValue(p, 1)).toBe(111_283n);
    expect(boundaryValue(p, 2)).toBe(223_394n);
    expect(stepValue(p, 1)).toBe(112_111n);
    for (const j of [0n, 7n, 99n, 150n, 199n]) expect(stepValue(p, Number(j))).toBe(X(j + 1n) - X(j));
    // ceil(3.219e16 / 279,900,000) − 3e7: pump.fun's "about 85" raised at graduation.
    expect(graduationTarget(p)).toBe(85_005_360n);
  });

  it('ends at the marginal price k / y_end², and the pool reserve covers the raised quote at that price', () => {
    const pe = endPrice(p);
    expect(pe.toFixed(12)).toBe(new Decimal(k.toString()).div(new Decimal(279_900_000).pow(2)).toFixed(12));
    expect(pe.toFixed(6)).toBe('0.410880'); // drops per token: 4.1088e-7 XRP
    const poolTokens = new Decimal(graduationTarget(p).toString()).div(pe);
    // y_end · (1 − y_end / y0) = 206,886,013.5 ≤ 206,900,000, whatever the virtual reserve.
    expect(poolTokens.toFixed(0)).toBe('206886013');
    expect(poolTokens.lte(BONDING_POOL_RESERVE.toString())).toBe(true);
    expect(marginalPrice(p, 0).toFixed(6)).toBe(new Decimal(30_000_000).div(1_073_000_000).toFixed(6));
  });

  it('spreads a step evenly inside it, so the parts of a step add up to the step', () => {
    const half = new Decimal(S.toString()).mul(2.5); // 2.5 steps sold
    // X(2) + floor(D(2) × 0.5)
    expect(curveValueAt(p, half)).toBe(X(2n) + (X(3n) - X(2n)) / 2n);
    expect(curveValueAt(p, (3n * S).toString())).toBe(X(3n));
    expect(curveValueAt(p, BONDING_CURVE_SUPPLY.toString())).toBe(X(200n));
    expect(stepPrice(p, half).toFixed(10)).toBe(
      new Decimal((X(3n) - X(2n)).toString()).div(S.toString()).toFixed(10),
    );
  });

  it('reads the sold amount from the curve account balance and knows when it is sold out', () => {
    expect(soldFromHeld('1000000000').toFixed()).toBe('0');
    expect(soldFromHeld('990000000.5').toFixed()).toBe('9999999.5');
    expect(soldFromHeld('206900000').toFixed()).toBe('793100000');
    expect(isSoldOut('793099999.99995')).toBe(true);
    expect(isSoldOut('793099999.9')).toBe(false);
  });

  it('takes the fee in parts per million, rounded down', () => {
    expect(feePercentToPpm('0.75')).toBe(7_500n);
    expect(feePercentToPpm('1.2345')).toBe(12_345n);
    expect(feeOn(111_283n, 7_500n)).toBe(834n); // 111,283 × 0.0075 = 834.62
  });

  it('posts the whole curve at launch: one offer per step near the point, aligned blocks beyond', () => {
    const ladder = desiredLadder(p, 0, 7_500n);
    expect(ladder.every((c) => c.side === 'sell')).toBe(true);
    const steps = ladder.map((c) => [Number(BigInt(c.lo) / S), Number(BigInt(c.hi) / S)]);
    expect(steps).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
      [4, 5],
      [5, 6],
      [6, 7],
      [7, 8],
      [8, 16],
      [16, 32],
      [32, 64],
      [64, 128],
      [128, 192],
      [192, 200],
    ]);
    // Every chunk is priced at X(hi) − X(lo) plus the fee on that value; together: the whole curve.
    for (const c of ladder) {
      const [a, b] = [BigInt(c.lo) / S, BigInt(c.hi) / S];
      expect(c.value).toBe(X(b) - X(a));
      expect(c.quote).toBe(c.value + (c.value * 7_500n) / 1_000_000n);
    }
    expect(ladder.reduce((t, c) => t + c.value, 0n)).toBe(X(200n));
    expect(ladder.reduce((t, c) => t.plus(c.tokens), new Decimal(0)).toFixed()).toBe('793100000');
  });

  it('splits the current step between the sell and the buy side, and mirrors the blocks below', () => {
    const s = new Decimal(S.toString()).mul(100).plus(1_000_000); // in step 100
    const ladder = desiredLadder(p, s, 7_500n);
    const sells = ladder.filter((c) => c.side === 'sell');
    const buys = ladder.filter((c) => c.side === 'buy');
    expect(sells[0]!.lo).toBe(s.toFixed());
    expect(buys[0]!.hi).toBe(s.toFixed());
    expect(buys[0]!.lo).toBe((100n * S).toString());
    // The two halves of step 100 add up to D(100).
    expect(sells[0]!.value + buys[0]!.value).toBe(X(101n) - X(100n));
    // Buying back pays the value less the fee.
    expect(buys[0]!.quote).toBe(buys[0]!.value - (buys[0]!.value * 7_500n) / 1_000_000n);
    const buySteps = buys.slice(1).map((c) => [Number(BigInt(c.lo) / S), Number(BigInt(c.hi) / S)]);
    // Seven more whole steps one by one (eight fine chunks in all), then [92,93) [88,92) [80,88) [64,80) [0,64).
    expect(buySteps).toEqual([
      [99, 100],
      [98, 99],
      [97, 98],
      [96, 97],
      [95, 96],
      [94, 95],
      [93, 94],
      [92, 93],
      [88, 92],
      [80, 88],
      [64, 80],
      [0, 64],
    ]);
    expect(buys.reduce((t, c) => t + c.value, 0n)).toBe(curveValueAt(p, s));
    expect(sells.reduce((t, c) => t + c.value, 0n)).toBe(X(200n) - curveValueAt(p, s));
    // The lowest ask is above the highest bid: the curve never crosses itself.
    const ask = new Decimal(sells[0]!.quote.toString()).div(sells[0]!.tokens);
    const bid = new Decimal(buys[0]!.quote.toString()).div(buys[0]!.tokens);
    expect(ask.gt(bid)).toBe(true);
  });

  it('cuts the sell side at the anti-snipe cap', () => {
    const ladder = desiredLadder(p, 0, 7_500n, { sellCap: '10000000' });
    expect(ladder.map((c) => c.hi)).toEqual(['3965500', '7931000', '10000000']);
    expect(ladder[2]!.value).toBe(curveValueAt(p, '10000000') - X(2n));
  });

  it('has nothing left to sell at the end, and bounds the offers a ladder needs', () => {
    const end = desiredLadder(p, BONDING_CURVE_SUPPLY.toString(), 7_500n);
    expect(end.some((c) => c.side === 'sell')).toBe(false);
    expect(end.reduce((t, c) => t + c.value, 0n)).toBe(X(200n));
    expect(maxLadderOffers(p)).toBeLessThanOrEqual(2 * 8 + 2 * 8 + 2);
    expect(maxLadderOffers(p)).toBeGreaterThanOrEqual(14);
  });

  it('reports progress to graduation', () => {
    const pr = bondingProgress(p, '396550000'); // half the curve
    expect(pr.percent).toBe('50.00');
    expect(pr.raised).toBe(X(100n));
    expect(pr.target).toBe(85_005_360n);
  });

  it('accepts only step counts that divide the curve supply', () => {
    expect(isValidStepCount(200)).toBe(true);
    expect(isValidStepCount(1000)).toBe(true);
    expect(isValidStepCount(300)).toBe(false);
    expect(isValidStepCount(3)).toBe(false);
  });
});

describe('the anti-sniper surcharge (issue 37)', () => {
  const a = { startPpm: 250_000, windowSeconds: 120 };
  it('steps down from the start rate in ten equal steps to 0 at the end of the window', () => {
    expect(antiSniperRatePpm(a, 0)).toBe(250_000n);
    expect(antiSniperRatePpm(a, 11)).toBe(250_000n); // 12 s a step
    expect(antiSniperRatePpm(a, 12)).toBe(225_000n);
    expect(antiSniperRatePpm(a, 60)).toBe(125_000n);
    expect(antiSniperRatePpm(a, 119)).toBe(25_000n);
    expect(antiSniperRatePpm(a, 120)).toBe(0n);
    expect(antiSniperRatePpm(a, -3)).toBe(250_000n); // a clock behind the launch: the start rate
    expect(antiSniperRatePpm({ startPpm: 0, windowSeconds: 120 }, 0)).toBe(0n);
    expect(antiSniperRatePpm({ startPpm: 250_000, windowSeconds: 0 }, 0)).toBe(0n);
  });

  it('raises the sell side only, the fee charged on the surcharged value', () => {
    const p = { virtualQuote: 30_000_000n, steps: 200, fineSteps: 6 };
    const plain = desiredLadder(p, '0', 7_500n);
    const guarded = desiredLadder(p, '0', 7_500n, { surchargePpm: 250_000n });
    expect(guarded.map((c) => [c.side, c.lo, c.hi])).toEqual(plain.map((c) => [c.side, c.lo, c.hi]));
    for (const [i, c] of guarded.entries()) {
      const v = plain[i]!.value;
      const priced = v + (v * 250_000n) / 1_000_000n;
      expect(c.quote).toBe(c.side === 'sell' ? priced + (priced * 7_500n) / 1_000_000n : plain[i]!.quote);
      // The follower's fee rule reads back exactly the fee on the surcharged value.
      if (c.side === 'sell')
        expect(curveFeeInside('sell', c.quote, 7_500n)).toBe((priced * 7_500n) / 1_000_000n);
    }
  });
});
