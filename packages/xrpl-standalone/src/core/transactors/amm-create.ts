// AMMCreate (rippled AMMCreate.cpp): a new pool with its pseudo-account, LP tokens
// sqrt(amount * amount2) to the creator, who also gets the vote and the auction slot.
// The fee is one owner reserve.
import { readAccount } from '../account';
import type { JsonObject, LedgerEntry } from '../contract';
import { accountRootKey, ownerDirKey, trustLineKey } from '../keylets';
import type { Ter } from '../results';
import { dirInsert, u64Json } from '../state/directory';
import { ownerDescribe } from '../trust-lines';
import { type Issue, isXrp, sameIssue } from '../../amm/amount';
import { ammAccountId, ammIndex, ammLptCurrency, compareIssues } from '../../amm/ids';
import { ammLPTokens } from '../../amm/math';
import { accountFunds, amtToJson, issueToJson, readAmm, xrpLiquid } from '../book/read';
import {
  TRADING_FEE_THRESHOLD,
  TerError,
  initializeFeeAuctionVote,
  invalidAmount,
  isIndividualFrozen,
  readAmountField,
  sendOrThrow,
} from './amm-common';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';
import { LSF } from '../ledger-flags';

function noDefaultRipple(view: PreclaimContext['view'], issue: Issue): boolean {
  if (isXrp(issue)) return false;
  const acct = readAccount(view, issue.issuer);
  return acct !== undefined && (Number(acct.Flags ?? 0) & LSF.defaultRipple) === 0;
}

function requireAuth(view: PreclaimContext['view'], issue: Issue, account: string): Ter {
  if (isXrp(issue) || issue.issuer === account) return 'tesSUCCESS';
  const iss = readAccount(view, issue.issuer);
  if (!iss) return 'terNO_ACCOUNT';
  if ((Number(iss.Flags ?? 0) & LSF.requireAuth) === 0) return 'tesSUCCESS';
  const line = view.read(trustLineKey(account, issue.issuer, issue.currency));
  if (!line) return 'tecNO_LINE';
  const issuerHigh = (line.HighLimit as { issuer: string }).issuer === issue.issuer;
  return (Number(line.Flags ?? 0) & (issuerHigh ? LSF.highAuth : LSF.lowAuth)) !== 0
    ? 'tesSUCCESS'
    : 'tecNO_AUTH';
}

export const ammCreate: Transactor = {
  baseFee: (_tx: JsonObject, config) => config.reserveIncrement,

  preflight({ tx }: PreflightContext): Ter {
    const amount = readAmountField(tx, 'Amount');
    const amount2 = readAmountField(tx, 'Amount2');
    if (!amount || !amount2) return 'temMALFORMED';
    if (sameIssue(amount.issue, amount2.issue)) return 'temBAD_AMM_TOKENS';
    const r1 = invalidAmount(amount);
    if (r1 !== 'tesSUCCESS') return r1;
    const r2 = invalidAmount(amount2);
    if (r2 !== 'tesSUCCESS') return r2;
    if (Number(tx.TradingFee ?? 0) > TRADING_FEE_THRESHOLD) return 'temBAD_FEE';
    return 'tesSUCCESS';
  },

  preclaim({ tx, account, view, config }: PreclaimContext): Ter {
    const amount = readAmountField(tx, 'Amount')!;
    const amount2 = readAmountField(tx, 'Amount2')!;
    if (readAmm(view, amount.issue, amount2.issue)) return 'tecDUPLICATE';
    for (const a of [amount, amount2]) {
      const ter = requireAuth(view, a.issue, account);
      if (ter !== 'tesSUCCESS') return ter;
    }
    if (isIndividualFrozen(view, account, amount.issue) || isIndividualFrozen(view, account, amount2.issue))
      return 'tecFROZEN';
    for (const a of [amount, amount2]) {
      if (!isXrp(a.issue)) {
        const iss = readAccount(view, a.issue.issuer);
        if (iss && (Number(iss.Flags ?? 0) & LSF.globalFreeze) !== 0) return 'tecFROZEN';
      }
    }
    if (noDefaultRipple(view, amount.issue) || noDefaultRipple(view, amount2.issue)) return 'terNO_RIPPLE';
    const insufficient = (a: typeof amount): boolean => {
      if (isXrp(a.issue)) return xrpLiquid(view, account, config, 1) < a.value.toBigInt();
      return account !== a.issue.issuer && accountFunds(view, account, a.issue, config).value.lt(a.value);
    };
    if (insufficient(amount) || insufficient(amount2)) return 'tecUNFUNDED_AMM';
    const isLpToken = (a: typeof amount): boolean =>
      !isXrp(a.issue) && readAccount(view, a.issue.issuer)?.AMMID !== undefined;
    if (isLpToken(amount) || isLpToken(amount2)) return 'tecAMM_INVALID_TOKENS';
    return 'tesSUCCESS';
  },

  doApply(ctx: ApplyContext): Ter {
    const { tx, account } = ctx;
    const view = ctx.view.sandbox();
    const amount = readAmountField(tx, 'Amount')!;
    const amount2 = readAmountField(tx, 'Amount2')!;
    const index = ammIndex(amount.issue, amount2.issue);
    // The pseudo-account comes from the parent ledger hash and the AMM index; retry on collision.
    const parentHash = parentLedgerHash(ctx);
    let ammAccount: string | undefined;
    for (let i = 0; i < 256 && !ammAccount; i++) {
      const candidate = ammAccountId(i, parentHash, index);
      if (!view.read(accountRootKey(candidate))) ammAccount = candidate;
    }
    if (!ammAccount) return 'tecDUPLICATE';
    const lptIssue: Issue = {
      currency: ammLptCurrency(amount.issue.currency, amount2.issue.currency),
      issuer: ammAccount,
    };
    if (view.read(trustLineKey(ammAccount, account, lptIssue.currency))) return 'tecDUPLICATE';
    const root: LedgerEntry = {
      LedgerEntryType: 'AccountRoot',
      Account: ammAccount,
      AMMID: index,
      Balance: '0',
      Flags: LSF.disableMaster | LSF.defaultRipple | LSF.depositAuth,
      OwnerCount: 0,
      PreviousTxnID: '0'.repeat(64),
      PreviousTxnLgrSeq: 0,
      Sequence: view.ledgerSeq,
      index: accountRootKey(ammAccount),
    };
    view.insert(root);
    const lpTokens = ammLPTokens(amount, amount2, lptIssue);
    const [first, second] =
      compareIssues(amount.issue, amount2.issue) <= 0
        ? [amount.issue, amount2.issue]
        : [amount2.issue, amount.issue];
    const amm: LedgerEntry = {
      LedgerEntryType: 'AMM',
      Account: ammAccount,
      Asset: issueToJson(first),
      Asset2: issueToJson(second),
      Flags: 0,
      LPTokenBalance: amtToJson(lpTokens),
      OwnerNode: '0',
      index,
    };
    initializeFeeAuctionVote(view, amm, account, lptIssue, Number(tx.TradingFee ?? 0));
    const page = dirInsert(view, ownerDirKey(ammAccount), index, ownerDescribe(ammAccount));
    if (page === undefined) return 'tecDIR_FULL';
    amm.OwnerNode = u64Json(page);
    view.insert(amm);
    try {
      sendOrThrow(view, ammAccount, account, lpTokens);
      for (const a of [amount, amount2]) {
        sendOrThrow(view, account, ammAccount, a);
        if (!isXrp(a.issue)) {
          const key = trustLineKey(ammAccount, a.issue.issuer, a.issue.currency);
          const line = view.peek(key);
          if (!line) return 'tecINTERNAL';
          line.Flags = (Number(line.Flags ?? 0) | LSF.ammNode) >>> 0;
          view.update(line);
        }
      }
    } catch (e) {
      if (e instanceof TerError) return e.ter;
      throw e;
    }
    view.apply();
    return 'tesSUCCESS';
  },
};

function parentLedgerHash(ctx: ApplyContext): string {
  return ctx.view.ctx.parentHash ?? '0'.repeat(64);
}
