import { describe, expect, it } from 'vitest';
import {
  formatAmount,
  formatCount,
  formatFull,
  formatMoney,
  formatPercent,
  formatPrice,
  formatToken,
  formatUsd,
  formatUsdFull,
  formatXrp,
  shortAddress,
} from '../src/index';

// The one number format (docs/number-format.md): a table of inputs → outputs per formatter, worked
// out by hand from the rules, including 0, 1e-15, 1e15 and negatives.

type Row = [input: unknown, output: string];

function table(name: string, fn: (v: unknown) => string, rows: Row[]) {
  describe(name, () => {
    it.each(rows)('%s → %s', (input, output) => {
      expect(fn(input)).toBe(output);
    });
  });
}

// Prices: 4 significant digits (half up), whole digits kept, ≥ 4 zeros after the point as 0.0ₙ.
table('formatPrice', formatPrice, [
  ['0', '0.000000'],
  ['1e-15', '0.0₁₄1'],
  ['1e15', '1,000,000,000,000,000'],
  ['-0.5', '-0.5'],
  // The example: 8 zeros after the point, then 1156 (the 5th digit, 1, rounds nothing up).
  ['0.000000001156125673', '0.0₈1156'],
  ['0.000012345', '0.0₄1235'],
  // Three zeros stay written out.
  ['0.00012345', '0.0001235'],
  ['1.5', '1.5'],
  ['2.99996', '3'],
  ['123456.789', '123,457'],
  [0.25, '0.25'],
  ['abc', '0.000000'],
  [null, '0.000000'],
]);

// Full precision for tooltips and copy: the exact decimal, grouped.
table('formatFull', formatFull, [
  ['0', '0'],
  ['1e-15', '0.000000000000001'],
  ['1e15', '1,000,000,000,000,000'],
  ['-1234567.5', '-1,234,567.5'],
  ['0.000000001156125673', '0.000000001156125673'],
  ['x', '—'],
]);

// Table amounts: 4 significant digits rounded down, K/M/B/T.
table('formatAmount', formatAmount, [
  ['0', '0'],
  ['1e-15', '0.0₁₄1'],
  ['1e15', '1,000T'],
  ['-1234567', '-1.234M'],
  ['999.99997', '999.9'],
  ['999999', '999.9K'],
  ['1000', '1K'],
  ['12.345', '12.34'],
  ['0.0019950', '0.001995'],
  ['2500000000', '2.5B'],
  ['x', '0'],
]);

// XRP as money: to the drop, rounded down, trailing zeros dropped.
table('formatXrp', formatXrp, [
  ['0', '0'],
  ['1e-15', '0'],
  ['1e15', '1,000,000,000,000,000'],
  ['-12.5', '-12.5'],
  ['4.997616', '4.997616'],
  ['10.075', '10.075'],
  ['10.0750000', '10.075'],
  ['1234567.1234567', '1,234,567.123456'],
  ['-0.0000001', '0'],
]);

// Tokens as money: at most 6 decimals, rounded down; dust below 0.000001 in 4 significant digits.
table('formatToken', formatToken, [
  ['0', '0'],
  // Fourteen zeros after the point, then 1: below the 6 decimals, so its significant digits.
  ['1e-15', '0.0₁₄1'],
  ['0.00000012349', '0.0₆1234'],
  ['-0.0000001', '-0.0₆1'],
  ['0.000001', '0.000001'],
  ['1e15', '1,000,000,000,000,000'],
  ['-3.5', '-3.5'],
  ['999.99997', '999.99997'],
  // Issue 39's example: 149,374.478732276 reads 149,374.478732 (rounded down).
  ['149374.478732276', '149,374.478732'],
  ['1234567.123456789012345', '1,234,567.123456'],
]);

// Compact dollars: 3 significant digits (half up), K/M/B/T.
table('formatUsd', formatUsd, [
  ['0', '$0'],
  ['1e-15', '$0.0₁₄1'],
  ['1e15', '$1,000T'],
  ['-8432', '-$8.43K'],
  ['8400', '$8.4K'],
  ['999999', '$1M'],
  ['1234567', '$1.23M'],
  ['950', '$950'],
  ['0.4242', '$0.424'],
  [null, '$0'],
]);

table('formatUsdFull', formatUsdFull, [
  ['0', '$0.00'],
  ['8432.175', '$8,432.18'],
  ['-5', '-$5.00'],
  ['1e15', '$1,000,000,000,000,000.00'],
]);

table('formatCount', formatCount, [
  ['0', '0'],
  ['1234567', '1,234,567'],
  [42, '42'],
  ['-7', '-7'],
]);

describe('the rest of the format', () => {
  it('formats money by its asset, percentages and short addresses', () => {
    expect(formatMoney('5.0000001', 'XRP')).toBe('5');
    // RLUSD and tokens: at most 6 decimals, rounded down (the full figure in the tooltip).
    expect(formatMoney('5.0000001', 'RLUSD')).toBe('5');
    expect(formatMoney('5.1234567', 'RLUSD')).toBe('5.123456');
    expect(formatPercent('18.456')).toBe('18.46%');
    expect(formatPercent('-0.5', 1)).toBe('-0.5%');
    expect(shortAddress('rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe')).toBe('rPT1Sj…pAYe');
    expect(shortAddress('short')).toBe('short');
  });
});
