// Multi-signing as rippled does it: STTx::checkMultiSign (local checks: shape, order, signatures
// over each signer's multi-signing message) and Transactor::checkMultiSign (the account's
// SignerList, each signer's master or regular key, and the quorum).
import { encodeForMultisigning } from 'ripple-binary-codec';
import { readAccount } from './account';
import { accountIdHex, addressOfPublicKey } from './account-id';
import type { JsonObject, LedgerEntry } from './contract';
import { verifySignature } from './crypto-verify';
import { feePayerOf } from './delegation/delegated-tx';
import { signerListKey } from './keylets';
import { LSF, hasFlag } from './ledger-flags';
import type { Ter } from './results';
import type { StateReader } from './state/apply-view';

export const MAX_MULTI_SIGNERS = 32;
const PUBKEY = /^(0[23][0-9A-Fa-f]{64}|[Ee][Dd][0-9A-Fa-f]{64})$/;

interface TxSigner {
  Account: string;
  SigningPubKey: string;
  TxnSignature: string;
}

export function txSigners(tx: JsonObject): TxSigner[] {
  const list = Array.isArray(tx.Signers) ? (tx.Signers as Array<{ Signer?: TxSigner }>) : [];
  return list.map((w) => w.Signer ?? ({} as TxSigner));
}

/** Local checks of a multi-signed transaction; a failure reason, or undefined when valid. */
export function checkMultiSignatures(tx: JsonObject): string | undefined {
  if (tx.SigningPubKey !== '') return 'Cannot both single- and multi-sign.';
  const signers = txSigners(tx);
  if (signers.length < 1 || signers.length > MAX_MULTI_SIGNERS) return 'Invalid Signers array size.';
  let last = '';
  // The signing account (the Delegate of a delegated transaction) may not sign for itself.
  const signing = feePayerOf(tx);
  for (const s of signers) {
    if (
      typeof s.Account !== 'string' ||
      typeof s.SigningPubKey !== 'string' ||
      typeof s.TxnSignature !== 'string'
    ) {
      return 'Invalid signature.';
    }
    const id = accountIdHex(s.Account);
    if (id === last) return 'Duplicate Signers not allowed.';
    if (id < last) return 'Unsorted Signers array.';
    last = id;
    if (s.Account === signing) return 'Invalid multisigner.';
    let ok = false;
    try {
      ok =
        PUBKEY.test(s.SigningPubKey) &&
        verifySignature(encodeForMultisigning(tx, s.Account), s.TxnSignature, s.SigningPubKey);
    } catch {
      ok = false;
    }
    if (!ok) return 'Invalid signature.';
  }
  return undefined;
}

/** rippled Transactor::checkMultiSign against the ledger (the delegate's list when delegated). */
export function checkMultiSignAuthority(view: StateReader, tx: JsonObject): Ter {
  const list = view.read(signerListKey(feePayerOf(tx)));
  if (!list) return 'tefNOT_MULTI_SIGNING';
  const entries = (
    (list.SignerEntries as Array<{ SignerEntry: { Account: string; SignerWeight: number } }>) ?? []
  ).map((e) => e.SignerEntry);
  const weights = new Map(entries.map((e) => [e.Account, Number(e.SignerWeight)]));
  let sum = 0;
  for (const s of txSigners(tx)) {
    const weight = weights.get(s.Account);
    if (weight === undefined) return 'tefBAD_SIGNATURE';
    const fromKey = addressOfPublicKey(s.SigningPubKey);
    const root: LedgerEntry | undefined = readAccount(view, s.Account);
    if (fromKey === s.Account) {
      // Master key (or a phantom account, always allowed).
      if (root && hasFlag(root.Flags, LSF.disableMaster)) return 'tefMASTER_DISABLED';
    } else if (!root || root.RegularKey !== fromKey) {
      return 'tefBAD_SIGNATURE';
    }
    sum += weight;
  }
  if (sum < Number(list.SignerQuorum)) return 'tefBAD_QUORUM';
  return 'tesSUCCESS';
}
