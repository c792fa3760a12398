// DelegateSet (rippled DelegateSet.cpp, PermissionDelegationV1_1): the account grants `Authorize`
// up to 10 permissions to send transactions for it — a new Delegate entry (one owner reserve on
// the account, listed in both accounts' directories so that deleting either account removes it),
// a replaced permission list, or, with an empty list, the entry deleted.
import { accountReserve, adjustOwnerCount, readAccount } from '../account';
import type { JsonObject, LedgerEntry } from '../contract';
import { MAX_PERMISSIONS, isDelegable, permissionValues } from '../delegation/permissions';
import { delegateKey, ownerDirKey } from '../keylets';
import type { Ter } from '../results';
import type { ApplyView } from '../state/apply-view';
import { dirInsert, dirRemove, readU64, u64Json } from '../state/directory';
import { ownerDescribe } from '../trust-lines';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

/**
 * rippled DelegateSet::deleteDelegate (also AccountDelete's, for either side of the grant):
 * unlink from both directories, release the delegating account's reserve, erase.
 */
export function deleteDelegate(view: ApplyView, entry: LedgerEntry): Ter {
  const owner = entry.Account as string;
  if (!dirRemove(view, ownerDirKey(owner), readU64(entry, 'OwnerNode'), entry.index, false))
    return 'tefBAD_LEDGER';
  if (entry.DestinationNode !== undefined) {
    const authorized = entry.Authorize as string;
    if (!dirRemove(view, ownerDirKey(authorized), readU64(entry, 'DestinationNode'), entry.index, false))
      return 'tefBAD_LEDGER';
  }
  adjustOwnerCount(view, owner, -1);
  view.erase(entry);
  return 'tesSUCCESS';
}

/** The transaction's list, copied: the ledger entry must not share objects with the tx JSON. */
function permissionsOf(tx: JsonObject): unknown[] {
  return Array.isArray(tx.Permissions) ? structuredClone(tx.Permissions) : [];
}

export const delegateSet: Transactor = {
  preflight({ tx, rules }: PreflightContext): Ter {
    if (!rules.enabled('PermissionDelegationV1_1')) return 'temDISABLED';
    if (!Array.isArray(tx.Permissions)) return 'temMALFORMED';
    if (tx.Permissions.length > MAX_PERMISSIONS) return 'temARRAY_TOO_LARGE';
    if (tx.Account === tx.Authorize) return 'temMALFORMED';
    const seen = new Set<number>();
    for (const value of permissionValues(tx.Permissions)) {
      if (value === undefined || seen.has(value)) return 'temMALFORMED';
      seen.add(value);
      if (!isDelegable(value, rules)) return 'temMALFORMED';
    }
    return 'tesSUCCESS';
  },

  preclaim({ tx, view, account }: PreclaimContext): Ter {
    const authorized = readAccount(view, tx.Authorize as string);
    if (!authorized) return 'tecNO_TARGET';
    // No delegating to a pseudo-account (an AMM's): its directory must stay the pool's own.
    if (authorized.AMMID !== undefined) return 'tecPSEUDO_ACCOUNT';
    if (permissionsOf(tx).length === 0 && !view.read(delegateKey(account, tx.Authorize as string)))
      return 'tecNO_ENTRY';
    return 'tesSUCCESS';
  },

  doApply({ tx, view, account, config, priorBalance }: ApplyContext): Ter {
    const authorized = tx.Authorize as string;
    const index = delegateKey(account, authorized);
    const permissions = permissionsOf(tx);
    const existing = view.peek(index);
    if (existing) {
      if (permissions.length === 0) return deleteDelegate(view, existing);
      existing.Permissions = permissions;
      view.update(existing);
      return 'tesSUCCESS';
    }
    if (permissions.length === 0) return 'tecINTERNAL';
    const owner = readAccount(view, account) as LedgerEntry;
    if (priorBalance < accountReserve(config, Number(owner.OwnerCount ?? 0) + 1))
      return 'tecINSUFFICIENT_RESERVE';
    const ownerPage = dirInsert(view, ownerDirKey(account), index, ownerDescribe(account));
    if (ownerPage === undefined) return 'tecDIR_FULL';
    const destinationPage = dirInsert(view, ownerDirKey(authorized), index, ownerDescribe(authorized));
    if (destinationPage === undefined) return 'tecDIR_FULL';
    view.insert({
      LedgerEntryType: 'Delegate',
      Flags: 0,
      Account: account,
      Authorize: authorized,
      Permissions: permissions,
      OwnerNode: u64Json(ownerPage),
      DestinationNode: u64Json(destinationPage),
      PreviousTxnID: '0'.repeat(64),
      PreviousTxnLgrSeq: 0,
      index,
    });
    adjustOwnerCount(view, account, 1);
    return 'tesSUCCESS';
  },
};
