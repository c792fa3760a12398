import {
  FIGURE_FONT_THRESHOLDS,
  MARKET_CAP_DECIMALS,
  NUMBER_SHORTENING,
  PRICE_SIGNIFICANT_DIGITS,
} from './constants';
import { Decimal } from './money';

// Number, price and age formatting of the token list (spec 000 §5): shared so the server can word
// figures the same way. Inputs are decimal strings (or numbers from chart data); no float arithmetic.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A finite number (or numeric string), else null. */
export function toDecimal(value: unknown): Decimal | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  if (typeof value === 'string' && !/^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value)) return null;
  try {
    const d = new Decimal(value);
    return d.isFinite() ? d : null;
  } catch {
    return null;
  }
}

/** A price is usable only when numeric and greater than zero (spec 000 §5). */
export function isValidPrice(value: unknown): boolean {
  const d = toDecimal(value);
  return d !== null && d.gt(0);
}

/** 10 significant digits; '0.000000' when zero or missing. */
export function formatPrice(value: unknown): string {
  const d = toDecimal(value);
  if (!d || d.isZero()) return '0.000000';
  return new Decimal(d).toPrecision(PRICE_SIGNIFICANT_DIGITS);
}

/** Shortens with B, M or K at 1e9, 1e6, 1e3, keeping `decimals` decimals: 1234567 → '1.23M'. */
export function shortenNumber(value: unknown, decimals = MARKET_CAP_DECIMALS): string {
  const d = toDecimal(value) ?? new Decimal(0);
  for (const { suffix, at } of NUMBER_SHORTENING) {
    if (d.abs().gte(at)) return `${d.div(at).toFixed(decimals, Decimal.ROUND_HALF_UP)}${suffix}`;
  }
  return d.toFixed(decimals, Decimal.ROUND_HALF_UP);
}

/** Market cap in dollars: 2 decimals, K/M/B shortening. */
export function formatMarketCap(value: unknown): string {
  return `$${shortenNumber(value, MARKET_CAP_DECIMALS)}`;
}

/** Font class of a figure cell: 'tiny' above 12 characters, 'small' above 9, else ''. */
export function figureFontClass(text: string): '' | 'small' | 'tiny' {
  if (text.length > FIGURE_FONT_THRESHOLDS.tiny) return 'tiny';
  if (text.length > FIGURE_FONT_THRESHOLDS.small) return 'small';
  return '';
}

export interface TokenAge {
  /** 'Nd' at one day or more, else 'Nh'. */
  text: string;
  days: number;
  /** Younger than one day: flagged new with a fire mark. */
  isNew: boolean;
}

export function tokenAge(createdAt: string | Date, now: number): TokenAge {
  const created = typeof createdAt === 'string' ? Date.parse(createdAt) : createdAt.getTime();
  const ms = Number.isFinite(created) ? Math.max(0, now - created) : 0;
  const days = Math.floor(ms / DAY_MS);
  return { text: days >= 1 ? `${days}d` : `${Math.floor(ms / HOUR_MS)}h`, days, isNew: ms < DAY_MS };
}

/**
 * An amount in a table cell: K/M/B from a thousand, 2 decimals from one, else 4 significant digits
 * (a 0.002 XRP trade must not read '0.00').
 */
export function formatAmount(value: unknown): string {
  const d = toDecimal(value);
  if (!d || d.isZero()) return '0';
  if (d.abs().gte(1)) return shortenNumber(d.toFixed());
  return new Decimal(d).toSignificantDigits(4).toFixed();
}
