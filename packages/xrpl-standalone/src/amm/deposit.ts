// The amounts of each AMMDeposit mode, as rippled's AMMDeposit computes them before moving funds
// (fixAMMv1_3 rounding). Pure functions: the transactor checks funds and moves the amounts.
import { Num } from '../core/number';
import type { Amt, Issue } from './amount';
import {
  adjustAmountsByLPTokens,
  adjustAssetInByTokens,
  adjustFracByTokens,
  adjustLPTokens,
  ammAssetIn,
  ammLPTokens,
  feeMult,
  feeMultHalf,
  getRoundedAsset,
  getRoundedAssetBy,
  getRoundedLPTokens,
  getRoundedLPTokensBy,
  lpTokensOut,
  solveQuadraticEq,
} from './math';
import { stDivide } from './st-math';
import { fixAMMv1_3 } from './rules';

/** What a deposit moves: asset amounts into the pool, LP tokens out to the depositor. */
export interface DepositPlan {
  amount: Amt;
  amount2?: Amt;
  tokens: Amt;
  /** Minimums from the transaction, checked after computing (tecAMM_FAILED). */
  amountMin?: Amt;
  amount2Min?: Amt;
  tokensMin?: Amt;
}

export type DepositResult = { ter: 'tesSUCCESS'; plan: DepositPlan } | { ter: string };

function fail(ter: string): DepositResult {
  return { ter };
}

/** Before fixAMMv1_3 the tokens are adjusted only here, at the final deposit step. */
interface Adjust {
  balance: Amt;
  lpt: Amt;
  tfee: number;
}

function invalidTokens(): DepositResult {
  return fail(fixAMMv1_3() ? 'tecAMM_INVALID_TOKENS' : 'tecAMM_FAILED');
}

function v13Adjust(lptBalance: Amt, tokens: Amt): Amt {
  return fixAMMv1_3() ? adjustLPTokens(lptBalance, tokens, true) : tokens;
}

function ok(input: DepositPlan, adj?: Adjust): DepositResult {
  let plan = input;
  if (adj && !fixAMMv1_3()) {
    const a = adjustAmountsByLPTokens(
      adj.balance,
      plan.amount,
      plan.amount2,
      adj.lpt,
      plan.tokens,
      adj.tfee,
      true,
    );
    plan = { ...plan, amount: a.amount, amount2: a.amount2, tokens: a.tokens };
  }
  if (plan.tokens.value.signum() <= 0) return fail('tecAMM_INVALID_TOKENS');
  const below = (a: Amt | undefined, min: Amt | undefined): boolean =>
    a !== undefined && min !== undefined && a.value.lt(min.value);
  if (
    below(plan.amount, plan.amountMin) ||
    below(plan.amount2, plan.amount2Min) ||
    below(plan.tokens, plan.tokensMin)
  ) {
    return fail('tecAMM_FAILED');
  }
  return { ter: 'tesSUCCESS', plan };
}

/** tfLPToken: proportional deposit for the requested LP tokens. */
export function equalDepositTokens(
  balance: Amt,
  balance2: Amt,
  lptBalance: Amt,
  lpTokens: Amt,
  amountMin?: Amt,
  amount2Min?: Amt,
): DepositResult {
  const tokens = v13Adjust(lptBalance, lpTokens);
  if (tokens.value.isZero()) return fail('tecAMM_INVALID_TOKENS');
  const frac = stDivide(tokens.value, lptBalance.value);
  return ok(
    {
      amount: getRoundedAsset(balance, frac, true),
      amount2: getRoundedAsset(balance2, frac, true),
      tokens,
      amountMin,
      amount2Min,
    },
    { balance, lpt: lptBalance, tfee: 0 },
  );
}

/** tfTwoAsset: proportional deposit limited by both maximum amounts. */
export function equalDepositLimit(
  balance: Amt,
  balance2: Amt,
  lptBalance: Amt,
  amount: Amt,
  amount2: Amt,
  tokensMin?: Amt,
): DepositResult {
  const adj = { balance, lpt: lptBalance, tfee: 0 };
  let frac = amount.value.div(balance.value);
  let tokens = getRoundedLPTokens(lptBalance, frac, true);
  if (tokens.value.isZero()) return invalidTokens();
  frac = adjustFracByTokens(lptBalance, tokens, frac);
  const deposit2 = getRoundedAsset(balance2, frac, true);
  if (deposit2.value.le(amount2.value)) return ok({ amount, amount2: deposit2, tokens, tokensMin }, adj);
  frac = amount2.value.div(balance2.value);
  tokens = getRoundedLPTokens(lptBalance, frac, true);
  if (tokens.value.isZero()) return invalidTokens();
  frac = adjustFracByTokens(lptBalance, tokens, frac);
  const deposit1 = getRoundedAsset(balance, frac, true);
  if (deposit1.value.le(amount.value)) return ok({ amount: deposit1, amount2, tokens, tokensMin }, adj);
  return fail('tecAMM_FAILED');
}

/** tfSingleAsset: deposit exactly (at most) `amount` of one asset. */
export function singleDeposit(
  balance: Amt,
  lptBalance: Amt,
  amount: Amt,
  tfee: number,
  tokensMin?: Amt,
): DepositResult {
  const tokens = v13Adjust(lptBalance, lpTokensOut(balance, amount, lptBalance, tfee));
  if (tokens.value.isZero()) return invalidTokens();
  const adj = adjustAssetInByTokens(balance, amount, lptBalance, tokens, tfee);
  if (adj.tokens.value.isZero()) return fail('tecAMM_INVALID_TOKENS');
  return ok({ amount: adj.amount, tokens: adj.tokens, tokensMin }, { balance, lpt: lptBalance, tfee });
}

/** tfOneAssetLPToken: deposit one asset for exactly `lpTokens`, at most `amount`. */
export function singleDepositTokens(
  balance: Amt,
  lptBalance: Amt,
  amount: Amt,
  lpTokens: Amt,
  tfee: number,
): DepositResult {
  const tokens = v13Adjust(lptBalance, lpTokens);
  if (tokens.value.isZero()) return fail('tecAMM_INVALID_TOKENS');
  const deposit = ammAssetIn(balance, lptBalance, tokens, tfee);
  if (deposit.value.gt(amount.value)) return fail('tecAMM_FAILED');
  return ok({ amount: deposit, tokens }, { balance, lpt: lptBalance, tfee });
}

/** tfLimitLPToken: single-asset deposit whose effective price (asset per LP token) <= ePrice. */
export function singleDepositEPrice(
  balance: Amt,
  lptBalance: Amt,
  amount: Amt,
  ePrice: Amt,
  tfee: number,
): DepositResult {
  if (!amount.value.isZero()) {
    const tokens = v13Adjust(lptBalance, lpTokensOut(balance, amount, lptBalance, tfee));
    if (tokens.value.signum() <= 0) return invalidTokens();
    const adj = adjustAssetInByTokens(balance, amount, lptBalance, tokens, tfee);
    if (adj.tokens.value.isZero()) return fail('tecAMM_INVALID_TOKENS');
    const ep = adj.amount.value.div(adj.tokens.value);
    if (ep.le(ePrice.value))
      return ok({ amount: adj.amount, tokens: adj.tokens }, { balance, lpt: lptBalance, tfee });
  }
  const f1 = feeMult(tfee);
  const f2 = feeMultHalf(tfee).div(f1);
  const c = f1.mul(balance.value).div(ePrice.value.mul(lptBalance.value));
  const d = f1.add(c.mul(f2)).sub(c);
  const a1 = c.mul(c);
  const b1 = c.mul(c).mul(f2).mul(f2).add(Num.of(2).mul(c)).sub(d.mul(d));
  const c1 = Num.of(2).mul(c).mul(f2).mul(f2).add(1).sub(Num.of(2).mul(d).mul(f2));
  const deposit = getRoundedAssetBy(
    balance,
    () => f1.mul(solveQuadraticEq(a1, b1, c1)),
    true,
    () => f1.mul(balance.value).mul(solveQuadraticEq(a1, b1, c1)),
  );
  if (deposit.value.signum() <= 0) return fail('tecAMM_FAILED');
  const tokens = getRoundedLPTokensBy(
    lptBalance,
    () => deposit.value.div(ePrice.value),
    true,
    () => deposit.value.div(ePrice.value),
  );
  const adj = adjustAssetInByTokens(balance, deposit, lptBalance, tokens, tfee);
  if (adj.tokens.value.isZero()) return fail('tecAMM_INVALID_TOKENS');
  return ok({ amount: adj.amount, tokens: adj.tokens }, { balance, lpt: lptBalance, tfee });
}

/** tfTwoAssetIfEmpty: refill an empty pool; LP tokens as on creation. */
export function equalDepositInEmptyState(amount: Amt, amount2: Amt, lptIssue: Issue): DepositResult {
  return ok({ amount, amount2, tokens: ammLPTokens(amount, amount2, lptIssue) });
}
