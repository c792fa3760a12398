import { sql } from 'drizzle-orm';
import { GlobalFlags, type Wallet } from 'xrpl';
import { bulkInsert, tableRows, type BulkColumn } from '../db/bulk-insert';
import type { Database } from '../db/client';
import { rowsOf } from '../db/results';
import { ledgerSubmissions } from './schema';
import type { SequenceAllocator } from './sequence-allocator';
import { encodeTx, signTransaction, transactionId } from './sign';
import type { SubmissionTracker } from './submission-tracker';
import type { SubmissionRow, SubmitRequest } from './submission-types';

// The one path from a described transaction to one on its way to the ledger: allocate sequences →
// sign → insert, in one database transaction (nothing is sent before the commit, so after a crash
// every sent transaction is on record); then track → send, in sequence order while the caller
// still holds the accounts' locks, so the ledger never sees a gap.

/** A request ready to sign: its transaction JSON (validated by the caller) and a fixed sequence, if any. */
export interface Signable {
  req: SubmitRequest;
  txJson: Record<string, unknown>;
  /** A gap fill's own sequence; otherwise one is allocated. */
  sequence?: number;
  /**
   * A Batch's inner transactions, of the same account (XLS-56; docs/batch-in-the-app.md): they take
   * the sequences right after the outer's and are recorded with it, each as its own row whose
   * `parent_hash` is the outer's hash.
   */
  inner?: SubmitRequest[];
}

/** tfInnerBatchTxn: the flag every inner transaction of a Batch carries. */
export const TF_INNER_BATCH_TXN: number = GlobalFlags.tfInnerBatchTxn;

/**
 * A transaction's own minimum fee (rippled's calculateBaseFee): AMMCreate and AccountDelete burn one
 * owner reserve instead of the base fee.
 */
export function ownFee(type: string, ledger: { baseFee: bigint; reserveIncrement: bigint }): bigint {
  return type === 'AMMCreate' || type === 'AccountDelete' ? ledger.reserveIncrement : ledger.baseFee;
}

/**
 * The fee of a Batch of one account's transactions (rippled's Batch::calculateBaseFee, no
 * BatchSigners): twice the base fee plus each inner transaction's own fee
 * (docs/xrpl-standalone-batch.md "The fee"). Two payments at a 10-drop base: 40 drops.
 */
export function batchFee(
  innerTypes: string[],
  ledger: { baseFee: bigint; reserveIncrement: bigint },
): bigint {
  return innerTypes.reduce((sum, type) => sum + ownFee(type, ledger), 2n * ledger.baseFee);
}

/**
 * An inner transaction of a Batch at `sequence`: tfInnerBatchTxn, no fee, no signature (the outer's
 * signature covers it), and its hash — the ID of its canonical serialization, which is how the
 * ledger records it and how `tx` finds it.
 */
export function innerBatchTx(
  req: SubmitRequest,
  sequence: number,
): { tx: Record<string, unknown>; blob: string; hash: string } {
  const tx = innerBatchFields(req, sequence);
  const blob = encodeTx(tx);
  return { tx, blob, hash: transactionId(blob) };
}

/** The fields of `innerBatchTx`, not serialized (what a draft checks before it has sequences). */
export function innerBatchFields(req: SubmitRequest, sequence: number): Record<string, unknown> {
  const given = req.tx.Flags;
  const flags = typeof given === 'number' ? given : 0;
  return {
    ...req.tx,
    Account: req.account,
    Sequence: sequence,
    Fee: '0',
    SigningPubKey: '',
    Flags: (flags | TF_INNER_BATCH_TXN) >>> 0,
  };
}

export interface RecordContext {
  db: Database['db'];
  allocator: SequenceAllocator;
  tracker: SubmissionTracker;
  /** Ledgers a transaction may wait before it expires. */
  window: number;
}

export interface RecordOptions {
  /**
   * A request that cannot be signed rolls the whole batch back (the caller retries one at a time).
   * Otherwise it answers its error and no sequence is spent on it.
   */
  strict: boolean;
}

/** The transaction JSON of a request: fee from the ledger stream, a placeholder sequence. */
export function draftTx(
  req: SubmitRequest,
  ledger: { validatedIndex: number; baseFee: bigint; reserveIncrement: bigint },
  window: number,
): Record<string, unknown> {
  // AMMCreate and AccountDelete burn one owner reserve instead of the base fee.
  const fee = ownFee(req.tx.TransactionType, ledger);
  return {
    ...req.tx,
    Account: req.account,
    ...(req.delegate ? { Delegate: req.delegate } : {}),
    Sequence: 1,
    Fee: req.tx.Fee ?? fee.toString(),
    LastLedgerSequence: ledger.validatedIndex + window,
  };
}

/**
 * Signs and records `entries` (distinct intents) with `wallets` (the key of every account), then
 * tracks and sends what was recorded. Each answer is the record, or the error that refused it.
 * Throws when the database transaction fails (nothing was allocated: a duplicate intent raced in).
 */
export async function signAndRecord(
  ctx: RecordContext,
  entries: Signable[],
  wallets: Map<string, Wallet>,
  opts: RecordOptions,
): Promise<Array<SubmissionRow | Error>> {
  const answers: Array<SubmissionRow | Error> = new Array<SubmissionRow | Error>(entries.length);
  const counts = new Map<string, number>();
  for (const e of entries)
    if (e.sequence === undefined)
      counts.set(e.req.account, (counts.get(e.req.account) ?? 0) + 1 + (e.inner?.length ?? 0));
  const lastLedgerSequence = ctx.tracker.validatedIndex + ctx.window;
  const rows = await ctx.db.transaction(async (t) => {
    const first = counts.size ? await ctx.allocator.allocate(t, counts) : new Map<string, number>();
    const next = new Map(first);
    const values: Array<typeof ledgerSubmissions.$inferInsert> = [];
    entries.forEach((e, i) => {
      const account = e.req.account;
      const sequence = e.sequence ?? next.get(account)!;
      try {
        // A delegated transaction is signed by its delegate (the account's sequence, the delegate's key).
        const signer = e.req.delegate ?? account;
        const wallet = wallets.get(signer);
        if (!wallet || wallet.classicAddress !== signer) throw new Error(`No key held for ${signer}`);
        e.txJson.Sequence = sequence;
        e.txJson.LastLedgerSequence = lastLedgerSequence;
        const inner = (e.inner ?? []).map((r, k) => ({
          req: r,
          seq: sequence + 1 + k,
          ...innerBatchTx(r, sequence + 1 + k),
        }));
        if (inner.length) e.txJson.RawTransactions = inner.map((i) => ({ RawTransaction: i.tx }));
        const signed = signTransaction(
          wallet,
          e.txJson,
          inner.map((i) => i.blob),
        );
        values.push(rowValues(e.req, sequence, lastLedgerSequence, signed));
        for (const i of inner) {
          values.push({
            ...rowValues(i.req, i.seq, lastLedgerSequence, { hash: i.hash, tx_blob: i.blob }),
            parentHash: signed.hash,
          });
        }
        // Sequences go only to transactions that sign, so a refused one leaves no gap.
        if (e.sequence === undefined) next.set(account, sequence + 1 + inner.length);
      } catch (err) {
        if (opts.strict) throw err;
        answers[i] = err instanceof Error ? err : new Error(String(err));
      }
    });
    for (const [account, n] of counts) {
      const used = next.get(account)! - first.get(account)!;
      if (used < n) await ctx.allocator.rewind(t, account, next.get(account)!);
    }
    if (values.length === 0) return [];
    // One parameter per column, not per value (db/bulk-insert.ts): a burst's Batches are four rows
    // each, and drizzle's builder took ~20 µs a value (issue 40: ~1 ms of the thread per buy).
    const inserted = await t.execute(
      bulkInsert(ledgerSubmissions, SUBMISSION_COLUMNS, values, sql`returning *`),
    );
    return tableRows(ledgerSubmissions, rowsOf<Record<string, unknown>>(inserted));
  });
  rows.sort((a, b) => a.sequence - b.sequence);
  // A Batch's inner transactions are never sent alone: they travel inside their outer transaction
  // and are settled with it (settle.ts).
  const sent = rows.filter((r) => !r.parentHash);
  for (const row of sent) ctx.tracker.track(row);
  for (const row of sent) void ctx.tracker.send(row.hash);
  const byKey = new Map(rows.map((r) => [r.intentKey, r]));
  entries.forEach((e, i) => {
    const row = byKey.get(e.req.intentKey);
    if (row) answers[i] = row;
  });
  return answers;
}

type SubmissionValues = typeof ledgerSubmissions.$inferInsert;

/** The columns a new record is written with (the others take their defaults). */
const SUBMISSION_COLUMNS: Array<BulkColumn<SubmissionValues>> = [
  { column: ledgerSubmissions.intentKey, type: 'text', value: (v) => v.intentKey },
  { column: ledgerSubmissions.account, type: 'text', value: (v) => v.account },
  { column: ledgerSubmissions.sequence, type: 'bigint', value: (v) => v.sequence },
  { column: ledgerSubmissions.lastLedgerSequence, type: 'bigint', value: (v) => v.lastLedgerSequence },
  { column: ledgerSubmissions.txType, type: 'text', value: (v) => v.txType },
  { column: ledgerSubmissions.purpose, type: 'text', value: (v) => v.purpose },
  { column: ledgerSubmissions.userId, type: 'integer', value: (v) => v.userId ?? null },
  { column: ledgerSubmissions.walletId, type: 'bigint', value: (v) => v.walletId ?? null },
  { column: ledgerSubmissions.hash, type: 'text', value: (v) => v.hash },
  { column: ledgerSubmissions.txBlob, type: 'text', value: (v) => v.txBlob },
  { column: ledgerSubmissions.status, type: 'text', value: (v) => v.status ?? 'pending' },
  { column: ledgerSubmissions.parentHash, type: 'text', value: (v) => v.parentHash ?? null },
];

function rowValues(
  req: SubmitRequest,
  sequence: number,
  lastLedgerSequence: number,
  signed: { hash: string; tx_blob: string },
): typeof ledgerSubmissions.$inferInsert {
  return {
    intentKey: req.intentKey,
    account: req.account,
    sequence,
    lastLedgerSequence,
    txType: req.tx.TransactionType,
    purpose: req.purpose,
    userId: req.userId ?? null,
    walletId: req.walletId ?? null,
    hash: signed.hash,
    txBlob: signed.tx_blob,
    status: 'pending',
  };
}
