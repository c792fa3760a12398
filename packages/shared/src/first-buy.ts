import { Decimal, decimalToDrops, platformFeeDrops, xrpToDrops, type DecimalValue } from './money';

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
 *   out = B × (1 − A / (A + a × (1 − f))),  f = tradingFee / 100,000,
 * with A, B the pool's balances of the asset paid in and the asset taken out. The ledger rounds
 * in the pool's favour; the result is rounded down to 15 significant digits, what an issued amount
 * holds without a doubt about its 16th.
 */
export function ammSwapOut(
  poolIn: DecimalValue,
  poolOut: DecimalValue,
  amountIn: DecimalValue,
  tradingFee: number,
): Decimal {
  const a = new Decimal(amountIn).mul(new Decimal(1).minus(new Decimal(tradingFee).div(100_000)));
  if (a.lte(0)) return new Decimal(0);
  const poolA = new Decimal(poolIn);
  const out = new Decimal(poolOut).mul(new Decimal(1).minus(poolA.div(poolA.plus(a))));
  return out.toSignificantDigits(15, Decimal.ROUND_DOWN);
}

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
  const tokensOut =
    buyDrops > 0n
      ? ammSwapOut(poolDrops.toString(), poolTokens, buyDrops.toString(), firstBuyTradingFee(p.tradingFee))
      : new Decimal(0);
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
