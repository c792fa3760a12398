import { describe, expect, it } from 'vitest';
import {
  displayTicker,
  priceChanges,
  statFigure,
  statFigureFull,
  tickerToCurrency,
  tokenBadge,
  tradeMatchesToken,
  usableChart,
} from '../src';

// The token page's rules (spec 000 §2, §4, §5, §9).

const ISSUER = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';

describe('tokenBadge', () => {
  it("shows 'Bonding' before graduation, 'Graduated' after, nothing for AMM launches", () => {
    const base = { is_bonding_curve: true, bonding_active: true, has_graduated_to_amm: false };
    expect(tokenBadge(base)).toBe('Bonding');
    expect(tokenBadge({ ...base, bonding_active: false, has_graduated_to_amm: true })).toBe('Graduated');
    expect(
      tokenBadge({ is_bonding_curve: false, bonding_active: false, has_graduated_to_amm: false }),
    ).toBeNull();
  });
});

describe('statFigure', () => {
  it("shows compact dollars and whole counts (the one number format), 'N/A' for no number", () => {
    expect(statFigure('1234567.5', true)).toBe('$1.23M');
    expect(statFigureFull('1234567.5', true)).toBe('$1,234,567.50');
    expect(statFigure('999.49', true)).toBe('$999');
    expect(statFigure('8432', true)).toBe('$8.43K');
    expect(statFigure(42, false)).toBe('42');
    expect(statFigure('12345', false)).toBe('12,345');
    expect(statFigure('0', true)).toBe('$0');
    expect(statFigure(null, true)).toBe('N/A');
    expect(statFigure('abc', true)).toBe('N/A');
    expect(statFigure(undefined, false)).toBe('N/A');
  });
});

describe('usableChart', () => {
  it("needs s 'ok', a non-empty c and t of the same length", () => {
    expect(usableChart({ s: 'ok', t: [1, 2], c: [1, 2] })).not.toBeNull();
    expect(usableChart({ s: 'no_data' })).toBeNull();
    expect(usableChart({ s: 'ok', t: [], c: [] })).toBeNull();
    expect(usableChart({ s: 'ok', t: [1, 2], c: [1] })).toBeNull();
    expect(usableChart({ s: 'ok', t: [1], c: ['x'] })).toBeNull();
    expect(usableChart(null)).toBeNull();
  });
});

describe('priceChanges', () => {
  const now = 1_000_000;
  const bar = 300;
  // Closes every 5 minutes over the last day: 1 a day ago, 2 four hours ago, 4 an hour ago, 5 at
  // ten minutes ago, then 6 in the current bar.
  const t = [now - 86_400 - bar, now - 14_400 - bar, now - 3_600 - bar, now - 600, now - 100];
  const c = [1, 2, 4, 5, 6];

  it('compares the latest close with the close of the last bar ended by each interval', () => {
    const changes = priceChanges({ s: 'ok', t, c }, now, bar);
    expect(changes.map((x) => [x.label, x.percent, x.positive])).toEqual([
      // 5 minutes ago the last ended bar closed at 5: (6 − 5) / 5.
      ['5m', '+20.00', true],
      ['1h', '+50.00', true],
      ['4h', '+200.00', true],
      ['1d', '+500.00', true],
    ]);
  });

  it('uses the live price when there is one, red below zero', () => {
    const changes = priceChanges({ s: 'ok', t, c }, now, bar, '4.5');
    expect(changes[0]).toEqual({ label: '5m', percent: '-10.00', positive: false });
    expect(changes[1]).toEqual({ label: '1h', percent: '+12.50', positive: true });
  });

  it("falls back to the first bar's open when no bar ended by then", () => {
    const changes = priceChanges({ s: 'ok', t: [now - 200], o: [2], c: [3] }, now, bar);
    expect(changes.every((x) => x.percent === '+50.00')).toBe(true);
  });

  it('is N/A everywhere for no data or malformed data', () => {
    for (const data of [{ s: 'no_data' }, { s: 'ok', t: [1, 2], c: [1] }, undefined, 'x']) {
      expect(priceChanges(data, now, bar).map((x) => x.percent)).toEqual([null, null, null, null]);
    }
  });
});

describe('tradeMatchesToken', () => {
  const trade = {
    type: 'BUY',
    baseCurrency: 'ABCD',
    baseIssuer: ISSUER,
    quoteCurrency: 'XRP',
    quoteIssuer: null,
    price: '0.5',
  };

  it('matches the token by ticker or its hex code, on either side, with the same issuer', () => {
    expect(tradeMatchesToken(trade, 'ABCD', ISSUER)).toBe(true);
    expect(tradeMatchesToken(trade, tickerToCurrency('ABCD'), ISSUER)).toBe(true);
    expect(
      tradeMatchesToken(
        { ...trade, baseCurrency: 'XRP', baseIssuer: null, quoteCurrency: 'ABCD', quoteIssuer: ISSUER },
        'ABCD',
        ISSUER,
      ),
    ).toBe(true);
  });

  it('ignores other tokens, other issuers and prices that are not positive numbers', () => {
    expect(tradeMatchesToken(trade, 'WXYZ', ISSUER)).toBe(false);
    expect(tradeMatchesToken(trade, 'ABCD', 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe')).toBe(false);
    for (const price of ['0', '-1', 'abc', '']) {
      expect(tradeMatchesToken({ ...trade, price }, 'ABCD', ISSUER)).toBe(false);
    }
    expect(tradeMatchesToken(null, 'ABCD', ISSUER)).toBe(false);
  });

  it('shows hex currency codes as their ticker', () => {
    expect(displayTicker(tickerToCurrency('ABCD'))).toBe('ABCD');
    expect(displayTicker('USD')).toBe('USD');
  });
});
