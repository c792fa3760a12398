import { describe, expect, it } from 'vitest';
import {
  impactLevel,
  minimumReceived,
  shortfall,
  slippageFloor,
  tradeDisclosure,
  type QuoteView,
} from '../src/index';

// The swap box's rules, by hand.

describe('trade disclosure rules', () => {
  it('warns above 5%, confirms above 15%, blocks above 50% (the boundaries themselves are the lower level)', () => {
    expect(['4.99', '5', '5.00'].map(impactLevel)).toEqual(['ok', 'ok', 'ok']);
    expect(['5.01', '15', '15.00'].map(impactLevel)).toEqual(['warn', 'warn', 'warn']);
    expect(['15.01', '50'].map(impactLevel)).toEqual(['confirm', 'confirm']);
    expect(['50.01', '99.99'].map(impactLevel)).toEqual(['block', 'block']);
    expect([null, undefined, 'x'].map(impactLevel)).toEqual(['ok', 'ok', 'ok']);
  });

  it("floors the minimum as the ledger's DeliverMin: XRP to the drop, tokens to 15 digits, both rounded down", () => {
    // 4.545454 × 0.995 = 4.52272673 XRP → 4.522726.
    expect(minimumReceived('4.545454', '0.5', true)).toBe('4.522726');
    // 0.333333333333333333 × 0.99 = 0.32999999999999999967 → 15 significant digits, down.
    expect(minimumReceived('0.333333333333333333', '1', false)).toBe('0.329999999999999');
    expect(slippageFloor('100', '50').toFixed()).toBe('50');
    expect(minimumReceived('1', '100', true)).toBe('0');
  });

  it('adds up what a buy pays per asset and names the first asset the wallet lacks', () => {
    const q: QuoteView = {
      status: 'success',
      tokenAmountRounded: '50',
      spend: '10',
      receive: '50',
      quote: 'RLUSD',
      feePercent: '0.75',
      effectivePrice: '0.2',
      spotPrice: '0.2',
      priceImpactPercent: '0.10',
      fee: '0.075',
      partial: false,
      networkFee: '0.00003',
      reserve: '0.2',
      opensTrustLine: true,
    };
    const d = tradeDisclosure('BUY', 'TKN', q, '1');
    // RLUSD: 10 + 0.075 fee; XRP: network fees + the line's reserve.
    expect(d.totalPay).toEqual([
      { asset: 'RLUSD', amount: '10.075' },
      { asset: 'XRP', amount: '0.20003' },
    ]);
    expect(d.inversePrice).toBe('5');
    expect(shortfall(d.totalPay, { RLUSD: '10.075', XRP: '0.2' })).toEqual({
      asset: 'XRP',
      amount: '0.20003',
      have: '0.2',
    });
    expect(shortfall(d.totalPay, { RLUSD: '10.075', XRP: '0.20003' })).toBeNull();
  });
});
