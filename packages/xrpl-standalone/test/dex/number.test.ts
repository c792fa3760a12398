import { describe, expect, it } from 'vitest';
import { Num, root2, withRound, getRound } from '../../src/core/number';

// Expected values are worked out by hand from rippled's Number rules: 16-digit mantissa,
// division = trunc(n * 10^17 / d) then rounding on the dropped digits only, current mode.
describe('rippled Number', () => {
  it('normalizes to a 16-digit mantissa', () => {
    const n = Num.of(1);
    expect(n.mantissa).toBe(1_000_000_000_000_000n);
    expect(n.exponent).toBe(-15);
    expect(Num.parse('123.45').toString()).toBe('123.45');
    expect(Num.parse('-0.000001').toString()).toBe('-0.000001');
    expect(Num.zero.toString()).toBe('0');
  });

  it('rounds division to nearest, ties to even, by default', () => {
    expect(Num.of(1).div(3).toString()).toBe('0.3333333333333333');
    expect(Num.of(2).div(3).toString()).toBe('0.6666666666666667');
  });

  it('honours upward, downward and towards-zero modes', () => {
    expect(withRound('upward', () => Num.of(1).div(3).toString())).toBe('0.3333333333333334');
    expect(withRound('downward', () => Num.of(2).div(3).toString())).toBe('0.6666666666666666');
    expect(withRound('downward', () => Num.of(-1).div(3).toString())).toBe('-0.3333333333333334');
    expect(withRound('towards_zero', () => Num.of(-2).div(3).toString())).toBe('-0.6666666666666666');
    expect(getRound()).toBe('to_nearest');
  });

  it('keeps 16 digits when adding numbers of different magnitude', () => {
    // 10^16 + 1 needs 17 digits: the 1 is a dropped guard digit (< half) and is lost.
    expect(Num.parse('1e16').add(1).toString()).toBe('1e16');
    expect(withRound('upward', () => Num.parse('1e16').add(1).toString())).toBe('1000000000000001e1');
    expect(Num.parse('0.1').add(Num.parse('0.2')).toString()).toBe('0.3');
    expect(Num.of(10000).sub(Num.parse('9901.480271300560')).toString()).toBe('98.51972869944');
  });

  it('multiplies with rounding of the 32-digit product', () => {
    expect(Num.parse('1.000000000000001').mul(Num.parse('1.000000000000001')).toString()).toBe(
      '1.000000000000002',
    );
    expect(
      withRound('downward', () =>
        Num.parse('1.000000000000001').mul(Num.parse('1.000000000000001')).toString(),
      ),
    ).toBe('1.000000000000002');
    expect(Num.parse('3.333333333333333').mul(3).toString()).toBe('9.999999999999999');
  });

  it('converts to integers with the current rounding mode', () => {
    expect(Num.parse('2.5').toBigInt()).toBe(2n);
    expect(Num.parse('3.5').toBigInt()).toBe(4n);
    expect(withRound('upward', () => Num.parse('2.1').toBigInt())).toBe(3n);
    expect(withRound('downward', () => Num.parse('-2.1').toBigInt())).toBe(-3n);
    expect(Num.parse('101517689.4573970').toBigInt()).toBe(101517689n);
  });

  it('takes square roots by Newton iteration in the current mode', () => {
    // sqrt(2) = 1.41421356237309504880...
    expect(root2(2).toString()).toBe('1.414213562373095');
    expect(withRound('upward', () => root2(2).toString())).toBe('1.414213562373096');
    expect(root2(Num.parse('1e14')).toString()).toBe('10000000');
    // sqrt(1.01) = 1.00498756211208902702...
    expect(root2(Num.parse('1.01')).toString()).toBe('1.004987562112089');
  });
});
