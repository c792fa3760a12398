// AccountDelete (rippled DeleteAccount.cpp): only accounts whose owner directory holds deletable
// objects (here: tickets) can go; the remaining XRP goes to the destination.
import { readAccount, xrpBalance } from '../account';
import type { LedgerEntry } from '../contract';
import { accountRootKey, depositPreauthKey, ownerDirKey } from '../keylets';
import { LSF, hasFlag } from '../ledger-flags';
import type { Ter } from '../results';
import type { ApplyView } from '../state/apply-view';
import { offerDelete } from '../book/funds';
import { deleteDelegate } from './delegate-set';
import { removeDepositPreauth } from './deposit-preauth';
import { removeSignerList } from './signer-list-set';
import { dirEntries, dirRemove, readU64 } from '../state/directory';
import { ownerDirIsEmpty } from '../state/owner-dir';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

const DELETABLE = new Set(['Ticket', 'Offer', 'SignerList', 'DepositPreauth', 'Delegate']);
const MAX_DELETABLE_DIR_ENTRIES = 1000;

/** rippled's nonObligationDeleter: how each deletable object leaves with its account. */
function removeOwned(view: ApplyView, e: LedgerEntry, account: string): Ter {
  switch (e.LedgerEntryType) {
    case 'Offer':
      return offerDelete(view, e);
    case 'SignerList':
      return removeSignerList(view, account);
    // Granted by this account, or to it: either way the grant goes (the grantor's reserve freed).
    case 'Delegate':
      return deleteDelegate(view, e);
    default:
      return removeDepositPreauth(view, e);
  }
}

export const accountDelete: Transactor = {
  preflight({ tx }: PreflightContext): Ter {
    if (tx.Account === tx.Destination) return 'temDST_IS_SRC';
    return 'tesSUCCESS';
  },

  baseFee(_tx, config): bigint {
    return config.reserveIncrement;
  },

  preclaim({ tx, view, account, ledgerSeq }: PreclaimContext): Ter {
    const dst = readAccount(view, tx.Destination as string);
    if (!dst) return 'tecNO_DST';
    if (hasFlag(dst.Flags, LSF.requireDestTag) && tx.DestinationTag === undefined) return 'tecDST_TAG_NEEDED';
    if (
      hasFlag(dst.Flags, LSF.depositAuth) &&
      !view.read(depositPreauthKey(tx.Destination as string, account))
    ) {
      return 'tecNO_PERMISSION';
    }
    const acct = readAccount(view, account);
    if (!acct) return 'terNO_ACCOUNT';
    if (Number(acct.Sequence) + 255 > ledgerSeq) return 'tecTOO_SOON';
    if (ownerDirIsEmpty(view, account)) return 'tesSUCCESS';
    let n = 0;
    for (const key of dirEntries(view, ownerDirKey(account))) {
      const e = view.read(key);
      if (!e || !DELETABLE.has(e.LedgerEntryType)) return 'tecHAS_OBLIGATIONS';
      if (++n > MAX_DELETABLE_DIR_ENTRIES) return 'tefTOO_BIG';
    }
    return 'tesSUCCESS';
  },

  doApply({ tx, view, account, sourceBalance, deliver }: ApplyContext): Ter {
    const dirKey = ownerDirKey(account);
    for (const key of [...dirEntries(view, dirKey)]) {
      const e = view.read(key) as LedgerEntry;
      if (e.LedgerEntryType !== 'Ticket') {
        const ter = removeOwned(view, e, account);
        if (ter !== 'tesSUCCESS') return ter;
        continue;
      }
      if (!dirRemove(view, dirKey, readU64(e, 'OwnerNode'), key, false)) return 'tefBAD_LEDGER';
      view.erase(key);
    }
    const src = view.peek(accountRootKey(account)) as LedgerEntry;
    const dst = view.peek(accountRootKey(tx.Destination as string)) as LedgerEntry;
    dst.Balance = (xrpBalance(dst) + sourceBalance).toString();
    src.Balance = (xrpBalance(src) - sourceBalance).toString();
    src.OwnerCount = 0;
    if ('TicketCount' in src) delete src.TicketCount;
    deliver(sourceBalance.toString());
    // rippled emptyDirDelete: a root left empty (objects removed with keepRoot, e.g. a cashed
    // Check or a finished escrow) goes with the account; one still listing entries blocks it.
    const dirRoot = view.read(dirKey);
    if (dirRoot) {
      if (!ownerDirIsEmpty(view, account)) return 'tecHAS_OBLIGATIONS';
      view.erase(dirRoot);
    }
    if (sourceBalance > 0n && hasFlag(dst.Flags, LSF.passwordSpent))
      dst.Flags = (Number(dst.Flags) & ~LSF.passwordSpent) >>> 0;
    view.update(dst);
    view.erase(src);
    return 'tesSUCCESS';
  },
};
