// What a Batch (XLS-56) carries, read once per outer transaction: its mode, its inner transactions
// (JSON, canonical blob, transaction ID, the field that wraps each one) and the data a BatchSigner
// signs. Shared by the Batch transactor, the batch-signature local check and the inner application;
// it depends on nothing of the engine, so none of them import each other through it.
import { encode } from 'ripple-binary-codec';
import { accountIdHex } from './account-id';
import type { Rules } from './amendments';
import type { JsonObject } from './contract';
import { HASH_PREFIX, sha512HalfHexOfHex } from './hash';
import { TF } from './ledger-flags';
import { decodedInnerBlob } from './tx-decoder';

/** Most inner transactions a Batch may carry, and most BatchSigners (rippled's maxBatchTxCount). */
export const MAX_BATCH_TXS = 8;

/** The four batch modes (rippled's TxFlags.h); exactly one is required. */
export const BATCH_MODE = {
  allOrNothing: 0x00010000,
  onlyOne: 0x00020000,
  untilFailure: 0x00040000,
  independent: 0x00080000,
} as const;

export const BATCH_MODES_MASK =
  BATCH_MODE.allOrNothing | BATCH_MODE.onlyOne | BATCH_MODE.untilFailure | BATCH_MODE.independent;

/** 'BCH\0': the prefix of what a BatchSigner signs (rippled's HashPrefix::batch). */
const BATCH_PREFIX = '42434800';

/**
 * Batch is enabled by BatchV1_1 (rippled 3.x, mainnet since 2026-10-09) or by its predecessor
 * `Batch` (rippled 2.5–3.1, withdrawn in 3.1.1), still named by older clients' configurations
 * such as xrpl.js 5.0.0's CI. Both run the same transactor; they differ in what a BatchSigner
 * signs (batchSigningData).
 */
export function batchEnabled(rules: Rules): boolean {
  return rules.enabled('BatchV1_1') || rules.enabled('Batch');
}

export function isInnerBatchTxn(tx: JsonObject): boolean {
  return ((Number(tx.Flags ?? 0) >>> 0) & TF.innerBatchTxn) !== 0;
}

export interface InnerTx {
  /** The field wrapping it in RawTransactions (RawTransaction, unless the blob chose another). */
  readonly wrapper: string;
  readonly tx: JsonObject;
  /** Its canonical serialization (rippled's STTx of the inner object), uppercase hex. */
  readonly blob: string;
  readonly txId: string;
}

const innerMemo = new WeakMap<JsonObject, InnerTx[] | null>();

/**
 * The inner transactions of a decoded Batch, or null when RawTransactions is not an array of
 * one-field objects each holding a transaction (a blob the codec decoded any other way).
 * Memoized per outer object: preflight, the fee, the signature check and the application all
 * read them, and encoding eight transactions costs more than the rest of a small batch.
 */
export function innerTransactions(outer: JsonObject): InnerTx[] | null {
  const kept = innerMemo.get(outer);
  if (kept !== undefined) return kept;
  const out = readInner(outer.RawTransactions);
  innerMemo.set(outer, out);
  return out;
}

function readInner(raw: unknown): InnerTx[] | null {
  if (!Array.isArray(raw)) return null;
  const out: InnerTx[] = [];
  for (const element of raw as unknown[]) {
    if (typeof element !== 'object' || element === null) return null;
    const keys = Object.keys(element);
    if (keys.length !== 1) return null;
    const wrapper = keys[0] as string;
    const tx = (element as JsonObject)[wrapper];
    if (typeof tx !== 'object' || tx === null || Array.isArray(tx)) return null;
    let blob: string;
    try {
      blob = (decodedInnerBlob(tx as JsonObject) ?? encode(tx as never)).toUpperCase();
    } catch {
      return null;
    }
    out.push({
      wrapper,
      tx: tx as JsonObject,
      blob,
      txId: sha512HalfHexOfHex(HASH_PREFIX.transactionId, blob),
    });
  }
  return out;
}

export interface BatchSignerJson {
  Account?: unknown;
  SigningPubKey?: unknown;
  TxnSignature?: unknown;
  Signers?: unknown;
}

/** The BatchSigner objects of a Batch (unwrapped; an entry of another shape reads as empty). */
export function batchSigners(tx: JsonObject): BatchSignerJson[] {
  const list = Array.isArray(tx.BatchSigners) ? (tx.BatchSigners as Array<{ BatchSigner?: unknown }>) : [];
  return list.map((w) => (w?.BatchSigner ?? {}) as BatchSignerJson);
}

/** The account a BatchSigner must sign for an inner transaction: its Delegate when it has one. */
export function innerInitiator(inner: JsonObject): string {
  return typeof inner.Delegate === 'string' ? inner.Delegate : String(inner.Account);
}

function u32Hex(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

/**
 * The message a BatchSigner signs, as hex (ripple-binary-codec's encodeForSigningBatch). Under
 * BatchV1_1 (rippled's serializeBatch): prefix, outer Account, outer Sequence (or its
 * TicketSequence), Flags, the inner count and IDs, then the BatchSigner's account, so a signature
 * is bound to one outer transaction and one signer. Under the earlier `Batch` amendment: prefix,
 * Flags, count, IDs only. Either way a signer of a multi-signing BatchSigner appends its own
 * account (rippled's finishMultiSigningData).
 */
export function batchSigningData(
  outer: JsonObject,
  txIds: readonly string[],
  v1_1: boolean,
  batchAccount: string,
  signerAccount?: string,
): string {
  const flags = u32Hex(Number(outer.Flags ?? 0));
  const ids = u32Hex(txIds.length) + txIds.join('');
  let data: string;
  if (v1_1) {
    const sequence = Number(outer.Sequence ?? 0) || Number(outer.TicketSequence ?? 0);
    data = BATCH_PREFIX + accountIdHex(String(outer.Account)) + u32Hex(sequence) + flags + ids;
    data += accountIdHex(batchAccount);
  } else {
    data = BATCH_PREFIX + flags + ids;
  }
  if (signerAccount !== undefined) data += accountIdHex(signerAccount);
  return data;
}
