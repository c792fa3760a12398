import { describe, expect, it } from 'vitest';
import {
  CURRENCY_MESSAGES,
  currencyToTicker,
  parseTokenCode,
  tokenCodeSchema,
  isLpCurrency,
  lpName,
  RLUSD_CURRENCY_HEX,
  sameCurrency,
  tickerToCurrency,
} from '../src/index';

describe('tickerToCurrency', () => {
  it('keeps codes of three characters', () => {
    expect(tickerToCurrency('USD')).toBe('USD');
  });
  it('hex-encodes two-character tickers (not a standard code on the ledger)', () => {
    expect(tickerToCurrency('AB')).toBe('4142000000000000000000000000000000000000');
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

describe('tokenCodeSchema: the one currency-code rule', () => {
  const schema = tokenCodeSchema('token');
  const ok = (v: string) => schema.parse(v);
  const problem = (v: unknown) => {
    const r = schema.safeParse(v);
    return r.success ? undefined : r.error.issues[0]!.message;
  };

  it('answers the ledger code', () => {
    expect(ok('USD')).toBe('USD');
    expect(ok(' DOGE ')).toBe('444F474500000000000000000000000000000000');
    expect(ok('524c555344000000000000000000000000000000')).toBe(RLUSD_CURRENCY_HEX);
    // Two characters are not a standard code: the 160-bit code of their bytes.
    expect(ok('AB')).toBe('4142000000000000000000000000000000000000');
    expect(ok('HI!@#$%^&*')).toBe(tickerToCurrency('HI!@#$%^&*'));
  });
  it('refuses XRP as a token, however it is written', () => {
    for (const v of [
      'XRP',
      'xrp',
      'Xrp',
      '0000000000000000000000000000000000000000',
      tickerToCurrency('XRP!').replace('21', '00'),
    ]) {
      expect(problem(v), v).toBe(CURRENCY_MESSAGES.xrp);
    }
  });
  it('refuses LP codes unless asked, and binary standard codes', () => {
    const lp = '03930D02208264E2E40EC1B0C09E4DB96EE197B1';
    expect(problem(lp)).toBe(CURRENCY_MESSAGES.lp);
    expect(tokenCodeSchema('token', { allowLp: true }).parse(lp)).toBe(lp);
    expect(problem('0000000000000000000000005553440000000000')).toBe(CURRENCY_MESSAGES.invalid('token'));
  });
  it('refuses what the ledger or a person would misread', () => {
    for (const v of [
      '',
      ' ',
      'A',
      'é',
      'ÉÉÉ',
      '\uD800',
      "' OR '1'='1",
      'AB\u202ECD',
      'US D',
      'A\u0000B',
      'TOOLONGTICKERNAME12345',
      'G'.repeat(40),
    ]) {
      expect(problem(v), JSON.stringify(v)).toBeDefined();
    }
    expect(problem(42)).toBe(CURRENCY_MESSAGES.invalid('token'));
    expect(problem(null)).toBe(CURRENCY_MESSAGES.invalid('token'));
  });
  it('uses the screen’s own sentence when it has one', () => {
    const s = tokenCodeSchema('token', { message: 'Please select a wallet and token.' });
    expect(s.safeParse('é').error?.issues[0]!.message).toBe('Please select a wallet and token.');
    expect(s.safeParse('XRP').error?.issues[0]!.message).toBe(CURRENCY_MESSAGES.xrp);
  });
  it('ledger codes only, when asked', () => {
    expect(parseTokenCode('DOGE', { tickers: false })).toEqual({ problem: 'invalid' });
    expect(parseTokenCode('USD', { tickers: false })).toEqual({ currency: 'USD' });
  });
});
