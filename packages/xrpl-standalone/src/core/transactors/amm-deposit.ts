// AMMDeposit (rippled AMMDeposit.cpp): every deposit mode; amounts from src/amm/deposit.ts, then
// the depositor's funds are checked and moved into the pool and LP tokens are issued.
import type { Ter } from '../results';
import { type Amt, addAmt, isXrp, sameIssue } from '../../amm/amount';
import {
  equalDepositInEmptyState,
  equalDepositLimit,
  equalDepositTokens,
  singleDeposit,
  singleDepositEPrice,
  singleDepositTokens,
  type DepositResult,
} from '../../amm/deposit';
import { accountFunds, amtToJson, isFrozen, tradingFeeFor, trustLine, xrpLiquid } from '../book/read';
import {
  TRADING_FEE_THRESHOLD,
  TerError,
  ammHolds,
  initializeFeeAuctionVote,
  invalidAmount,
  invalidAssetPair,
  isIndividualFrozen,
  lpHolds,
  popcount,
  readAmountField,
  readIssueField,
  sendOrThrow,
  txAmm,
} from './amm-common';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

export const TF_DEPOSIT = {
  lpToken: 0x00010000,
  singleAsset: 0x00080000,
  twoAsset: 0x00100000,
  oneAssetLPToken: 0x00200000,
  limitLPToken: 0x00400000,
  twoAssetIfEmpty: 0x00800000,
};
const SUB_TX = Object.values(TF_DEPOSIT).reduce((a, b) => a | b, 0);

export const ammDeposit: Transactor = {
  flagsMask: SUB_TX,

  preflight({ tx }: PreflightContext): Ter {
    const flags = Number(tx.Flags ?? 0);
    const amount = readAmountField(tx, 'Amount');
    const amount2 = readAmountField(tx, 'Amount2');
    const ePrice = readAmountField(tx, 'EPrice');
    const lpTokens = readAmountField(tx, 'LPTokenOut');
    const fee = tx.TradingFee;
    if (popcount(flags & SUB_TX) !== 1) return 'temMALFORMED';
    if (flags & TF_DEPOSIT.lpToken) {
      if (!lpTokens || ePrice || (amount && !amount2) || (!amount && amount2) || fee !== undefined)
        return 'temMALFORMED';
    } else if (flags & TF_DEPOSIT.singleAsset) {
      if (!amount || amount2 || ePrice || fee !== undefined) return 'temMALFORMED';
    } else if (flags & TF_DEPOSIT.twoAsset) {
      if (!amount || !amount2 || ePrice || fee !== undefined) return 'temMALFORMED';
    } else if (flags & TF_DEPOSIT.oneAssetLPToken) {
      if (!amount || !lpTokens || amount2 || ePrice || fee !== undefined) return 'temMALFORMED';
    } else if (flags & TF_DEPOSIT.limitLPToken) {
      if (!amount || !ePrice || lpTokens || amount2 || fee !== undefined) return 'temMALFORMED';
    } else if (flags & TF_DEPOSIT.twoAssetIfEmpty) {
      if (!amount || !amount2 || ePrice || lpTokens) return 'temMALFORMED';
    }
    const asset = readIssueField(tx, 'Asset');
    const asset2 = readIssueField(tx, 'Asset2');
    if (!asset || !asset2) return 'temMALFORMED';
    const pairTer = invalidAssetPair(asset, asset2);
    if (pairTer !== 'tesSUCCESS') return pairTer;
    if (amount && amount2 && sameIssue(amount.issue, amount2.issue)) return 'temBAD_AMM_TOKENS';
    if (lpTokens && lpTokens.value.signum() <= 0) return 'temBAD_AMM_TOKENS';
    const pair: [typeof asset, typeof asset] = [asset, asset2];
    if (amount) {
      const r = invalidAmount(amount, pair, ePrice !== undefined);
      if (r !== 'tesSUCCESS') return r;
    }
    if (amount2) {
      const r = invalidAmount(amount2, pair);
      if (r !== 'tesSUCCESS') return r;
    }
    if (amount && ePrice) {
      const r = invalidAmount(ePrice, [amount.issue, amount.issue]);
      if (r !== 'tesSUCCESS') return r;
    }
    if (fee !== undefined && Number(fee) > TRADING_FEE_THRESHOLD) return 'temBAD_FEE';
    return 'tesSUCCESS';
  },

  preclaim({ tx, account, view, config }: PreclaimContext): Ter {
    const amm = txAmm(view, tx);
    if (!amm) return 'terNO_AMM';
    const { balance, balance2, lpt } = ammHolds(view, amm, undefined, false);
    const flags = Number(tx.Flags ?? 0);
    if (flags & TF_DEPOSIT.twoAssetIfEmpty) {
      if (!lpt.value.isZero()) return 'tecAMM_NOT_EMPTY';
      if (!balance.value.isZero() || !balance2.value.isZero()) return 'tecINTERNAL';
    } else {
      if (lpt.value.isZero()) return 'tecAMM_EMPTY';
      if (balance.value.signum() <= 0 || balance2.value.signum() <= 0) return 'tecINTERNAL';
    }
    for (const issue of [amm.asset, amm.asset2]) if (isFrozen(view, account, issue)) return 'tecFROZEN';
    const hasLine = trustLine(view, account, amm.account, amm.lptIssue.currency) !== undefined;
    const enough = (a: Amt): Ter => {
      if (isXrp(a.issue)) {
        if (xrpLiquid(view, account, config, hasLine ? 0 : 1) >= a.value.toBigInt()) return 'tesSUCCESS';
        return hasLine ? 'tecUNFUNDED_AMM' : 'tecINSUF_RESERVE_LINE';
      }
      return account === a.issue.issuer || accountFunds(view, account, a.issue, config).value.ge(a.value)
        ? 'tesSUCCESS'
        : 'tecUNFUNDED_AMM';
    };
    const check = (a: Amt | undefined, withBalance: boolean): Ter => {
      if (!a) return 'tesSUCCESS';
      if (isFrozen(view, amm.account, a.issue)) return 'tecFROZEN';
      if (isIndividualFrozen(view, account, a.issue)) return 'tecFROZEN';
      return withBalance ? enough(a) : 'tesSUCCESS';
    };
    const amount = readAmountField(tx, 'Amount');
    const amount2 = readAmountField(tx, 'Amount2');
    if (!(flags & TF_DEPOSIT.lpToken)) {
      for (const a of [amount, amount2]) {
        const r = check(a, true);
        if (r !== 'tesSUCCESS') return r;
      }
    } else {
      for (const a of [balance, balance2]) {
        const r = check(a, false);
        if (r !== 'tesSUCCESS') return r;
      }
    }
    const lpOut = readAmountField(tx, 'LPTokenOut');
    if (lpOut && !sameIssue(lpOut.issue, lpt.issue)) return 'temBAD_AMM_TOKENS';
    if (lpHolds(view, amm, account).value.isZero() && xrpLiquid(view, account, config, 1) <= 0n)
      return 'tecINSUF_RESERVE_LINE';
    return 'tesSUCCESS';
  },

  doApply(ctx: ApplyContext): Ter {
    const { tx, account } = ctx;
    const view = ctx.view.sandbox();
    const amm = txAmm(view, tx)!;
    const amount = readAmountField(tx, 'Amount');
    const amount2 = readAmountField(tx, 'Amount2');
    const ePrice = readAmountField(tx, 'EPrice');
    const lpTokens = readAmountField(tx, 'LPTokenOut');
    const { balance, balance2, lpt } = ammHolds(view, amm, amount?.issue, true);
    const empty = lpt.value.isZero();
    const tfee = empty ? Number(tx.TradingFee ?? 0) : tradingFeeFor(amm, account, view.ctx.parentCloseTime);
    const flags = Number(tx.Flags ?? 0);
    let res: DepositResult;
    if (flags & TF_DEPOSIT.twoAsset)
      res = equalDepositLimit(balance, balance2, lpt, amount!, amount2!, lpTokens);
    else if (flags & TF_DEPOSIT.oneAssetLPToken)
      res = singleDepositTokens(balance, lpt, amount!, lpTokens!, tfee);
    else if (flags & TF_DEPOSIT.limitLPToken) res = singleDepositEPrice(balance, lpt, amount!, ePrice!, tfee);
    else if (flags & TF_DEPOSIT.singleAsset) res = singleDeposit(balance, lpt, amount!, tfee, lpTokens);
    else if (flags & TF_DEPOSIT.lpToken)
      res = equalDepositTokens(balance, balance2, lpt, lpTokens!, amount, amount2);
    else res = equalDepositInEmptyState(amount!, amount2!, lpt.issue);
    if (!('plan' in res)) return res.ter;
    const plan = res.plan;
    const hasLine = trustLine(view, account, amm.account, amm.lptIssue.currency) !== undefined;
    const funded = (a: Amt): Ter => {
      if (a.value.signum() <= 0) return 'temBAD_AMOUNT';
      if (isXrp(a.issue))
        return xrpLiquid(view, account, ctx.config, hasLine ? 0 : 1) >= a.value.toBigInt()
          ? 'tesSUCCESS'
          : 'tecUNFUNDED_AMM';
      return account === a.issue.issuer || accountFunds(view, account, a.issue, ctx.config).value.ge(a.value)
        ? 'tesSUCCESS'
        : 'tecUNFUNDED_AMM';
    };
    try {
      for (const a of plan.amount2 ? [plan.amount, plan.amount2] : [plan.amount]) {
        const ter = funded(a);
        if (ter !== 'tesSUCCESS') return ter;
        sendOrThrow(view, account, amm.account, a);
      }
      sendOrThrow(view, amm.account, account, plan.tokens);
    } catch (e) {
      if (e instanceof TerError) return e.ter;
      throw e;
    }
    const sle = view.peek(amm.index)!;
    sle.LPTokenBalance = amtToJson(addAmt(lpt, plan.tokens));
    if (empty) initializeFeeAuctionVote(view, sle, account, lpt.issue, tfee);
    view.update(sle);
    view.apply();
    return 'tesSUCCESS';
  },
};
