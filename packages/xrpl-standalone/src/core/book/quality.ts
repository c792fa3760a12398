// Offer quality as rippled encodes it (Quality.h / getRate): the rate in/out ("what the taker pays
// per unit received") as an STAmount-style 16-digit mantissa in the low 56 bits and exponent+100
// in the high 8 bits. A numerically lower rate is a better quality, and book directories sort by
// this 64-bit value, so the first directory page of a book holds the best offers.
import { Num, toIouPrecision, withRound, type RoundingMode } from '../number';
import { type Amt, type Issue, isXrp, toAmt } from '../../amm/amount';
import { stDivide } from '../../amm/st-math';

const MANTISSA_MASK = (1n << 56n) - 1n;

/** rippled getRate(offerOut, offerIn): 0 when the offer is empty. */
export function getRate(offerOut: Num, offerIn: Num): bigint {
  if (offerOut.isZero()) return 0n;
  const r = toIouPrecision(stDivide(offerIn, offerOut));
  if (r.isZero()) return 0n;
  return (BigInt(r.exponent + 100) << 56n) | r.mantissa;
}

/** The rate (in per out) a 64-bit quality stands for. */
export function qualityRate(quality: bigint): Num {
  const m = quality & MANTISSA_MASK;
  const e = Number(quality >> 56n) - 100;
  return Num.fromNormalized(m, e);
}

/** Offer amounts from the taker's side: `in` is what the taker pays, `out` what it receives. */
export interface Flow {
  in: Amt;
  out: Amt;
}

export function flowQuality(f: Flow): bigint {
  return getRate(f.out.value, f.in.value);
}

/** true when quality `a` is at least as good as `b` (lower or equal rate). */
export function qualityAtLeast(a: bigint, b: bigint): boolean {
  return a <= b;
}

const C_MIN = 10n ** 15n;
const C_MAX = 10n ** 16n - 1n;

function scaled(n0: Num): [bigint, number] {
  const n = toIouPrecision(n0);
  let m = n.mantissa < 0n ? -n.mantissa : n.mantissa;
  let e = n.exponent;
  while (m !== 0n && m < C_MIN) {
    m *= 10n;
    e--;
  }
  return [m, e];
}

/**
 * rippled's mulRoundStrict for positive values: the mantissas' product over 10^14, rounded up
 * (or truncated), then narrowed like canonicalizeRoundStrict: tokens keep only the 17th digit
 * for the final round-up, XRP tracks every dropped digit.
 */
export function mulRoundStrict(a: Num, b: Num, issue: Issue, roundUp: boolean): Amt {
  if (a.isZero() || b.isZero()) return toAmt(issue, Num.zero);
  const [m1, e1] = scaled(a);
  const [m2, e2] = scaled(b);
  const ten14 = 10n ** 14n;
  let amount = (m1 * m2 + (roundUp ? ten14 - 1n : 0n)) / ten14;
  let offset = e1 + e2 + 14;
  if (roundUp) {
    if (isXrp(issue)) {
      if (offset < 0) {
        let remainder = false;
        while (offset < -1) {
          const next = amount / 10n;
          if (next * 10n !== amount) remainder = true;
          amount = next;
          offset++;
        }
        amount = (amount + (remainder ? 10n : 9n)) / 10n;
        offset++;
      }
    } else if (amount > C_MAX) {
      while (amount > 10n * C_MAX) {
        amount /= 10n;
        offset++;
      }
      amount = (amount + 9n) / 10n;
      offset++;
    }
  }
  const result = withRound('towards_zero', () => toAmt(issue, Num.of(amount, offset), 'towards_zero'));
  if (roundUp && result.value.isZero()) {
    return isXrp(issue) ? toAmt(issue, Num.of(1)) : { issue, value: new Num(C_MIN, -96) };
  }
  return result;
}

function divRound(a: Num, b: Num, issue: Issue, mode: RoundingMode): Amt {
  return withRound(mode, () => toAmt(issue, a.div(b), mode));
}

/**
 * Limit an offer to deliver at most `limit` out, at its own quality: the taker pays
 * limit * rate rounded up (never more than the offer asks), like rippled's Quality::ceil_out.
 */
export function ceilOut(offer: Flow, limit: Amt, quality: bigint, roundUp = true): Flow {
  if (offer.out.value.le(limit.value)) return offer;
  let pay = mulRoundStrict(limit.value, qualityRate(quality), offer.in.issue, roundUp);
  if (pay.value.gt(offer.in.value)) pay = offer.in;
  return { in: pay, out: limit };
}

/**
 * Limit an offer to take at most `limit` in: the taker receives limit / rate rounded down
 * (never more than the offer gives), like rippled's Quality::ceil_in.
 */
export function ceilIn(offer: Flow, limit: Amt, quality: bigint): Flow {
  if (offer.in.value.le(limit.value)) return offer;
  let get = divRound(limit.value, qualityRate(quality), offer.out.issue, 'downward');
  if (get.value.gt(offer.out.value)) get = offer.out;
  return { in: limit, out: get };
}

/** Quality of a composed two-step flow (XRP bridge): rates multiply. */
export function composeQuality(first: bigint, second: bigint): bigint {
  const rate = toIouPrecision(qualityRate(first).mul(qualityRate(second)));
  if (rate.isZero()) return 0n;
  return (BigInt(rate.exponent + 100) << 56n) | (rate.mantissa < 0n ? -rate.mantissa : rate.mantissa);
}

export function isXrpIssue(i: Issue): boolean {
  return isXrp(i);
}
