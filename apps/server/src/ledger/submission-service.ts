import { createHash } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { BatchFlags, decode, encode, hashes, validate, type Wallet } from 'xrpl';
import { batchedRead, batchedRows } from '../db/batched';
import type { Database } from '../db/client';
import { pgErrorCode } from '../db/results';
import { ledgerUnavailable } from '../lib/errors';
import type { XrplConnection } from './connection';
import { decodedTx } from './decoded-tx';
import { ledgerSubmissions } from './schema';
import { SequenceAllocator } from './sequence-allocator';
import { settledInnerOutcomes } from './settle';
import {
  batchFee,
  draftTx,
  innerBatchFields,
  signAndRecord,
  type RecordContext,
  type Signable,
} from './sign-and-record';
import { SubmissionTracker } from './submission-tracker';
import {
  asError,
  rippledErrorName,
  isFinal,
  OPEN,
  outcomeOf,
  silentLog,
  type BatchMode,
  type BatchOutcome,
  type BatchRequest,
  type SignerSource,
  type SubmissionLog,
  type SubmissionOutcome,
  type SubmissionRow,
  type SignedBatchRequest,
  type SignedRequest,
  type SubmitRequest,
} from './submission-types';
import { xrpOutflow } from './xrp-outflow';

export type {
  BalanceChanges,
  BatchMode,
  BatchOutcome,
  BatchRequest,
  SignerSource,
  SubmissionLog,
  SubmissionOutcome,
  SignedBatchRequest,
  SignedRequest,
  SubmissionRow,
  SubmitRequest,
  TxRequest,
} from './submission-types';

// The only code that signs and submits. Every transaction is recorded (hash, sequence,
// LastLedgerSequence, signed blob) before it is sent, so after a dropped socket or a crash the same
// bytes are resubmitted or found by hash — an intent is never signed twice. Sequences are handed out
// from the database, so independent transactions of one account share a ledger instead of waiting
// one ledger each.
//
// In parts (docs/submission-service.md): `SequenceAllocator` hands out sequences and holds the
// per-account locks, `signAndRecord` is the one path that allocates, signs, records, tracks and
// sends, `SubmissionTracker` follows the ledger until each transaction is final, and `settle` is the
// one way a transaction becomes final. This file queues and batches callers' requests and keeps the
// intent rules (idempotency, re-signing after tefPAST_SEQ, gap fills).

export interface SubmissionServiceOptions {
  database: Database;
  connection: XrplConnection;
  signers: SignerSource;
  log?: SubmissionLog;
  /** Ledgers a transaction may wait before it expires (xrpl.js autofill uses 20). */
  ledgerWindow?: number;
  /** Resubmit a transaction not yet validated after this many closed ledgers. */
  resubmitAfterLedgers?: number;
  /**
   * When the account's sequence moved under us (a transaction signed elsewhere took it: tefPAST_SEQ,
   * proven by the account's sequence and a search by hash), `submit` signs the same intent again
   * under a derived key (`<intent>#resign-2`, …) with a fresh sequence. The app turns this on; the
   * service's own tests see the raw outcome.
   */
  resignMovedSequences?: boolean;
}

/** Re-signings of one intent after tefPAST_SEQ before the caller hears the failure. */
const MAX_RESIGNS = 3;
/** The derived intent key of the n-th signing of an intent (n ≥ 2). */
export const resignedIntentKey = (intentKey: string, n: number): string => `${intentKey}#resign-${n}`;

/** The Batch mode flags (XLS-56). */
const BATCH_MODE_FLAGS: Record<BatchMode, number> = {
  allOrNothing: BatchFlags.tfAllOrNothing,
  onlyOne: BatchFlags.tfOnlyOne,
  untilFailure: BatchFlags.tfUntilFailure,
  independent: BatchFlags.tfIndependent,
};

/** An amendment's ID: the first half of SHA-512 of its name (rippled's amendment table). */
const amendmentId = (name: string): string =>
  createHash('sha512').update(name).digest().subarray(0, 32).toString('hex').toUpperCase();
/**
 * The amendments that enable the Batch transactor: BatchV1_1 (mainnet, with fixBatchV1_2) or the
 * first `Batch` (rippled 2.5–3.1; its signer bug concerns BatchSigners, which the platform's
 * one-account Batches never carry).
 */
const BATCH_AMENDMENTS = ['BatchV1_1', 'Batch'].map(amendmentId);
/** The ledger's Amendments object (a singleton; its index is fixed). */
const AMENDMENTS_INDEX = '7DB0788C020F02780A673DC74757F23823FA3014C1866E72CC4CD8B226CD6EF4';
/** Ledgers after which a "no Batch here" answer is asked again (an amendment may pass meanwhile). */
const BATCH_RECHECK_LEDGERS = 256;

interface Queued {
  req: SubmitRequest;
  /** A Batch, drafted and checked already (`prepareBatch`): signed as it is. */
  entry?: Signable;
  resolve: (row: SubmissionRow) => void;
  reject: (err: unknown) => void;
}

/**
 * The no-op that fills an unused sequence of `row`'s account: an AccountSet signed with the
 * account's key, or — for a delegated transaction (a self-custody wallet's, signed by its
 * delegate, which may not send AccountSet) — the delegate's OfferCancel of an offer that cannot
 * exist (the gap's own sequence never made one): tesSUCCESS, nothing changed but the sequence.
 */
function gapFiller(row: SubmissionRow, sequence = row.sequence): Pick<SubmitRequest, 'tx' | 'delegate'> {
  const delegate = (decode(row.txBlob) as { Delegate?: string }).Delegate;
  if (!delegate) return { tx: { TransactionType: 'AccountSet' } };
  return { tx: { TransactionType: 'OfferCancel', OfferSequence: sequence }, delegate };
}

/** A self-custody wallet's signed transaction, as `recordWalletSigned` reads it. */
interface SignedWalletTx {
  TransactionType: string;
  Sequence?: number;
  LastLedgerSequence?: number;
  RawTransactions?: Array<{ RawTransaction: Record<string, unknown> }>;
}

/** One inner transaction of a wallet-signed Batch, as recorded beside its outer. */
interface WalletInnerRow {
  intentKey: string;
  purpose: string;
  sequence: number;
  txType: string;
  hash: string;
  txBlob: string;
}

/** A Batch request under the derived keys of its n-th signing (after tefPAST_SEQ). */
const resignedBatch = (req: BatchRequest, n: number): BatchRequest => ({
  ...req,
  intentKey: resignedIntentKey(req.intentKey, n),
  inner: req.inner.map((i) => ({ ...i, intentKey: resignedIntentKey(i.intentKey, n) })),
});

export class SubmissionService {
  private readonly db: Database['db'];
  private readonly log: SubmissionLog;
  private readonly window: number;
  private readonly resign: boolean;
  private readonly allocator: SequenceAllocator;
  private readonly tracker: SubmissionTracker;
  private readonly recording: RecordContext;
  private readonly queues = new Map<string, Queued[]>();
  private started = false;
  /** The connected ledger has Batch: yes for good once seen; no until BATCH_RECHECK_LEDGERS later. */
  private batchAnswer: { enabled: boolean; at: number } | undefined;
  private batchAsking: Promise<boolean> | undefined;

  constructor(private readonly opts: SubmissionServiceOptions) {
    this.db = opts.database.db;
    this.log = opts.log ?? silentLog;
    this.window = opts.ledgerWindow ?? 20;
    this.resign = opts.resignMovedSequences ?? false;
    this.allocator = new SequenceAllocator(this.db, opts.connection);
    this.tracker = new SubmissionTracker({
      database: opts.database,
      connection: opts.connection,
      allocator: this.allocator,
      log: this.log,
      window: this.window,
      resubmitAfter: opts.resubmitAfterLedgers ?? 3,
      releaseSequence: (row) => this.releaseSequence(row),
      fillGapsBefore: (row) => this.fillGapsBefore(row),
    });
    this.recording = { db: this.db, allocator: this.allocator, tracker: this.tracker, window: this.window };
  }

  /** Loads every unfinished record, then follows the ledger (now and after each reconnect). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const open = await this.db
      .select()
      .from(ledgerSubmissions)
      .where(inArray(ledgerSubmissions.status, [...OPEN]))
      // In the order they were recorded, which is the order they were first submitted: a
      // transaction that depended on another account's (a payment into a new trust line) was
      // recorded after it, so resending in this order after a restart keeps every dependency ahead
      // of its dependents. (Per account, recording order is sequence order.)
      .orderBy(ledgerSubmissions.id);
    // A Batch's inner transactions are settled with their outer (followed through it).
    for (const row of open) if (!row.parentHash) this.tracker.track(row);
    if (open.length) this.log.info({ open: open.length }, 'resuming unfinished ledger submissions');
    await this.tracker.start();
  }

  async stop(): Promise<void> {
    await this.tracker.stop();
  }

  /** Latest validated ledger index seen on the stream. */
  get ledgerIndex(): number {
    return this.tracker.validatedIndex;
  }

  /** Resolves true once a ledger after `index` is validated (false after `timeoutMs` without one). */
  validatedAfter(index: number, timeoutMs: number): Promise<boolean> {
    return this.tracker.validatedAbove(index, timeoutMs);
  }

  get reserves(): { baseFee: bigint; reserveBase: bigint; reserveIncrement: bigint } {
    const { baseFee, reserveBase, reserveIncrement } = this.tracker;
    return { baseFee, reserveBase, reserveIncrement };
  }

  /** Number of transactions not final yet. */
  get openCount(): number {
    return this.tracker.tracked.size;
  }

  /** Resolves once no transaction is in flight (tests and graceful shutdown wait on it). */
  idle(): Promise<void> {
    if (this.tracker.tracked.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.tracker.idleWaiters.push(resolve));
  }

  /**
   * Called once per record, by the instance that finalized it (live, or when a restart resolves
   * what was in flight): modules record the outcomes they own without waiting on a caller.
   */
  onFinalized(listener: (row: SubmissionRow) => void): () => void {
    this.tracker.finalizedListeners.add(listener);
    return () => this.tracker.finalizedListeners.delete(listener);
  }

  /** Signs, records, submits and waits until the transaction is final in a validated ledger. */
  async submit(req: SubmitRequest): Promise<SubmissionOutcome> {
    return this.follow(req, await this.prepare(req));
  }

  /**
   * Waits for a prepared request's final outcome, as `submit` does: when its transaction provably
   * never applied because the account's sequence moved under us (tefPAST_SEQ: the sequence is used
   * by another transaction and its hash is in no ledger), the intent is signed again under a derived
   * key with a fresh sequence — two transactions of one intent can never both apply.
   */
  async follow(req: SubmitRequest, row: SubmissionRow): Promise<SubmissionOutcome> {
    let outcome = await this.wait(row.hash);
    // A wallet-signed transaction is never signed again here: we hold no key for it.
    const resign = this.resign && row.signer !== 'wallet';
    for (let n = 2; resign && outcome.result === 'tefPAST_SEQ' && n <= MAX_RESIGNS + 1; n++) {
      this.log.info({ intentKey: req.intentKey, attempt: n }, 'sequence moved under us: signing again');
      const again = await this.prepare({ ...req, intentKey: resignedIntentKey(req.intentKey, n) });
      outcome = await this.wait(again.hash);
    }
    return outcome;
  }

  /**
   * The account's sequence on a validated ledger (read by a funds check): ours jumps to it when the
   * account was used elsewhere since, so the next transaction signs with a sequence the ledger can
   * take instead of meeting tefPAST_SEQ.
   */
  async sawSequence(account: string, validatedSequence: number): Promise<void> {
    await this.allocator.jumpTo(account, validatedSequence);
  }

  /**
   * Signs, records and submits without waiting. Calling it again with the same intent key returns
   * the existing record instead of signing another transaction.
   */
  async prepare(req: SubmitRequest, forcedSequence?: number): Promise<SubmissionRow> {
    if (!this.opts.connection.isConnected() || this.tracker.validatedIndex === 0) {
      const existing = await this.findIntent(req.intentKey);
      if (existing) return existing;
      throw ledgerUnavailable();
    }
    await this.allocator.ensureAccount(req.account);
    if (forcedSequence !== undefined) {
      return this.allocator.withAccount(req.account, () => this.prepareOne(req, forcedSequence));
    }
    // Requests for one account that arrive while its previous batch is being signed are signed
    // together: one database transaction allocates their consecutive sequences and records them.
    // The accounts whose queues filled in one turn are drained together, in that one transaction
    // (issue 40's hot launch: a thousand buys, one wallet each, were a thousand transactions).
    return new Promise<SubmissionRow>((resolve, reject) => {
      let queue = this.queues.get(req.account);
      if (!queue) this.queues.set(req.account, (queue = []));
      queue.push({ req, resolve, reject });
      if (queue.length === 1) this.drainSoon(req.account);
    });
  }

  /** Accounts whose queue filled this turn, drained together on the next (see `prepare`). */
  private readonly toDrain = new Set<string>();

  private drainSoon(account: string): void {
    this.toDrain.add(account);
    if (this.toDrain.size > 1) return;
    setImmediate(() => {
      const accounts = [...this.toDrain];
      this.toDrain.clear();
      void this.allocator.withAccounts(accounts, () => this.drain(accounts));
    });
  }

  /**
   * Records a transaction a self-custody wallet signed — checked first, field by field, against the
   * intent it was prepared as (platform/intents) — then follows and sends it exactly like one this
   * service signed: recorded before it is sent, tracked by hash, reconciled and finalized by the
   * same code. Idempotent by intent key: a second call answers the first record (the caller
   * compares its hash with the blob it holds). No sequence is allocated: the wallet's own
   * transaction carries it, and sequences of a 'wallet' row are never given back or gap-filled.
   */
  recordSigned(req: SignedRequest): Promise<SubmissionRow> {
    return this.recordWalletSigned(req, () => []);
  }

  /**
   * `recordSigned` for a Batch a self-custody wallet signed (checked against its intent first):
   * the outer Batch and each inner transaction (its hash: the ID of its canonical serialization, as
   * the ledger records it) are recorded in one statement, the inner rows with the outer's hash as
   * `parent_hash`, before the outer is sent — exactly as `prepareBatch` records a Batch it signs.
   * The inner ones are never sent alone; they are settled with their outer. Idempotent by the
   * outer's intent key.
   */
  recordSignedBatch(req: SignedBatchRequest): Promise<SubmissionRow> {
    return this.recordWalletSigned(req, (tx) => {
      const raw = tx.RawTransactions ?? [];
      if (tx.TransactionType !== 'Batch' || raw.length !== req.inner.length)
        throw new Error(`${req.intentKey} is not a Batch of ${req.inner.length} transactions`);
      return raw.map(({ RawTransaction: inner }, k) => {
        const blob = encode(inner as never);
        return {
          intentKey: req.inner[k]!.intentKey,
          purpose: req.inner[k]!.purpose,
          sequence: Number(inner.Sequence ?? 0),
          txType: String(inner.TransactionType),
          hash: hashes.hashSignedTx(blob),
          txBlob: blob,
        };
      });
    });
  }

  /**
   * What `recordSigned` and `recordSignedBatch` share: the wallet's signed transaction and the rows
   * `inner` reads from it (a Batch's inner transactions; none otherwise) recorded in one statement,
   * `signer = 'wallet'`, then the signed one tracked and sent. Idempotent by the intent key; a
   * conflict (the same intent or these very bytes recorded meanwhile) answers that record.
   */
  private async recordWalletSigned(
    req: SignedRequest,
    inner: (tx: SignedWalletTx) => WalletInnerRow[],
  ): Promise<SubmissionRow> {
    const existing = await this.findIntent(req.intentKey);
    if (existing) return existing;
    if (!this.opts.connection.isConnected() || this.tracker.validatedIndex === 0) throw ledgerUnavailable();
    const tx = decode(req.blob) as unknown as SignedWalletTx;
    const hash = hashes.hashSignedTx(req.blob);
    const common = {
      account: req.account,
      lastLedgerSequence: tx.LastLedgerSequence ?? this.tracker.validatedIndex + this.window,
      userId: req.userId ?? null,
      walletId: req.walletId ?? null,
      status: 'pending' as const,
      signer: 'wallet',
    };
    const innerRows = inner(tx).map((row) => ({ ...common, ...row, parentHash: hash }));
    const inserted = await this.db
      .insert(ledgerSubmissions)
      .values([
        {
          ...common,
          intentKey: req.intentKey,
          purpose: req.purpose,
          sequence: tx.Sequence ?? 0,
          txType: tx.TransactionType,
          hash,
          txBlob: req.blob,
        },
        ...innerRows,
      ])
      .onConflictDoNothing()
      .returning();
    const signed = inserted.find((r) => r.hash === hash);
    if (!signed || inserted.length !== 1 + innerRows.length) {
      // Recorded meanwhile (the same intent, or these very bytes under it): that record answers.
      const again = (await this.findIntent(req.intentKey)) ?? (await this.rowByHash(hash));
      if (!again) throw new Error(`submission of ${req.intentKey} vanished`);
      if (!isFinal(again)) this.tracker.track({ ...again });
      return { ...again };
    }
    this.tracker.track(signed);
    void this.tracker.send(signed.hash);
    return signed;
  }

  /**
   * `prepare` for a burst of transactions of many accounts (an airdrop's claimers setting their
   * trust lines): their sequence rows are made in one statement, every account's sequences are
   * allocated in one statement and all are recorded in one database transaction, then submitted.
   * Each result is the record, or the error that refused that request (a request whose intent is
   * already recorded gets that record, as with `prepare`).
   */
  async prepareMany(reqs: SubmitRequest[]): Promise<Array<SubmissionRow | Error>> {
    if (reqs.length <= 1 || !this.opts.connection.isConnected() || this.tracker.validatedIndex === 0) {
      return Promise.all(reqs.map((r) => this.prepare(r).catch((err: unknown) => asError(err))));
    }
    const results: Array<SubmissionRow | Error> = new Array<SubmissionRow | Error>(reqs.length);
    const ready = await this.allocator.ensureAccounts([...new Set(reqs.map((r) => r.account))]);
    const usable: number[] = [];
    reqs.forEach((r, i) => {
      const err = ready.get(r.account);
      if (err) results[i] = err;
      else usable.push(i);
    });
    if (usable.length) {
      const accounts = [...new Set(usable.map((i) => reqs[i]!.account))];
      const rows = await this.allocator.withAccounts(accounts, () =>
        this.recordMany(usable.map((i) => reqs[i]!)),
      );
      usable.forEach((i, k) => (results[i] = rows[k]!));
    }
    return results;
  }

  /**
   * Splits requests (of accounts the caller holds) into those already recorded (followed from now
   * on), those refused by validation before any sequence is allocated, and distinct new intents to
   * sign; `answer(i, …)` hears the first two kinds.
   */
  private async sortOut(
    reqs: SubmitRequest[],
    answer: (i: number, result: SubmissionRow | { refused: unknown }) => void,
    prebuilt: Array<Signable | undefined> = [],
  ): Promise<Map<string, Signable & { at: number[] }>> {
    const known = await this.recorded(reqs.map((r) => r.intentKey));
    const fresh = new Map<string, Signable & { at: number[] }>();
    reqs.forEach((req, i) => {
      const row = known.get(req.intentKey);
      if (row) return answer(i, row);
      const same = fresh.get(req.intentKey);
      if (same) return void same.at.push(i);
      const built = prebuilt[i];
      if (built) return void fresh.set(req.intentKey, { ...built, at: [i] });
      const txJson = draftTx(req, this.tracker, this.window);
      try {
        validate(txJson);
      } catch (err) {
        // Refused before any sequence is allocated for it.
        return answer(i, { refused: err });
      }
      fresh.set(req.intentKey, { req, txJson, at: [i] });
    });
    return fresh;
  }

  /** Signs and records requests of many accounts at once; the caller holds all their accounts. */
  private async recordMany(reqs: SubmitRequest[]): Promise<Array<SubmissionRow | Error>> {
    const results: Array<SubmissionRow | Error> = new Array<SubmissionRow | Error>(reqs.length);
    const fresh = await this.sortOut(reqs, (i, r) => {
      results[i] = 'refused' in r ? asError(r.refused) : r;
    });
    const entries = [...fresh.values()];
    if (entries.length === 0) return results;
    const wallets = await this.walletsFor([...new Set(entries.map((e) => e.req.delegate ?? e.req.account))]);
    let answers: Array<SubmissionRow | Error>;
    try {
      answers = await signAndRecord(this.recording, entries, wallets, { strict: true });
    } catch {
      // A duplicate intent raced in, or one request could not be signed: the batch rolled back and
      // allocated nothing; one at a time, each finds its own answer (the existing record, an error).
      answers = [];
      for (const e of entries)
        answers.push(await this.prepareOne(e.req).catch((err: unknown) => asError(err)));
    }
    entries.forEach((e, k) => {
      for (const i of e.at) results[i] = answers[k]!;
    });
    return results;
  }

  private async walletsFor(accounts: string[]): Promise<Map<string, Wallet>> {
    if (this.opts.signers.walletsFor) return this.opts.signers.walletsFor(accounts);
    const out = new Map<string, Wallet>();
    for (const account of accounts) {
      const wallet = await this.opts.signers.walletFor(account).catch(() => undefined);
      if (wallet) out.set(account, wallet);
    }
    return out;
  }

  /** The signing keys of entries of one account (its own, or its delegates'), as a map for `signAndRecord`. */
  private async walletOf(entries: Array<{ req: SubmitRequest }>): Promise<Map<string, Wallet>> {
    const out = new Map<string, Wallet>();
    for (const signer of new Set(entries.map((e) => e.req.delegate ?? e.req.account))) {
      const wallet = await this.opts.signers.walletFor(signer);
      if (wallet.classicAddress !== signer) throw new Error('Signer does not match the account');
      out.set(signer, wallet);
    }
    return out;
  }

  /** Signs and records the requests queued for `accounts`; the caller holds them all. */
  private async drain(accounts: string[]): Promise<void> {
    const batch = accounts.flatMap((a) => this.queues.get(a)?.splice(0) ?? []);
    if (batch.length === 0) return;
    const pending = new Set(batch);
    const resolve = (item: Queued, row: SubmissionRow) => {
      pending.delete(item);
      item.resolve(row);
    };
    const reject = (item: Queued, err: unknown) => {
      pending.delete(item);
      item.reject(err);
    };
    try {
      const fresh = await this.sortOut(
        batch.map((b) => b.req),
        (i, r) => ('refused' in r ? reject(batch[i]!, r.refused) : resolve(batch[i]!, r)),
        batch.map((b) => b.entry),
      );
      if (fresh.size === 0) return;
      // A signer whose key cannot be had refuses its own requests, not the other accounts'.
      const keys = await this.signingKeys([...fresh.values()].map((e) => e.req.delegate ?? e.req.account));
      const entries: Array<Signable & { at: number[] }> = [];
      for (const e of fresh.values()) {
        const key = keys.get(e.req.delegate ?? e.req.account)!;
        if (key instanceof Error) for (const i of e.at) reject(batch[i]!, key);
        else entries.push(e);
      }
      if (entries.length === 0) return;
      const wallets = new Map<string, Wallet>();
      for (const [signer, key] of keys) if (!(key instanceof Error)) wallets.set(signer, key);
      let answers: Array<SubmissionRow | Error>;
      try {
        answers = await signAndRecord(this.recording, entries, wallets, { strict: false });
      } catch (err) {
        if (pgErrorCode(err) !== '23505') throw err;
        // An intent of this batch was recorded elsewhere meanwhile: nothing of the batch was
        // allocated (rolled back); do them one at a time, which resolves the duplicate.
        answers = [];
        for (const e of entries) answers.push(await this.prepareEntry(e).catch((e2: unknown) => asError(e2)));
      }
      entries.forEach((e, k) => {
        const answer = answers[k]!;
        for (const i of e.at) {
          if (answer instanceof Error) reject(batch[i]!, answer);
          else resolve(batch[i]!, answer);
        }
      });
    } catch (err) {
      for (const item of pending) item.reject(err);
    }
  }

  /** Each signer's key (as `walletOf` checks it), or the error that refuses its requests. */
  private async signingKeys(signers: string[]): Promise<Map<string, Wallet | Error>> {
    const unique = [...new Set(signers)];
    const keys = await Promise.all(
      unique.map(async (signer) => {
        try {
          const wallet = await this.opts.signers.walletFor(signer);
          if (wallet.classicAddress !== signer) throw new Error('Signer does not match the account');
          return wallet;
        } catch (err) {
          return asError(err);
        }
      }),
    );
    return new Map(unique.map((s, i) => [s, keys[i]!]));
  }

  /** One entry of a drain on its own (a transaction, or a Batch as drafted); caller holds the account. */
  private async prepareEntry(e: Signable): Promise<SubmissionRow> {
    if (!e.inner) return this.prepareOne(e.req);
    const existing = await this.findIntent(e.req.intentKey);
    if (existing) return existing;
    return this.recordOne({ req: e.req, txJson: e.txJson, inner: e.inner });
  }

  /** One transaction on its own (gap fills with a fixed sequence, batch fallbacks); caller holds the account. */
  private async prepareOne(req: SubmitRequest, forcedSequence?: number): Promise<SubmissionRow> {
    const existing = await this.findIntent(req.intentKey);
    if (existing) return existing;
    const txJson = draftTx(req, this.tracker, this.window);
    validate(txJson);
    return this.recordOne({ req, txJson, sequence: forcedSequence });
  }

  /** Signs and records one entry (a transaction, or a Batch with its inner ones); the caller holds the account. */
  private async recordOne(entry: Signable): Promise<SubmissionRow> {
    const wallets = await this.walletOf([entry]);
    let answer: SubmissionRow | Error;
    try {
      [answer] = (await signAndRecord(this.recording, [entry], wallets, { strict: true })) as [
        SubmissionRow | Error,
      ];
    } catch (err) {
      if (pgErrorCode(err) === '23505') {
        // The same intent raced in from elsewhere; it won, this attempt allocated nothing.
        const again = await this.findIntent(entry.req.intentKey);
        if (again) return again;
      }
      throw err;
    }
    if (answer instanceof Error) throw answer;
    return answer;
  }

  /**
   * Whether the connected ledger applies Batch transactions: its Amendments object (a `ledger_entry`
   * any server answers; the admin-only `feature` is not available on public servers) lists BatchV1_1
   * (or the first Batch). Asked once and kept: a yes for good, a no until BATCH_RECHECK_LEDGERS
   * ledgers later; a failed read is a no, not kept (the fallback path is always safe).
   */
  async batchEnabled(): Promise<boolean> {
    const known = this.batchAnswer;
    if (known && (known.enabled || this.tracker.validatedIndex - known.at < BATCH_RECHECK_LEDGERS))
      return known.enabled;
    this.batchAsking ??= (async () => {
      try {
        const res = await this.opts.connection.client.request({
          command: 'ledger_entry',
          index: AMENDMENTS_INDEX,
          ledger_index: 'validated',
        });
        const node = res.result.node as { Amendments?: string[] } | undefined;
        const enabled = (node?.Amendments ?? []).some((id) => BATCH_AMENDMENTS.includes(id.toUpperCase()));
        this.batchAnswer = { enabled, at: this.tracker.validatedIndex };
        return enabled;
      } catch (err) {
        if (rippledErrorName(err) === 'entryNotFound') {
          // A ledger without any amendment enabled.
          this.batchAnswer = { enabled: false, at: this.tracker.validatedIndex };
        }
        return false;
      } finally {
        this.batchAsking = undefined;
      }
    })();
    return this.batchAsking;
  }

  /**
   * The network fee of a Batch of one account's transactions of these types, in drops, at the
   * ledger's current fees: twice the base fee plus each one's own (what `submitBatch` signs).
   */
  batchFee(innerTypes: string[]): bigint {
    return batchFee(innerTypes, this.tracker);
  }

  /**
   * Signs, records and submits a Batch (XLS-56) of one account's transactions as ONE intent, and waits
   * for it: the outer transaction (fee: twice the base fee plus each inner one's own) and every inner
   * one (tfInnerBatchTxn, no fee, no signature; the sequences after the outer's) are recorded with
   * their hashes in one database transaction before anything is sent. After validation each inner
   * outcome is reconciled from the outer's ledger, in the same statement that settles the outer
   * (docs/batch-in-the-app.md). Idempotent by the outer intent key: a second call follows the first
   * record, signing nothing. As `submit`, a Batch whose sequence moved under us (tefPAST_SEQ: nothing
   * of it applied) is signed again under derived keys.
   */
  async submitBatch(req: BatchRequest): Promise<BatchOutcome> {
    return this.followBatch(req, await this.prepareBatch(req));
  }

  /** Records and sends a Batch without waiting (the outer's record); see `submitBatch`. */
  async prepareBatch(req: BatchRequest): Promise<SubmissionRow> {
    if (req.inner.length < 2 || req.inner.length > 8) throw new Error('A Batch holds 2 to 8 transactions');
    if (!this.opts.connection.isConnected() || this.tracker.validatedIndex === 0) {
      const existing = await this.findIntent(req.intentKey);
      if (existing) return existing;
      throw ledgerUnavailable();
    }
    await this.allocator.ensureAccount(req.account);
    // Drafted and checked now; signed and recorded with the account's other queued requests and
    // the other accounts' of this turn (see `prepare`).
    const entry = this.draftBatch(req);
    return new Promise<SubmissionRow>((resolve, reject) => {
      let queue = this.queues.get(req.account);
      if (!queue) this.queues.set(req.account, (queue = []));
      queue.push({ req: entry.req, entry, resolve, reject });
      if (queue.length === 1) this.drainSoon(req.account);
    });
  }

  /** Waits for a prepared Batch's final outcome and its inner transactions' (see `submitBatch`). */
  async followBatch(req: BatchRequest, row: SubmissionRow): Promise<BatchOutcome> {
    let outcome = await this.wait(row.hash);
    for (let n = 2; this.resign && outcome.result === 'tefPAST_SEQ' && n <= MAX_RESIGNS + 1; n++) {
      this.log.info(
        { intentKey: req.intentKey, attempt: n },
        'sequence moved under us: signing the Batch again',
      );
      const again = await this.prepareBatch(resignedBatch(req, n));
      outcome = await this.wait(again.hash);
    }
    return {
      batch: outcome,
      inner: settledInnerOutcomes(outcome) ?? (await this.innerOutcomes(outcome.hash)),
    };
  }

  /** The final outcomes of a settled Batch's inner transactions, in the order they were signed. */
  async innerOutcomes(batchHash: string): Promise<SubmissionOutcome[]> {
    return (await this.innerRows(batchHash)).map(outcomeOf);
  }

  /**
   * The inner records of each Batch asked for in one turn, read together (db/batched.ts): the
   * Batches of a ledger settle together, and each buy of a burst read its own (issue 40).
   */
  private readonly innerRows = batchedRows(
    (batchHashes: string[]) =>
      this.db
        .select()
        .from(ledgerSubmissions)
        .where(inArray(ledgerSubmissions.parentHash, batchHashes))
        .orderBy(asc(ledgerSubmissions.sequence)),
    (row) => row.parentHash ?? '',
  );

  /** A Batch's outer transaction and inner ones, drafted and each checked (no sequence yet). */
  private draftBatch(req: BatchRequest): Signable & { inner: SubmitRequest[] } {
    const inner: SubmitRequest[] = req.inner.map((i) => ({
      intentKey: i.intentKey,
      account: req.account,
      tx: i.tx,
      purpose: i.purpose,
      userId: req.userId,
      walletId: req.walletId,
    }));
    // Each inner transaction is checked on its own before any sequence is allocated (its fields
    // only: it is serialized once, when it is signed with its outer).
    const fields = inner.map((r, k) => innerBatchFields(r, k + 2));
    for (const tx of fields) validate(tx);
    const outer: SubmitRequest = {
      intentKey: req.intentKey,
      account: req.account,
      purpose: req.purpose,
      userId: req.userId,
      walletId: req.walletId,
      tx: {
        TransactionType: 'Batch',
        Flags: BATCH_MODE_FLAGS[req.mode],
        Fee: this.batchFee(inner.map((r) => r.tx.TransactionType)).toString(),
      },
    };
    const txJson = draftTx(outer, this.tracker, this.window);
    validate({
      ...txJson,
      RawTransactions: fields.map((tx) => ({ RawTransaction: tx })),
    });
    return { req: outer, txJson, inner };
  }

  /**
   * The outcome of an intent already recorded (final or awaited), or undefined if never seen. When the
   * intent was signed again after tefPAST_SEQ, the latest signing's outcome.
   */
  async existing(intentKey: string): Promise<SubmissionOutcome | undefined> {
    const row = await this.findIntent(intentKey);
    if (!row) return undefined;
    // A Batch's inner transaction of a Batch signed again carries the derived key too.
    const moved = row.result === 'tefPAST_SEQ' || (!!row.parentHash && row.result === 'not-applied');
    if (this.resign && moved) {
      const keys = Array.from({ length: MAX_RESIGNS }, (_, i) => resignedIntentKey(intentKey, i + 2));
      const later = [...(await this.recorded(keys)).values()].sort((a, b) => b.id - a.id)[0];
      if (later) return this.wait(later.hash);
    }
    return this.wait(row.hash);
  }

  /**
   * XRP the account's transactions still in flight may take, in drops: fees, XRP amounts paid to
   * others, XRP offered, deposited or sent as SendMax, and an owner reserve for each object they may
   * create. Read from the signed blobs, so it holds across restarts and instances. Funds checks count
   * it as committed (docs/money.md).
   */
  async inFlightXrp(account: string): Promise<bigint> {
    return (await this.openBlobs(account)) ?? 0n;
  }

  /** The XRP in flight of each account asked for in one turn, read together (db/batched.ts). */
  private readonly openBlobs = batchedRead(async (accounts: string[]) => {
    const rows = await this.db
      .select({ account: ledgerSubmissions.account, blob: ledgerSubmissions.txBlob })
      .from(ledgerSubmissions)
      .where(and(inArray(ledgerSubmissions.account, accounts), inArray(ledgerSubmissions.status, [...OPEN])));
    const total = new Map<string, bigint>();
    for (const r of rows) {
      const out = xrpOutflow(decodedTx(r.blob), this.tracker.reserveIncrement);
      total.set(r.account, (total.get(r.account) ?? 0n) + out);
    }
    return total;
  });

  /**
   * The account's transactions in flight (recorded, not final) whose transaction `match`es, oldest
   * first, followed from now on. A caller about to sign what another caller of the same account may
   * have signed a moment ago (the TrustSet of a line that several buys need) follows that one
   * instead; run under the account's funds lease, the answer holds across instances.
   */
  async inFlight(account: string, match: (tx: Record<string, unknown>) => boolean): Promise<SubmissionRow[]> {
    const rows = await this.openRows(account);
    const out = rows.filter((r) => match(decodedTx(r.txBlob))).map((r) => ({ ...r }));
    for (const row of out) this.tracker.track(row);
    return out;
  }

  /** The open records of each account asked for in one turn, read together, oldest first (db/batched.ts). */
  private readonly openRows = batchedRows(
    (accounts: string[]) =>
      this.db
        .select()
        .from(ledgerSubmissions)
        .where(
          and(inArray(ledgerSubmissions.account, accounts), inArray(ledgerSubmissions.status, [...OPEN])),
        )
        .orderBy(ledgerSubmissions.id),
    (row) => row.account,
  );

  /** The records of many intents in one look-up (by intent key; open ones are followed from now on). */
  async recorded(intentKeys: string[]): Promise<Map<string, SubmissionRow>> {
    const out = new Map<string, SubmissionRow>();
    if (intentKeys.length === 0) return out;
    const rows = await this.db
      .select()
      .from(ledgerSubmissions)
      .where(inArray(ledgerSubmissions.intentKey, [...new Set(intentKeys)]));
    for (const row of rows) {
      out.set(row.intentKey, row);
      if (!isFinal(row)) this.tracker.track(row);
    }
    return out;
  }

  /**
   * The open ledger's verdict on a recorded transaction: the engine result of its submit (or its
   * final result, when it was final before anyone asked). `tesSUCCESS` means the transaction applied
   * to the open ledger, so transactions of other accounts that depend on it can be submitted now
   * instead of a ledger later (the deploy pipelines on this); anything else says wait for `wait()`.
   */
  async engineResult(hash: string): Promise<string> {
    const t = this.tracker.tracked.get(hash);
    if (t) {
      if (t.engineSeen && t.row.engineResult) return t.row.engineResult;
      return new Promise((resolve) => t.engineWaiters.push(resolve));
    }
    const row = await this.byHash(hash);
    if (isFinal(row)) return row.result ?? 'unknown';
    // An inner transaction of a Batch is in the open ledger when its outer is.
    if (row.parentHash) return this.engineResult(row.parentHash);
    this.tracker.track(row);
    return this.engineResult(hash);
  }

  /** Waits for the final outcome of a recorded transaction. */
  async wait(hash: string): Promise<SubmissionOutcome> {
    const t = this.tracker.tracked.get(hash);
    if (t) return new Promise((resolve) => t.waiters.push({ resolve }));
    const row = await this.byHash(hash);
    if (isFinal(row)) return outcomeOf(row);
    if (row.parentHash) {
      // An inner transaction of a Batch is settled with its outer, in the same statement.
      await this.wait(row.parentHash);
      return outcomeOf(await this.byHash(hash));
    }
    // Open in the database but not tracked here (another instance owns it): follow it too.
    this.tracker.track(row);
    return this.wait(hash);
  }

  private async byHash(hash: string): Promise<SubmissionRow> {
    const row = await this.rowByHash(hash);
    if (!row) throw new Error(`Unknown submission ${hash}`);
    return { ...row };
  }

  private async findIntent(intentKey: string): Promise<SubmissionRow | undefined> {
    const found = await this.rowByIntent(intentKey);
    if (!found) return undefined;
    const row = { ...found };
    if (!isFinal(row)) this.tracker.track(row);
    return row;
  }

  // Every swap, claim and transfer looks its intent up before signing and its record up while it
  // waits: the look-ups of one turn share a statement (db/batched.ts).
  private readonly rowByHash = batchedRead(async (hashes: string[]) => {
    const rows = await this.db
      .select()
      .from(ledgerSubmissions)
      .where(inArray(ledgerSubmissions.hash, hashes));
    return new Map(rows.map((r) => [r.hash, r]));
  });
  private readonly rowByIntent = batchedRead(async (keys: string[]) => {
    const rows = await this.db
      .select()
      .from(ledgerSubmissions)
      .where(inArray(ledgerSubmissions.intentKey, keys));
    return new Map(rows.map((r) => [r.intentKey, r]));
  });

  /**
   * A sequence that was handed out but never used: give it back if nothing came after it, otherwise
   * fill it with a no-op AccountSet so the account's later transactions are not stuck behind it.
   */
  private async releaseSequence(row: SubmissionRow): Promise<void> {
    // A wallet-signed sequence is the wallet's: nothing of ours to give back or fill.
    if (row.signer === 'wallet') return;
    if (await this.allocator.giveBack(row)) return;
    if (this.tracker.isStopped) return;
    try {
      await this.prepare(
        {
          intentKey: `gap-fill:${row.account}:${row.sequence}:${row.hash}`,
          account: row.account,
          ...gapFiller(row),
          purpose: 'sequence-gap-fill',
        },
        row.sequence,
      );
      this.log.info({ account: row.account, sequence: row.sequence }, 'filling sequence gap with AccountSet');
    } catch (err) {
      this.log.error(
        { account: row.account, sequence: row.sequence, err: String(err) },
        'sequence gap fill failed',
      );
    }
  }

  /**
   * No-op AccountSets for the sequences between the account's current one and `row`'s that no open
   * record of ours holds. An AccountSet can only take a sequence nothing else took, so this never
   * makes two transactions of an intent apply.
   */
  private async fillGapsBefore(row: SubmissionRow): Promise<void> {
    if (row.signer === 'wallet') return;
    const info = await this.opts.connection.client.request({
      command: 'account_info',
      account: row.account,
      ledger_index: 'current',
    });
    const from = info.result.account_data.Sequence;
    if (from >= row.sequence || row.sequence - from > this.window) return;
    const open = await this.db
      .select({ sequence: ledgerSubmissions.sequence })
      .from(ledgerSubmissions)
      .where(and(eq(ledgerSubmissions.account, row.account), inArray(ledgerSubmissions.status, [...OPEN])));
    const taken = new Set(open.map((r) => r.sequence));
    for (let seq = from; seq < row.sequence; seq++) {
      if (taken.has(seq)) continue;
      this.log.info({ account: row.account, sequence: seq }, 'filling sequence gap behind terPRE_SEQ');
      await this.prepare(
        {
          intentKey: `gap-fill:${row.account}:${seq}:pre-seq:${row.hash}`,
          account: row.account,
          ...gapFiller(row, seq),
          purpose: 'sequence-gap-fill',
        },
        seq,
      );
    }
  }
}
