// SignerListSet (rippled SetSignerList.cpp): create, replace or delete the account's signer list.
// With MultiSignReserve the list costs one owner reserve (lsfOneOwnerCount).
import { accountReserve, adjustOwnerCount, readAccount } from '../account';
import { accountIdHex, isValidAddress } from '../account-id';
import type { LedgerEntry } from '../contract';
import { ownerDirKey, signerListKey } from '../keylets';
import { LSF, hasFlag } from '../ledger-flags';
import { MAX_MULTI_SIGNERS } from '../multisign';
import type { Ter } from '../results';
import type { ApplyView } from '../state/apply-view';
import { dirInsert, dirRemove, readU64, u64Json } from '../state/directory';
import { ownerDescribe } from '../trust-lines';
import type { ApplyContext, PreflightContext, Transactor } from './types';

const LSF_ONE_OWNER_COUNT = 0x00010000;

interface Entry {
  Account: string;
  SignerWeight: number;
  WalletLocator?: string;
}

function entriesOf(tx: Record<string, unknown>): Entry[] | undefined {
  if (!Array.isArray(tx.SignerEntries)) return undefined;
  const out: Entry[] = [];
  for (const w of tx.SignerEntries as Array<{ SignerEntry?: Entry }>) {
    const e = w.SignerEntry;
    if (!e || !isValidAddress(e.Account) || typeof e.SignerWeight !== 'number') return undefined;
    out.push(e);
  }
  // rippled sorts the entries by account before validating and storing them.
  return out.sort((a, b) =>
    accountIdHex(a.Account) < accountIdHex(b.Account)
      ? -1
      : accountIdHex(a.Account) > accountIdHex(b.Account)
        ? 1
        : 0,
  );
}

/** rippled removeSignersFromLedger (also used by AccountDelete). */
export function removeSignerList(view: ApplyView, account: string): Ter {
  const key = signerListKey(account);
  const list = view.read(key);
  if (!list) return 'tesSUCCESS';
  if (!dirRemove(view, ownerDirKey(account), readU64(list, 'OwnerNode'), key, false)) return 'tefBAD_LEDGER';
  // Lists created before MultiSignReserve cost 2 + one per signer.
  const count = hasFlag(list.Flags, LSF_ONE_OWNER_COUNT)
    ? 1
    : 2 + ((list.SignerEntries as unknown[]) ?? []).length;
  adjustOwnerCount(view, account, -count);
  view.erase(key);
  return 'tesSUCCESS';
}

export const signerListSet: Transactor = {
  preflight({ tx }: PreflightContext): Ter {
    const quorum = Number(tx.SignerQuorum ?? 0);
    const has = tx.SignerEntries !== undefined;
    if (quorum === 0 && !has) return 'tesSUCCESS';
    if (quorum === 0 || !has) return 'temMALFORMED';
    const entries = entriesOf(tx);
    if (!entries || entries.length < 1 || entries.length > MAX_MULTI_SIGNERS) return 'temMALFORMED';
    let total = 0;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i] as Entry;
      if (i > 0 && (entries[i - 1] as Entry).Account === e.Account) return 'temBAD_SIGNER';
      if (e.SignerWeight <= 0) return 'temBAD_WEIGHT';
      total += e.SignerWeight;
      if (e.Account === tx.Account) return 'temBAD_SIGNER';
    }
    if (quorum <= 0 || total < quorum) return 'temBAD_QUORUM';
    return 'tesSUCCESS';
  },

  doApply({ tx, view, account, config, priorBalance }: ApplyContext): Ter {
    const quorum = Number(tx.SignerQuorum ?? 0);
    if (quorum === 0) {
      const acct = readAccount(view, account) as LedgerEntry;
      if (hasFlag(acct.Flags, LSF.disableMaster) && acct.RegularKey === undefined)
        return 'tecNO_ALTERNATIVE_KEY';
      return removeSignerList(view, account);
    }
    const removed = removeSignerList(view, account);
    if (removed !== 'tesSUCCESS') return removed;
    const acct = readAccount(view, account) as LedgerEntry;
    if (priorBalance < accountReserve(config, Number(acct.OwnerCount ?? 0) + 1))
      return 'tecINSUFFICIENT_RESERVE';
    const key = signerListKey(account);
    const page = dirInsert(view, ownerDirKey(account), key, ownerDescribe(account));
    if (page === undefined) return 'tecDIR_FULL';
    const entries = entriesOf(tx) as Entry[];
    view.insert({
      LedgerEntryType: 'SignerList',
      Flags: LSF_ONE_OWNER_COUNT,
      OwnerNode: u64Json(page),
      PreviousTxnID: '0'.repeat(64),
      PreviousTxnLgrSeq: 0,
      SignerEntries: entries.map((e) => ({
        SignerEntry: {
          Account: e.Account,
          SignerWeight: e.SignerWeight,
          ...(e.WalletLocator !== undefined ? { WalletLocator: e.WalletLocator } : {}),
        },
      })),
      SignerListID: 0,
      SignerQuorum: quorum,
      index: key,
    });
    adjustOwnerCount(view, account, 1);
    return 'tesSUCCESS';
  },
};
