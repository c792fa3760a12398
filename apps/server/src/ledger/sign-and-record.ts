import type { Wallet } from 'xrpl';
import type { Database } from '../db/client';
import { ledgerSubmissions } from './schema';
import type { SequenceAllocator } from './sequence-allocator';
import { signTransaction } from './sign';
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
  const type = req.tx.TransactionType;
  const fee = type === 'AMMCreate' || type === 'AccountDelete' ? ledger.reserveIncrement : ledger.baseFee;
  return {
    ...req.tx,
    Account: req.account,
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
    if (e.sequence === undefined) counts.set(e.req.account, (counts.get(e.req.account) ?? 0) + 1);
  const lastLedgerSequence = ctx.tracker.validatedIndex + ctx.window;
  const rows = await ctx.db.transaction(async (t) => {
    const first = counts.size ? await ctx.allocator.allocate(t, counts) : new Map<string, number>();
    const next = new Map(first);
    const values: Array<typeof ledgerSubmissions.$inferInsert> = [];
    entries.forEach((e, i) => {
      const account = e.req.account;
      const sequence = e.sequence ?? next.get(account)!;
      try {
        const wallet = wallets.get(account);
        if (!wallet || wallet.classicAddress !== account) throw new Error(`No key held for ${account}`);
        e.txJson.Sequence = sequence;
        e.txJson.LastLedgerSequence = lastLedgerSequence;
        const signed = signTransaction(wallet, e.txJson);
        values.push(rowValues(e.req, sequence, lastLedgerSequence, signed));
        // Sequences go only to transactions that sign, so a refused one leaves no gap.
        if (e.sequence === undefined) next.set(account, sequence + 1);
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
    return t.insert(ledgerSubmissions).values(values).returning();
  });
  rows.sort((a, b) => a.sequence - b.sequence);
  for (const row of rows) ctx.tracker.track(row);
  for (const row of rows) void ctx.tracker.send(row.hash);
  const byKey = new Map(rows.map((r) => [r.intentKey, r]));
  entries.forEach((e, i) => {
    const row = byKey.get(e.req.intentKey);
    if (row) answers[i] = row;
  });
  return answers;
}

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
