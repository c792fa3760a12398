import { randomUUID } from 'node:crypto';
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { BatchFlags, GlobalFlags, RippledError, validate } from 'xrpl';
import {
  INTENT_LEDGER_WINDOW,
  INTENT_TTL_MS,
  SELF_CUSTODY_MESSAGES,
  type IntentStatus,
  type SigningIntent,
  type TxJson,
} from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import type { XrplConnection } from '../../ledger/connection';
import type { Funds } from '../../ledger/funds';
import { ledgerSubmissions } from '../../ledger/schema';
import type { SubmissionOutcome, SubmissionService, TxRequest } from '../../ledger/submission-service';
import { AppError, badRequest, ledgerUnavailable, notFound, replayedError } from '../../lib/errors';
import { authorizeKey, checkSigned, checkSignedBatch, type AccountKeys, type SignedTx } from './check';
import { signingIntents, type IntentRow } from './schema';

// Intents (docs/self-custody.md): for an action on a self-custody wallet the server builds the
// exact transactions (Sequence from the ledger, Fee, LastLedgerSequence), records them BEFORE
// handing them out, and returns them; the wallet signs; the server checks each signed blob is
// exactly what it recorded (platform/intents/check.ts) and hands it to the one submission service
// (`recordSigned`: recorded before it is sent, tracked, reconciled, finalized like any other), then
// the action's own finisher turns the outcomes into the answer the custodial route would give.
//
// kill -9 anywhere: before the blob arrives, nothing was sent and the intent expires with its
// LastLedgerSequence (or the blob posted after the restart is submitted once); after it arrived,
// the blob is on record and the start sweep follows it to the end and runs the finisher, which
// is idempotent. A blob posted twice finds the first one's record and submits nothing.
//
// A 'batch' intent (a swap and its platform fee where the ledger has Batch) is one all-or-nothing
// Batch of the wallet: the wallet signs the outer only, `checkSignedBatch` checks it and each inner
// transaction, and the outer and its inner transactions are recorded together (`recordSignedBatch`)
// as a Batch the submission service signs itself is.
//
// A wallet app may be unable to sign a Batch. Where the action allows it (`batch.fallback`), the
// web then asks for the same transactions as a 'sequence' intent (`fallbackToSequence`, an explicit
// request recorded on both intents): the Batch intent is voided first (one conditional statement —
// a Batch already claimed cannot be voided, a voided one can never be claimed), and the sequence
// intent starts at the Batch's own sequence, so even a Batch blob the app did sign and the user
// sends elsewhere cannot apply beside it: the ledger takes one transaction per sequence.

/** What an action registers for its purpose. */
export interface IntentFinisher {
  /**
   * Checked again right before the signed blob is recorded (under the wallet's funds lease): the
   * wallet's balances may have moved since the intent was prepared. Throw a 4xx to refuse; nothing
   * is sent then.
   */
  recheck?(intent: IntentRow): Promise<void>;
  /**
   * The action's answer from its transactions' outcomes (in order; undefined for a step never
   * submitted because one before it failed; for a 'batch' intent, its inner transactions' outcomes,
   * settled together with the outer's — all applied, or none). Runs at least once per intent, possibly again after a
   * restart: it must be idempotent (records keyed by hash). Throwing a 4xx AppError stores it as
   * the intent's answer.
   */
  finish(intent: IntentRow, outcomes: Array<SubmissionOutcome | undefined>): Promise<unknown>;
  /**
   * The finisher's context for the same action signed as a sequence instead of a Batch (a wallet
   * app that cannot sign one): what its `recheck` counts may differ (the network fees).
   */
  asSequence?(context: Record<string, unknown>): Record<string, unknown>;
}

export interface PrepareIntent {
  userId: number;
  wallet: { id: number; address: string };
  /** The finisher to run ('transfer', 'swap', …). */
  purpose: string;
  /** The action's idempotency (`<purpose>:<user>:<Idempotency-Key>`): one request, one intent. */
  intentKey: string;
  /**
   * The transactions to sign, in order, as callers describe them to the submission service (no
   * Account, Sequence, LastLedgerSequence; Fee only when it is not the base fee). `purpose` names
   * each one's submission record (trade records and fee accounting key on it).
   */
  txs: Array<{ tx: TxRequest; purpose: string }>;
  /** What the finisher needs (JSON). */
  context: Record<string, unknown>;
  /**
   * The transactions as ONE all-or-nothing Batch of the wallet (XLS-56; the caller asked the
   * ledger has Batch): `purpose` names the outer's submission record. The wallet signs the outer
   * only; the finisher hears the inner transactions' outcomes, in order.
   */
  batch?: {
    purpose: string;
    /**
     * May the wallet ask for the same transactions as a sequence intent instead (a wallet app that
     * cannot sign a Batch; `fallbackToSequence`)? Never for a wallet our own code signs.
     */
    fallback?: boolean;
  };
}

export interface IntentServiceDeps {
  db: Db;
  connection: XrplConnection;
  submissions: SubmissionService;
  funds?: Funds;
  log: { info(o: object, m: string): void; warn(o: object, m: string): void };
}

/** A step's submission record key: the intent's key and the step's place. */
export const stepKey = (intentKey: string, i: number): string => `${intentKey}:step-${i}`;

interface StoredContext {
  /** Each step's submission purpose. */
  stepPurposes: string[];
  /** A Batch intent whose wallet may ask for its sequence version (`PrepareIntent.batch.fallback`). */
  sequenceFallback?: boolean;
  /** A sequence intent made from a Batch intent the wallet app could not sign: which, and why. */
  fallbackOf?: { intent: string; reason: string };
  [k: string]: unknown;
}

/** The key of a Batch intent's sequence version (one per Batch intent: a retry answers it). */
const sequenceKey = (intentKey: string): string => `${intentKey}:sequence`;

const FEE_OF_RESERVE = new Set(['AMMCreate', 'AccountDelete']);

export class IntentService {
  private readonly finishers = new Map<string, IntentFinisher>();
  /** Intents this process is driving to the end (a second post waits for the first). */
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: IntentServiceDeps) {}

  register(purpose: string, finisher: IntentFinisher): void {
    this.finishers.set(purpose, finisher);
  }

  private finisher(purpose: string): IntentFinisher {
    const f = this.finishers.get(purpose);
    if (!f) throw new Error(`No finisher registered for intent purpose ${purpose}`);
    return f;
  }

  /**
   * The intent already recorded under `intentKey` (a retried request), if any; a Batch intent
   * replaced by its sequence version answers that version (the one that can still be signed).
   */
  async known(intentKey: string): Promise<SigningIntent | undefined> {
    const [row] = await this.deps.db
      .select()
      .from(signingIntents)
      .where(eq(signingIntents.intentKey, intentKey));
    if (row?.status === 'voided') return (await this.known(sequenceKey(intentKey))) ?? view(row);
    return row ? view(row) : undefined;
  }

  /**
   * Builds the exact transactions, records them, and answers what the wallet must sign. The same
   * intent key answers the intent already recorded (a retried request signs the same thing).
   */
  async prepare(req: PrepareIntent): Promise<SigningIntent> {
    this.finisher(req.purpose);
    const known = await this.known(req.intentKey);
    if (known) return known;
    const { submissions } = this.deps;
    if (!this.deps.connection.isConnected() || submissions.ledgerIndex === 0) throw ledgerUnavailable();
    const first = await this.nextSequence(req.wallet.address);
    const lastLedgerSequence = submissions.ledgerIndex + INTENT_LEDGER_WINDOW;
    const { baseFee, reserveIncrement } = submissions.reserves;
    if (req.batch) return this.prepareBatch(req, first, lastLedgerSequence);
    const txs = req.txs.map(({ tx }, i) => {
      const json: TxJson = {
        ...tx,
        Account: req.wallet.address,
        Sequence: first + i,
        Fee: tx.Fee ?? (FEE_OF_RESERVE.has(tx.TransactionType) ? reserveIncrement : baseFee).toString(),
        LastLedgerSequence: lastLedgerSequence,
      };
      // The same validation the submission service applies before it signs one of its own.
      validate(json as never);
      return json;
    });
    const context: StoredContext = { ...req.context, stepPurposes: req.txs.map((t) => t.purpose) };
    return this.record(req, txs.length === 1 ? 'single' : 'sequence', txs, context, lastLedgerSequence);
  }

  /**
   * A Batch intent (docs/self-custody.md "Swaps and the platform fee"): the outer Batch at the
   * wallet's next sequence, tfAllOrNothing, its fee by rippled's Batch fee rule (the submission
   * service's `batchFee`: twice the base fee plus each inner one's own), carrying the inner
   * transactions at the sequences after it — tfInnerBatchTxn, Fee 0, no signature, exactly as the
   * submission service builds a custodial Batch. Stored as [outer, ...inner]; step 0 is the outer,
   * step k the k-th inner transaction (their submission records' keys).
   */
  private async prepareBatch(req: PrepareIntent, first: number, lastLedgerSequence: number) {
    const account = req.wallet.address;
    const inner: TxJson[] = req.txs.map(({ tx }, k) => {
      const flags = typeof tx.Flags === 'number' ? tx.Flags : 0;
      const json: TxJson = {
        ...tx,
        Account: account,
        Sequence: first + 1 + k,
        Fee: '0',
        SigningPubKey: '',
        Flags: (flags | GlobalFlags.tfInnerBatchTxn) >>> 0,
      };
      return json;
    });
    const outer: TxJson = {
      TransactionType: 'Batch',
      Account: account,
      Flags: BatchFlags.tfAllOrNothing,
      Sequence: first,
      Fee: this.deps.submissions.batchFee(req.txs.map((t) => t.tx.TransactionType)).toString(),
      LastLedgerSequence: lastLedgerSequence,
      RawTransactions: inner.map((t) => ({ RawTransaction: t })),
    };
    validate(outer as never);
    const context: StoredContext = {
      ...req.context,
      stepPurposes: [req.batch!.purpose, ...req.txs.map((t) => t.purpose)],
      ...(req.batch!.fallback ? { sequenceFallback: true } : {}),
    };
    return this.record(req, 'batch', [outer, ...inner], context, lastLedgerSequence);
  }

  /**
   * POST /api/intents/{id}/sequence: the wallet app could not sign this Batch intent (its adapter
   * failed, it refused other than by its user, or it answered something that is not the Batch), so
   * the same transactions — the same amounts, destination, fee payment — become a 'sequence'
   * intent, as a wallet app's swap was before Batch. Only for a Batch whose action allows it
   * (`batch.fallback`: wallet apps). The Batch intent is voided first and then can never be
   * claimed; one already claimed cannot be voided. The sequence intent starts at the Batch's own
   * sequence unless the validated ledger already shows the account past it (then the Batch can
   * never apply either), so the two can never both execute, whatever happens to a blob. Asked
   * again, it answers the same sequence intent.
   */
  async fallbackToSequence(userId: number, id: string, reason: string): Promise<SigningIntent> {
    const row = await this.owned(userId, id);
    const stored = row.context as StoredContext;
    if (row.mode !== 'batch') throw badRequest(SELF_CUSTODY_MESSAGES.notBatch);
    if (!stored.sequenceFallback) throw badRequest(SELF_CUSTODY_MESSAGES.batchOnly);
    const key = sequenceKey(row.intentKey);
    if (row.status === 'voided') {
      const done = await this.known(key);
      if (done) return done;
    } else if (row.status !== 'prepared') {
      if (row.status === 'expired') throw badRequest(SELF_CUSTODY_MESSAGES.expired);
      throw badRequest(SELF_CUSTODY_MESSAGES.batchAlreadySigned);
    } else if (this.expired(row)) {
      await this.expire(row);
      throw badRequest(SELF_CUSTODY_MESSAGES.expired);
    }
    const { submissions } = this.deps;
    if (!this.deps.connection.isConnected() || submissions.ledgerIndex === 0) throw ledgerUnavailable();
    const txs = row.txs as TxJson[];
    const batchSequence = Number(txs[0]!.Sequence);
    const validated = await this.validatedSequence(row.account);
    const first = validated > batchSequence ? await this.nextSequence(row.account) : batchSequence;
    const lastLedgerSequence = submissions.ledgerIndex + INTENT_LEDGER_WINDOW;
    const { baseFee, reserveIncrement } = submissions.reserves;
    const sequence = txs.slice(1).map((inner, i) => {
      const { SigningPubKey: _unsigned, Fee: _none, Flags, ...rest } = inner;
      const flags = (Number(Flags ?? 0) & ~GlobalFlags.tfInnerBatchTxn) >>> 0;
      const json: TxJson = {
        ...rest,
        ...(flags ? { Flags: flags } : {}),
        Sequence: first + i,
        Fee: (FEE_OF_RESERVE.has(String(rest.TransactionType)) ? reserveIncrement : baseFee).toString(),
        LastLedgerSequence: lastLedgerSequence,
      };
      validate(json as never);
      return json;
    });
    const finisher = this.finisher(row.purpose);
    const { stepPurposes, sequenceFallback: _allowed, ...rest } = stored;
    const context: StoredContext = {
      ...(finisher.asSequence ? finisher.asSequence(rest) : rest),
      stepPurposes: stepPurposes.slice(1),
      fallbackOf: { intent: row.id, reason },
    };
    const newId = randomUUID();
    const made = await this.deps.db.transaction(async (tx) => {
      // Voided before the sequence intent exists: from here the Batch can never be claimed.
      if (row.status === 'prepared') {
        const [voided] = await tx
          .update(signingIntents)
          .set({
            status: 'voided',
            error: {
              code: 'INTENT_REPLACED',
              message: SELF_CUSTODY_MESSAGES.replaced,
              details: { by: newId, reason },
            },
            updatedAt: new Date(),
          })
          .where(and(eq(signingIntents.id, row.id), eq(signingIntents.status, 'prepared')))
          .returning();
        if (!voided) return undefined;
      }
      const [inserted] = await tx
        .insert(signingIntents)
        .values({
          id: newId,
          intentKey: key,
          userId: row.userId,
          walletId: row.walletId,
          account: row.account,
          purpose: row.purpose,
          mode: sequence.length === 1 ? 'single' : 'sequence',
          txs: sequence,
          context,
          lastLedgerSequence,
          expiresAt: new Date(Date.now() + INTENT_TTL_MS),
        })
        .onConflictDoNothing()
        .returning();
      return inserted;
    });
    if (!made) {
      // Claimed, voided or replaced meanwhile by another request: answer as that one left it.
      const now = await this.owned(userId, id);
      if (now.status === 'voided') {
        const done = await this.known(key);
        if (done) return done;
      }
      throw badRequest(SELF_CUSTODY_MESSAGES.batchAlreadySigned);
    }
    this.deps.log.info(
      { intent: made.id, replaces: row.id, reason, account: row.account },
      'a Batch intent replaced by its sequence version',
    );
    return view(made);
  }

  /** The account's Sequence on the validated ledger (0: not on it yet). */
  private async validatedSequence(account: string): Promise<number> {
    try {
      const info = await this.deps.connection.client.request({
        command: 'account_info',
        account,
        ledger_index: 'validated',
      });
      return info.result.account_data.Sequence;
    } catch (err) {
      if (
        err instanceof RippledError &&
        (err.data as { error?: string } | undefined)?.error === 'actNotFound'
      )
        return 0;
      throw err;
    }
  }

  private expire(row: IntentRow) {
    return this.deps.db
      .update(signingIntents)
      .set({ status: 'expired', updatedAt: new Date() })
      .where(and(eq(signingIntents.id, row.id), eq(signingIntents.status, 'prepared')));
  }

  private async record(
    req: PrepareIntent,
    mode: SigningIntent['mode'],
    txs: TxJson[],
    context: StoredContext,
    lastLedgerSequence: number,
  ): Promise<SigningIntent> {
    const [row] = await this.deps.db
      .insert(signingIntents)
      .values({
        id: randomUUID(),
        intentKey: req.intentKey,
        userId: req.userId,
        walletId: req.wallet.id,
        account: req.wallet.address,
        purpose: req.purpose,
        mode,
        txs,
        context,
        lastLedgerSequence,
        expiresAt: new Date(Date.now() + INTENT_TTL_MS),
      })
      .onConflictDoNothing()
      .returning();
    return row ? view(row) : (await this.known(req.intentKey))!;
  }

  /**
   * The account's next sequence for an intent: the ledger's (open ledger, as xrpl.js autofill
   * reads it), or past the wallet's own transactions we recorded and are still following.
   */
  private async nextSequence(account: string): Promise<number> {
    let sequence: number;
    try {
      const info = await this.deps.connection.client.request({
        command: 'account_info',
        account,
        ledger_index: 'current',
      });
      sequence = info.result.account_data.Sequence;
    } catch (err) {
      if (
        err instanceof RippledError &&
        (err.data as { error?: string } | undefined)?.error === 'actNotFound'
      )
        throw badRequest('This wallet is not activated on the XRP Ledger yet.');
      throw err;
    }
    const [open] = await this.deps.db
      .select({ top: sql<string | null>`max(${ledgerSubmissions.sequence})` })
      .from(ledgerSubmissions)
      .where(
        and(
          eq(ledgerSubmissions.account, account),
          inArray(ledgerSubmissions.status, ['pending', 'submitted']),
        ),
      );
    const top = open?.top === null || open?.top === undefined ? undefined : Number(open.top);
    return top !== undefined && top >= sequence ? top + 1 : sequence;
  }

  /** The user's intent, or 404 (someone else's reads as missing). */
  async owned(userId: number, id: string): Promise<IntentRow> {
    const [row] = /^[0-9a-f-]{36}$/i.test(id)
      ? await this.deps.db.select().from(signingIntents).where(eq(signingIntents.id, id))
      : [];
    if (!row || row.userId !== userId) throw notFound(SELF_CUSTODY_MESSAGES.notFound);
    return row;
  }

  async status(userId: number, id: string): Promise<IntentStatus> {
    const row = await this.owned(userId, id);
    const steps = (row.txs as TxJson[]).map((_, i) => stepKey(row.intentKey, i));
    const recorded = await this.deps.submissions.recorded(steps);
    return {
      id: row.id,
      purpose: row.purpose,
      status: row.status as IntentStatus['status'],
      hashes: steps.flatMap((k) => {
        const r = recorded.get(k);
        return r ? [r.hash] : [];
      }),
      expiresAt: row.expiresAt.toISOString(),
    };
  }

  /**
   * POST /api/intents/{id}/submit: checks the signed blobs against the intent, records and submits
   * them through the submission service, and answers the action's answer. Posting again (the same
   * blobs) answers the first posting's outcome; different blobs after the first are refused.
   */
  async submit(userId: number, id: string, blobs: string[]): Promise<unknown> {
    let row = await this.owned(userId, id);
    if (row.status === 'prepared') {
      const claimed = await this.claim(row, blobs);
      if (claimed) row = claimed;
      else row = await this.owned(userId, id);
    }
    if (row.status === 'expired') throw badRequest(SELF_CUSTODY_MESSAGES.expired);
    // A Batch replaced by its sequence version: its blob is never sent (the ledger would refuse
    // one of the two anyway — they share a sequence — but we send neither twice).
    if (row.status === 'voided') throw badRequest(SELF_CUSTODY_MESSAGES.replaced);
    // Another posting got here first: only its very blobs are answered with its outcome.
    const signed = (row.signed as string[] | null) ?? [];
    const same =
      signed.length === blobs.length && signed.every((b, i) => b.toUpperCase() === blobs[i]!.toUpperCase());
    if (!same) throw badRequest(SELF_CUSTODY_MESSAGES.alreadySigned);
    return this.drive(row);
  }

  /**
   * Checks the blobs and, when they are exactly the intent, records them as its signature (one
   * database statement: the first posting wins) and hands the first step to the submission
   * service. Undefined when another posting claimed it first.
   */
  private async claim(row: IntentRow, blobs: string[]): Promise<IntentRow | undefined> {
    const txs = row.txs as TxJson[];
    if (this.expired(row)) {
      await this.expire(row);
      throw badRequest(SELF_CUSTODY_MESSAGES.expired);
    }
    const batch = row.mode === 'batch';
    // A Batch is signed as its outer transaction only: one blob.
    const count = batch ? 1 : txs.length;
    if (blobs.length !== count) throw badRequest(SELF_CUSTODY_MESSAGES.count(count));
    const checked: SignedTx[] = batch
      ? [checkSignedBatch(txs[0]!, txs.slice(1), blobs[0]!)]
      : txs.map((tx, i) => checkSigned(tx, blobs[i]!));
    const keys = await this.accountKeys(row.account);
    for (const c of checked) authorizeKey(row.account, c.signingPubKey, keys.root);
    // The wallet's sequence moved past it (it signed something else since): it can never apply.
    if (keys.sequence !== undefined && keys.sequence > Number(txs[0]!.Sequence))
      throw badRequest(SELF_CUSTODY_MESSAGES.sequenceMoved);
    const finisher = this.finisher(row.purpose);
    const record = async (): Promise<IntentRow | undefined> => {
      await finisher.recheck?.(row);
      const [claimed] = await this.deps.db
        .update(signingIntents)
        .set({ status: 'submitted', signed: checked.map((c) => c.blob), updatedAt: new Date() })
        .where(and(eq(signingIntents.id, row.id), eq(signingIntents.status, 'prepared')))
        .returning();
      if (!claimed) return undefined;
      await this.recordFirst(claimed);
      return claimed;
    };
    return this.deps.funds ? this.deps.funds.withAccount(row.account, record) : record();
  }

  private expired(row: IntentRow): boolean {
    // The blob must reach a validated ledger by its LastLedgerSequence: with the validated ledger
    // already there, it no longer can.
    return (
      this.deps.submissions.ledgerIndex >= row.lastLedgerSequence || row.expiresAt.getTime() <= Date.now()
    );
  }

  /** The account's keys and its next sequence on the open ledger (null root: not on the ledger). */
  private async accountKeys(account: string): Promise<{ root: AccountKeys | null; sequence?: number }> {
    try {
      const info = await this.deps.connection.client.request({
        command: 'account_info',
        account,
        ledger_index: 'current',
      });
      const d = info.result.account_data as { Flags: number; RegularKey?: string; Sequence: number };
      return { root: { flags: d.Flags, regularKey: d.RegularKey }, sequence: d.Sequence };
    } catch (err) {
      if (
        err instanceof RippledError &&
        (err.data as { error?: string } | undefined)?.error === 'actNotFound'
      )
        return { root: null };
      throw err;
    }
  }

  private stepRequest(row: IntentRow, i: number) {
    const purposes = (row.context as StoredContext).stepPurposes ?? [];
    return {
      intentKey: stepKey(row.intentKey, i),
      account: row.account,
      blob: (row.signed as string[])[i]!,
      purpose: purposes[i] ?? row.purpose,
      userId: row.userId,
      walletId: row.walletId,
    };
  }

  /** Records the first step (a Batch: the outer and its inner transactions, together). */
  private recordFirst(row: IntentRow) {
    const { submissions } = this.deps;
    if (row.mode !== 'batch') return submissions.recordSigned(this.stepRequest(row, 0));
    const purposes = (row.context as StoredContext).stepPurposes ?? [];
    return submissions.recordSignedBatch({
      ...this.stepRequest(row, 0),
      inner: (row.txs as TxJson[]).slice(1).map((_, k) => ({
        intentKey: stepKey(row.intentKey, k + 1),
        purpose: purposes[k + 1] ?? row.purpose,
      })),
    });
  }

  /** Follows a claimed intent to its end once per process, then answers (stored or fresh). */
  private drive(row: IntentRow): Promise<unknown> {
    if (row.status === 'done') return Promise.resolve(row.result);
    if (row.status === 'failed') return Promise.reject(storedError(row.error));
    let run = this.running.get(row.id);
    if (!run) {
      run = this.finishRow(row).finally(() => this.running.delete(row.id));
      this.running.set(row.id, run);
    }
    return run;
  }

  /**
   * Submits the steps in order — each only after the one before succeeded (a trade's fee only
   * after the trade) — and waits for each to be final; then runs the finisher and stores its answer.
   */
  private async finishRow(row: IntentRow): Promise<unknown> {
    const { submissions } = this.deps;
    const txs = row.txs as TxJson[];
    const outcomes: Array<SubmissionOutcome | undefined> = [];
    if (row.mode === 'batch') {
      // All or nothing: the outer (recorded with its inner transactions when the blob was claimed,
      // or here after a crash between the two), then each inner transaction's outcome, settled
      // from the outer's ledger.
      const outer =
        (await submissions.existing(stepKey(row.intentKey, 0))) ??
        (await submissions.wait((await this.recordFirst(row)).hash));
      outcomes.push(...(await submissions.innerOutcomes(outer.hash)));
      while (outcomes.length < txs.length - 1) outcomes.push(undefined);
      return this.finishWith(row, outcomes);
    }
    for (let i = 0; i < txs.length; i++) {
      let outcome = await submissions.existing(stepKey(row.intentKey, i));
      if (!outcome) {
        // The first step is recorded when the blobs are claimed (or, after a crash between the two,
        // here); a later one only once every step before it succeeded.
        if (i > 0 && outcomes[i - 1]?.status !== 'success') break;
        const rec = await submissions.recordSigned(this.stepRequest(row, i));
        outcome = await submissions.wait(rec.hash);
      }
      outcomes.push(outcome);
      if (outcome.status !== 'success') break;
    }
    while (outcomes.length < txs.length) outcomes.push(undefined);
    return this.finishWith(row, outcomes);
  }

  /** Runs the finisher on the outcomes and stores its answer (or its refusal). */
  private async finishWith(row: IntentRow, outcomes: Array<SubmissionOutcome | undefined>): Promise<unknown> {
    try {
      const result = (await this.finisher(row.purpose).finish(row, outcomes)) ?? null;
      await this.deps.db
        .update(signingIntents)
        .set({ status: 'done', result, updatedAt: new Date() })
        .where(eq(signingIntents.id, row.id));
      return result;
    } catch (err) {
      if (err instanceof AppError && err.status < 500) {
        await this.deps.db
          .update(signingIntents)
          .set({
            status: 'failed',
            error: { code: err.code, message: err.message, details: err.details ?? null },
            updatedAt: new Date(),
          })
          .where(eq(signingIntents.id, row.id));
      }
      throw err;
    }
  }

  /**
   * At start (and for tests): every claimed intent not finished yet — a crash after its blob was
   * recorded — is followed to its end and finished; prepared intents past their time are expired.
   */
  async resume(): Promise<number> {
    await this.deps.db
      .update(signingIntents)
      .set({ status: 'expired', updatedAt: new Date() })
      .where(
        and(
          eq(signingIntents.status, 'prepared'),
          or(
            lt(signingIntents.expiresAt, new Date()),
            lt(signingIntents.lastLedgerSequence, Math.max(1, this.deps.submissions.ledgerIndex)),
          ),
        ),
      );
    const open = await this.deps.db
      .select()
      .from(signingIntents)
      .where(eq(signingIntents.status, 'submitted'));
    await Promise.all(
      open.map((row) =>
        this.drive(row).catch((err: unknown) =>
          this.deps.log.warn(
            { intent: row.id, err: err instanceof Error ? err.message : String(err) },
            'intent finished with a refusal',
          ),
        ),
      ),
    );
    if (open.length) this.deps.log.info({ resumed: open.length }, 'resumed signed intents');
    return open.length;
  }
}

function view(row: IntentRow): SigningIntent {
  return {
    id: row.id,
    purpose: row.purpose,
    walletId: row.walletId,
    account: row.account,
    mode: row.mode as SigningIntent['mode'],
    txs: row.txs as TxJson[],
    lastLedgerSequence: row.lastLedgerSequence,
    expiresAt: row.expiresAt.toISOString(),
  };
}

function storedError(stored: unknown): AppError {
  const e = (stored ?? {}) as { code?: string; message?: string; details?: Record<string, unknown> | null };
  return replayedError(e.code, e.message ?? 'The action failed.', e.details ?? undefined);
}
