// DepositPreauth (rippled DepositPreauth.cpp), account form: let a sender pay an account that has
// DepositAuth set, or withdraw that permission.
import { accountReserve, adjustOwnerCount, readAccount } from '../account';
import { ACCOUNT_ZERO, isValidAddress } from '../account-id';
import type { LedgerEntry } from '../contract';
import { depositPreauthKey, ownerDirKey } from '../keylets';
import type { Ter } from '../results';
import type { ApplyView } from '../state/apply-view';
import { dirInsert, dirRemove, readU64, u64Json } from '../state/directory';
import { ownerDescribe } from '../trust-lines';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

/** Remove a DepositPreauth entry and its reserve (also used by AccountDelete). */
export function removeDepositPreauth(view: ApplyView, entry: LedgerEntry): Ter {
  const owner = entry.Account as string;
  if (!dirRemove(view, ownerDirKey(owner), readU64(entry, 'OwnerNode'), entry.index, false))
    return 'tefBAD_LEDGER';
  adjustOwnerCount(view, owner, -1);
  view.erase(entry);
  return 'tesSUCCESS';
}

export const depositPreauth: Transactor = {
  preflight({ tx }: PreflightContext): Ter {
    const auth = tx.Authorize;
    const unauth = tx.Unauthorize;
    if ((auth === undefined) === (unauth === undefined)) return 'temMALFORMED';
    const target = (auth ?? unauth) as string;
    if (!isValidAddress(target) || target === ACCOUNT_ZERO) return 'temINVALID_ACCOUNT_ID';
    if (target === tx.Account) return 'temCANNOT_PREAUTH_SELF';
    return 'tesSUCCESS';
  },

  preclaim({ tx, view, account }: PreclaimContext): Ter {
    if (tx.Authorize !== undefined) {
      if (!readAccount(view, tx.Authorize as string)) return 'tecNO_TARGET';
      if (view.read(depositPreauthKey(account, tx.Authorize as string))) return 'tecDUPLICATE';
    } else if (!view.read(depositPreauthKey(account, tx.Unauthorize as string))) {
      return 'tecNO_ENTRY';
    }
    return 'tesSUCCESS';
  },

  doApply({ tx, view, account, config, priorBalance }: ApplyContext): Ter {
    if (tx.Unauthorize !== undefined) {
      return removeDepositPreauth(
        view,
        view.read(depositPreauthKey(account, tx.Unauthorize as string)) as LedgerEntry,
      );
    }
    const acct = readAccount(view, account) as LedgerEntry;
    if (priorBalance < accountReserve(config, Number(acct.OwnerCount ?? 0) + 1))
      return 'tecINSUFFICIENT_RESERVE';
    const index = depositPreauthKey(account, tx.Authorize as string);
    const page = dirInsert(view, ownerDirKey(account), index, ownerDescribe(account));
    if (page === undefined) return 'tecDIR_FULL';
    view.insert({
      LedgerEntryType: 'DepositPreauth',
      Flags: 0,
      Account: account,
      Authorize: tx.Authorize,
      OwnerNode: u64Json(page),
      PreviousTxnID: '0'.repeat(64),
      PreviousTxnLgrSeq: 0,
      index,
    });
    adjustOwnerCount(view, account, 1);
    return 'tesSUCCESS';
  },
};
