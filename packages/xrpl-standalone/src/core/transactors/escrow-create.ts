// EscrowCreate (rippled Escrow.cpp): set XRP, or with TokenEscrow (XLS-85) a trust-line token,
// aside until FinishAfter and/or a crypto-condition is met, returnable after CancelAfter. The
// escrow is one owner-reserved object linked from the owner's, the destination's and (tokens) the
// issuer's directories; escrowed tokens leave the holder's trust line and the issuer's transfer
// rate is captured.
import { accountReserve, adjustOwnerCount, readAccount, xrpBalance } from '../account';
import { isValidAddress } from '../account-id';
import { amountToJson, type Amount } from '../amount/amount';
import { currencyToHex, isBadCurrency } from '../amount/currency';
import type { JsonObject, LedgerEntry } from '../contract';
import { parseCondition } from '../crypto-condition';
import { accountRootKey, escrowKey, ownerDirKey } from '../keylets';
import { LSF, hasFlag } from '../ledger-flags';
import type { Ter } from '../results';
import { dirInsert, u64Json } from '../state/directory';
import {
  QUALITY_ONE,
  accountHoldsIou,
  isFrozen,
  readLine,
  requireAuth,
  rippleCredit,
  transferRate,
  ownerDescribe,
} from '../trust-lines';
import { balanceOnHolderSide, canAddTokens, escrowAmount, isMptAmount, timePassed } from './escrow-common';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

export const escrowCreate: Transactor = {
  preflight({ tx, rules }: PreflightContext): Ter {
    if (isMptAmount(tx.Amount)) {
      // MPT escrows (XLS-85 with MPTokensV1): there are no MPT issuances on this ledger.
      if (!rules.enabled('TokenEscrow')) return 'temBAD_AMOUNT';
      return rules.enabled('MPTokensV1') ? 'tesSUCCESS' : 'temDISABLED';
    }
    const amount = escrowAmount(tx.Amount);
    if (!amount) return 'temBAD_AMOUNT';
    if (amount.kind === 'iou') {
      if (!rules.enabled('TokenEscrow')) return 'temBAD_AMOUNT';
      if (amount.value.signum() <= 0) return 'temBAD_AMOUNT';
      if (isBadCurrency(currencyToHex(amount.currency) as string)) return 'temBAD_CURRENCY';
    } else if (amount.drops <= 0n) {
      return 'temBAD_AMOUNT';
    }
    if (!isValidAddress(tx.Destination)) return 'temMALFORMED';
    const cancelAfter = tx.CancelAfter;
    const finishAfter = tx.FinishAfter;
    if (cancelAfter === undefined && finishAfter === undefined) return 'temBAD_EXPIRATION';
    if (cancelAfter !== undefined && finishAfter !== undefined && Number(cancelAfter) <= Number(finishAfter))
      return 'temBAD_EXPIRATION';
    // Without FinishAfter an escrow could be finished at once: a condition is then required.
    if (finishAfter === undefined && tx.Condition === undefined) return 'temMALFORMED';
    if (tx.Condition !== undefined && !parseCondition(tx.Condition as string)) return 'temMALFORMED';
    return 'tesSUCCESS';
  },

  preclaim({ tx, view, account, rules }: PreclaimContext): Ter {
    const dest = tx.Destination as string;
    const sled = readAccount(view, dest);
    if (!sled) return 'tecNO_DST';
    // A pseudo-account (an AMM's) cannot receive an escrow.
    if (sled.AMMID !== undefined) return 'tecNO_PERMISSION';
    if (isMptAmount(tx.Amount)) return 'tecOBJECT_NOT_FOUND';
    const amount = escrowAmount(tx.Amount) as Amount;
    if (amount.kind === 'xrp') return 'tesSUCCESS';
    if (!rules.enabled('TokenEscrow')) return 'temDISABLED';
    const { issuer, currency } = amount;
    if (issuer === account) return 'tecNO_PERMISSION';
    const sleIssuer = readAccount(view, issuer);
    if (!sleIssuer) return 'tecNO_ISSUER';
    if (!hasFlag(sleIssuer.Flags, LSF.allowTrustLineLocking)) return 'tecNO_PERMISSION';
    const line = readLine(view, account, issuer, currency);
    if (!line) return 'tecNO_LINE';
    if (!balanceOnHolderSide(account, issuer, line)) return 'tecNO_PERMISSION';
    let ter = requireAuth(view, account, currency, issuer);
    if (ter !== 'tesSUCCESS') return ter;
    ter = requireAuth(view, dest, currency, issuer);
    if (ter !== 'tesSUCCESS') return ter;
    if (isFrozen(view, account, currency, issuer)) return 'tecFROZEN';
    if (isFrozen(view, dest, currency, issuer)) return 'tecFROZEN';
    // What the holder can lock: its line balance, frozen or not (the freeze was checked above).
    const spendable = accountHoldsIou(view, account, currency, issuer, false);
    if (spendable.signum() <= 0 || spendable.lt(amount.value)) return 'tecINSUFFICIENT_FUNDS';
    if (!canAddTokens(spendable, amount.value, rules)) return 'tecPRECISION_LOSS';
    return 'tesSUCCESS';
  },

  doApply({ tx, view, account, config, sourceBalance }: ApplyContext): Ter {
    const now = view.ctx.parentCloseTime;
    if (tx.CancelAfter !== undefined && timePassed(now, tx.CancelAfter)) return 'tecNO_PERMISSION';
    if (tx.FinishAfter !== undefined && timePassed(now, tx.FinishAfter)) return 'tecNO_PERMISSION';
    const owner = readAccount(view, account) as LedgerEntry;
    const reserve = accountReserve(config, Number(owner.OwnerCount ?? 0) + 1);
    if (sourceBalance < reserve) return 'tecINSUFFICIENT_RESERVE';
    const amount = escrowAmount(tx.Amount) as Amount;
    if (amount.kind === 'xrp' && sourceBalance < reserve + amount.drops) return 'tecUNFUNDED';
    const dest = tx.Destination as string;
    const sled = readAccount(view, dest);
    if (!sled) return 'tecNO_DST';
    if (hasFlag(sled.Flags, LSF.requireDestTag) && tx.DestinationTag === undefined)
      return 'tecDST_TAG_NEEDED';

    // The escrow is keyed by the sequence the transaction consumed (or its ticket).
    const sequence = Number(tx.TicketSequence ?? tx.Sequence);
    const index = escrowKey(account, sequence);
    const escrow: JsonObject = {
      LedgerEntryType: 'Escrow',
      Flags: 0,
      Account: account,
      Destination: dest,
      Amount: amountToJson(amount),
    };
    if (tx.Condition !== undefined) escrow.Condition = tx.Condition;
    if (tx.CancelAfter !== undefined) escrow.CancelAfter = tx.CancelAfter;
    if (tx.FinishAfter !== undefined) escrow.FinishAfter = tx.FinishAfter;
    if (tx.SourceTag !== undefined) escrow.SourceTag = tx.SourceTag;
    if (tx.DestinationTag !== undefined) escrow.DestinationTag = tx.DestinationTag;
    if (amount.kind === 'iou') {
      const rate = transferRate(view, amount.issuer);
      if (rate !== QUALITY_ONE) escrow.TransferRate = Number(rate);
    }
    const ownerPage = dirInsert(view, ownerDirKey(account), index, ownerDescribe(account));
    if (ownerPage === undefined) return 'tecDIR_FULL';
    escrow.OwnerNode = u64Json(ownerPage);
    if (dest !== account) {
      const page = dirInsert(view, ownerDirKey(dest), index, ownerDescribe(dest));
      if (page === undefined) return 'tecDIR_FULL';
      escrow.DestinationNode = u64Json(page);
    }
    // Token escrows are also listed under the issuer, so it can total what is locked.
    if (amount.kind === 'iou' && amount.issuer !== account && amount.issuer !== dest) {
      const page = dirInsert(view, ownerDirKey(amount.issuer), index, ownerDescribe(amount.issuer));
      if (page === undefined) return 'tecDIR_FULL';
      escrow.IssuerNode = u64Json(page);
    }
    escrow.PreviousTxnID = '0'.repeat(64);
    escrow.PreviousTxnLgrSeq = 0;
    view.insert({ ...escrow, index } as LedgerEntry);

    if (amount.kind === 'xrp') {
      const root = view.peek(accountRootKey(account)) as LedgerEntry;
      root.Balance = (xrpBalance(root) - amount.drops).toString();
      view.update(root);
    } else {
      const ter = rippleCredit(view, account, amount.issuer, amount.currency, amount.value);
      if (ter !== 'tesSUCCESS') return ter;
    }
    adjustOwnerCount(view, account, 1);
    return 'tesSUCCESS';
  },
};
