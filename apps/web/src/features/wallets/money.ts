import { dropsToXrp, groupDigits, parseDecimal, parseXrpDrops } from '@ledgerpad/shared';

// The wallet screens' money helpers, on the one money layer in @ledgerpad/shared (conventions §6:
// never floats for money): XRP as bigint drops, token values as decimal strings.

export { dropsToXrp };

/** -1, 0 or 1; undefined when either side is not a number. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 | undefined {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y) return undefined;
  return x.comparedTo(y) as -1 | 0 | 1;
}

/** XRP text with at most 6 decimals → drops; undefined for anything else. */
export const xrpToDrops = parseXrpDrops;

/** The sum of XRP balances, as XRP text. Values that aren't XRP amounts count as 0. */
export function sumXrp(values: string[]): string {
  return dropsToXrp(values.reduce((sum, v) => sum + (parseXrpDrops(v) ?? 0n), 0n));
}

/** balance − reserve, never below 0 (spec §5 Transfer: available = balance minus reserve). */
export function availableXrp(balance: string, reserve: string): string {
  const left = (parseXrpDrops(balance) ?? 0n) - (parseXrpDrops(reserve) ?? 0n);
  return dropsToXrp(left > 0n ? left : 0n);
}

/** Thousands separators on the whole part; the decimals stay exactly as they are. */
export function formatAmount(text: string): string {
  const d = parseDecimal(text);
  return d ? groupDigits(d) : text;
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
