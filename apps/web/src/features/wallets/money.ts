// Exact arithmetic on the decimal strings the server sends (conventions §6: never floats for money).
// XRP is handled as bigint drops; token values as a bigint of units with a decimal scale.

const DROPS_PER_XRP = 1_000_000n;

export interface Decimal {
  /** The value × 10^scale, exactly. */
  units: bigint;
  scale: number;
}

/** "12.5", "-0.001", "1.5e-7" (rippled writes very small or large values with an exponent). */
export function parseDecimal(text: string): Decimal | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m || (!m[2] && !m[3])) return undefined;
  const fraction = m[3] ?? '';
  let units = BigInt(`${m[2] || '0'}${fraction}`);
  let scale = fraction.length - Number(m[4] ?? 0);
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: m[1] === '-' ? -units : units, scale };
}

function align(a: Decimal, b: Decimal): [bigint, bigint] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * 10n ** BigInt(scale - a.scale), b.units * 10n ** BigInt(scale - b.scale)];
}

/** -1, 0 or 1; undefined when either side is not a number. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 | undefined {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y) return undefined;
  const [p, q] = align(x, y);
  return p < q ? -1 : p > q ? 1 : 0;
}

/** Plain decimal text without an exponent or trailing zeros ("1.50e2" → "150"). */
export function toPlain(d: Decimal): string {
  const neg = d.units < 0n;
  const digits = (neg ? -d.units : d.units).toString().padStart(d.scale + 1, '0');
  const whole = digits.slice(0, digits.length - d.scale);
  const frac = digits.slice(digits.length - d.scale).replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** XRP text with at most 6 decimals → drops; undefined for anything else. */
export function xrpToDrops(xrp: string): bigint | undefined {
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(xrp.trim());
  if (!m) return undefined;
  return BigInt(m[1]!) * DROPS_PER_XRP + BigInt((m[2] ?? '').padEnd(6, '0'));
}

export function dropsToXrp(drops: bigint): string {
  return toPlain({ units: drops, scale: 6 });
}

/** The sum of XRP balances, as XRP text. Values that aren't XRP amounts count as 0. */
export function sumXrp(values: string[]): string {
  return dropsToXrp(values.reduce((sum, v) => sum + (xrpToDrops(v) ?? 0n), 0n));
}

/** balance − reserve, never below 0 (spec §5 Transfer: available = balance minus reserve). */
export function availableXrp(balance: string, reserve: string): string {
  const left = (xrpToDrops(balance) ?? 0n) - (xrpToDrops(reserve) ?? 0n);
  return dropsToXrp(left > 0n ? left : 0n);
}

/** Thousands separators on the whole part; the decimals stay exactly as they are. */
export function formatAmount(text: string): string {
  const d = parseDecimal(text);
  if (!d) return text;
  const plain = toPlain(d);
  const [whole = '0', frac] = plain.replace('-', '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${plain.startsWith('-') ? '-' : ''}${grouped}${frac ? `.${frac}` : ''}`;
}

/** Keeps what an amount field may hold: digits and one dot, at most `decimals` after it. */
export function sanitizeAmountInput(value: string, decimals?: number): string {
  let out = value.replace(/,/g, '.').replace(/[^\d.]/g, '');
  const dot = out.indexOf('.');
  if (dot !== -1) {
    out = out.slice(0, dot + 1) + out.slice(dot + 1).replace(/\./g, '');
    if (decimals !== undefined) out = out.slice(0, dot + 1 + decimals);
  }
  return out;
}

/** "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe" → "rPT1Sj…zbpAYe" for tight spots (the full text is the title). */
export function shortAddress(address: string, keep = 6): string {
  return address.length <= keep * 2 + 1 ? address : `${address.slice(0, keep)}…${address.slice(-keep)}`;
}
