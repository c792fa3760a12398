// SetRegularKey (rippled SetRegularKey.cpp), including the one free key change per account.
import { readAccount } from '../account';
import { addressOfPublicKey } from '../account-id';
import type { LedgerEntry } from '../contract';
import { accountRootKey, signerListKey } from '../keylets';
import { LSF, hasFlag } from '../ledger-flags';
import type { Ter } from '../results';
import type { ApplyContext, PreflightContext, Transactor } from './types';

export const setRegularKey: Transactor = {
  preflight({ tx }: PreflightContext): Ter {
    if (tx.RegularKey !== undefined && tx.RegularKey === tx.Account) return 'temBAD_REGKEY';
    return 'tesSUCCESS';
  },

  baseFee(tx, config, view): bigint {
    const pk = tx.SigningPubKey;
    if (typeof pk === 'string' && pk !== '' && addressOfPublicKey(pk) === tx.Account) {
      const acct = readAccount(view, tx.Account as string);
      // The first key change signed with the master key is free (lsfPasswordSpent not yet set).
      if (acct && !hasFlag(acct.Flags, LSF.passwordSpent)) return 0n;
    }
    return config.baseFee;
  },

  doApply({ tx, view, account, config }: ApplyContext): Ter {
    const sle = view.peek(accountRootKey(account)) as LedgerEntry;
    // rippled spends the free key change whenever the transaction qualified for it, whatever fee it paid.
    if (setRegularKey.baseFee?.(tx, config, view) === 0n)
      sle.Flags = (Number(sle.Flags ?? 0) | LSF.passwordSpent) >>> 0;
    if (tx.RegularKey !== undefined) sle.RegularKey = tx.RegularKey;
    else {
      if (hasFlag(sle.Flags, LSF.disableMaster) && !view.read(signerListKey(account)))
        return 'tecNO_ALTERNATIVE_KEY';
      delete sle.RegularKey;
    }
    view.update(sle);
    return 'tesSUCCESS';
  },
};
