// The amounts of each AMMWithdraw mode, as rippled's AMMWithdraw computes them (fixAMMv1_3
// rounding), plus the pool-side sanity checks of its withdraw() step. Pure functions.
import type { Amt } from './amount';
import {
  adjustAmountsByLPTokens,
  adjustAssetOutByTokens,
  adjustFracByTokens,
  adjustLPTokens,
  ammAssetOut,
  getFee,
  getRoundedAsset,
  getRoundedAssetBy,
  getRoundedLPTokens,
  getRoundedLPTokensBy,
  lpTokensIn,
} from './math';
import { stDivide } from './st-math';
import { fixAMMv1_3 } from './rules';

export interface WithdrawPlan {
  amount: Amt;
  amount2?: Amt;
  tokens: Amt;
}

export type WithdrawResult = { ter: 'tesSUCCESS'; plan: WithdrawPlan } | { ter: string };

export interface WithdrawContext {
  balance: Amt;
  balance2: Amt;
  lptBalance: Amt;
  /** The withdrawer's LP token holding. */
  lpHolding: Amt;
  tfee: number;
  /** tfWithdrawAll / tfOneAssetWithdrawAll: tokens are not precision-adjusted. */
  withdrawAll: boolean;
}

function fail(ter: string): WithdrawResult {
  return { ter };
}

/** rippled's withdraw() checks: valid token count, never one side only, never more than held. */
function finish(ctx: WithdrawContext, input: WithdrawPlan): WithdrawResult {
  let plan = input;
  if (!fixAMMv1_3() && !ctx.withdrawAll) {
    // Before fixAMMv1_3 the tokens are adjusted only here, at the final withdraw step.
    const a = adjustAmountsByLPTokens(
      ctx.balance,
      plan.amount,
      plan.amount2,
      ctx.lptBalance,
      plan.tokens,
      ctx.tfee,
      false,
    );
    plan = { amount: a.amount, amount2: a.amount2, tokens: a.tokens };
  }
  const { tokens, amount, amount2 } = plan;
  if (tokens.value.signum() <= 0 || tokens.value.gt(ctx.lpHolding.value))
    return fail('tecAMM_INVALID_TOKENS');
  if (tokens.value.gt(ctx.lptBalance.value)) return fail('tecINTERNAL');
  const all1 = amount.value.eq(ctx.balance.value);
  const all2 = amount2 !== undefined && amount2.value.eq(ctx.balance2.value);
  if ((all1 && !all2) || (all2 && !all1)) return fail('tecAMM_BALANCE');
  if (tokens.value.eq(ctx.lptBalance.value) && (!all1 || !all2)) return fail('tecAMM_BALANCE');
  if (amount.value.gt(ctx.balance.value) || (amount2 !== undefined && amount2.value.gt(ctx.balance2.value))) {
    return fail('tecAMM_BALANCE');
  }
  return { ter: 'tesSUCCESS', plan };
}

function adjustIn(ctx: WithdrawContext, tokens: Amt): Amt {
  return ctx.withdrawAll || !fixAMMv1_3() ? tokens : adjustLPTokens(ctx.lptBalance, tokens, false);
}

function invalidTokens(): WithdrawResult {
  return fail(fixAMMv1_3() ? 'tecAMM_INVALID_TOKENS' : 'tecAMM_FAILED');
}

/** tfLPToken / tfWithdrawAll: proportional withdrawal for the LP tokens redeemed. */
export function equalWithdrawTokens(
  ctx: WithdrawContext,
  lpTokens: Amt,
  amountMin?: Amt,
  amount2Min?: Amt,
): WithdrawResult {
  if (lpTokens.value.eq(ctx.lptBalance.value)) {
    return finish(ctx, { amount: ctx.balance, amount2: ctx.balance2, tokens: lpTokens });
  }
  const tokens = adjustIn(ctx, lpTokens);
  if (tokens.value.isZero()) return fail('tecAMM_INVALID_TOKENS');
  const frac = stDivide(tokens.value, ctx.lptBalance.value);
  const amount = getRoundedAsset(ctx.balance, frac, false);
  const amount2 = getRoundedAsset(ctx.balance2, frac, false);
  if (amount.value.isZero() || amount2.value.isZero()) return fail('tecAMM_FAILED');
  // rippled ignores Amount/Amount2 here except as asset selectors; minimums are not enforced.
  void amountMin;
  void amount2Min;
  return finish(ctx, { amount, amount2, tokens });
}

/** tfTwoAsset: proportional withdrawal limited by both maximum amounts. */
export function equalWithdrawLimit(ctx: WithdrawContext, amount: Amt, amount2: Amt): WithdrawResult {
  let frac = amount.value.div(ctx.balance.value);
  let tokens = getRoundedLPTokens(ctx.lptBalance, frac, false);
  if (tokens.value.isZero()) return fail('tecAMM_INVALID_TOKENS');
  frac = adjustFracByTokens(ctx.lptBalance, tokens, frac);
  const w2 = getRoundedAsset(ctx.balance2, frac, false);
  if (w2.value.le(amount2.value)) return finish(ctx, { amount, amount2: w2, tokens });
  frac = amount2.value.div(ctx.balance2.value);
  tokens = getRoundedLPTokens(ctx.lptBalance, frac, false);
  if (tokens.value.isZero()) return fail('tecAMM_INVALID_TOKENS');
  frac = adjustFracByTokens(ctx.lptBalance, tokens, frac);
  const w1 = getRoundedAsset(ctx.balance, frac, false);
  if (w1.value.gt(amount.value)) return fail('tecAMM_FAILED');
  return finish(ctx, { amount: w1, amount2, tokens });
}

/** tfSingleAsset: withdraw exactly (at most) `amount` of one asset. */
export function singleWithdraw(ctx: WithdrawContext, balance: Amt, amount: Amt): WithdrawResult {
  const tokens = adjustIn(ctx, lpTokensIn(balance, amount, ctx.lptBalance, ctx.tfee));
  if (tokens.value.isZero()) return invalidTokens();
  const adj = adjustAssetOutByTokens(balance, amount, ctx.lptBalance, tokens, ctx.tfee);
  if (adj.tokens.value.isZero()) return fail('tecAMM_INVALID_TOKENS');
  return finishSingle(ctx, balance, adj.amount, adj.tokens);
}

/** tfOneAssetLPToken / tfOneAssetWithdrawAll: redeem tokens for one asset, at least `amount`. */
export function singleWithdrawTokens(
  ctx: WithdrawContext,
  balance: Amt,
  amount: Amt,
  lpTokens: Amt,
): WithdrawResult {
  const tokens = adjustIn(ctx, lpTokens);
  if (tokens.value.isZero()) return fail('tecAMM_INVALID_TOKENS');
  const out = ammAssetOut(balance, ctx.lptBalance, tokens, ctx.tfee);
  if (amount.value.isZero() || out.value.ge(amount.value)) return finishSingle(ctx, balance, out, tokens);
  return fail('tecAMM_FAILED');
}

/** tfLimitLPToken: single-asset withdrawal whose effective price (LP tokens per asset) <= ePrice. */
export function singleWithdrawEPrice(
  ctx: WithdrawContext,
  balance: Amt,
  amount: Amt,
  ePrice: Amt,
): WithdrawResult {
  const T = ctx.lptBalance.value;
  const ae = balance.value.mul(ePrice.value);
  const f = getFee(ctx.tfee);
  const denom = T.mul(f).sub(ae);
  if (denom.isZero()) return fail('tecAMM_FAILED');
  const tokens = getRoundedLPTokensBy(
    ctx.lptBalance,
    () => T.add(ae.mul(f.sub(2))).div(denom),
    false,
    () => T.mul(T.add(ae.mul(f.sub(2)))).div(denom),
  );
  if (tokens.value.signum() <= 0) return invalidTokens();
  const out = getRoundedAssetBy(
    amount,
    () => tokens.value.div(ePrice.value),
    false,
    () => tokens.value.div(ePrice.value),
  );
  if (amount.value.isZero() || out.value.ge(amount.value)) return finishSingle(ctx, balance, out, tokens);
  return fail('tecAMM_FAILED');
}

function finishSingle(ctx: WithdrawContext, balance: Amt, amount: Amt, tokens: Amt): WithdrawResult {
  // Express the single-sided plan against the pool side it draws from.
  const first =
    balance.issue.currency === ctx.balance.issue.currency &&
    balance.issue.issuer === ctx.balance.issue.issuer;
  const view: WithdrawContext = first ? ctx : { ...ctx, balance: ctx.balance2, balance2: ctx.balance };
  return finish(view, { amount, tokens });
}
