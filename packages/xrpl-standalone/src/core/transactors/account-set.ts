// AccountSet (rippled SetAccount.cpp): account flags via SetFlag/ClearFlag or legacy tf flags,
// TransferRate, TickSize, Domain, EmailHash, MessageKey, WalletLocator.
import { readAccount } from '../account';
import { rulesEnabled } from '../amendments';
import { addressOfPublicKey } from '../account-id';
import type { LedgerEntry } from '../contract';
import { accountRootKey, signerListKey } from '../keylets';
import { ASF, LSF, TF, hasFlag } from '../ledger-flags';
import type { Ter } from '../results';
import { ownerDirIsEmpty } from '../state/owner-dir';
import { QUALITY_ONE } from '../trust-lines';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

const PUBKEY = /^(0[23][0-9A-Fa-f]{64}|[Ee][Dd][0-9A-Fa-f]{64})$/;
const MAX_DOMAIN_LENGTH = 256;

function flagsOf(tx: Record<string, unknown>) {
  const f = Number(tx.Flags ?? 0);
  const set = Number(tx.SetFlag ?? 0);
  const clear = Number(tx.ClearFlag ?? 0);
  return {
    set,
    clear,
    setRequireAuth: hasFlag(f, TF.requireAuth) || set === ASF.requireAuth,
    clearRequireAuth: hasFlag(f, TF.optionalAuth) || clear === ASF.requireAuth,
    setRequireDest: hasFlag(f, TF.requireDestTag) || set === ASF.requireDest,
    clearRequireDest: hasFlag(f, TF.optionalDestTag) || clear === ASF.requireDest,
    setDisallowXRP: hasFlag(f, TF.disallowXRP) || set === ASF.disallowXRP,
    clearDisallowXRP: hasFlag(f, TF.allowXRP) || clear === ASF.disallowXRP,
  };
}

export const accountSet: Transactor = {
  flagsMask:
    TF.requireDestTag | TF.optionalDestTag | TF.requireAuth | TF.optionalAuth | TF.disallowXRP | TF.allowXRP,

  preflight({ tx }: PreflightContext): Ter {
    const f = flagsOf(tx);
    if (f.set !== 0 && f.set === f.clear) return 'temINVALID_FLAG';
    if (f.setRequireAuth && f.clearRequireAuth) return 'temINVALID_FLAG';
    if (f.setRequireDest && f.clearRequireDest) return 'temINVALID_FLAG';
    if (f.setDisallowXRP && f.clearDisallowXRP) return 'temINVALID_FLAG';
    if (tx.TransferRate !== undefined) {
      const rate = BigInt(tx.TransferRate as number);
      if (rate !== 0n && rate < QUALITY_ONE) return 'temBAD_TRANSFER_RATE';
      if (rate > 2n * QUALITY_ONE) return 'temBAD_TRANSFER_RATE';
    }
    if (tx.TickSize !== undefined) {
      const t = Number(tx.TickSize);
      if (t !== 0 && (t < 3 || t > 15)) return 'temBAD_TICK_SIZE';
    }
    if (typeof tx.MessageKey === 'string' && tx.MessageKey !== '' && !PUBKEY.test(tx.MessageKey))
      return 'telBAD_PUBLIC_KEY';
    if (typeof tx.Domain === 'string' && tx.Domain.length / 2 > MAX_DOMAIN_LENGTH) return 'telBAD_DOMAIN';
    if (f.set === ASF.authorizedNFTokenMinter && tx.NFTokenMinter === undefined) return 'temMALFORMED';
    if (f.clear === ASF.authorizedNFTokenMinter && tx.NFTokenMinter !== undefined) return 'temMALFORMED';
    return 'tesSUCCESS';
  },

  preclaim({ tx, view, account }: PreclaimContext): Ter {
    const acct = readAccount(view, account);
    if (!acct) return 'terNO_ACCOUNT';
    const f = flagsOf(tx);
    const flagsIn = Number(acct.Flags ?? 0);
    if (f.setRequireAuth && !hasFlag(flagsIn, LSF.requireAuth) && !ownerDirIsEmpty(view, account))
      return 'tecOWNERS';
    if (f.set === ASF.allowTrustLineClawback) {
      if (hasFlag(flagsIn, LSF.noFreeze)) return 'tecNO_PERMISSION';
      if (!ownerDirIsEmpty(view, account)) return 'tecOWNERS';
    } else if (f.set === ASF.noFreeze) {
      if (hasFlag(flagsIn, LSF.allowTrustLineClawback)) return 'tecNO_PERMISSION';
    }
    return 'tesSUCCESS';
  },

  doApply({ tx, view, account }: ApplyContext): Ter {
    const sle = view.peek(accountRootKey(account)) as LedgerEntry;
    const flagsIn = Number(sle.Flags ?? 0) >>> 0;
    let out = flagsIn;
    const f = flagsOf(tx);
    const sigWithMaster = addressOfPublicKey(tx.SigningPubKey as string) === account;
    const set = (flag: number): void => {
      out = (out | flag) >>> 0;
    };
    const clear = (flag: number): void => {
      out = (out & ~flag) >>> 0;
    };
    if (f.setRequireAuth) set(LSF.requireAuth);
    if (f.clearRequireAuth) clear(LSF.requireAuth);
    if (f.setRequireDest) set(LSF.requireDestTag);
    if (f.clearRequireDest) clear(LSF.requireDestTag);
    if (f.setDisallowXRP) set(LSF.disallowXRP);
    if (f.clearDisallowXRP) clear(LSF.disallowXRP);
    if (f.set === ASF.disableMaster && !hasFlag(flagsIn, LSF.disableMaster)) {
      if (!sigWithMaster) return 'tecNEED_MASTER_KEY';
      if (sle.RegularKey === undefined && !view.read(signerListKey(account))) return 'tecNO_ALTERNATIVE_KEY';
      set(LSF.disableMaster);
    }
    if (f.clear === ASF.disableMaster && hasFlag(flagsIn, LSF.disableMaster)) clear(LSF.disableMaster);
    if (f.set === ASF.defaultRipple) set(LSF.defaultRipple);
    else if (f.clear === ASF.defaultRipple) clear(LSF.defaultRipple);
    if (f.set === ASF.noFreeze) {
      if (!sigWithMaster && !hasFlag(flagsIn, LSF.disableMaster)) return 'tecNEED_MASTER_KEY';
      set(LSF.noFreeze);
    }
    if (f.set === ASF.globalFreeze) set(LSF.globalFreeze);
    if (f.set !== ASF.globalFreeze && f.clear === ASF.globalFreeze && !hasFlag(out, LSF.noFreeze))
      clear(LSF.globalFreeze);
    if (f.set === ASF.accountTxnID && sle.AccountTxnID === undefined) sle.AccountTxnID = '0'.repeat(64);
    if (f.clear === ASF.accountTxnID && sle.AccountTxnID !== undefined) delete sle.AccountTxnID;
    if (f.set === ASF.depositAuth) set(LSF.depositAuth);
    else if (f.clear === ASF.depositAuth) clear(LSF.depositAuth);
    const optionalHash = (field: string): void => {
      if (tx[field] === undefined) return;
      const v = tx[field] as string;
      if (/^0*$/.test(v)) delete sle[field];
      else sle[field] = v;
    };
    optionalHash('EmailHash');
    optionalHash('WalletLocator');
    const optionalBlob = (field: string): void => {
      if (tx[field] === undefined) return;
      const v = tx[field] as string;
      if (v === '') delete sle[field];
      else sle[field] = v.toUpperCase();
    };
    optionalBlob('MessageKey');
    optionalBlob('Domain');
    if (tx.TransferRate !== undefined) {
      const rate = Number(tx.TransferRate);
      if (rate === 0 || BigInt(rate) === QUALITY_ONE) delete sle.TransferRate;
      else sle.TransferRate = rate;
    }
    if (tx.TickSize !== undefined) {
      const t = Number(tx.TickSize);
      if (t === 0 || t === 15) delete sle.TickSize;
      else sle.TickSize = t;
    }
    if (f.set === ASF.authorizedNFTokenMinter) sle.NFTokenMinter = tx.NFTokenMinter;
    if (f.clear === ASF.authorizedNFTokenMinter && sle.NFTokenMinter !== undefined) delete sle.NFTokenMinter;
    const incoming: Array<[number, number]> = [
      [ASF.disallowIncomingNFTokenOffer, LSF.disallowIncomingNFTokenOffer],
      [ASF.disallowIncomingCheck, LSF.disallowIncomingCheck],
      [ASF.disallowIncomingPayChan, LSF.disallowIncomingPayChan],
      [ASF.disallowIncomingTrustline, LSF.disallowIncomingTrustline],
    ];
    for (const [asf, lsf] of incoming) {
      if (f.set === asf) set(lsf);
      else if (f.clear === asf) clear(lsf);
    }
    // Token escrow (XLS-85): the issuer lets holders lock its token. rippled's SetAccount clears
    // it as it sets it; escrows made meanwhile still finish and cancel.
    if (rulesEnabled('TokenEscrow')) {
      if (f.set === ASF.allowTrustLineLocking) set(LSF.allowTrustLineLocking);
      else if (f.clear === ASF.allowTrustLineLocking) clear(LSF.allowTrustLineLocking);
    }
    if (f.set === ASF.allowTrustLineClawback) set(LSF.allowTrustLineClawback);
    if (out !== flagsIn) sle.Flags = out;
    view.update(sle);
    return 'tesSUCCESS';
  },
};
