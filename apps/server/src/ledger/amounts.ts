import Decimal from 'decimal.js';

// Exact money conversions. XRP travels as bigint drops; issued amounts as decimal strings. xrpl.js's
// own xrpToDrops/dropsToXrp go through JavaScript numbers, which is why they are not used here.

const DROPS = 1_000_000n;

/** "12.5" XRP → 12500000n drops; throws on more than 6 decimals, negatives or non-numbers. */
export function xrpToDrops(xrp: string): bigint {
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(xrp.trim());
  if (!m) throw new RangeError('XRP amounts have at most 6 decimals');
  return BigInt(m[1]!) * DROPS + BigInt((m[2] ?? '').padEnd(6, '0') || '0');
}

/** 12500000n → "12.5" (no trailing zeros, no exponent). */
export function dropsToXrp(drops: bigint | string): string {
  const d = typeof drops === 'bigint' ? drops : BigInt(drops);
  const neg = d < 0n;
  const abs = neg ? -d : d;
  const whole = abs / DROPS;
  const frac = (abs % DROPS).toString().padStart(6, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** Canonical decimal text of a token amount ("0010.50" → "10.5"), within rippled's 16 digits. */
export function normalizeTokenValue(value: string): string {
  const d = new Decimal(value.trim());
  if (!d.isFinite()) throw new RangeError('Not a number');
  if (d.precision() > 16) throw new RangeError('Token amounts have at most 16 significant digits');
  return d.toFixed();
}

export function compareDecimal(a: string, b: string): number {
  return new Decimal(a).comparedTo(new Decimal(b));
}
