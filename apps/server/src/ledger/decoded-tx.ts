import { decode } from 'xrpl';

// A signed transaction's fields, decoded once per blob. A trade's blob is decoded again and again
// after it is signed — the funds check's XRP in flight, the Batch's flags when it settles, the
// trade's record, its fee Payment's amount, the answer's network fee, the fees a wallet owes —
// each a full binary decode (xrpl.js's codec was ~10% of a hot launch burst's CPU, issue 40).
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
  tx = decode(blob) as Record<string, unknown>;
  if (kept.size >= KEPT) kept.delete(kept.keys().next().value!);
  kept.set(blob, tx);
  return tx;
}
