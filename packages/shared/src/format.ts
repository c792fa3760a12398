import {
  FIGURE_FONT_THRESHOLDS,
  NUMBER_SHORTENING,
  PRICE_SUBSCRIPT_MIN_ZEROS,
  TABLE_SIGNIFICANT_DIGITS,
  TOKEN_DECIMALS,
  TOKEN_SIGNIFICANT_DIGITS,
  USD_COMPACT_SIGNIFICANT_DIGITS,
  XRP_DECIMALS,
} from './constants';
import type DecimalBase from 'decimal.js';
import { Decimal } from './money';

// The one number format of Ledgerpad (docs/number-format.md), used by every page: a figure reads
// the same wherever it appears. Inputs are decimal strings (or numbers from chart data); all
// arithmetic is decimal, never float.
//
// - Prices in tables: 4 significant digits, tiny ones with a subscript zero count (0.0₈1156 for
//   0.000000001156); the full figure in the tooltip (`formatFull`).
// - Money the user checks: XRP to the drop (up to 6 decimals), tokens to at most 6 decimals (dust in
//   4 significant digits), rounded down (a screen never promises more than the ledger holds),
//   thousands separated; the full figure in the tooltip.
// - Amounts in tables: 4 significant digits, shortened with K/M/B/T.
// - Market caps and liquidity: compact dollars ($8.4K).

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const SUBSCRIPT = '₀₁₂₃₄₅₆₇₈₉';
/** K at 1e3, M at 1e6, …, largest first. */
const SUFFIXES = NUMBER_SHORTENING.map((suffix, i) => ({ suffix, exp: 3 * (i + 1) })).reverse();

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

/** Thousands separators on the whole part of a plain decimal text ('-1234.5' → '-1,234.5'). */
function group(text: string): string {
  const neg = text.startsWith('-');
  const [whole = '0', frac] = (neg ? text.slice(1) : text).split('.');
  return `${neg ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac ? `.${frac}` : ''}`;
}

const subscript = (n: number) => [...String(n)].map((c) => SUBSCRIPT[Number(c)]).join('');

/**
 * `d` to `digits` significant digits in plain text; below 1, a run of at least
 * PRICE_SUBSCRIPT_MIN_ZEROS zeros after the point is written 0.0ₙ (n = how many zeros).
 */
function significant(d: Decimal, digits: number, rounding: DecimalBase.Rounding): string {
  if (d.isZero()) return '0';
  const abs = d.abs();
  // Whole digits are never rounded away: 12,345.6 at 4 digits is 12,345, not 12,350.
  const wholeDigits = abs.gte(1) ? abs.trunc().toFixed().length : 0;
  const r = abs.toSignificantDigits(Math.max(digits, wholeDigits), rounding);
  const sign = d.isNeg() && !r.isZero() ? '-' : '';
  const text = r.toFixed();
  if (r.gte(1)) return `${sign}${group(text)}`;
  const zeros = /^0\.(0*)/.exec(text)?.[1]?.length ?? 0;
  if (zeros < PRICE_SUBSCRIPT_MIN_ZEROS) return `${sign}${text}`;
  return `${sign}0.0${subscript(zeros)}${text.slice(2 + zeros)}`;
}

/**
 * A price in a table, a header or a chip: 4 significant digits, subscript zeros for tiny prices
 * ('0.0₈1156'), thousands separated. A zero or missing price reads '0.000000' (spec 000 §5).
 */
export function formatPrice(value: unknown): string {
  const d = toDecimal(value);
  if (!d || d.isZero()) return '0.000000';
  return significant(d, TABLE_SIGNIFICANT_DIGITS, Decimal.ROUND_HALF_UP);
}

/** Any figure at full precision (tooltips, copy): plain decimal text, thousands separated. */
export function formatFull(value: unknown): string {
  const d = toDecimal(value);
  return d ? group(d.toFixed()) : '—';
}

/**
 * An amount in a table cell: 4 significant digits, shortened with K/M/B/T from a thousand, subscript
 * zeros below 0.0001; rounded down, so a balance never reads more than it is.
 */
export function formatAmount(value: unknown): string {
  const d = toDecimal(value);
  if (!d || d.isZero()) return '0';
  const abs = d.abs();
  for (const { suffix, exp } of SUFFIXES) {
    const unit = new Decimal(10).pow(exp);
    if (abs.gte(unit)) {
      const scaled = abs.div(unit);
      // Above 999.9T there is no bigger suffix: keep every whole digit.
      const digits = Math.max(TABLE_SIGNIFICANT_DIGITS, scaled.trunc().toFixed().length);
      const r = scaled.toSignificantDigits(digits, Decimal.ROUND_DOWN).toFixed();
      return `${d.isNeg() ? '-' : ''}${group(r)}${suffix}`;
    }
  }
  return significant(d, TABLE_SIGNIFICANT_DIGITS, Decimal.ROUND_DOWN);
}

/**
 * XRP as money: to the drop (at most 6 decimals, rounded down, no trailing zeros), thousands
 * separated: '10.075', '4.997616', '1,234.5'.
 */
export function formatXrp(value: unknown): string {
  const d = toDecimal(value);
  if (!d) return '—';
  const r = d.toDecimalPlaces(XRP_DECIMALS, Decimal.ROUND_DOWN);
  return group((r.isZero() ? new Decimal(0) : r).toFixed());
}

/**
 * A token amount as money: at most 6 decimals (of its 15 significant digits), rounded down — a screen
 * never promises more than the ledger holds — thousands separated. Dust below 0.000001 keeps 4
 * significant digits with the subscript zero count ('0.0₇1234'), so a holding never reads 0.
 */
export function formatToken(value: unknown): string {
  const d = toDecimal(value);
  if (!d) return '—';
  const full = d.toSignificantDigits(TOKEN_SIGNIFICANT_DIGITS, Decimal.ROUND_DOWN);
  const r = full.toDecimalPlaces(TOKEN_DECIMALS, Decimal.ROUND_DOWN);
  if (r.isZero() && !full.isZero()) return significant(full, TABLE_SIGNIFICANT_DIGITS, Decimal.ROUND_DOWN);
  return group((r.isZero() ? new Decimal(0) : r).toFixed());
}

/** An amount of `asset` as money: XRP to the drop, anything else as a token. */
export function formatMoney(value: unknown, asset: string): string {
  return asset === 'XRP' ? formatXrp(value) : formatToken(value);
}

/**
 * Dollars, compact: 3 significant digits with K/M/B/T ('$8.4K', '$1.23M', '$950', '$0.42');
 * market caps and liquidity. '$0' for zero or a missing figure.
 */
export function formatUsd(value: unknown): string {
  const d = toDecimal(value);
  if (!d || d.isZero()) return '$0';
  const sign = d.isNeg() ? '-' : '';
  let abs = d.abs().toSignificantDigits(USD_COMPACT_SIGNIFICANT_DIGITS, Decimal.ROUND_HALF_UP);
  for (const { suffix, exp } of SUFFIXES) {
    const unit = new Decimal(10).pow(exp);
    if (abs.gte(unit)) {
      abs = abs.div(unit);
      const digits = Math.max(USD_COMPACT_SIGNIFICANT_DIGITS, abs.trunc().toFixed().length);
      return `${sign}$${group(abs.toSignificantDigits(digits, Decimal.ROUND_HALF_UP).toFixed())}${suffix}`;
    }
  }
  return `${sign}$${significant(abs, USD_COMPACT_SIGNIFICANT_DIGITS, Decimal.ROUND_HALF_UP)}`;
}

/** Dollars at full precision for a tooltip: cents, thousands separated ('$8,432.17'). */
export function formatUsdFull(value: unknown): string {
  const d = toDecimal(value);
  if (!d) return '—';
  const text = group(d.abs().toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2));
  return `${d.isNeg() ? '-' : ''}$${text}`;
}

/** A count (holders, wallets): whole, thousands separated. */
export function formatCount(value: unknown): string {
  const d = toDecimal(value);
  if (!d) return '—';
  return group(d.toDecimalPlaces(0, Decimal.ROUND_DOWN).toFixed());
}

/** A percentage with `decimals` decimals ('12.34%'); the sign only when negative. */
export function formatPercent(value: unknown, decimals = 2): string {
  const d = toDecimal(value);
  if (!d) return '—';
  return `${d.toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP).toFixed(decimals)}%`;
}

/** An address shortened for lists: 'rAbCd…WxYz'; the whole address belongs in its tooltip. */
export function shortAddress(address: string, head = 6, tail = 4): string {
  return address.length > head + tail + 1 ? `${address.slice(0, head)}…${address.slice(-tail)}` : address;
}

/** Font class of a figure cell: 'tiny' above 12 characters, 'small' above 9, else ''. */
export function figureFontClass(text: string): '' | 'small' | 'tiny' {
  if (text.length > FIGURE_FONT_THRESHOLDS.tiny) return 'tiny';
  if (text.length > FIGURE_FONT_THRESHOLDS.small) return 'small';
  return '';
}

interface TokenAge {
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
