import { describe, expect, it } from 'vitest';
import { IouValue, AmountOverflowError } from '../../src/core/amount/iou-value';
import { currencyToHex, currencyToJson, normalizeCurrency } from '../../src/core/amount/currency';
import { parseAmount, amountToJson } from '../../src/core/amount/amount';

const v = (s: string) => IouValue.parse(s);

describe('IouValue (rippled STAmount IOU semantics)', () => {
  it('canonicalizes to a 16-digit mantissa and prints like STAmount::getText', () => {
    expect(v('1').mantissa).toBe(1_000_000_000_000_000n);
    expect(v('1').exponent).toBe(-15);
    expect(v('1').toString()).toBe('1');
    expect(v('123.456').toString()).toBe('123.456');
    expect(v('-0.5').toString()).toBe('-0.5');
    expect(v('100').toString()).toBe('100');
    expect(v('1000000000000000').toString()).toBe('1000000000000000');
    expect(v('1000000000000').toString()).toBe('1000000000000000e-3');
    expect(v('10000000000000000').toString()).toBe('1000000000000000e1');
    expect(v('1e-10').toString()).toBe('0.0000000001');
    expect(v('1e-25').toString()).toBe('1000000000000000e-40');
    expect(v('0').toString()).toBe('0');
    expect(v('0.000').isZero()).toBe(true);
    expect(IouValue.ZERO.exponent).toBe(-100);
  });

  it('rounds extra digits to nearest, ties to even', () => {
    expect(v('1.23456789012345678').toString()).toBe('1.234567890123457');
    expect(v('1.00000000000000050').toString()).toBe('1');
    expect(v('1.00000000000000150').toString()).toBe('1.000000000000002');
    expect(v('9.9999999999999999').toString()).toBe('10');
  });

  it('underflows to zero and throws on overflow', () => {
    expect(v('1e-97').isZero()).toBe(true);
    expect(v('9999999999999999e80').toString()).toBe('9999999999999999e80');
    expect(() => v('1e97')).toThrow(AmountOverflowError);
  });

  it('rejects what rippled rejects', () => {
    for (const bad of ['', '.5', '1.', '01', '1e', 'abc', '1..2', '--1']) {
      expect(() => v(bad), bad).toThrow();
      expect(() => IouValue.parseJsonText(bad), bad).toThrow();
    }
    // JSON text has rippled's 32-digit rule (amountFromString); a 33rd digit is refused.
    expect(() => IouValue.parseJsonText('1'.repeat(33))).toThrow();
    expect(IouValue.parseJsonText('1'.repeat(32)).toString()).toBe('1111111111111111e16');
  });

  it('reads binary amounts printed in plain notation at their full range', () => {
    // The codec prints a binary amount without an exponent: 16 digits and 80 zeros for the
    // largest IOU, and 32 decimals for a full mantissa at 1e-17. rippled reads both from binary.
    const largest = `9999999999999999${'0'.repeat(80)}`;
    expect(v(largest).toString()).toBe('9999999999999999e80');
    expect(() => IouValue.parseJsonText(largest)).toThrow();
    const tiny = `0.${'0'.repeat(16)}1234567890123456`;
    expect(v(tiny).mantissa).toBe(1234567890123456n);
    expect(v(tiny).exponent).toBe(-32);
    expect(() => IouValue.parseJsonText(tiny)).toThrow();
  });

  it('adds, subtracts, multiplies and divides like rippled Number', () => {
    expect(v('1').add(v('2')).toString()).toBe('3');
    expect(v('1').add(v('1e-20')).toString()).toBe('1');
    expect(v('1').sub(v('1')).isZero()).toBe(true);
    expect(v('0.1').add(v('0.2')).toString()).toBe('0.3');
    expect(v('10').sub(v('10.5')).toString()).toBe('-0.5');
    expect(v('1234.5678').mul(v('100')).toString()).toBe('123456.78');
    expect(v('1').div(v('3')).toString()).toBe('0.3333333333333333');
    expect(v('2').div(v('3')).toString()).toBe('0.6666666666666667');
    expect(v('-2').div(v('3')).toString()).toBe('-0.6666666666666667');
    expect(v('1e-90').mul(v('1e-10')).isZero()).toBe(true);
  });

  it('applies transfer rates with mulRatio rounding', () => {
    expect(v('100').mulRatio(1_010_000_000n, 1_000_000_000n, true).toString()).toBe('101');
    expect(v('1').mulRatio(1n, 3n, true).toString()).toBe('0.3333333333333334');
    expect(v('1').mulRatio(1n, 3n, false).toString()).toBe('0.3333333333333333');
    expect(v('10').mulRatio(1_000_000_000n, 1_002_000_000n, false).toString()).toBe('9.980039920159681');
  });

  it('compares with sign and magnitude', () => {
    expect(v('-1').lt(v('0'))).toBe(true);
    expect(v('2').gt(v('10'))).toBe(false);
    expect(v('-2').lt(v('-10'))).toBe(false);
    expect(v('1.0').eq(v('1'))).toBe(true);
  });
});

describe('currencies and amounts', () => {
  it('maps ISO codes to 160-bit values and back', () => {
    expect(currencyToHex('USD')).toBe('0000000000000000000000005553440000000000');
    expect(currencyToJson('0000000000000000000000005553440000000000')).toBe('USD');
    expect(normalizeCurrency('0158415500000000C1F76FF6ECB0BAC600000000')).toBe(
      '0158415500000000C1F76FF6ECB0BAC600000000',
    );
    expect(currencyToHex('US')).toBeUndefined();
  });

  it('parses XRP drops and issued JSON amounts', () => {
    expect(parseAmount('123')).toEqual({ kind: 'xrp', drops: 123n });
    expect(parseAmount('1.5')).toBeUndefined();
    const a = parseAmount({ currency: 'USD', issuer: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', value: '1.50' });
    expect(a && amountToJson(a)).toEqual({
      currency: 'USD',
      issuer: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
      value: '1.5',
    });
    expect(parseAmount({ currency: 'USD', issuer: 'nope', value: '1' })).toBeUndefined();
  });
});
