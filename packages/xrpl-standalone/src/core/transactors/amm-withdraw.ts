// AMMWithdraw (rippled AMMWithdraw.cpp): every withdrawal mode; amounts from src/amm/withdraw.ts,
// then assets leave the pool, LP tokens are redeemed, and an emptied pool is deleted.
import { accountReserve } from '../account';
import type { Ter } from '../results';
import { type Amt, isXrp, sameIssue, subAmt } from '../../amm/amount';
import {
  equalWithdrawLimit,
  equalWithdrawTokens,
  singleWithdraw,
  singleWithdrawEPrice,
  singleWithdrawTokens,
  type WithdrawContext,
  type WithdrawResult,
} from '../../amm/withdraw';
import { amtToJson, isFrozen, readAccount, tradingFeeFor, trustLine } from '../book/read';
import {
  TerError,
  ammHolds,
  deleteAmmAccount,
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

export const TF_WITHDRAW = {
  lpToken: 0x00010000,
  withdrawAll: 0x00020000,
  oneAssetWithdrawAll: 0x00040000,
  singleAsset: 0x00080000,
  twoAsset: 0x00100000,
  oneAssetLPToken: 0x00200000,
  limitLPToken: 0x00400000,
};
const SUB_TX = Object.values(TF_WITHDRAW).reduce((a, b) => a | b, 0);

export const ammWithdraw: Transactor = {
  flagsMask: SUB_TX,

  preflight({ tx }: PreflightContext): Ter {
    const flags = Number(tx.Flags ?? 0);
    const amount = readAmountField(tx, 'Amount');
    const amount2 = readAmountField(tx, 'Amount2');
    const ePrice = readAmountField(tx, 'EPrice');
    const lpTokens = readAmountField(tx, 'LPTokenIn');
    if (popcount(flags & SUB_TX) !== 1) return 'temMALFORMED';
    if (flags & TF_WITHDRAW.lpToken) {
      if (!lpTokens || amount || amount2 || ePrice) return 'temMALFORMED';
    } else if (flags & TF_WITHDRAW.withdrawAll) {
      if (lpTokens || amount || amount2 || ePrice) return 'temMALFORMED';
    } else if (flags & TF_WITHDRAW.oneAssetWithdrawAll || flags & TF_WITHDRAW.singleAsset) {
      if (!amount || lpTokens || amount2 || ePrice) return 'temMALFORMED';
    } else if (flags & TF_WITHDRAW.twoAsset) {
      if (!amount || !amount2 || lpTokens || ePrice) return 'temMALFORMED';
    } else if (flags & TF_WITHDRAW.oneAssetLPToken) {
      if (!amount || !lpTokens || amount2 || ePrice) return 'temMALFORMED';
    } else if (flags & TF_WITHDRAW.limitLPToken) {
      if (!amount || !ePrice || lpTokens || amount2) return 'temMALFORMED';
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
      const zeroOk =
        (flags & (TF_WITHDRAW.oneAssetWithdrawAll | TF_WITHDRAW.oneAssetLPToken)) !== 0 ||
        ePrice !== undefined;
      const r = invalidAmount(amount, pair, zeroOk);
      if (r !== 'tesSUCCESS') return r;
    }
    if (amount2) {
      const r = invalidAmount(amount2, pair);
      if (r !== 'tesSUCCESS') return r;
    }
    if (ePrice) {
      const r = invalidAmount(ePrice);
      if (r !== 'tesSUCCESS') return r;
    }
    return 'tesSUCCESS';
  },

  preclaim({ tx, account, view }: PreclaimContext): Ter {
    const amm = txAmm(view, tx);
    if (!amm) return 'terNO_AMM';
    const amount = readAmountField(tx, 'Amount');
    const amount2 = readAmountField(tx, 'Amount2');
    const { balance, balance2, lpt } = ammHolds(view, amm, amount?.issue, false);
    if (lpt.value.isZero()) return 'tecAMM_EMPTY';
    if (balance.value.signum() <= 0 || balance2.value.signum() <= 0) return 'tecINTERNAL';
    const check = (a: Amt | undefined, bal: Amt): Ter => {
      if (!a) return 'tesSUCCESS';
      if (a.value.gt(bal.value)) return 'tecAMM_BALANCE';
      if (isFrozen(view, amm.account, a.issue)) return 'tecFROZEN';
      if (isIndividualFrozen(view, account, a.issue)) return 'tecFROZEN';
      return 'tesSUCCESS';
    };
    let r = check(amount, balance);
    if (r !== 'tesSUCCESS') return r;
    r = check(amount2, amount2 && sameIssue(amount2.issue, balance.issue) ? balance : balance2);
    if (r !== 'tesSUCCESS') return r;
    const held = lpHolds(view, amm, account);
    const flags = Number(tx.Flags ?? 0);
    const lpIn = readAmountField(tx, 'LPTokenIn');
    const withdraw = flags & (TF_WITHDRAW.withdrawAll | TF_WITHDRAW.oneAssetWithdrawAll) ? held : lpIn;
    if (held.value.signum() <= 0) return 'tecAMM_BALANCE';
    if (withdraw && !sameIssue(withdraw.issue, held.issue)) return 'temBAD_AMM_TOKENS';
    if (withdraw && withdraw.value.gt(held.value)) return 'tecAMM_INVALID_TOKENS';
    const ePrice = readAmountField(tx, 'EPrice');
    if (ePrice && !sameIssue(ePrice.issue, held.issue)) return 'temBAD_AMM_TOKENS';
    if (flags & (TF_WITHDRAW.lpToken | TF_WITHDRAW.withdrawAll)) {
      for (const bal of [balance, balance2]) {
        if (isFrozen(view, amm.account, bal.issue) || isIndividualFrozen(view, account, bal.issue))
          return 'tecFROZEN';
      }
    }
    return 'tesSUCCESS';
  },

  doApply(ctx: ApplyContext): Ter {
    const { tx, account } = ctx;
    const view = ctx.view.sandbox();
    const amm = txAmm(view, tx)!;
    const flags = Number(tx.Flags ?? 0);
    const amount = readAmountField(tx, 'Amount');
    const amount2 = readAmountField(tx, 'Amount2');
    const ePrice = readAmountField(tx, 'EPrice');
    const { balance, balance2, lpt } = ammHolds(view, amm, amount?.issue, true);
    const tfee = tradingFeeFor(amm, account, view.ctx.parentCloseTime);
    const held = lpHolds(view, amm, account);
    const withdrawAll = (flags & (TF_WITHDRAW.withdrawAll | TF_WITHDRAW.oneAssetWithdrawAll)) !== 0;
    const tokensIn = withdrawAll ? held : readAmountField(tx, 'LPTokenIn');
    const wctx: WithdrawContext = { balance, balance2, lptBalance: lpt, lpHolding: held, tfee, withdrawAll };
    let res: WithdrawResult;
    if (flags & TF_WITHDRAW.twoAsset) res = equalWithdrawLimit(wctx, amount!, amount2!);
    else if (flags & (TF_WITHDRAW.oneAssetLPToken | TF_WITHDRAW.oneAssetWithdrawAll))
      res = singleWithdrawTokens(wctx, balance, amount!, tokensIn!);
    else if (flags & TF_WITHDRAW.limitLPToken) res = singleWithdrawEPrice(wctx, balance, amount!, ePrice!);
    else if (flags & TF_WITHDRAW.singleAsset) res = singleWithdraw(wctx, balance, amount!);
    else res = equalWithdrawTokens(wctx, tokensIn!);
    if (!('plan' in res)) return res.ter;
    const plan = res.plan;
    try {
      for (const a of plan.amount2 ? [plan.amount, plan.amount2] : [plan.amount]) {
        if (
          !isXrp(a.issue) &&
          account !== a.issue.issuer &&
          !trustLine(view, account, a.issue.issuer, a.issue.currency)
        ) {
          // A new trust line for the withdrawn token needs the reserve (fixAMMv1_2).
          const root = readAccount(view, account)!;
          const count = Number(root.OwnerCount ?? 0);
          const reserve = count < 2 ? 0n : accountReserve(ctx.config, count + 1);
          const bal = BigInt(String(root.Balance));
          if ((ctx.priorBalance > bal ? ctx.priorBalance : bal) < reserve) return 'tecINSUFFICIENT_RESERVE';
        }
        sendOrThrow(view, amm.account, account, a);
      }
      sendOrThrow(view, account, amm.account, plan.tokens);
    } catch (e) {
      if (e instanceof TerError) return e.ter;
      throw e;
    }
    const newBalance = subAmt(lpt, plan.tokens);
    if (newBalance.value.isZero()) {
      const ter = deleteAmmAccount(view, amm);
      if (ter !== 'tesSUCCESS') return ter;
    } else {
      const sle = view.peek(amm.index)!;
      sle.LPTokenBalance = amtToJson(newBalance);
      view.update(sle);
    }
    view.apply();
    return 'tesSUCCESS';
  },
};
