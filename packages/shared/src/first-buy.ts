import { Decimal, decimalToDrops, platformFeeDrops, xrpToDrops, type DecimalValue } from './money';
import { curveTokenDecimals, curveTokensFor, windowCurveParams } from './bonding';

// The creator's first buy at deploy (issue 37, docs/launch-protection.md): bought from the new pool
// in the pool's own all-or-nothing Batch. The web preview and the deploy service both work it out
// here, so the figures the creator sees are the ones the server signs.

/**
 * The network fees of the first buy, paid by the hot wallet that signs the pool's Batch (twice the
 * base fee for the Batch, one for the buy, one for the platform fee's payment: 40 drops at the
 * 10-drop base fee), with room for a base fee up to 250 drops. What is left stays in the hot wallet.
 */
export const FIRST_BUY_NETWORK_XRP = '0.001';

/** A first buy's XRP: at most 6 decimals (drops), as the liquidity amount. */
export const FIRST_BUY_XRP = /^\d+(\.\d{1,6})?$/;

/**
 * XLS-30's swap of `amountIn` into a pool (rippled AMMHelpers `swapAssetIn`):
 *   out = B − (A × B) / (A + a × (1 − f)),  f = tradingFee / 100,000,
 * with A, B the pool's balances of the asset paid in and the asset taken out, worked out step by
 * step as the ledger does: rippled's `Number` keeps 16 significant digits and rounds each step in
 * the pool's favour (fixAMMv1_1: A × B and the ratio up, the denominator and the result down).
 * The steps matter, not only the formula: B − ratio cancels most of the digits of two numbers near
 * B, so for a large pool the ledger's result is exact only to B's 16th digit (2,500 XRP and 490M
 * tokens, 10 XRP in: the ledger gives 1951219.0263327, the exact formula 1951219.02633272 — a
 * DeliverMin of the latter fails the buy, and with it the pool's all-or-nothing Batch). The result
 * is rounded down to 15 significant digits, what an issued amount's text holds.
 */
export function ammSwapOut(
  poolIn: DecimalValue,
  poolOut: DecimalValue,
  amountIn: DecimalValue,
  tradingFee: number,
): Decimal {
  const a = new Exact(amountIn);
  if (a.lte(0) || tradingFee >= 100_000) return new Decimal(0);
  const poolA = new Exact(poolIn);
  const poolB = new Exact(poolOut);
  const numerator = numberStep(poolA.mul(poolB), 'up');
  const fee = numberStep(new Exact(tradingFee).div(100_000), 'up');
  const keep = numberStep(new Exact(1).minus(fee), 'down');
  const denom = numberStep(poolA.plus(numberStep(a.mul(keep), 'down')), 'down');
  const ratio = numberStep(numerator.div(denom), 'up');
  const out = numberStep(poolB.minus(ratio), 'down');
  if (out.lte(0)) return new Decimal(0);
  return new Decimal(out.toSignificantDigits(15, Decimal.ROUND_DOWN).toFixed());
}

/** Wide enough that a product or quotient of two 16-digit numbers is exact before a step rounds it. */
const Exact = Decimal.clone({ precision: 80 });
type Exact = InstanceType<typeof Exact>;

/** One operation of rippled's `Number` (16-digit mantissa): rounded toward +∞ or −∞. */
const numberStep = (x: Exact, mode: 'up' | 'down'): Exact =>
  x.toSignificantDigits(16, mode === 'up' ? Decimal.ROUND_CEIL : Decimal.ROUND_FLOOR);

/**
 * The trading fee the first buy pays: AMMCreate gives the pool's creator (the deploy's hot wallet,
 * which makes the buy) the auction slot for 24 hours, and the slot holder trades at the discounted
 * fee, TradingFee / 10 rounded down (XLS-30; rippled AMMCreate.cpp, AUCTION_SLOT_DISCOUNTED_FEE_FRACTION).
 */
export const firstBuyTradingFee = (tradingFee: number): number => Math.floor(tradingFee / 10);

export interface FirstBuyInput {
  /** XRP deposited in the pool. */
  liquidityXrp: DecimalValue;
  /** Tokens deposited in the pool (the supply less the dev allocation). */
  poolTokens: DecimalValue;
  supply: DecimalValue;
  /** The dev allocation, and the part of it locked in escrows (docs/vesting.md). */
  devAmount: DecimalValue;
  lockedAmount: DecimalValue;
  /** The first buy in XRP ('' or '0': none). */
  buyXrp: string;
  /** The pool's TradingFee (1/100,000); the buy pays its auction-slot discount (`firstBuyTradingFee`). */
  tradingFee: number;
  /** The platform's trading fee in percent ('0' when it charges none). */
  feePercent: string;
  /**
   * An anti-sniper window (its pre-pool ladder, docs/launch-protection.md): the first buy takes the
   * tokens its XRP buys on the window's curve at the plain price (`curveTokensFor`), not a swap.
   */
  window?: { steps: number; fineSteps: number };
}

export interface FirstBuyPreview {
  /** XRP per token at the pool's opening: pool XRP / pool tokens. */
  startPrice: Decimal;
  /** The start price × the supply, in XRP. */
  marketCap: Decimal;
  /** Tokens the first buy takes from the pool. */
  tokensOut: Decimal;
  /** What the creator holds once the deploy is done. */
  creatorLocked: Decimal;
  creatorUnlocked: Decimal;
  /** The buy, the platform fee on it (rounded down to the drop, as a trade's) and both, in drops. */
  buyDrops: bigint;
  feeDrops: bigint;
  totalDrops: bigint;
}

/** The preview's launch figures and what the first buy costs and brings. */
export function firstBuyPreview(p: FirstBuyInput): FirstBuyPreview {
  const poolTokens = new Decimal(p.poolTokens);
  const startPrice = poolTokens.gt(0) ? new Decimal(p.liquidityXrp).div(poolTokens) : new Decimal(0);
  const buyDrops = FIRST_BUY_XRP.test(p.buyXrp) ? xrpToDrops(p.buyXrp) : 0n;
  const poolDrops = decimalToDrops(p.liquidityXrp);
  // The pool swaps drops (the ledger's XRP amounts are whole drops).
  const shape = p.window
    ? windowCurveParams({ poolDrops, poolTokens, steps: p.window.steps, fineSteps: p.window.fineSteps })
    : null;
  const tokensOut =
    buyDrops <= 0n
      ? new Decimal(0)
      : shape
        ? (curveTokensFor(shape, 0, buyDrops, curveTokenDecimals(poolTokens)) ?? new Decimal(0))
        : ammSwapOut(poolDrops.toString(), poolTokens, buyDrops.toString(), firstBuyTradingFee(p.tradingFee));
  const feeDrops = buyDrops > 0n ? platformFeeDrops(buyDrops, p.feePercent) : 0n;
  const locked = new Decimal(p.lockedAmount);
  return {
    startPrice,
    marketCap: startPrice.mul(p.supply),
    tokensOut,
    creatorLocked: locked,
    creatorUnlocked: new Decimal(p.devAmount).minus(locked).plus(tokensOut),
    buyDrops,
    feeDrops,
    totalDrops: buyDrops + feeDrops,
  };
}
