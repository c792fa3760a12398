import { and, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { TransactionMetadata } from 'xrpl';
import type { Database } from '../db/client';
import { ledgerSubmissions } from './schema';
import {
  OPEN,
  outcomeOf,
  type SubmissionLog,
  type SubmissionOutcome,
  type SubmissionRow,
  type Tracked,
} from './submission-types';

// The one way a followed transaction becomes final, whether one was found (by hash, at submit time,
// expired) or a whole validated ledger of ours at once: one statement records every result, one
// reads the records back, then waiters, the log and `onFinalized` listeners hear of each.

export interface Verdict {
  hash: string;
  result: string;
  ledgerIndex: number | null;
  meta: TransactionMetadata | null;
  /** The transaction used its sequence (it is in a ledger, or the sequence was taken elsewhere). */
  consumed: boolean;
  /**
   * Every transaction of the validated ledger this verdict was read from, by hash, when the whole
   * ledger was read (the tracker's scan): a Batch's inner transactions are looked up here instead of
   * by one `tx` request each.
   */
  inLedger?: ReadonlyMap<string, TransactionMetadata>;
}

/** What settling touches: the tracker's state and the hook that gives an unused sequence back. */
export interface SettleContext {
  db: Database['db'];
  log: SubmissionLog;
  tracked: Map<string, Tracked>;
  finalizedListeners: Set<(row: SubmissionRow) => void>;
  idleWaiters: Array<() => void>;
  releaseSequence(row: SubmissionRow): Promise<void>;
  /**
   * The verdicts of the inner transactions of the Batches among `outers`, read from the outer's
   * validated ledger (docs/batch-in-the-app.md): recorded in the same statement as their outer, so
   * no crash leaves a Batch settled and its inner transactions open.
   */
  innerVerdicts?(outers: Array<{ row: SubmissionRow; verdict: Verdict }>): Promise<Verdict[]>;
}

/** Under PostgreSQL's 65,535 parameters per statement (five a row). */
const CHUNK = 2_000;

/** Every column of a record but its metadata, which the verdict carries (see `settle`). */
const { meta: _meta, ...COLUMNS_BUT_META } = getTableColumns(ledgerSubmissions);

/**
 * The inner outcomes of a Batch this instance settled, in signing order, by the outcome its waiters
 * were given: read from the settling statement itself, so `followBatch` needs no second read of the
 * rows just written (issue 40: a hot launch's Batches each read their inner records back). Held only
 * as long as the outcome object.
 */
const innerOutcomesOf = new WeakMap<SubmissionOutcome, SubmissionOutcome[]>();

/** The inner outcomes settled with this Batch outcome, if this instance settled it (else read them). */
export const settledInnerOutcomes = (outcome: SubmissionOutcome): SubmissionOutcome[] | undefined =>
  innerOutcomesOf.get(outcome);

export async function settle(ctx: SettleContext, verdicts: Verdict[]): Promise<void> {
  // Before anything changes: a Batch's inner outcomes are asked for first, so a failed read leaves
  // the outer followed (the next step tries again) instead of settling it without them.
  const batches = verdicts.flatMap((v) => {
    const row = ctx.tracked.get(v.hash)?.row;
    return row?.txType === 'Batch' ? [{ row, verdict: v }] : [];
  });
  const inner = batches.length && ctx.innerVerdicts ? await ctx.innerVerdicts(batches) : [];
  const live = verdicts.flatMap((v) => {
    const t = ctx.tracked.get(v.hash);
    if (!t) return [];
    ctx.tracked.delete(v.hash);
    for (const w of t.engineWaiters.splice(0)) w(t.row.engineResult ?? v.result);
    return [{ v, t }];
  });
  if (live.length === 0) return;
  // The records this instance finalized: another instance following the same record may finalize
  // it first, and then it alone tells listeners and hands the sequence back. The statement returns
  // them as written, but for their metadata: that is the verdict's own (what was just stored;
  // reading it back was most of the time a ledger of Batches spent here).
  const ours = new Set<string>();
  const all = [...inner, ...live.map(({ v }) => v)];
  const rows: SubmissionRow[] = [];
  for (let at = 0; at < all.length; at += CHUNK) {
    const chunk = all.slice(at, at + CHUNK);
    const values = chunk.map(
      (v) =>
        sql`(${v.hash}, ${v.result === 'tesSUCCESS' ? 'success' : 'failed'}, ${v.result}, ${v.ledgerIndex}::bigint, ${v.meta === null ? null : JSON.stringify(v.meta)}::json)`,
    );
    const updated = await ctx.db
      .update(ledgerSubmissions)
      .set({
        status: sql`v.status`,
        result: sql`v.result`,
        ledgerIndex: sql`v.ledger_index`,
        meta: sql`v.meta`,
        updatedAt: sql`now()`,
        finalizedAt: sql`now()`,
      })
      .from(sql`(values ${sql.join(values, sql`, `)}) as v(hash, status, result, ledger_index, meta)`)
      .where(and(sql`${ledgerSubmissions.hash} = v.hash`, inArray(ledgerSubmissions.status, [...OPEN])))
      .returning(COLUMNS_BUT_META);
    const metaOf = new Map(chunk.map((v) => [v.hash, v.meta]));
    for (const r of updated) {
      ours.add(r.hash);
      rows.push({ ...r, meta: metaOf.get(r.hash) ?? null });
    }
  }
  // The records another instance finalized first: as it wrote them.
  const theirs = all.filter((v) => !ours.has(v.hash)).map((v) => v.hash);
  if (theirs.length)
    rows.push(
      ...(await ctx.db.select().from(ledgerSubmissions).where(inArray(ledgerSubmissions.hash, theirs))),
    );
  const byHash = new Map(rows.map((r) => [r.hash, r]));
  const innerByParent = new Map<string, SubmissionRow[]>();
  for (const v of inner) {
    const row = byHash.get(v.hash);
    if (!row?.parentHash) continue;
    const list = innerByParent.get(row.parentHash);
    if (list) list.push(row);
    else innerByParent.set(row.parentHash, [row]);
  }
  // Inner transactions first: a listener that records a trade hears it before its Batch. Their
  // unused sequences are given back (or filled) from the last down, before their outer's, so a
  // Batch that never applied hands all of its sequences back.
  const release: SubmissionRow[] = [];
  // Callers hear of an outcome once its unused sequences are back (issue 40: a trade whose Batch
  // rolled back is signed again at once, on the sequences its first Batch left unused).
  const answers: Array<() => void> = [];
  for (const v of inner) {
    const row = byHash.get(v.hash);
    if (!row || !ours.has(v.hash)) continue;
    if (!v.consumed) release.push(row);
    for (const listener of ctx.finalizedListeners) listener(row);
  }
  try {
    for (const { v, t } of live) {
      const row = byHash.get(v.hash);
      if (!row) continue;
      const outcome = outcomeOf(row);
      // A Batch's inner records are written with it and are open while it is: the statement that
      // settled it settled every one of them, as `innerOutcomes` would read them back.
      const mine = innerByParent.get(v.hash);
      if (ours.has(v.hash) && mine?.every((r) => ours.has(r.hash)))
        innerOutcomesOf.set(outcome, mine.sort((a, b) => a.sequence - b.sequence).map(outcomeOf));
      answers.push(() => {
        for (const w of t.waiters) w.resolve(outcome);
      });
      if (row.status === 'failed') {
        ctx.log.warn(
          { hash: v.hash, account: row.account, sequence: row.sequence, result: row.result },
          'transaction failed',
        );
      }
      if (!ours.has(v.hash)) continue;
      if (!v.consumed && row.txType === 'Batch') release.push(row);
      else if (!v.consumed) await ctx.releaseSequence(row);
      for (const listener of ctx.finalizedListeners) listener(row);
    }
    release.sort((a, b) => a.account.localeCompare(b.account) || b.sequence - a.sequence);
    for (const row of release) await ctx.releaseSequence(row);
  } finally {
    for (const answer of answers) answer();
  }
  if (ctx.tracked.size === 0) for (const w of ctx.idleWaiters.splice(0)) w();
}
