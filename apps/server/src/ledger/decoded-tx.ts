import { decode } from 'xrpl';
import { decodeTransaction } from 'xrpl-standalone/codec';

// A signed transaction's fields, decoded once per blob. A trade's blob is decoded again and again
// after it is signed — the funds check's XRP in flight, the Batch's flags when it settles, the
// trade's record, its fee Payment's amount, the answer's network fee, the fees a wallet owes —
// each a full binary decode (xrpl.js's codec was ~10% of a hot launch burst's CPU, issue 40).
// Decoded by the stand-alone ledger's decoder (`xrpl-standalone/codec`, pure functions): the codec's
// exact answer (it hands the codec whatever it does not read itself) at ~1/25 of the codec's cost —
// ~0.4 ms a trade's Payment, decoded once per trade and again whenever the kept copy is gone.
// Keyed by the blob itself (the bytes are the transaction, so an entry can never be stale), the
// most recent ones kept. The objects are shared: callers read them and never change them (one
// that edits a transaction decodes its own copy).

/** Enough for every transaction of a burst in flight and being recorded at once. */
const KEPT = 2048;
const kept = new Map<string, Readonly<Record<string, unknown>>>();

/** `decode(blob)`, from the kept copy when this blob was decoded lately. Read it, never change it. */
export function decodedTx(blob: string): Readonly<Record<string, unknown>> {
  let tx = kept.get(blob);
  if (tx) return tx;
  const bytes = Buffer.from(blob, 'hex');
  // Text that is not all hex (Buffer.from stops at the first other character): the codec's refusal.
  tx = (bytes.length * 2 === blob.length ? decodeTransaction(blob, bytes) : decode(blob)) as Record<
    string,
    unknown
  >;
  if (kept.size >= KEPT) kept.delete(kept.keys().next().value!);
  kept.set(blob, tx);
  return tx;
}

/**
 * A signed transaction's `Flags` (0 without the field), read from the blob's leading fields instead
 * of decoding all of it: a settling Batch needs only its mode, and its blob carries every inner
 * transaction (issue 40: the settle of a hot launch's ledger decoded hundreds of them just for
 * that). Fields are in canonical order, by type code then field code: the UInt16 fields (type 1,
 * TransactionType among them), then the UInt32 ones, NetworkID (field 1) before Flags (field 2).
 * Anything it does not expect there, it hands to the full decode.
 */
export function txFlags(blob: string): number {
  const known = kept.get(blob);
  if (known) return Number(known.Flags ?? 0);
  const byte = (i: number) => parseInt(blob.slice(2 * i, 2 * i + 2), 16);
  const bytes = blob.length / 2;
  let i = 0;
  while (i < bytes) {
    const header = byte(i);
    const type = header >> 4;
    let field = header & 15;
    let at = i + 1;
    // Type code 0: ≥ 16, past the UInt32 fields; so no Flags.
    if (type === 0 || type > 2) return 0;
    if (field === 0) field = byte(at++);
    if (type === 2 && field === 2) {
      if (at + 4 > bytes) break;
      return parseInt(blob.slice(2 * at, 2 * at + 8), 16) >>> 0;
    }
    if (type === 2 && field > 2) return 0;
    i = at + (type === 1 ? 2 : 4);
  }
  return Number(decodedTx(blob).Flags ?? 0);
}
