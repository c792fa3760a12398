import { describe, expect, it } from 'vitest';
import { Decimal } from '@ledgerpad/shared';
import { costBasis, positionFigures, round6, type CostTrade } from '../../src/modules/positions/cost-basis';

// The average-cost rule on figures worked by hand (the arithmetic is in the comments).

const buy = (tokens: string, xrp: string): CostTrade => ({
  side: 'BUY',
  tokenAmount: tokens,
  xrpAmount: xrp,
});
const sell = (tokens: string, xrp: string): CostTrade => ({
  side: 'SELL',
  tokenAmount: tokens,
  xrpAmount: xrp,
});
const s = (d: Decimal) => round6(d);

describe('average-cost basis', () => {
  // buy 100 @ 0.5 XRP: 100 tokens, cost 100 × 0.5 = 50
  // buy 100 @ 1.0 XRP: 200 tokens, cost 50 + 100 = 150; average cost 150 / 200 = 0.75
  // sell 50 @ 2.0 XRP: proceeds 50 × 2 = 100; cost of what was sold 50 × 0.75 = 37.5
  //   realized = 100 − 37.5 = 62.5; left 150 tokens costing 150 − 37.5 = 112.5 (still 0.75 each)
  const worked = [buy('100', '50'), buy('100', '100'), sell('50', '100')];

  it('buys add cost, a sell realizes proceeds minus average cost and lowers the cost in proportion', () => {
    const b = costBasis(worked);
    expect(s(b.quantity)).toBe('150');
    expect(s(b.cost)).toBe('112.5');
    expect(s(b.cost.div(b.quantity))).toBe('0.75');
    expect(s(b.realized)).toBe('62.5');
  });

  it('values the balance at the current price: unrealized = value − remaining cost', () => {
    // balance 150 at 1.2 XRP: value 150 × 1.2 = 180; unrealized 180 − 112.5 = 67.5;
    // total 62.5 + 67.5 = 130
    const f = positionFigures(costBasis(worked), '150', '1.2');
    expect([f.valueInXRP, f.realizedPNL, f.unrealizedPNL, f.totalPNL].map(s)).toEqual([
      '180',
      '62.5',
      '67.5',
      '130',
    ]);
  });

  it('tokens beyond what the trades explain enter at the current price (no profit on them)', () => {
    // balance 170 = 150 traded + 20 transferred in at 1.2: cost 112.5 + 20 × 1.2 = 136.5;
    // value 170 × 1.2 = 204; unrealized 204 − 136.5 = 67.5 (the same as without the transfer)
    const f = positionFigures(costBasis(worked), '170', '1.2');
    expect(s(f.cost)).toBe('136.5');
    expect(s(f.valueInXRP)).toBe('204');
    expect(s(f.unrealizedPNL)).toBe('67.5');
  });

  it('tokens missing from the ledger left at average cost (a transfer out realizes nothing)', () => {
    // balance 100 of 150 traded: cost 112.5 × 100 / 150 = 75; value 100 × 1.2 = 120;
    // unrealized 120 − 75 = 45; realized stays 62.5
    const f = positionFigures(costBasis(worked), '100', '1.2');
    expect([f.cost, f.unrealizedPNL, f.realizedPNL].map(s)).toEqual(['75', '45', '62.5']);
  });

  it('selling everything realizes all and leaves no cost', () => {
    // after the worked trades, sell 150 for 75 XRP (0.5 each): 75 − 112.5 = −37.5;
    // realized 62.5 − 37.5 = 25; nothing left
    const b = costBasis([...worked, sell('150', '75')]);
    expect([b.quantity, b.cost, b.realized].map(s)).toEqual(['0', '0', '25']);
    const f = positionFigures(b, '0', '1.2');
    expect([f.valueInXRP, f.unrealizedPNL, f.totalPNL].map(s)).toEqual(['0', '0', '25']);
  });

  it('a sale of more than the trades bought realizes only on the part they bought', () => {
    // buy 10 for 10 XRP; sell 30 for 60 XRP: the trades explain 10 of the 30 sold.
    // covered proceeds 60 × 10 / 30 = 20, cost 10: realized 10; the other 20 came from elsewhere
    // and count as bought at the sale price (no profit). Nothing left.
    const b = costBasis([buy('10', '10'), sell('30', '60')]);
    expect([b.quantity, b.cost, b.realized].map(s)).toEqual(['0', '0', '10']);
    // A sale with no trade-bought tokens at all realizes nothing.
    expect(s(costBasis([sell('5', '5')]).realized)).toBe('0');
  });

  it('counts fees: a buy costs its fees too, a sale realizes its proceeds net of its fees (issue 39)', () => {
    // buy 100 for 50 XRP, fees 0.375 + 0.00002: cost 50.37502
    // buy 100 for 100 XRP, fees 0.75 + 0.00002: cost 50.37502 + 100.75002 = 151.12504; average 0.7556252
    // sell 50 for 100 XRP, fees 0.75 + 0.00002: net 99.24998; cost of what was sold 50 × 0.7556252 =
    //   37.78126; realized 99.24998 − 37.78126 = 61.46872; left 150 costing 151.12504 − 37.78126 = 113.34378
    const b = costBasis([
      { ...buy('100', '50'), feeXrp: '0.37502' },
      { ...buy('100', '100'), feeXrp: '0.75002' },
      { ...sell('50', '100'), feeXrp: '0.75002' },
    ]);
    expect([b.quantity, b.cost, b.realized].map(s)).toEqual(['150', '113.34378', '61.46872']);
    // Without fees the same trades give the worked example's 62.5: the fees cost 1.03128 of it.
    expect(s(costBasis(worked).realized.minus(b.realized))).toBe('1.03128');
  });

  it('marks the balance at what selling it would return when that is given (issue 39)', () => {
    // 150 held at spot 1.2 (value 180), but selling all would return 150: unrealized 150 − 112.5 = 37.5.
    const f = positionFigures(costBasis(worked), '150', '1.2', '150');
    expect([f.valueInXRP, f.realisableXRP, f.unrealizedPNL, f.totalPNL].map(s)).toEqual([
      '180',
      '150',
      '37.5',
      '100',
    ]);
    // 170 held (20 arrived without a trade), selling all returns 136: 0.8 each. The trades' 150 at
    // 0.8 = 120 against their cost 112.5: unrealized 7.5; the 20 enter at 0.8 (16), no PNL on them.
    const g = positionFigures(costBasis(worked), '170', '1.2', '136');
    expect([g.cost, g.unrealizedPNL].map(s)).toEqual(['128.5', '7.5']);
  });

  it('keeps issued-currency precision and rounds outputs to 6 decimals', () => {
    // buy 3 for 1 XRP: average 0.333…; sell 1 for 1 XRP: realized 1 − 1/3 = 0.666667 (rounded)
    const b = costBasis([buy('3', '1'), sell('1', '1')]);
    expect(s(b.realized)).toBe('0.666667');
    expect(s(b.cost)).toBe('0.666667');
    expect(round6(new Decimal('-0.0000001'))).toBe('0');
    expect(round6(new Decimal('1e-7').plus('1234567.0000005'))).toBe('1234567.000001');
  });

  it('agrees with a plain decimal.js replay of the rule on 2,000 random trades', () => {
    // The pass runs in bigint fixed point; this reference is the rule written with decimal.js at 80
    // significant digits. They must agree far below the 6 decimals shown.
    const R = Decimal.clone({ precision: 80 });
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const trades: CostTrade[] = Array.from({ length: 2000 }, () => ({
      side: rand() < 0.4 ? 'SELL' : 'BUY',
      tokenAmount: new R(rand() * 1e6).toSignificantDigits(16).toFixed(),
      xrpAmount: new R(rand() * 1e3).toDecimalPlaces(6).toFixed(),
    }));
    let q = new R(0);
    let c = new R(0);
    let r = new R(0);
    for (const t of trades) {
      const a = new R(t.tokenAmount as string);
      const x = new R(t.xrpAmount as string);
      if (t.side === 'BUY') {
        q = q.plus(a);
        c = c.plus(x);
      } else if (q.gt(0)) {
        const covered = R.min(a, q);
        const sold = c.mul(covered).div(q);
        r = r.plus(x.mul(covered).div(a)).minus(sold);
        c = c.minus(sold);
        q = q.minus(covered);
      }
    }
    const b = costBasis(trades);
    for (const [got, want] of [
      [b.quantity, q],
      [b.cost, c],
      [b.realized, r],
    ] as const) {
      expect(new R(got.toFixed()).minus(want).abs().lt('1e-20')).toBe(true);
    }
    expect(trades.filter((t) => t.side === 'SELL').length).toBeGreaterThan(500);
  });
});
