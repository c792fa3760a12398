import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  boundaryValue,
  curveTokenDecimals,
  curveTokensFor,
  curveValueAt,
  desiredLadder,
  endPrice,
  graduationTarget,
  isSoldOut,
  marginalPrice,
  soldFromHeld,
  stepTokens,
  windowCurveParams,
} from '../src/bonding';

// An instant launch's anti-sniper window (docs/launch-protection.md): the pre-pool ladder runs along
// the future pool's own constant product, x0 = A (drops), y0 = B (tokens), and sells half of B.
const A = 100_000_000n; // 100 XRP
const B = '1000000';
const p = windowCurveParams({ poolDrops: A, poolTokens: B, steps: 200, fineSteps: 6 })!;
const k = A * 1_000_000n;
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

describe('window curve', () => {
  it('carries y0 = B, x0 = A and sells half of B in whole steps', () => {
    expect(p.virtualTokens).toBe(1_000_000n);
    expect(p.curveSupply).toBe(500_000n);
    expect(stepTokens(p)).toBe(2_500n);
    // X(j) = ceil(k / (y0 − j·S)) − x0.
    expect(boundaryValue(p, 1)).toBe(ceilDiv(k, 997_500n) - A);
    // Sold out at B/2: it has raised exactly A, and ends at 4× the opening price k / y0².
    expect(graduationTarget(p)).toBe(A);
    expect(endPrice(p).toString()).toBe('400'); // k / (B/2)² micros per token, 4 × k / B²
    expect(marginalPrice(p, 0).toString()).toBe('100');
  });

  it('rounds the sellable half down to a multiple of the steps', () => {
    const q = windowCurveParams({ poolDrops: A, poolTokens: '1000999.5', steps: 200, fineSteps: 6 })!;
    expect(q.virtualTokens).toBe(1_000_999n);
    expect(q.curveSupply).toBe(500_400n); // ⌊⌊1,000,999 / 2⌋ / 200⌋ · 200
    expect(windowCurveParams({ poolDrops: A, poolTokens: '300', steps: 200, fineSteps: 6 })).toBeNull();
  });

  it('counts sold from B and sold out at B/2', () => {
    expect(soldFromHeld('999000', p).toFixed()).toBe('1000');
    expect(soldFromHeld('400000', p).toFixed()).toBe('500000');
    expect(isSoldOut('499999.99995', p)).toBe(true);
    expect(isSoldOut('499999', p)).toBe(false);
  });

  it('gives a first buy the tokens its drops buy at the plain price', () => {
    const decimals = curveTokenDecimals(B);
    expect(decimals).toBe(8);
    const micros = 10_000_000n; // 10 XRP
    const s = curveTokensFor(p, 0, micros, decimals)!;
    // Worked out: the step j with X(j) ≤ 10 XRP < X(j+1), then the rest of the 10 XRP pro rata.
    let j = 0;
    while (boundaryValue(p, j + 1) <= micros) j++;
    const D = boundaryValue(p, j + 1) - boundaryValue(p, j);
    const expected = new Decimal(j * 2500)
      .plus(new Decimal((micros - boundaryValue(p, j)).toString()).mul(2500).div(D.toString()))
      .toDecimalPlaces(8, Decimal.ROUND_DOWN);
    expect(s.toFixed()).toBe(expected.toFixed());
    expect(curveValueAt(p, s) <= micros).toBe(true);
    // One more token's 1e-8 would cost more than the drops.
    expect(curveValueAt(p, s.plus('0.00000001')) >= micros - 1n).toBe(true);
    // Past the curve's end: no figure.
    expect(curveTokensFor(p, 0, A, decimals)).toBeUndefined();
  });

  it('ladders from the first buy with the surcharge on the sell side', () => {
    const ladder = desiredLadder(p, '1000', 7500n, { surchargePpm: 250_000n });
    const first = ladder.find((c) => c.side === 'sell')!;
    expect(first.lo).toBe('1000');
    expect(first.hi).toBe('2500');
    const v = curveValueAt(p, '2500') - curveValueAt(p, '1000');
    const priced = v + (v * 250_000n) / 1_000_000n;
    expect(first.quote).toBe(priced + (priced * 7500n) / 1_000_000n);
  });
});

describe("a window launch's first-buy preview", () => {
  it('shows the tokens the curve sells for the XRP, not a swap out of a pool', async () => {
    const { firstBuyPreview } = await import('../src/first-buy');
    const f = firstBuyPreview({
      liquidityXrp: '100',
      poolTokens: B,
      supply: B,
      devAmount: 0,
      lockedAmount: 0,
      buyXrp: '10',
      tradingFee: 300,
      feePercent: '0.75',
      window: { steps: 200, fineSteps: 6 },
    });
    expect(f.tokensOut.toFixed()).toBe(curveTokensFor(p, 0, 10_000_000n, 8)!.toFixed());
    expect(f.feeDrops).toBe(75_000n);
  });
});
