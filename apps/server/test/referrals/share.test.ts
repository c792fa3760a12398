import { describe, expect, it } from 'vitest';
import { referralShare, shareBps } from '../../src/modules/referrals/service';

// The referrer's share of one fee, as the accrual computes it: XRP in whole drops (floor), RLUSD to
// 15 significant digits (rounded down, what an issued amount carries) — never a float.

describe('referral share of a fee', () => {
  it('reads the setting as basis points', () => {
    expect(shareBps('20')).toBe(2000);
    expect(shareBps('12.5')).toBe(1250);
    expect(shareBps('0.01')).toBe(1);
    expect(shareBps('0')).toBe(0);
    for (const bad of ['', 'x', '-1', '1e1', '20.001', '101']) expect(shareBps(bad), bad).toBe(0);
  });

  it('rounds an XRP share down to the drop', () => {
    // 0.075 XRP = 75,000 drops × 20% = 15,000 drops.
    expect(referralShare('0.075', 'XRP', 2000).toFixed()).toBe('0.015');
    // 0.000009 XRP = 9 drops × 20% = 1.8 → 1 drop.
    expect(referralShare('0.000009', 'XRP', 2000).toFixed()).toBe('0.000001');
    // 4 drops × 20% = 0.8 → nothing.
    expect(referralShare('0.000004', 'XRP', 2000).toFixed()).toBe('0');
    // 58,333 drops × 12.5% = 7,291.625 → 7,291 drops.
    expect(referralShare('0.058333', 'XRP', 1250).toFixed()).toBe('0.007291');
  });

  it('keeps an RLUSD share to 15 significant digits, rounded down', () => {
    // 0.0165 RLUSD × 20% = 0.0033 exactly.
    expect(referralShare('0.0165', 'RLUSD', 2000).toFixed()).toBe('0.0033');
    // 1234.56789012345 × 33.33% = 411.481477778145885 → 15 significant digits, down.
    expect(referralShare('1234.56789012345', 'RLUSD', 3333).toFixed()).toBe('411.481477778145');
  });
});
