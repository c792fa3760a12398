// Offer quality as rippled encodes it (Quality.h / getRate): the rate in/out ("what the taker pays
// per unit received") as an STAmount-style 16-digit mantissa in the low 56 bits and exponent+100
// in the high 8 bits. A numerically lower rate is a better quality, and book directories sort by
// this 64-bit value, so the first directory page of a book holds the best offers.
import { Num, withRound, type RoundingMode } from '../number';
import { type Amt, type Issue, isXrp, toAmt } from '../../amm/amount';
import { stDivide } from '../../amm/st-math';

const MANTISSA_MASK = (1n << 56n) - 1n;

/** rippled getRate(offerOut, offerIn): 0 when the offer is empty. */
export function getRate(offerOut: Num, offerIn: Num): bigint {
  if (offerOut.isZero()) return 0n;
  const r = stDivide(offerIn, offerOut);
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

function mulRound(a: Num, b: Num, issue: Issue, mode: RoundingMode): Amt {
  return withRound(mode, () => toAmt(issue, a.mul(b), mode));
}

function divRound(a: Num, b: Num, issue: Issue, mode: RoundingMode): Amt {
  return withRound(mode, () => toAmt(issue, a.div(b), mode));
}

/**
 * Limit an offer to deliver at most `limit` out, at its own quality: the taker pays
 * limit * rate rounded up (never more than the offer asks), like rippled's Quality::ceil_out.
 */
export function ceilOut(offer: Flow, limit: Amt, quality: bigint): Flow {
  if (offer.out.value.le(limit.value)) return offer;
  let pay = mulRound(limit.value, qualityRate(quality), offer.in.issue, 'upward');
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
  const rate = qualityRate(first).mul(qualityRate(second));
  if (rate.isZero()) return 0n;
  return (BigInt(rate.exponent + 100) << 56n) | (rate.mantissa < 0n ? -rate.mantissa : rate.mantissa);
}

export function isXrpIssue(i: Issue): boolean {
  return isXrp(i);
}
