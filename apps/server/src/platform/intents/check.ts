import { SELF_CUSTODY_MESSAGES, type TxJson } from '@ledgerpad/shared';
import { decode, deriveAddress, encode, GlobalFlags, hashes, LedgerEntry, verifySignature } from 'xrpl';
import { badRequest } from '../../lib/errors';

// The check between a wallet's signature and the ledger: a signed blob is submitted only when it is
// EXACTLY the transaction the server prepared — every field equal (account, amounts, destination,
// flags, fee, sequence, LastLedgerSequence, memos…), only the signature added — and its signature
// is valid and made by a key that controls the account. Pure functions (no database, no ledger
// reads) so each rule is tested on its own; the account's keys are passed in.

/** What a single signature adds to a transaction; nothing else may differ from the intent. */
const SIGNATURE_FIELDS = new Set(['SigningPubKey', 'TxnSignature']);

type Tx = Record<string, unknown>;

/** A field's value in one canonical text (the binary codec's own decoding, keys in order). */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}

/** The transaction as the ledger will read it (hex case, amount forms): encode, then decode. */
export function canonicalTx(tx: TxJson): Tx {
  return decode(encode(tx as never)) as Tx;
}

export function decodeBlob(blob: string): Tx {
  try {
    const tx = decode(blob) as Tx;
    if (typeof tx.TransactionType !== 'string') throw new Error('no type');
    return tx;
  } catch {
    throw badRequest(SELF_CUSTODY_MESSAGES.unreadable);
  }
}

/**
 * Throws 400 naming the first field in which `signed` differs from `expected` (a missing one, an
 * added one, or another value). `ignore`: fields a signature adds. `prefix` names inner fields.
 */
export function compareFields(expected: TxJson, signed: Tx, ignore = SIGNATURE_FIELDS, prefix = ''): void {
  const want = canonicalTx(expected);
  for (const [field, value] of Object.entries(want)) {
    if (ignore.has(field)) continue;
    const name = `${prefix}${field}`;
    if (!(field in signed)) throw badRequest(SELF_CUSTODY_MESSAGES.missingField(name), { field: name });
    if (canonicalJson(value) !== canonicalJson(signed[field]))
      throw badRequest(SELF_CUSTODY_MESSAGES.mismatch(name), { field: name });
  }
  for (const field of Object.keys(signed)) {
    if (ignore.has(field) || field in want) continue;
    const name = `${prefix}${field}`;
    throw badRequest(SELF_CUSTODY_MESSAGES.extraField(name), { field: name });
  }
}

export interface SignedTx {
  tx: Tx;
  hash: string;
  blob: string;
  /** The key that signed (hex). */
  signingPubKey: string;
}

/** A single-signed transaction: exactly `expected` plus a valid signature. */
export function checkSigned(expected: TxJson, blob: string): SignedTx {
  const tx = decodeBlob(blob);
  if ('Signers' in tx) throw badRequest(SELF_CUSTODY_MESSAGES.multiSigned);
  compareFields(expected, tx);
  return verified(tx, blob);
}

function verified(tx: Tx, blob: string): SignedTx {
  const signingPubKey = typeof tx.SigningPubKey === 'string' ? tx.SigningPubKey : '';
  if (!signingPubKey || typeof tx.TxnSignature !== 'string' || !tx.TxnSignature)
    throw badRequest(SELF_CUSTODY_MESSAGES.unsigned);
  let valid = false;
  try {
    valid = verifySignature(blob);
  } catch {
    valid = false;
  }
  if (!valid) throw badRequest(SELF_CUSTODY_MESSAGES.badSignature);
  return { tx, hash: hashes.hashSignedTx(blob), blob, signingPubKey };
}

/**
 * The seam for all-or-nothing intents (a trade and its platform fee in one Batch, XLS-56): the one
 * signed blob is the outer Batch; its fields equal the prepared outer Batch's, and each inner
 * transaction equals the prepared inner one field by field (named `RawTransactions[i].Field`),
 * unsigned, with tfInnerBatchTxn. `expectedInner` are the inner transactions as prepared.
 */
export function checkSignedBatch(expectedOuter: TxJson, expectedInner: TxJson[], blob: string): SignedTx {
  const tx = decodeBlob(blob);
  if ('Signers' in tx || 'BatchSigners' in tx) throw badRequest(SELF_CUSTODY_MESSAGES.multiSigned);
  if (tx.TransactionType !== 'Batch')
    throw badRequest(SELF_CUSTODY_MESSAGES.mismatch('TransactionType'), { field: 'TransactionType' });
  const raw = Array.isArray(tx.RawTransactions) ? (tx.RawTransactions as Array<{ RawTransaction?: Tx }>) : [];
  if (raw.length !== expectedInner.length)
    throw badRequest(SELF_CUSTODY_MESSAGES.mismatch('RawTransactions'), { field: 'RawTransactions' });
  expectedInner.forEach((inner, i) => {
    const got = raw[i]?.RawTransaction ?? {};
    const prefix = `RawTransactions[${i}].`;
    // An inner transaction is authorized by the outer signature only.
    if (got.TxnSignature !== undefined || (got.SigningPubKey !== undefined && got.SigningPubKey !== ''))
      throw badRequest(SELF_CUSTODY_MESSAGES.extraField(`${prefix}TxnSignature`));
    if (typeof got.Flags !== 'number' || (got.Flags & GlobalFlags.tfInnerBatchTxn) === 0)
      throw badRequest(SELF_CUSTODY_MESSAGES.mismatch(`${prefix}Flags`), { field: `${prefix}Flags` });
    compareFields(inner, got, new Set(), prefix);
  });
  const outerFields = new Set([...SIGNATURE_FIELDS, 'RawTransactions']);
  compareFields(expectedOuter, tx, outerFields);
  return verified(tx, blob);
}

/** What the ledger says about an account's keys (null: the account does not exist yet). */
export interface AccountKeys {
  flags: number;
  regularKey?: string;
}

/**
 * The key controls the account: its master key (derived address = the account, master not
 * disabled) — the only key of an account not on the ledger yet — or its current regular key.
 */
export function authorizeKey(
  account: string,
  signingPubKey: string,
  keys: AccountKeys | null,
): 'master' | 'regular' {
  let signer: string;
  try {
    signer = deriveAddress(signingPubKey);
  } catch {
    throw badRequest(SELF_CUSTODY_MESSAGES.wrongKey);
  }
  if (signer === account) {
    if (keys && (keys.flags & LedgerEntry.AccountRootFlags.lsfDisableMaster) !== 0)
      throw badRequest(SELF_CUSTODY_MESSAGES.masterDisabled);
    return 'master';
  }
  if (keys?.regularKey && keys.regularKey === signer) return 'regular';
  throw badRequest(SELF_CUSTODY_MESSAGES.notOwner);
}
