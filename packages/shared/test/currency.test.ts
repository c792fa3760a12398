import { describe, expect, it } from 'vitest';
import {
  currencyToTicker,
  isLpCurrency,
  lpName,
  RLUSD_CURRENCY_HEX,
  sameCurrency,
  tickerToCurrency,
} from '../src/index';

describe('tickerToCurrency', () => {
  it('keeps codes of three characters or fewer', () => {
    expect(tickerToCurrency('USD')).toBe('USD');
    expect(tickerToCurrency('AB')).toBe('AB');
  });
  it('hex-encodes longer tickers, uppercase, zero padded to 40 characters', () => {
    expect(tickerToCurrency('RLUSD')).toBe(RLUSD_CURRENCY_HEX);
    expect(tickerToCurrency('DOGE')).toBe('444F474500000000000000000000000000000000');
    expect(tickerToCurrency('SOLO')).toHaveLength(40);
  });
  it('passes an already-hex code through in uppercase', () => {
    expect(tickerToCurrency('524c555344000000000000000000000000000000')).toBe(RLUSD_CURRENCY_HEX);
  });
  it('refuses tickers longer than 20 bytes', () => {
    expect(() => tickerToCurrency('A'.repeat(21))).toThrow(RangeError);
  });
});

describe('currencyToTicker', () => {
  it('round-trips every ticker the deploy form allows', () => {
    for (const t of ['XRP1', 'PEPE', 'RLUSD', 'A1B2C3D4E5', 'HI!@#$%^&*', 'USD', 'ZZ']) {
      expect(currencyToTicker(tickerToCurrency(t))).toBe(t);
    }
  });
  it('decodes lowercase hex too', () => {
    expect(currencyToTicker('444f474500000000000000000000000000000000')).toBe('DOGE');
  });
  it('leaves LP codes and non-text codes as hex', () => {
    const lp = '03930D02208264E2E40EC1B0C09E4DB96EE197B1';
    expect(isLpCurrency(lp)).toBe(true);
    expect(currencyToTicker(lp)).toBe(lp);
    expect(currencyToTicker('FF00000000000000000000000000000000000000')).toBe(
      'FF00000000000000000000000000000000000000',
    );
  });
  it('does not mistake ordinary hex codes for LP codes', () => {
    expect(isLpCurrency(RLUSD_CURRENCY_HEX)).toBe(false);
    expect(isLpCurrency('USD')).toBe(false);
    expect(isLpCurrency('03')).toBe(false);
  });
});

describe('helpers', () => {
  it('compares ticker and hex forms', () => {
    expect(sameCurrency('RLUSD', RLUSD_CURRENCY_HEX)).toBe(true);
    expect(sameCurrency('RLUSD', 'USD')).toBe(false);
  });
  it('names LP tokens', () => {
    expect(lpName('PEPE')).toBe('LP-PEPE');
  });
});
