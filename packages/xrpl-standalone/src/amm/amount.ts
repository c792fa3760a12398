// The amount shape the AMM math works on: an issue plus a rippled Number. For XRP the number is a
// whole count of drops; for tokens (IOU) it is the STAmount value itself, whose 16-digit
// mantissa/exponent form is exactly a normalized Number. Conversions round the way rippled's
// toSTAmount/toAmount do, so results match rippled's ledger amounts digit for digit.
import { Num, getRound, toIouPrecision, withRound, type RoundingMode } from '../core/number';

export interface Issue {
  /** 'XRP', a 3-letter code or 40 hex digits. */
  currency: string;
  /** Issuer classic address; '' for XRP. */
  issuer: string;
}

export interface Amt {
  issue: Issue;
  value: Num;
}

export const XRP_ISSUE: Issue = Object.freeze({ currency: 'XRP', issuer: '' });

const IOU_MIN_EXPONENT = -96;
const IOU_MAX_EXPONENT = 80;

export function isXrp(issue: Issue): boolean {
  return issue.currency === 'XRP';
}

export function sameIssue(a: Issue, b: Issue): boolean {
  return a.currency === b.currency && a.issuer === b.issuer;
}

/**
 * rippled's toSTAmount/toAmount: XRP is rounded to whole drops with `mode`; an IOU keeps a 16-digit
 * Number as is and rounds a 19-digit (large-range) one to 16 digits with `mode`.
 */
export function toAmt(issue: Issue, n: Num, mode: RoundingMode = getRound()): Amt {
  if (isXrp(issue)) {
    const drops = withRound(mode, () => n.toBigInt());
    return { issue, value: Num.of(drops) };
  }
  n = withRound(mode, () => toIouPrecision(n));
  if (!n.isZero() && n.exponent < IOU_MIN_EXPONENT) return { issue, value: Num.zero };
  if (n.exponent > IOU_MAX_EXPONENT) throw new RangeError('IOU amount overflow');
  return { issue, value: n };
}

export function amt(issue: Issue, value: Num | string | bigint | number): Amt {
  const n = value instanceof Num ? value : typeof value === 'string' ? Num.parse(value) : Num.from(value);
  return toAmt(issue, n);
}

export function xrpDrops(drops: bigint | number): Amt {
  return { issue: XRP_ISSUE, value: Num.of(BigInt(drops)) };
}

/** STAmount addition: exact for XRP drops, Number addition (current mode) for IOU. */
export function addAmt(a: Amt, b: Amt): Amt {
  if (isXrp(a.issue)) return xrpDrops(a.value.toBigInt() + b.value.toBigInt());
  return toAmt(a.issue, a.value.add(b.value));
}

export function subAmt(a: Amt, b: Amt): Amt {
  if (isXrp(a.issue)) return xrpDrops(a.value.toBigInt() - b.value.toBigInt());
  return toAmt(a.issue, a.value.sub(b.value));
}

export function minAmt(a: Amt, b: Amt): Amt {
  return a.value.le(b.value) ? a : b;
}

export function zeroAmt(issue: Issue): Amt {
  return { issue, value: Num.zero };
}

/** The largest amount of an issue (rippled's toMaxAmount). */
export function maxAmt(issue: Issue): Amt {
  if (isXrp(issue)) return xrpDrops(100_000_000_000_000_000n);
  return { issue, value: new Num(9_999_999_999_999_999n, IOU_MAX_EXPONENT) };
}

/** The amount's value as rippled JSON text (drops for XRP). */
export function amtText(a: Amt): string {
  return isXrp(a.issue) ? a.value.toBigInt().toString() : a.value.toString();
}
