import { PRICE_CHANGE_INTERVALS } from './constants';
import { currencyToTicker, isHexCurrency, tickerToCurrency } from './currency';
import { formatCount, formatUsd, formatUsdFull, toDecimal } from './format';
import type { NewTrade } from './schemas/socket';
import type { TokenView } from './schemas/tokens';
import { Decimal } from './money';

// The token page's rules (spec 000 §2, §4, §5, §9; 001 §4): badge, stats bar figures, the
// price-change strip and which live trades move the price. Pure: the page and its tests share them.

/** 'Bonding' while a bonding launch has not graduated, 'Graduated' once it has; none otherwise. */
export function tokenBadge(
  token: Pick<TokenView, 'is_bonding_curve' | 'bonding_active' | 'has_graduated_to_amm'>,
): 'Bonding' | 'Graduated' | null {
  if (token.has_graduated_to_amm && token.is_bonding_curve) return 'Graduated';
  if (token.is_bonding_curve && token.bonding_active) return 'Bonding';
  return null;
}

/**
 * A stats-bar figure: compact dollars ('$8.4K', the one number format) or a whole count; 'N/A' for
 * a missing number. The full figure is `statFigureFull`, for the tooltip.
 */
export function statFigure(value: unknown, dollars: boolean): string {
  const d = toDecimal(value);
  if (d === null) return 'N/A';
  return dollars ? formatUsd(d.toFixed()) : formatCount(d.toFixed());
}

/** The stats-bar figure at full precision (its tooltip): '$8,432.17', '1,234'. */
export function statFigureFull(value: unknown, dollars: boolean): string {
  const d = toDecimal(value);
  if (d === null) return 'N/A';
  return dollars ? formatUsdFull(d.toFixed()) : formatCount(d.toFixed());
}

export interface PriceChange {
  label: (typeof PRICE_CHANGE_INTERVALS)[number]['label'];
  /** '+1.23' / '-4.56' with 2 decimals, or null (shown as 'N/A'). */
  percent: string | null;
  /** Green at zero and above, red below (spec 000 §9). */
  positive: boolean;
}

interface ChartSeries {
  t: number[];
  c: number[];
  o?: number[];
}

/** The chart data when usable: s 'ok', c non-empty, t and c of equal length (spec 000 §5). */
export function usableChart(data: unknown): ChartSeries | null {
  if (!data || typeof data !== 'object') return null;
  const d = data as { s?: unknown; t?: unknown; c?: unknown; o?: unknown };
  if (d.s !== 'ok' || !Array.isArray(d.t) || !Array.isArray(d.c)) return null;
  if (d.c.length === 0 || d.t.length !== d.c.length) return null;
  if (!d.c.every((v) => typeof v === 'number' && Number.isFinite(v))) return null;
  const o = Array.isArray(d.o) && d.o.length === d.c.length ? (d.o as number[]) : undefined;
  return { t: d.t as number[], c: d.c as number[], o };
}

/**
 * The price-change strip: for 5m, 1h, 4h and 1d, the percent change from the price at that time
 * (the close of the last bar that ended by then, else the first bar's open) to the latest price
 * (`latest` when valid, else the last close). Every interval is N/A when the data is unusable.
 */
export function priceChanges(
  data: unknown,
  nowSeconds: number,
  barSeconds: number,
  latest?: string | null,
): PriceChange[] {
  const chart = usableChart(data);
  const last = toDecimal(latest);
  const current = last && last.gt(0) ? last : chart ? toDecimal(chart.c[chart.c.length - 1]) : null;
  return PRICE_CHANGE_INTERVALS.map(({ label, seconds }) => {
    if (!chart || !current) return { label, percent: null, positive: true };
    const at = nowSeconds - seconds;
    let ref: number | undefined;
    for (let i = chart.t.length - 1; i >= 0; i--) {
      if (chart.t[i]! + barSeconds <= at) {
        ref = chart.c[i];
        break;
      }
    }
    ref ??= chart.o?.[0] ?? chart.c[0];
    const percent = changePercent(current.toFixed(), ref);
    return { label, percent, positive: percent === null || !percent.startsWith('-') };
  });
}

/**
 * The percent change from `base` to `current`, 2 decimals with its sign ('+1.23', '-4.56'); null
 * when either is not a positive number. The token page's strip and the list's 24h column use it.
 */
export function changePercent(current: unknown, base: unknown): string | null {
  const now = toDecimal(current);
  const then = toDecimal(base);
  if (!now || !then || now.lte(0) || then.lte(0)) return null;
  const pct = now.minus(then).div(then).mul(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return `${pct.gte(0) ? '+' : ''}${pct.toFixed(2)}`;
}

/**
 * Whether a live trade is this token's: the traded currency (base or quote) matches the token
 * (by ticker or its 40-hex code) with the same issuer, and the price is positive (spec 000 §4, §5).
 */
export function tradeMatchesToken(trade: unknown, currency: string, issuer: string): trade is NewTrade {
  if (!trade || typeof trade !== 'object') return false;
  const t = trade as Partial<NewTrade>;
  const price = toDecimal(t.price);
  if (!price || price.lte(0)) return false;
  const code = normalizeCurrency(currency);
  const same = (c: unknown, i: unknown) =>
    typeof c === 'string' && i === issuer && code !== null && normalizeCurrency(c) === code;
  return same(t.baseCurrency, t.baseIssuer) || same(t.quoteCurrency, t.quoteIssuer);
}

function normalizeCurrency(value: string): string | null {
  try {
    return isHexCurrency(value) ? value.toUpperCase() : tickerToCurrency(value);
  } catch {
    return null;
  }
}

/** The ticker to show for a currency code (40-hex codes back to their text). */
export const displayTicker = (currency: string): string =>
  isHexCurrency(currency) ? currencyToTicker(currency) : currency;

/**
 * A token page's document title: 'NAME (TICKER) · Ledgerpad', or the ticker alone when the name is
 * empty or the same. The browser tab (the app) and the page as first sent (the server, for link
 * previews and crawlers) use this one rule.
 */
export function tokenTabTitle(name: string, ticker: string): string {
  const t = displayTicker(ticker);
  const n = name.trim();
  return n && n !== t ? `${n} (${t}) · Ledgerpad` : `${t} · Ledgerpad`;
}
