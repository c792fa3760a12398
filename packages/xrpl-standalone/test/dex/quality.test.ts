import { describe, expect, it } from 'vitest';
import { Num } from '../../src/core/number';
import { XRP_ISSUE, amtText } from '../../src/amm/amount';
import { ceilIn, ceilOut, getRate, mulRoundStrict, qualityRate } from '../../src/core/book/quality';

const USD = { currency: 'USD', issuer: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh' };

describe('offer quality (rippled Quality / getRate)', () => {
  it('encodes in/out as exponent+100 and a 16-digit mantissa', () => {
    // 200 XRP for 100 USD: rate 2,000,000 drops per USD = 2e6 -> 2000000000000000e-9
    const q = getRate(Num.of(100), Num.of(200_000_000));
    expect(q).toBe((BigInt(-9 + 100) << 56n) | 2_000_000_000_000_000n);
    expect(qualityRate(q).toString()).toBe('2000000');
    // a better (cheaper) offer has a lower 64-bit value
    expect(getRate(Num.of(100), Num.of(150_000_000)) < q).toBe(true);
  });

  it('divides like STAmount divide: truncate, add 5, round to 16 digits', () => {
    // 30 / 90e6 = 3.33..e-7: 33333333333333333 + 5 -> 3333333333333334e-22
    expect(qualityRate(getRate(Num.of(90_000_000), Num.of(30))).toString()).toBe('0.0000003333333333333334');
  });

  it('mulRoundStrict rounds tokens up at 16 digits and XRP up to whole drops', () => {
    expect(amtText(mulRoundStrict(Num.parse('0.3333333333333333'), Num.of(3), USD, true))).toBe(
      '0.9999999999999999',
    );
    expect(amtText(mulRoundStrict(Num.parse('1.5'), Num.of(3), XRP_ISSUE, true))).toBe('5');
    expect(amtText(mulRoundStrict(Num.parse('1.5'), Num.of(3), XRP_ISSUE, false))).toBe('4');
  });

  it('limits offers at their own quality: ceil_out rounds the input up, ceil_in the output down', () => {
    const offer = { in: { issue: XRP_ISSUE, value: Num.of(100) }, out: { issue: USD, value: Num.of(30) } };
    const q = getRate(offer.out.value, offer.in.value);
    // out 10 of 30 -> in = 10 * 3.333333333333334 = 33.33333333333334 -> 34 drops
    expect(amtText(ceilOut(offer, { issue: USD, value: Num.of(10) }, q).in)).toBe('34');
    // in 50 of 100 drops -> out = 50 / 3.333333333333334 = 14.99999999999999... (down)
    expect(amtText(ceilIn(offer, { issue: XRP_ISSUE, value: Num.of(50) }, q).out)).toBe('14.99999999999999');
  });
});
