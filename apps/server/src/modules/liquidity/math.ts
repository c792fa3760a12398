import { Decimal, decimalToDrops, dropsToDecimal } from '@ledgerpad/shared';

// XLS-30 amounts as rippled's AMMHelpers.cpp computes them (the embedded ledger implements the same
// equations), in 60-digit decimals: what a deposit issues and a withdrawal pays, so the screen's
// expected amounts are what the ledger then does. The ledger keeps 16 significant digits and rounds
// in the pool's favour; results here are rounded the same way to what an amount can hold (whole
// drops for XRP, 15 significant digits for issued amounts), so they agree to the last unit shown.
//
// Notation: B = the pool's balance of the asset, T = the LP tokens outstanding, f = trading fee as
// a fraction (trading_fee / 100000).

export interface PoolState {
  /** The pool's balances of its base asset (XRP or RLUSD) and of the token. */
  base: Decimal;
  token: Decimal;
  /** LP tokens outstanding. */
  lpTotal: Decimal;
  /** trading_fee in units of 1/100000 (1000 = 1%). */
  tradingFee: number;
}

const ONE = new Decimal(1);
const feeFraction = (tradingFee: number) => new Decimal(tradingFee).div(100_000);

/** Two-asset deposit with maxima (tfTwoAsset): the pool ratio decides; frac = min(a/A, b/B). */
export function twoAssetDeposit(pool: PoolState, maxBase: Decimal, maxToken: Decimal) {
  const frac = Decimal.min(maxBase.div(pool.base), maxToken.div(pool.token));
  return {
    lpTokens: pool.lpTotal.mul(frac),
    base: pool.base.mul(frac),
    token: pool.token.mul(frac),
  };
}

/**
 * Single-asset deposit (tfSingleAsset), rippled's lpTokensOut (equation 3 solved exactly: half the
 * deposit is swapped at the pool's fee, then deposited pro rata):
 *   f1 = 1 − f, f2 = (1 − f/2) / f1, r = b / B,
 *   c = √(f2² + r / f1) − f2,
 *   LP out = T × (r − c) / (1 + c).
 * XLS-30's first approximation, T × (√(1 + b(1 − f/2)/B) − 1), is within a hair of it for small fees.
 */
export function singleDepositLpOut(
  assetBalance: Decimal,
  deposit: Decimal,
  lpTotal: Decimal,
  tradingFee: number,
) {
  const f = feeFraction(tradingFee);
  const f1 = ONE.minus(f);
  const f2 = ONE.minus(f.div(2)).div(f1);
  const r = deposit.div(assetBalance);
  const c = f2.mul(f2).plus(r.div(f1)).sqrt().minus(f2);
  return lpTotal.mul(r.minus(c)).div(ONE.plus(c));
}

/** Pro-rata withdrawal (tfLPToken, no fee): each side × lp / T. */
export function doubleWithdraw(pool: PoolState, lp: Decimal) {
  const frac = lp.div(pool.lpTotal);
  return { base: pool.base.mul(frac), token: pool.token.mul(frac) };
}

/**
 * Single-asset withdrawal of `lp` LP tokens (tfOneAssetLPToken), rippled's ammAssetOut (equation 8):
 *   t = lp / T,  out = B × (t² − t(2 − f)) / (t·f − 1).
 * With f = 0 it is B × (2t − t²): what a pro-rata withdrawal plus a fee-free swap of the other side
 * would give.
 */
export function singleWithdrawOut(assetBalance: Decimal, lp: Decimal, lpTotal: Decimal, tradingFee: number) {
  const f = feeFraction(tradingFee);
  const t = lp.div(lpTotal);
  return assetBalance.mul(t.mul(t).minus(t.mul(new Decimal(2).minus(f)))).div(t.mul(f).minus(1));
}

/**
 * LP tokens per 1 unit of an asset, the pool's "value" convention: T / (2 × B). It is the marginal
 * effective price of a single-asset withdrawal without fee (d out / d lp at lp → 0 is B(2 − f)/T),
 * the number a limit price in LP tokens per unit is compared with.
 */
export function lpPerUnit(assetBalance: Decimal, lpTotal: Decimal) {
  return lpTotal.div(assetBalance.mul(2));
}

/** What an amount can hold, rounded as the ledger rounds a payout (down). */
export function payout(value: Decimal, isXrp: boolean): Decimal {
  return isXrp ? dropsToDecimal(decimalToDrops(value)) : value.toSignificantDigits(15, Decimal.ROUND_DOWN);
}

/**
 * What a bid for the auction slot costs now (rippled AMMBid.cpp): the minimum price is
 * T × fee / 25; an owner in interval t (0–18 of 20) is outbid at 1.05 × its price × (1 − ((t+1)/20)^60)
 * + the minimum (1.05 × its price + the minimum in interval 0), and gets back (1 − (t+1)/20) of
 * what it paid. An empty, expired or tailing slot costs the minimum.
 */
export function auctionPrice(
  lpTotal: Decimal,
  tradingFee: number,
  owner?: { price: Decimal; interval: number },
): { price: Decimal; refund: Decimal } {
  const min = lpTotal.mul(feeFraction(tradingFee)).div(25);
  if (!owner) return { price: min, refund: new Decimal(0) };
  const used = new Decimal(owner.interval + 1).div(20);
  const price =
    owner.interval === 0
      ? owner.price.mul('1.05').plus(min)
      : owner.price
          .mul('1.05')
          .mul(ONE.minus(used.pow(60)))
          .plus(min);
  return { price, refund: ONE.minus(used).mul(owner.price) };
}
