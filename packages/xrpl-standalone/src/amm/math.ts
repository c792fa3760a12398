// XLS-30 formulas as rippled's AMMHelpers compute them, with fixAMMv1_1 (always) and fixAMMv1_3
// (when the ledger's rules enable it, as on mainnet): every swap, deposit and withdrawal rounds in
// the pool's favour, and the LP token balance keeps the invariant sqrt(asset1 * asset2) >= LPTokenBalance.
// The order of operations and the rounding mode of each step are rippled's, because a different
// order gives a different 16-digit result.
import { Num, root2, withRound, type RoundingMode } from '../core/number';
import { type Amt, type Issue, addAmt, maxAmt, subAmt, toAmt, zeroAmt } from './amount';
import { fixAMMv1_3 } from './rules';

/** Trading fees are in units of 1/100,000 (1000 = 1%). */
export const TRADING_FEE_THRESHOLD = 1000;
export const FEE_SCALE = 100_000;
export const TOTAL_TIME_SLOT_SECS = 24 * 3600;
export const AUCTION_SLOT_TIME_INTERVALS = 20;
export const AUCTION_SLOT_MAX_AUTH_ACCOUNTS = 4;
export const AUCTION_SLOT_DISCOUNTED_FEE_FRACTION = 10;
export const AUCTION_SLOT_MIN_FEE_FRACTION = 25;
export const AUCTION_SLOT_INTERVAL_DURATION = TOTAL_TIME_SLOT_SECS / AUCTION_SLOT_TIME_INTERVALS;
export const VOTE_MAX_SLOTS = 8;
export const VOTE_WEIGHT_SCALE_FACTOR = 100_000;

export function getFee(tfee: number): Num {
  return Num.of(tfee).div(FEE_SCALE);
}

export function feeMult(tfee: number): Num {
  return Num.one.sub(getFee(tfee));
}

export function feeMultHalf(tfee: number): Num {
  return Num.one.sub(getFee(tfee).div(2));
}

/** Pool balances from the taker's point of view: `in` is what the pool receives. */
export interface Pool {
  in: Amt;
  out: Amt;
}

/** Initial LP tokens: sqrt(asset1 * asset2), rounded down (fixAMMv1_3). */
export function ammLPTokens(asset1: Amt, asset2: Amt, lptIssue: Issue): Amt {
  if (!fixAMMv1_3()) return toAmt(lptIssue, root2(asset1.value.mul(asset2.value)));
  return withRound('downward', () => toAmt(lptIssue, root2(asset1.value.mul(asset2.value))));
}

/** amount * frac with every step rounded by `mode` (rippled's multiply(STAmount, Number, mode)). */
export function multiply(amount: Amt, frac: Num, mode: RoundingMode): Amt {
  return withRound(mode, () => toAmt(amount.issue, amount.value.mul(frac), mode));
}

/** Equation 3: LP tokens for a single-asset deposit, minimized. */
export function lpTokensOut(asset1Balance: Amt, asset1Deposit: Amt, lptBalance: Amt, tfee: number): Amt {
  const f1 = feeMult(tfee);
  const f2 = feeMultHalf(tfee).div(f1);
  const r = asset1Deposit.value.div(asset1Balance.value);
  const c = root2(f2.mul(f2).add(r.div(f1))).sub(f2);
  if (!fixAMMv1_3()) return toAmt(lptBalance.issue, lptBalance.value.mul(r.sub(c)).div(Num.one.add(c)));
  const frac = r.sub(c).div(Num.one.add(c));
  return multiply(lptBalance, frac, 'downward');
}

/** Equation 4: asset deposit needed for `lpTokens` out of a single-asset deposit, maximized. */
export function ammAssetIn(asset1Balance: Amt, lptBalance: Amt, lpTokens: Amt, tfee: number): Amt {
  const f1 = feeMult(tfee);
  const f2 = feeMultHalf(tfee).div(f1);
  const t1 = lpTokens.value.div(lptBalance.value);
  const t2 = Num.one.add(t1);
  const d = f2.sub(t1.div(t2));
  const a = Num.one.div(t2.mul(t2));
  const b = Num.of(2).mul(d).div(t2).sub(Num.one.div(f1));
  const c = d.mul(d).sub(f2.mul(f2));
  if (!fixAMMv1_3()) return toAmt(asset1Balance.issue, asset1Balance.value.mul(solveQuadraticEq(a, b, c)));
  return multiply(asset1Balance, solveQuadraticEq(a, b, c), 'upward');
}

/** Equation 7: LP tokens to redeem for a single-asset withdrawal, maximized. */
export function lpTokensIn(asset1Balance: Amt, asset1Withdraw: Amt, lptBalance: Amt, tfee: number): Amt {
  const fr = asset1Withdraw.value.div(asset1Balance.value);
  const f1 = getFee(tfee);
  const c = fr.mul(f1).add(2).sub(f1);
  if (!fixAMMv1_3()) {
    return toAmt(
      lptBalance.issue,
      lptBalance.value.mul(c.sub(root2(c.mul(c).sub(Num.of(4).mul(fr))))).div(2),
    );
  }
  const frac = c.sub(root2(c.mul(c).sub(Num.of(4).mul(fr)))).div(2);
  return multiply(lptBalance, frac, 'upward');
}

/** Equation 8: asset withdrawn for `lpTokens` redeemed in a single-asset withdrawal, minimized. */
export function ammAssetOut(assetBalance: Amt, lptBalance: Amt, lpTokens: Amt, tfee: number): Amt {
  const f = getFee(tfee);
  const t1 = lpTokens.value.div(lptBalance.value);
  if (!fixAMMv1_3()) {
    const b = assetBalance.value.mul(t1.mul(t1).sub(t1.mul(Num.of(2).sub(f)))).div(t1.mul(f).sub(1));
    return toAmt(assetBalance.issue, b);
  }
  const frac = t1
    .mul(t1)
    .sub(t1.mul(Num.of(2).sub(f)))
    .div(t1.mul(f).sub(1));
  return multiply(assetBalance, frac, 'downward');
}

export function solveQuadraticEq(a: Num, b: Num, c: Num): Num {
  return b
    .neg()
    .add(root2(b.mul(b).sub(Num.of(4).mul(a).mul(c))))
    .div(Num.of(2).mul(a));
}

/** The smaller root by the numerically stable "citardauq" form; undefined if no real root. */
export function solveQuadraticEqSmallest(a: Num, b: Num, c: Num): Num | undefined {
  const d = b.mul(b).sub(Num.of(4).mul(a).mul(c));
  if (d.signum() < 0) return undefined;
  if (b.signum() > 0)
    return Num.of(2)
      .mul(c)
      .div(b.neg().sub(root2(d)));
  return Num.of(2)
    .mul(c)
    .div(b.neg().add(root2(d)));
}

/**
 * LP token balances keep 16 digits, so adding the tokens to the balance can lose precision;
 * the tokens actually moved are the difference of the balances, rounded down.
 */
export function adjustLPTokens(lptBalance: Amt, lpTokens: Amt, isDeposit: boolean): Amt {
  return withRound('downward', () =>
    isDeposit
      ? subAmt(addAmt(lptBalance, lpTokens), lptBalance)
      : addAmt(subAmt(lpTokens, lptBalance), lptBalance),
  );
}

function assetRounding(isDeposit: boolean): RoundingMode {
  return isDeposit ? 'upward' : 'downward';
}

function lpTokenRounding(isDeposit: boolean): RoundingMode {
  return isDeposit ? 'downward' : 'upward';
}

/** Equal deposit/withdraw amount: balance * frac rounded in the pool's favour. */
export function getRoundedAsset(balance: Amt, frac: Num, isDeposit: boolean): Amt {
  if (!fixAMMv1_3()) return toAmt(balance.issue, balance.value.mul(frac));
  return multiply(balance, frac, assetRounding(isDeposit));
}

/** Single-asset amount: deposit = balance * product(), withdraw = product() itself. */
export function getRoundedAssetBy(
  balance: Amt,
  product: () => Num,
  isDeposit: boolean,
  noRound?: () => Num,
): Amt {
  if (!fixAMMv1_3()) return toAmt(balance.issue, noRound ? noRound() : balance.value.mul(product()));
  const mode = assetRounding(isDeposit);
  if (isDeposit) return multiply(balance, withRound(mode, product), mode);
  return withRound(mode, () => toAmt(balance.issue, product(), mode));
}

/** Equal deposit/withdraw LP tokens: lptBalance * frac, rounded, then precision-adjusted. */
export function getRoundedLPTokens(lptBalance: Amt, frac: Num, isDeposit: boolean): Amt {
  if (!fixAMMv1_3()) return toAmt(lptBalance.issue, lptBalance.value.mul(frac));
  const tokens = multiply(lptBalance, frac, lpTokenRounding(isDeposit));
  return adjustLPTokens(lptBalance, tokens, isDeposit);
}

/** Single-asset LP tokens: deposit = product() itself, withdraw = lptBalance * product(). */
export function getRoundedLPTokensBy(
  lptBalance: Amt,
  product: () => Num,
  isDeposit: boolean,
  noRound?: () => Num,
): Amt {
  if (!fixAMMv1_3()) return toAmt(lptBalance.issue, noRound ? noRound() : lptBalance.value.mul(product()));
  const mode = lpTokenRounding(isDeposit);
  const tokens = isDeposit
    ? withRound(mode, () => toAmt(lptBalance.issue, product(), mode))
    : multiply(lptBalance, withRound(mode, product), mode);
  return adjustLPTokens(lptBalance, tokens, isDeposit);
}

/**
 * Re-derives the deposit (`isDeposit`) or the withdrawal for the adjusted tokens; never more than
 * the requested amount (rippled adjustAssetInByTokens / adjustAssetOutByTokens, fixAMMv1_3).
 */
function adjustAssetByTokens(
  isDeposit: boolean,
  balance: Amt,
  amount: Amt,
  lptBalance: Amt,
  tokens: Amt,
  tfee: number,
): { tokens: Amt; amount: Amt } {
  if (!fixAMMv1_3()) return { tokens, amount };
  const assetFor = isDeposit ? ammAssetIn : ammAssetOut;
  let assetAdj = assetFor(balance, lptBalance, tokens, tfee);
  let tokensAdj = tokens;
  if (assetAdj.value.gt(amount.value)) {
    const adjAmount = subAmt(amount, subAmt(assetAdj, amount));
    const t = (isDeposit ? lpTokensOut : lpTokensIn)(balance, adjAmount, lptBalance, tfee);
    tokensAdj = adjustLPTokens(lptBalance, t, isDeposit);
    assetAdj = assetFor(balance, lptBalance, tokensAdj, tfee);
  }
  return { tokens: tokensAdj, amount: assetAdj.value.lt(amount.value) ? assetAdj : amount };
}

export const adjustAssetInByTokens = (
  balance: Amt,
  amount: Amt,
  lptBalance: Amt,
  tokens: Amt,
  tfee: number,
) => adjustAssetByTokens(true, balance, amount, lptBalance, tokens, tfee);

export const adjustAssetOutByTokens = (
  balance: Amt,
  amount: Amt,
  lptBalance: Amt,
  tokens: Amt,
  tfee: number,
) => adjustAssetByTokens(false, balance, amount, lptBalance, tokens, tfee);

export function adjustFracByTokens(lptBalance: Amt, tokens: Amt, frac?: Num): Num {
  if (!fixAMMv1_3() && frac) return frac;
  return tokens.value.div(lptBalance.value);
}

/**
 * Before fixAMMv1_3 (with fixAMMv1_1): the tokens that survive 16-digit addition to the balance,
 * and the amounts scaled to them (equal trade) or re-derived from them (single asset).
 */
export function adjustAmountsByLPTokens(
  balance: Amt,
  amount: Amt,
  amount2: Amt | undefined,
  lptBalance: Amt,
  lpTokens: Amt,
  tfee: number,
  isDeposit: boolean,
): { amount: Amt; amount2?: Amt; tokens: Amt } {
  if (fixAMMv1_3()) return { amount, amount2, tokens: lpTokens };
  const actual = adjustLPTokens(lptBalance, lpTokens, isDeposit);
  if (actual.value.isZero()) {
    return { amount: zeroAmt(amount.issue), amount2: amount2 && zeroAmt(amount2.issue), tokens: actual };
  }
  if (actual.value.lt(lpTokens.value)) {
    if (amount2) {
      const fr = actual.value.div(lpTokens.value);
      return {
        amount: toAmt(amount.issue, fr.mul(amount.value)),
        amount2: toAmt(amount2.issue, fr.mul(amount2.value)),
        tokens: actual,
      };
    }
    const redone = isDeposit
      ? ammAssetIn(balance, lptBalance, actual, tfee)
      : ammAssetOut(balance, lptBalance, actual, tfee);
    return { amount: redone, tokens: actual };
  }
  return { amount, amount2, tokens: actual };
}

/**
 * Swap in: out = O - (I * O) / (I + in * (1 - fee)), each step rounded so the pool never loses
 * (fixAMMv1_1), clipped at zero.
 */
export function swapAssetIn(pool: Pool, assetIn: Amt, tfee: number): Amt {
  const numerator = withRound('upward', () => pool.in.value.mul(pool.out.value));
  const fee = withRound('upward', () => getFee(tfee));
  const denom = withRound('downward', () => pool.in.value.add(assetIn.value.mul(Num.one.sub(fee))));
  if (denom.signum() <= 0) return zeroAmt(pool.out.issue);
  const ratio = withRound('upward', () => numerator.div(denom));
  const swapOut = withRound('downward', () => pool.out.value.sub(ratio));
  if (swapOut.signum() < 0) return zeroAmt(pool.out.issue);
  return withRound('downward', () => toAmt(pool.out.issue, swapOut, 'downward'));
}

/** Swap out: in = ((I * O) / (O - out) - I) / (1 - fee), rounded up in the pool's favour. */
export function swapAssetOut(pool: Pool, assetOut: Amt, tfee: number): Amt {
  const numerator = withRound('upward', () => pool.in.value.mul(pool.out.value));
  const denom = withRound('downward', () => pool.out.value.sub(assetOut.value));
  if (denom.signum() <= 0) return maxAmt(pool.in.issue);
  const { numerator2, fee } = withRound('upward', () => {
    const ratio = numerator.div(denom);
    return { numerator2: ratio.sub(pool.in.value), fee: getFee(tfee) };
  });
  const mult = withRound('downward', () => Num.one.sub(fee));
  const swapIn = withRound('upward', () => numerator2.div(mult));
  if (swapIn.signum() < 0) return zeroAmt(pool.in.issue);
  return withRound('upward', () => toAmt(pool.in.issue, swapIn, 'upward'));
}
