// Clawback of issued currencies (rippled Clawback.cpp): Amount.issuer names the holder.
import { readAccount } from '../account';
import { parseAmount } from '../amount/amount';
import type { Ter } from '../results';
import { LSF, hasFlag } from '../ledger-flags';
import { accountHoldsIou, isHigh, readLine, rippleCredit } from '../trust-lines';
import { IouValue } from '../amount/iou-value';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

export const clawback: Transactor = {
  preflight({ tx }: PreflightContext): Ter {
    const amount = parseAmount(tx.Amount);
    if (!amount) return 'temBAD_AMOUNT';
    if (amount.kind === 'xrp') return 'temBAD_AMOUNT';
    if (tx.Holder !== undefined) return 'temMALFORMED';
    if (amount.issuer === tx.Account || amount.value.signum() <= 0) return 'temBAD_AMOUNT';
    return 'tesSUCCESS';
  },

  preclaim({ tx, view, account }: PreclaimContext): Ter {
    const amount = parseAmount(tx.Amount);
    if (!amount || amount.kind !== 'iou') return 'temBAD_AMOUNT';
    const holder = amount.issuer;
    const issuerAcct = readAccount(view, account);
    const holderAcct = readAccount(view, holder);
    if (!issuerAcct || !holderAcct) return 'terNO_ACCOUNT';
    if (holderAcct.AMMID !== undefined) return 'tecAMM_ACCOUNT';
    if (!hasFlag(issuerAcct.Flags, LSF.allowTrustLineClawback) || hasFlag(issuerAcct.Flags, LSF.noFreeze)) {
      return 'tecNO_PERMISSION';
    }
    const line = readLine(view, holder, account, amount.currency);
    if (!line) return 'tecNO_LINE';
    const balance = IouValue.parse((line.Balance as { value: string }).value);
    const issuerHigh = isHigh(account, holder);
    if (balance.signum() > 0 && !issuerHigh) return 'tecNO_PERMISSION';
    if (balance.signum() < 0 && issuerHigh) return 'tecNO_PERMISSION';
    if (accountHoldsIou(view, holder, amount.currency, account, false).signum() <= 0)
      return 'tecINSUFFICIENT_FUNDS';
    return 'tesSUCCESS';
  },

  doApply({ tx, view, account }: ApplyContext): Ter {
    const amount = parseAmount(tx.Amount);
    if (!amount || amount.kind !== 'iou') return 'tefINTERNAL';
    const holder = amount.issuer;
    const spendable = accountHoldsIou(view, holder, amount.currency, account, false);
    return rippleCredit(view, holder, account, amount.currency, spendable.min(amount.value));
  },
};
