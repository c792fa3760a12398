import { describe, expect, it } from 'vitest';
import { formatPrice } from '@ledgerpad/shared';
import { chartPriceLabel } from '../src/features/token/price-chart';

// The chart's axis labels in the shared price format (issue 39: '0.000009800' beside '0.0₅9382').
describe('chart price labels', () => {
  it('writes a small price with subscript zeros, as the page header does', () => {
    // Drawn × 1 at 9 decimals: 0.000008 is five zeros after the point, then 8.
    expect(chartPriceLabel(0.000008, 1, 9)).toBe('0.0₅8');
    expect(chartPriceLabel(0.0000098, 1, 9)).toBe('0.0₅98');
    expect(chartPriceLabel(0.0000098, 1, 9)).toBe(formatPrice('0.0000098'));
  });

  it('divides a drawn value back by the chart scale before formatting', () => {
    // A 1e-8 price drawn 100× larger (the chart's scale past 6 decimals): the label is the price.
    expect(chartPriceLabel(0.000001156, 100, 11)).toBe(formatPrice('0.00000001156'));
    expect(chartPriceLabel(0.000001156, 100, 11)).toBe('0.0₇1156');
  });

  it('groups thousands on large prices', () => {
    // Whole digits are kept (five here), rounded half up as formatPrice rounds: 12,345.68 → 12,346.
    expect(chartPriceLabel(12345.678, 1, 2)).toBe('12,346');
  });
});
