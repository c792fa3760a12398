import { describe, expect, it } from 'vitest';
import {
  Num,
  getMantissaScale,
  iouOf,
  toIouPrecision,
  withMantissaScale,
  withRound,
} from '../../src/core/number';

// rippled's large mantissa range (SingleAssetVault / LendingProtocol): mantissas in [10^18, 10^19),
// rounded while they fit an int64 (above 2^63-1 the 19th digit is 0), division =
// trunc(n * 10^17 / d), then 5 more digits from the remainder, then rounding on the dropped digits.
// Expected values are worked out by hand from those rules (see each comment).
const large = <T>(fn: () => T): T => withMantissaScale('large', fn);

describe('rippled Number, large (19-digit) mantissa range', () => {
  it('is scoped: the small range is back after withMantissaScale', () => {
    expect(large(() => getMantissaScale())).toBe('large');
    expect(getMantissaScale()).toBe('small');
    expect(large(() => Num.of(1).mantissa)).toBe(10n ** 18n);
    expect(Num.of(1).mantissa).toBe(10n ** 15n);
  });

  it('divides to 19 digits: 1/3 and 2/3', () => {
    // 10^35 / 3e18 = 33333333333333333 r 1e18; 1e18 * 10^5 / 3e18 = 33333 -> 22 digits of 3,
    // exponent -22; three dropped 3s (< half) -> 0.3333333333333333333
    expect(large(() => Num.of(1).div(3).toString())).toBe('0.3333333333333333333');
    // 2/3: 22 digits of 6, the dropped 666 is above half -> ...667 (to nearest), ...666 towards zero
    expect(large(() => Num.of(2).div(3).toString())).toBe('0.6666666666666666667');
    expect(large(() => withRound('towards_zero', () => Num.of(2).div(3).toString()))).toBe(
      '0.6666666666666666666',
    );
    // the small range keeps 16 digits
    expect(Num.of(2).div(3).toString()).toBe('0.6666666666666667');
  });

  it('keeps 18 significant digits above 2^63-1 (the 19th is 0)', () => {
    // 9876543210987654321 > 9223372036854775807: one digit (1) goes to the guard, below half, and
    // the mantissa is scaled back: 9876543210987654320
    const n = large(() => Num.parse('9876543210987654321'));
    expect(n.mantissa).toBe(9_876_543_210_987_654_320n);
    expect(n.toString()).toBe('9876543210987654320');
    // below 2^63-1 all 19 digits stay
    expect(large(() => Num.parse('1234567890123456789')).mantissa).toBe(1_234_567_890_123_456_789n);
  });

  it('adds with 19 digits: 1 + 10^-18', () => {
    // mantissas 10^18 (e -18) and 10^18 (e -36): the second shifts 18 places to 1, sum 10^18 + 1
    expect(large(() => Num.of(1).add(Num.of(1, -18)).toString())).toBe('1.000000000000000001');
    // 16 digits lose it
    expect(Num.of(1).add(Num.of(1, -18)).toString()).toBe('1');
  });

  it('multiplies: 3 * (1/3) rounds back to 1 in 19 digits, not in 16', () => {
    // 3e18 * 3333333333333333333 = 9999999999999999999e18: 18 digits dropped, then the
    // 19-digit 9999999999999999999 > 2^63-1 loses one more 9 -> guard .99.. -> rounds up to 10^18
    expect(large(() => Num.of(3).mul(Num.of(1).div(3)).toString())).toBe('1');
    // 3 * 0.3333333333333333 = 0.9999999999999999 exactly in 16 digits
    expect(Num.of(3).mul(Num.of(1).div(3)).toString()).toBe('0.9999999999999999');
  });

  it('subtracts across magnitudes: 1 - 10^-19', () => {
    // 10^18 (e -18) minus 10^18 (e -37): the second shifts 19 places to 0 with guard digit 1
    // (sign of the subtrahend: negative); 10^18 - 0 = 10^18, nearest leaves it: 1. Downward rounds
    // the negative guard away: 10^18 - 1 = 999999999999999999 is below 10^18, so rippled's
    // doRoundDown multiplies by 10 without a guard digit: 0.9999999999999999990 (18 nines).
    expect(large(() => Num.of(1).sub(Num.of(1, -19)).toString())).toBe('1');
    expect(large(() => withRound('downward', () => Num.of(1).sub(Num.of(1, -19))).mantissa)).toBe(
      9_999_999_999_999_999_990n,
    );
  });

  it('compares 16-digit (STAmount) and 19-digit values by value', () => {
    const small5 = Num.of(5);
    const large5 = large(() => Num.of(5));
    expect(large5.mantissa).toBe(5n * 10n ** 18n);
    expect(small5.eq(large5)).toBe(true);
    expect(large5.eq(small5)).toBe(true);
    const justAbove = large(() => Num.of(5).add(Num.of(1, -18)));
    expect(justAbove.gt(small5)).toBe(true);
    expect(small5.lt(justAbove)).toBe(true);
    expect(Num.of(6).gt(justAbove)).toBe(true);
    expect(large(() => Num.of(-5)).lt(small5)).toBe(true);
  });

  it('rounds to an STAmount 16-digit mantissa with the current mode', () => {
    const twoThirds = large(() => Num.of(2).div(3));
    // 0.6666666666666666667 -> 16 digits: dropped 667 > half -> ...667 nearest, ...666 towards zero
    expect(toIouPrecision(twoThirds).toString()).toBe('0.6666666666666667');
    expect(withRound('towards_zero', () => toIouPrecision(twoThirds).toString())).toBe('0.6666666666666666');
    expect(toIouPrecision(twoThirds).mantissa).toBe(6_666_666_666_666_667n);
    // STAmount division result (17-18 digits) straight to 16: 12345678901234567 -> ...4568
    expect(iouOf(12_345_678_901_234_567n, 0).mantissa).toBe(1_234_567_890_123_457n);
  });
});
