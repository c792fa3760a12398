import { Decimal, microsToUnits, unitsToMicros, type DecimalValue } from './money';
import type { z } from 'zod';
import type { bondingConfigViewSchema, publicBondingSchema } from './schemas/public-api';

// The bonding curve of a curve launch (docs/bonding-curve.md), pure and exact: pump.fun's constant
// product over virtual reserves, x·y = k with y the virtual token reserve (1,073,000,000 at launch)
// and x the virtual quote reserve (XRP or RLUSD, configurable). 793,100,000 of the 1,000,000,000
// tokens are sold on the curve; the other 206,900,000 go into the AMM pool at graduation.
//
// Quote amounts are integers of millionths of the quote asset ("micros": drops for XRP). The curve
// is cut into equal steps of S tokens; the quote the curve holds after j whole steps is
// X(j) = ceil(k / (y0 − j·S)) − x0, so a step costs D(j) = X(j+1) − X(j) and any run of whole steps
// costs exactly the curve's integral over it (rounded up to the micro at its two ends). Inside a
// step the price is the step's average. The ledger carries the curve as offers ("chunks"): one per
// step near the current point, aligned blocks of 2^m steps further away, each priced at its exact
// value plus the trading fee.

type Value = DecimalValue;

export const BONDING_TOTAL_SUPPLY = 1_000_000_000n;
export const BONDING_CURVE_SUPPLY = 793_100_000n;
const BONDING_VIRTUAL_TOKENS = 1_073_000_000n;
/** Tokens kept for the AMM pool at graduation. */
export const BONDING_POOL_RESERVE = BONDING_TOTAL_SUPPLY - BONDING_CURVE_SUPPLY;
/** The curve counts as sold out within this many tokens of its end (the ledger keeps 16 digits). */
const BONDING_SOLD_OUT_TOLERANCE = '0.0001';

export const LAUNCH_TYPES = ['amm', 'bonding'] as const;
export type LaunchType = (typeof LAUNCH_TYPES)[number];

export interface BondingParams {
  /** The virtual quote reserve x0 in micros (drops for XRP). */
  virtualQuote: bigint;
  /** Equal steps the curve's 793,100,000 tokens are cut into (a divisor of it). */
  steps: number;
  /** Steps on each side of the current point posted as one offer each. */
  fineSteps: number;
  /**
   * The virtual token reserve y0 (whole tokens). Absent: a curve launch's 1,073,000,000. An instant
   * launch's anti-sniper window (its pre-pool ladder, docs/launch-protection.md) uses the future
   * pool's tokens B, with x0 its XRP A — both real there.
   */
  virtualTokens?: bigint;
  /** Tokens sold on the curve before it graduates (a multiple of `steps`). Absent: 793,100,000. */
  curveSupply?: bigint;
  /** Tokens the curve account held before any sale (sold = this − held). Absent: 1,000,000,000. */
  startHeld?: Value;
}

const virtualTokensOf = (p: BondingParams): bigint => p.virtualTokens ?? BONDING_VIRTUAL_TOKENS;
/** The curve's sellable supply (its end: sold out there). */
export const curveSupplyOf = (p: BondingParams): bigint => p.curveSupply ?? BONDING_CURVE_SUPPLY;

export function isValidStepCount(steps: number, curveSupply: bigint = BONDING_CURVE_SUPPLY): boolean {
  return Number.isInteger(steps) && steps >= 10 && steps <= 10_000 && curveSupply % BigInt(steps) === 0n;
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

export function stepTokens(p: BondingParams): bigint {
  const supply = curveSupplyOf(p);
  if (!isValidStepCount(p.steps, supply)) throw new Error(`invalid step count ${p.steps}`);
  return supply / BigInt(p.steps);
}

const curveK = (p: BondingParams): bigint => p.virtualQuote * virtualTokensOf(p);

/** X(j): micros the curve holds after j whole steps sold (0 ≤ j ≤ steps). */
export function boundaryValue(p: BondingParams, j: number): bigint {
  const y = virtualTokensOf(p) - BigInt(j) * stepTokens(p);
  return ceilDiv(curveK(p), y) - p.virtualQuote;
}

/** D(j): micros step j costs (ex fee). */
export const stepValue = (p: BondingParams, j: number): bigint =>
  boundaryValue(p, j + 1) - boundaryValue(p, j);

/** What the curve has raised when its graduation comes: X(steps). */
export const graduationTarget = (p: BondingParams): bigint => boundaryValue(p, p.steps);

/**
 * Tokens sold on the curve, from the curve account's token balance (a curve launch's whole supply
 * started there; a window launch's pool tokens B: `p.startHeld`).
 */
export function soldFromHeld(held: Value, p?: BondingParams): Decimal {
  const s = new Decimal((p?.startHeld ?? BONDING_TOTAL_SUPPLY).toString()).minus(held);
  return Decimal.min(Decimal.max(s, 0), curveSupplyOf(p ?? DEFAULT_SHAPE).toString());
}

export function isSoldOut(sold: Value, p?: BondingParams): boolean {
  return new Decimal(curveSupplyOf(p ?? DEFAULT_SHAPE).toString())
    .minus(sold)
    .lte(BONDING_SOLD_OUT_TOLERANCE);
}

/** The curve launch's shape (only its supplies are read): what `soldFromHeld` and `isSoldOut` assume without params. */
const DEFAULT_SHAPE: BondingParams = { virtualQuote: 0n, steps: 0, fineSteps: 0 };

function clampSold(s: Value, p: BondingParams): Decimal {
  return Decimal.min(Decimal.max(new Decimal(s), 0), curveSupplyOf(p).toString());
}

/** The step that the token at position s belongs to (the last step at the end of the curve). */
function stepIndex(p: BondingParams, s: Decimal): number {
  const S = stepTokens(p);
  return Math.min(p.steps - 1, s.div(S.toString()).floor().toNumber());
}

/**
 * W(s): micros the curve holds with s tokens sold — X(j) at a step boundary, the step's value spread
 * evenly inside it (rounded down), so W over any partition of a step adds up to D(j) exactly.
 */
export function curveValueAt(p: BondingParams, sold: Value): bigint {
  const s = clampSold(sold, p);
  const S = stepTokens(p);
  const j = stepIndex(p, s);
  const u = s.minus((BigInt(j) * S).toString());
  const inside = new Decimal(stepValue(p, j).toString()).mul(u).div(S.toString()).floor();
  return boundaryValue(p, j) + BigInt(inside.toFixed(0));
}

/** The price of the next token (ex fee), micros per token: the average of the step it is in. */
export function stepPrice(p: BondingParams, sold: Value): Decimal {
  const j = stepIndex(p, clampSold(sold, p));
  return new Decimal(stepValue(p, j).toString()).div(stepTokens(p).toString());
}

/** The curve's marginal price where it ends, k / y_end², micros per token: the AMM opens at it. */
export function endPrice(p: BondingParams): Decimal {
  const yEnd = (virtualTokensOf(p) - curveSupplyOf(p)).toString();
  return new Decimal(curveK(p).toString()).div(new Decimal(yEnd).pow(2));
}

/** The curve's marginal price at s, k / (y0 − s)², micros per token. */
export function marginalPrice(p: BondingParams, sold: Value): Decimal {
  const y = new Decimal(virtualTokensOf(p).toString()).minus(clampSold(sold, p));
  return new Decimal(curveK(p).toString()).div(y.pow(2));
}

/** The trading fee in parts per million of a percent figure ('0.75' → 7500). */
export function feePercentToPpm(percent: Value): bigint {
  return BigInt(new Decimal(percent).mul(10_000).floor().toFixed(0));
}

/** The fee on a chunk's value: rounded down, so it never exceeds the rate. */
export const feeOn = (value: bigint, feePpm: bigint): bigint => (value * feePpm) / 1_000_000n;

/**
 * The fee inside q micros of a curve offer's quote. A sell offer asks value + ⌊value·f⌋, strictly
 * increasing in the value, so the value inside q is the largest V with V + ⌊V·f⌋ ≤ q and a chunk
 * crossed whole gives back exactly the fee it was priced with. A buy offer pays value − ⌊value·f⌋,
 * which two neighbouring values can share where the floor steps: the larger is taken (the fee may
 * then read one micro more than priced — it stays in the curve's favour). The follower records each
 * crossing's fee with it; the swap screen's quote shows it on its own line.
 */
export function curveFeeInside(side: 'sell' | 'buy', q: bigint, feePpm: bigint): bigint {
  const M = 1_000_000n;
  const fee = (v: bigint) => (v * feePpm) / M;
  if (side === 'sell') {
    let v = (q * M) / (M + feePpm);
    while (v + 1n + fee(v + 1n) <= q) v++;
    while (v > 0n && v + fee(v) > q) v--;
    return q - v;
  }
  let v = (q * M) / (M - feePpm);
  while (v + 1n - fee(v + 1n) <= q) v++;
  while (v > 0n && v - fee(v) > q) v--;
  return v - q;
}

export interface LadderChunk {
  /** sell: the curve sells tokens [lo, hi) (traders buy); buy: it buys them back. */
  side: 'sell' | 'buy';
  lo: string;
  hi: string;
  /** hi − lo. */
  tokens: string;
  /** The curve's value of [lo, hi), micros. */
  value: bigint;
  /** What the offer asks (sell: value + fee) or pays (buy: value − fee), micros. */
  quote: bigint;
}

/** Aligned blocks covering whole steps [from, to): each 2^m steps long and starting at a multiple of 2^m. */
function blocksUp(from: number, to: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let at = from;
  while (at < to) {
    let size = at === 0 ? 1 << 30 : at & -at;
    while (size > to - at) size >>= 1;
    out.push([at, at + size]);
    at += size;
  }
  return out;
}

/** The same blocks taken from the top down: [q − 2^m, q) with q a multiple of 2^m. */
function blocksDown(to: number, from = 0): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let at = to;
  while (at > from) {
    let size = at & -at;
    while (size > at - from) size >>= 1;
    out.push([at - size, at]);
    at -= size;
  }
  return out;
}

/**
 * The ladder the curve account should have on the ledger with `sold` tokens sold: sell chunks from
 * the current point to the end of the curve (the current step's remainder and the next fineSteps−1
 * steps one offer each, then aligned blocks), buy chunks from the current point down to zero
 * (mirrored). `sellCap` limits the tokens offered for sale (anti-snipe), cutting the ladder there.
 */
export function desiredLadder(
  p: BondingParams,
  sold: Value,
  feePpm: bigint,
  opts: { sellCap?: Value; surchargePpm?: bigint } = {},
): LadderChunk[] {
  const surcharge = opts.surchargePpm ?? 0n;
  const s = clampSold(sold, p);
  const S = stepTokens(p);
  const N = p.steps;
  const F = Math.max(1, p.fineSteps);
  const pos = (step: number) => new Decimal((BigInt(step) * S).toString());
  const chunk = (side: 'sell' | 'buy', lo: Decimal, hi: Decimal): LadderChunk => {
    const value = curveValueAt(p, hi) - curveValueAt(p, lo);
    // The anti-sniper surcharge (sell side only) raises the value the fee is charged on:
    // V' = V + ⌊V·r⌋, asked V' + ⌊V'·f⌋ — so `curveFeeInside` reads back exactly ⌊V'·f⌋.
    const priced = side === 'sell' ? value + feeOn(value, surcharge) : value;
    const fee = feeOn(priced, feePpm);
    return {
      side,
      lo: lo.toFixed(),
      hi: hi.toFixed(),
      tokens: hi.minus(lo).toFixed(),
      value,
      quote: side === 'sell' ? priced + fee : value - fee,
    };
  };
  const out: LadderChunk[] = [];
  const end = pos(N);
  const j = s.gte(end) ? N : s.div(S.toString()).floor().toNumber();
  const atBoundary = s.eq(pos(j));

  // Sell side.
  const sells: LadderChunk[] = [];
  if (j < N) {
    sells.push(chunk('sell', s, pos(j + 1)));
    const fineEnd = Math.min(N, j + F);
    for (let k = j + 1; k < fineEnd; k++) sells.push(chunk('sell', pos(k), pos(k + 1)));
    for (const [a, b] of blocksUp(fineEnd, N)) sells.push(chunk('sell', pos(a), pos(b)));
  }
  if (opts.sellCap !== undefined) {
    const limit = s.plus(opts.sellCap);
    for (const c of sells) {
      if (new Decimal(c.hi).lte(limit)) out.push(c);
      else {
        if (new Decimal(c.lo).lt(limit)) out.push(chunk('sell', new Decimal(c.lo), limit));
        break;
      }
    }
  } else out.push(...sells);

  // Buy side: the sold part of the current step, then whole steps down (fineSteps chunks in all),
  // then aligned blocks down to zero.
  if (!atBoundary && j < N) out.push(chunk('buy', pos(j), s));
  const fineLow = Math.max(0, j - (atBoundary ? F : F - 1));
  for (let k = j - 1; k >= fineLow; k--) out.push(chunk('buy', pos(k), pos(k + 1)));
  for (const [a, b] of blocksDown(fineLow)) out.push(chunk('buy', pos(a), pos(b)));
  return out.filter((c) => new Decimal(c.tokens).gt(0) && c.quote > 0n);
}

/**
 * The anti-sniper window of a curve launch (issue 37, docs/launch-protection.md): for `windowSeconds`
 * of ledger time after the launch ledger closed, the curve's sell offers carry a surcharge that
 * starts at `startPpm` and steps down linearly in ANTI_SNIPER_STEPS equal steps (12 s each in a
 * 2-minute window) to 0 at the window's end. `elapsedSeconds` is the close time of the last
 * validated ledger less the launch ledger's: the keeper prices the next ledger's offers with it.
 */
export const ANTI_SNIPER_STEPS = 10;

export interface AntiSniperParams {
  /** The surcharge at the window's start, parts per million of the curve's value (250000 = 25%). */
  startPpm: number;
  windowSeconds: number;
}

export function antiSniperRatePpm(a: AntiSniperParams, elapsedSeconds: number): bigint {
  if (a.startPpm <= 0 || a.windowSeconds <= 0 || elapsedSeconds >= a.windowSeconds) return 0n;
  const step = Math.max(0, Math.floor((elapsedSeconds * ANTI_SNIPER_STEPS) / a.windowSeconds));
  return (BigInt(a.startPpm) * BigInt(ANTI_SNIPER_STEPS - step)) / BigInt(ANTI_SNIPER_STEPS);
}

/** The most offers a ladder can ever need (over every whole-step position and the one after it). */
export function maxLadderOffers(p: BondingParams): number {
  const S = stepTokens(p);
  let most = 0;
  for (let j = 0; j <= p.steps; j++) {
    for (const s of [BigInt(j) * S, BigInt(j) * S + S / 2n]) {
      if (s > curveSupplyOf(p)) continue;
      most = Math.max(most, desiredLadder(p, s.toString(), 0n).length);
    }
  }
  return most;
}

/**
 * An instant launch's anti-sniper window (issue 37, docs/launch-protection.md "Anti-sniper window on
 * instant-AMM launches"): before its pool opens, the token is sold only by a ladder priced along the
 * future pool's own constant product — x0 = the pool's XRP A (real, not virtual: it goes into the
 * pool), y0 = the pool's tokens B — with the window's surcharge on top. The ladder sells at most half
 * of B (`WINDOW_CURVE_DIVISOR`), rounded down to a multiple of the steps: sold out there, it has
 * raised exactly A (k / (B/2) − A) and the price is 4× the opening one, and the pool opens early
 * with 2A and B/2. Half rather than all of B: the pool must keep tokens to trade against.
 */
export const WINDOW_CURVE_DIVISOR = 2n;

export function windowCurveParams(a: {
  /** The pool's XRP A, drops. */
  poolDrops: bigint;
  /** The pool's tokens B (what the curve account receives). */
  poolTokens: Value;
  steps: number;
  fineSteps: number;
}): BondingParams | null {
  const y0 = BigInt(new Decimal(a.poolTokens).floor().toFixed(0));
  const steps = BigInt(a.steps);
  const curveSupply = (y0 / WINDOW_CURVE_DIVISOR / steps) * steps;
  if (a.poolDrops <= 0n || curveSupply <= 0n || !isValidStepCount(a.steps, curveSupply)) return null;
  return {
    virtualQuote: a.poolDrops,
    steps: a.steps,
    fineSteps: a.fineSteps,
    virtualTokens: y0,
    curveSupply,
    startHeld: new Decimal(a.poolTokens).toFixed(),
  };
}

/**
 * The tokens `micros` buy on the curve from `sold`, at its plain (unsurcharged, fee-less) price: the
 * largest s' − sold, s' with `decimals` places, whose value W(s') − W(sold) ≤ micros. The creator's
 * first buy on a window launch (its fee is charged on top, `platformFeeDrops`). The curve keeps the
 * micro or so of rounding. Undefined when it would reach past the curve's end.
 */
export function curveTokensFor(
  p: BondingParams,
  sold: Value,
  micros: bigint,
  decimals: number,
): Decimal | undefined {
  const target = curveValueAt(p, sold) + micros;
  if (target >= graduationTarget(p)) return undefined;
  let lo = 0;
  let hi = p.steps; // X(lo) ≤ target < X(hi)
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (boundaryValue(p, mid) <= target) lo = mid;
    else hi = mid;
  }
  const S = stepTokens(p);
  const inside = new Decimal((target - boundaryValue(p, lo)).toString())
    .mul(S.toString())
    .div(stepValue(p, lo).toString());
  const end = new Decimal((BigInt(lo) * S).toString())
    .plus(inside)
    .toDecimalPlaces(decimals, Decimal.ROUND_DOWN);
  return Decimal.max(0, end.minus(sold));
}

/**
 * Decimal places a token amount sold from `startHeld` may carry so that both it and the balance left
 * are exact in the ledger's 16 significant digits (15 in all, as the supply's own limit).
 */
export function curveTokenDecimals(startHeld: Value): number {
  const whole = new Decimal(startHeld).floor().toFixed(0).length;
  return Math.max(0, 15 - whole);
}

/** The curve's progress: tokens sold, share of the curve, quote raised and the graduation target. */
interface BondingProgress {
  sold: string;
  curveSupply: string;
  /** Percent of the curve sold, 2 decimals (rounded down). */
  percent: string;
  /** Micros raised so far (W(sold)) and at graduation (X(steps)). */
  raised: bigint;
  target: bigint;
}

export function bondingProgress(p: BondingParams, sold: Value): BondingProgress {
  const s = clampSold(sold, p);
  return {
    sold: s.toFixed(),
    curveSupply: curveSupplyOf(p).toString(),
    percent: s.mul(100).div(curveSupplyOf(p).toString()).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(2),
    raised: curveValueAt(p, s),
    target: graduationTarget(p),
  };
}

/** Micros as a decimal string of the quote asset (6 decimals at most, no trailing zeros). */
export const microsToDecimal = (micros: bigint): string => microsToUnits(micros).toFixed();

/** XRP the curve account is funded with when it launches, drops (refunded at graduation, less what stays locked). */
function curveDepositDrops(
  p: BondingParams,
  reserves: { base: bigint; owner: bigint },
  rlusdPair: boolean,
): bigint {
  // Owner reserves: every offer the ladder can need and two in transit, the token line (and the
  // RLUSD line), the LP-token line after graduation, and one burned by AMMCreate as its fee.
  const objects = BigInt(maxLadderOffers(p) + 2 + 1 + (rlusdPair ? 1 : 0) + 1 + 1);
  return reserves.base + reserves.owner * objects + CURVE_FEE_ALLOWANCE_DROPS;
}

/** Network fees the curve account may burn over its life (~40,000 transactions at 12 drops). */
const CURVE_FEE_ALLOWANCE_DROPS = 500_000n;

/** The curve settings as the deploy preview shows them (GET /api/config/fees → bonding). */
export type BondingConfigView = z.infer<typeof bondingConfigViewSchema>;

export function bondingConfigView(
  settings: {
    bonding_virtual_xrp: string;
    bonding_virtual_rlusd: string;
    bonding_steps: string;
    bonding_fine_steps: string;
    bonding_snipe_ledgers: string;
    bonding_snipe_tokens: string;
    anti_sniper_start_percent: string;
    anti_sniper_window_seconds: string;
  },
  reserves: { base: bigint; owner: bigint },
): BondingConfigView {
  const micros = (v: string) => unitsToMicros(v);
  const steps = Number(settings.bonding_steps);
  const fine = Number(settings.bonding_fine_steps);
  const px = { virtualQuote: micros(settings.bonding_virtual_xrp), steps, fineSteps: fine };
  const pr = { virtualQuote: micros(settings.bonding_virtual_rlusd), steps, fineSteps: fine };
  const price = (q: BondingParams) => microsToUnits(stepPrice(q, 0)).toSignificantDigits(10).toFixed();
  return {
    steps,
    fine_steps: fine,
    virtual_xrp: settings.bonding_virtual_xrp,
    virtual_rlusd: settings.bonding_virtual_rlusd,
    graduation_xrp: microsToDecimal(graduationTarget(px)),
    graduation_rlusd: microsToDecimal(graduationTarget(pr)),
    start_price_xrp: price(px),
    start_price_rlusd: price(pr),
    deposit_xrp: microsToDecimal(curveDepositDrops(px, reserves, false)),
    deposit_xrp_rlusd_pair: microsToDecimal(curveDepositDrops(px, reserves, true)),
    snipe_ledgers: Number(settings.bonding_snipe_ledgers),
    snipe_tokens: settings.bonding_snipe_tokens,
    anti_sniper_start_percent: settings.anti_sniper_start_percent,
    anti_sniper_window_seconds: Number(settings.anti_sniper_window_seconds),
  };
}

/** GET /api/bonding/{issuer}: a curve's state and progress, typed from its response schema (issue 41). */
export type BondingView = z.infer<typeof publicBondingSchema>;

/**
 * What a buy that meets the anti-snipe cap is told (the keeper sells no more per ledger in the
 * window): 'Launch protection: at most 10,000,000 tokens per ledger for the first 5 ledgers'.
 */
export function launchProtectionMessage(tokens: string, ledgers: number): string {
  const [whole, frac] = tokens.split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${LAUNCH_PROTECTION_PREFIX} at most ${grouped}${frac ? `.${frac}` : ''} tokens per ledger for the first ${ledgers} ledgers`;
}

const LAUNCH_PROTECTION_PREFIX = 'Launch protection:';
