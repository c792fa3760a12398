// The AMM as a synthetic order-book offer (rippled AMMLiquidity/AMMOffer, single-path, with
// fixAMMv1_1/v1_2/AMMOverflowOffer): when the book has a competing offer the AMM offer is sized
// so the pool's new spot price (or the AMM offer's own quality) equals that offer's quality;
// without a competing offer it is the largest swap the pool allows, later resized with the swap
// formulas to exactly what the step needs.
import { Num, withRound } from '../core/number';
import { getRate, qualityRate } from '../core/book/quality';
import { type Amt, isXrp, toAmt } from './amount';
import { feeMult, solveQuadraticEqSmallest, swapAssetIn, swapAssetOut, type Pool } from './math';

export interface AmmOffer {
  in: Amt;
  out: Amt;
  /** 64-bit quality the offer is ranked at (spot price for the max offer). */
  quality: bigint;
}

function quality(amounts: { in: Amt; out: Amt }): bigint {
  return getRate(amounts.out.value, amounts.in.value);
}

/** Quality (64-bit, lower is better) of the pool's spot price, ignoring the fee. */
export function spotQuality(pool: Pool): bigint {
  return quality(pool);
}

function reduceOffer(n: Num): Num {
  return withRound('towards_zero', () => n.mul(Num.of(9999, -4)));
}

function startWithTakerGets(pool: Pool, target: bigint, tfee: number): { in: Amt; out: Amt } | undefined {
  const rate = qualityRate(target);
  if (rate.isZero()) return undefined;
  const sized = withRound('to_nearest', () => {
    const f = feeMult(tfee);
    const I = pool.in.value;
    const O = pool.out.value;
    const b = I.mul(Num.one.sub(Num.one.div(f)))
      .div(rate)
      .sub(Num.of(2).mul(O));
    const c = O.mul(O).sub(I.mul(O).div(rate));
    let n = solveQuadraticEqSmallest(Num.one, b, c);
    if (!n || n.signum() <= 0) return undefined;
    const constraint = O.sub(I.div(rate.mul(f)));
    if (constraint.signum() <= 0) return undefined;
    if (constraint.lt(n)) n = constraint;
    return n;
  });
  if (!sized) return undefined;
  const amounts = (n: Num): { in: Amt; out: Amt } => {
    const out = toAmt(pool.out.issue, n, 'downward');
    return { in: swapAssetOut(pool, out, tfee), out };
  };
  const first = amounts(sized);
  if (quality(first) > target) return amounts(reduceOffer(first.out.value));
  return first;
}

function startWithTakerPays(pool: Pool, target: bigint, tfee: number): { in: Amt; out: Amt } | undefined {
  const rate = qualityRate(target);
  if (rate.isZero()) return undefined;
  const sized = withRound('to_nearest', () => {
    const f = feeMult(tfee);
    const I = pool.in.value;
    const O = pool.out.value;
    const b = I.mul(Num.one.add(f));
    const c = I.mul(I).sub(I.mul(O).mul(rate));
    let n = solveQuadraticEqSmallest(f, b, c);
    if (!n || n.signum() <= 0) return undefined;
    const constraint = O.mul(rate).sub(I.div(f));
    if (constraint.signum() <= 0) return undefined;
    if (constraint.lt(n)) n = constraint;
    return n;
  });
  if (!sized) return undefined;
  const amounts = (n: Num): { in: Amt; out: Amt } => {
    const pay = toAmt(pool.in.issue, n, 'downward');
    return { in: pay, out: swapAssetIn(pool, pay, tfee) };
  };
  const first = amounts(sized);
  if (quality(first) > target) return amounts(reduceOffer(first.in.value));
  return first;
}

/** rippled changeSpotPriceQuality (fixAMMv1_1): start from the XRP side, round it down. */
export function changeSpotPriceQuality(
  pool: Pool,
  target: bigint,
  tfee: number,
): { in: Amt; out: Amt } | undefined {
  const amounts = isXrp(pool.out.issue)
    ? startWithTakerGets(pool, target, tfee)
    : startWithTakerPays(pool, target, tfee);
  if (!amounts) return undefined;
  if (quality(amounts) > target) return undefined;
  return amounts;
}

/** The largest offer the pool can make: 99.999% of its output side (fixAMMOverflowOffer). */
export function maxOffer(pool: Pool, tfee: number): AmmOffer | undefined {
  const out = withRound('downward', () =>
    toAmt(pool.out.issue, pool.out.value.mul(Num.of(99999, -5)), 'downward'),
  );
  if (out.value.signum() <= 0 || out.value.ge(pool.out.value)) return undefined;
  return { in: swapAssetOut(pool, out, tfee), out, quality: spotQuality(pool) };
}

/**
 * The AMM's offer against a book whose best offer has quality `clobQuality` (undefined when the
 * book is empty). Undefined when the AMM cannot beat the book.
 */
export function ammOffer(pool: Pool, tfee: number, clobQuality: bigint | undefined): AmmOffer | undefined {
  if (pool.in.value.signum() <= 0 || pool.out.value.signum() <= 0) return undefined;
  const spot = spotQuality(pool);
  if (clobQuality !== undefined && spot >= clobQuality) return undefined;
  let offer: AmmOffer | undefined;
  if (clobQuality === undefined) {
    offer = maxOffer(pool, tfee);
  } else {
    const sized = changeSpotPriceQuality(pool, clobQuality, tfee);
    if (sized) {
      offer = { ...sized, quality: quality(sized) };
    } else {
      const max = maxOffer(pool, tfee);
      if (max && quality(max) < clobQuality) offer = max;
    }
  }
  if (!offer || offer.in.value.signum() <= 0 || offer.out.value.signum() <= 0) return undefined;
  return offer;
}

/** Resize an AMM offer to deliver `limit` out (single path: exact swap-out formula). */
export function ammLimitOut(pool: Pool, limit: Amt, tfee: number): { in: Amt; out: Amt } {
  return { in: swapAssetOut(pool, limit, tfee), out: limit };
}

/** Resize an AMM offer to take `limit` in (single path: exact swap-in formula). */
export function ammLimitIn(pool: Pool, limit: Amt, tfee: number): { in: Amt; out: Amt } {
  return { in: limit, out: swapAssetIn(pool, limit, tfee) };
}

/** rippled withinRelativeDistance: (max - min) / max < dist. */
function withinRelativeDistance(a: Num, b: Num, dist: Num): boolean {
  if (a.eq(b)) return true;
  const [min, max] = a.lt(b) ? [a, b] : [b, a];
  return max.sub(min).div(max).lt(dist);
}

/** Tolerance on a quality-limited AMM swap's average quality (rippled StrandFlow: 1e-7). */
const LIMIT_QUALITY_SLACK = Num.of(1, -7);

/**
 * The largest AMM offer whose average quality is still `target` (offer crossing or tfLimitQuality
 * on a single book; rippled StrandFlow limitOut). rippled writes the pool's average quality
 * (out/in) as a line in the output, q(out) = m * out + b with m = -f/I and b = O * f / I
 * (QualityFunction, AMMTag), and solves q(out) = 1/rate rounding upward (outFromAvgQ). XRP output
 * becomes drops to nearest (XRPAmount from Number); the input is the swap-out formula for that
 * output. Round-off may leave the average a hair worse than `target`: rippled accepts it within a
 * relative 1e-7, and so does this (the offer then ranks at `target`). Never more than the pool's
 * largest offer (99.999% of its output).
 */
export function ammOfferAtQuality(pool: Pool, target: bigint, tfee: number): AmmOffer | undefined {
  const rate = qualityRate(target);
  if (rate.isZero() || pool.in.value.signum() <= 0 || pool.out.value.signum() <= 0) return undefined;
  const { m, b } = withRound('to_nearest', () => {
    const f = feeMult(tfee);
    return { m: f.neg().div(pool.in.value), b: pool.out.value.mul(f).div(pool.in.value) };
  });
  const o = withRound('upward', () => Num.one.div(rate).sub(b).div(m));
  if (o.signum() <= 0) return undefined;
  let out = isXrp(pool.out.issue)
    ? toAmt(pool.out.issue, o, 'to_nearest')
    : toAmt(pool.out.issue, o, 'towards_zero');
  const max = maxOffer(pool, tfee);
  if (!max) return undefined;
  if (out.value.gt(max.out.value)) out = max.out;
  if (out.value.signum() <= 0) return undefined;
  const amounts = { in: swapAssetOut(pool, out, tfee), out };
  if (amounts.in.value.signum() <= 0) return undefined;
  const q = quality(amounts);
  if (q <= target) return { ...amounts, quality: q };
  return withinRelativeDistance(qualityRate(q), rate, LIMIT_QUALITY_SLACK)
    ? { ...amounts, quality: target }
    : undefined;
}
