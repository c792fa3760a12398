import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  decode,
  getBalanceChanges,
  RippledError,
  validate,
  type Amount,
  type LedgerStream,
  type TransactionMetadata,
  type Wallet,
} from 'xrpl';
import type { Database } from '../db/client';
import { pgErrorCode, rowsOf } from '../db/results';
import { signTransaction } from './sign';
import { badRequest, ledgerUnavailable } from '../lib/errors';
import type { XrplConnection } from './connection';
import { ledgerAccounts, ledgerSubmissions } from './schema';

// The only code that signs and submits. Every transaction is recorded (hash, sequence,
// LastLedgerSequence, signed blob) before it is sent, so after a dropped socket or a crash the same
// bytes are resubmitted or found by hash — an intent is never signed twice. Sequences are handed out
// from the database, so independent transactions of one account share a ledger instead of waiting
// one ledger each.

export type SubmissionRow = typeof ledgerSubmissions.$inferSelect;

/** A transaction as callers describe it; the service fills Account, Sequence, Fee, LastLedgerSequence. */
export type TxRequest = { TransactionType: string; Fee?: string } & Record<string, unknown>;

export interface SubmitRequest {
  /** Idempotency key: one intent (a click, a job step) ⇒ at most one signed transaction. */
  intentKey: string;
  account: string;
  tx: TxRequest;
  purpose: string;
  userId?: number | null;
  walletId?: number | null;
}

export type BalanceChanges = ReturnType<typeof getBalanceChanges>;

export interface SubmissionOutcome {
  id: number;
  intentKey: string;
  hash: string;
  account: string;
  sequence: number;
  /** The signed transaction's type (a caller that chose between several can tell which it made). */
  txType: string;
  /** success only for tesSUCCESS in a validated ledger. */
  status: 'success' | 'failed';
  /** Validated TransactionResult, or tefPAST_SEQ / expired / the tem/tef code that rejected it. */
  result: string;
  ledgerIndex: number | null;
  deliveredAmount?: Amount;
  balanceChanges: BalanceChanges;
  meta?: TransactionMetadata;
}

export interface SignerSource {
  /** The signing key of an account the platform holds (decrypted on demand, never cached). */
  walletFor(account: string): Promise<Wallet>;
  /** The keys of many accounts in one look-up (absent ones are left out); else walletFor each. */
  walletsFor?(accounts: string[]): Promise<Map<string, Wallet>>;
}

export interface SubmissionLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

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

interface Queued {
  req: SubmitRequest;
  resolve: (row: SubmissionRow) => void;
  reject: (err: unknown) => void;
}

interface Tracked {
  row: SubmissionRow;
  lastSubmitLedger: number;
  waiters: Array<{ resolve: (o: SubmissionOutcome) => void }>;
  /** Callers waiting for the open ledger's verdict (the engine result of a submit). */
  engineWaiters: Array<(engineResult: string) => void>;
  /**
   * The engine result was seen by this process. One recorded before a restart says nothing about
   * today's open ledger (the ledger may have lost it), so callers wait for a fresh one.
   */
  engineSeen: boolean;
}

const FINAL = ['success', 'failed'] as const;
const OPEN = ['pending', 'submitted'] as const;

const silentLog: SubmissionLog = { info: () => {}, warn: () => {}, error: () => {} };

/** tem/tef results (other than these) mean the transaction can never apply and its sequence is free. */
const RETRYABLE_TEF = new Set(['tefPAST_SEQ', 'tefALREADY']);

function rippledErrorName(err: unknown): string | undefined {
  if (err instanceof RippledError) {
    const data = err.data as { error?: string } | undefined;
    return data?.error;
  }
  return undefined;
}

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

export function outcomeOf(row: SubmissionRow): SubmissionOutcome {
  const meta = (row.meta ?? undefined) as TransactionMetadata | undefined;
  let balanceChanges: BalanceChanges = [];
  if (meta && Array.isArray(meta.AffectedNodes)) {
    try {
      balanceChanges = getBalanceChanges(meta);
    } catch {
      balanceChanges = [];
    }
  }
  const delivered = meta
    ? ((meta as { delivered_amount?: Amount; DeliveredAmount?: Amount }).delivered_amount ??
      (meta as { DeliveredAmount?: Amount }).DeliveredAmount)
    : undefined;
  return {
    id: row.id,
    intentKey: row.intentKey,
    hash: row.hash,
    account: row.account,
    sequence: row.sequence,
    txType: row.txType,
    status: row.status === 'success' ? 'success' : 'failed',
    result: row.result ?? 'unknown',
    ledgerIndex: row.ledgerIndex,
    deliveredAmount: delivered === 'unavailable' ? undefined : delivered,
    balanceChanges,
    meta,
  };
}

export class SubmissionService {
  private readonly db: Database['db'];
  private readonly client: XrplConnection['client'];
  private readonly log: SubmissionLog;
  private readonly window: number;
  private readonly resubmitAfter: number;
  private readonly resign: boolean;
  private readonly tracked = new Map<string, Tracked>();
  private readonly finalizedListeners = new Set<(row: SubmissionRow) => void>();
  private readonly accountChains = new Map<string, Promise<unknown>>();
  private readonly queues = new Map<string, Queued[]>();
  private readonly accountReady = new Map<string, Promise<void>>();
  private readonly idleWaiters: Array<() => void> = [];
  private validatedIndex = 0;
  private lastTickLedger = 0;
  private baseFee = 10n;
  private reserveBase = 1_000_000n;
  private reserveIncrement = 200_000n;
  private tickRunning: Promise<void> | undefined;
  private tickAgain = false;
  private started = false;
  private stopped = false;
  private readonly unsubscribers: Array<() => void> = [];
  private readonly onLedgerClosed = (ev: LedgerStream) => this.ledgerClosed(ev);

  constructor(private readonly opts: SubmissionServiceOptions) {
    this.db = opts.database.db;
    this.client = opts.connection.client;
    this.log = opts.log ?? silentLog;
    this.window = opts.ledgerWindow ?? 20;
    this.resubmitAfter = opts.resubmitAfterLedgers ?? 3;
    this.resign = opts.resignMovedSequences ?? false;
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
    for (const row of open) this.track(row);
    if (open.length) this.log.info({ open: open.length }, 'resuming unfinished ledger submissions');
    this.client.on('ledgerClosed', this.onLedgerClosed);
    this.unsubscribers.push(
      this.opts.connection.onConnected(() => void this.onConnected()),
      () => this.client.off('ledgerClosed', this.onLedgerClosed),
    );
    if (this.opts.connection.isConnected()) await this.onConnected();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const u of this.unsubscribers.splice(0)) u();
    await this.tickRunning;
  }

  /** Latest validated ledger index seen on the stream. */
  get ledgerIndex(): number {
    return this.validatedIndex;
  }

  get reserves(): { baseFee: bigint; reserveBase: bigint; reserveIncrement: bigint } {
    return { baseFee: this.baseFee, reserveBase: this.reserveBase, reserveIncrement: this.reserveIncrement };
  }

  /** Number of transactions not final yet. */
  get openCount(): number {
    return this.tracked.size;
  }

  /** Resolves once no transaction is in flight (tests and graceful shutdown wait on it). */
  idle(): Promise<void> {
    if (this.tracked.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Signs, records, submits and waits until the transaction is final in a validated ledger. */
  /**
   * Called once per record, by the instance that finalized it (live, or when a restart resolves
   * what was in flight): modules record the outcomes they own without waiting on a caller.
   */
  onFinalized(listener: (row: SubmissionRow) => void): () => void {
    this.finalizedListeners.add(listener);
    return () => this.finalizedListeners.delete(listener);
  }

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
    for (let n = 2; this.resign && outcome.result === 'tefPAST_SEQ' && n <= MAX_RESIGNS + 1; n++) {
      this.log.info({ intentKey: req.intentKey, attempt: n }, 'sequence moved under us: signing again');
      const again = await this.prepare({ ...req, intentKey: resignedIntentKey(req.intentKey, n) });
      outcome = await this.wait(again.hash);
    }
    return outcome;
  }

  /**
   * The account's sequence on a validated ledger (read by a funds check): ours jumps to it when the
   * account was used elsewhere since, so the next transaction signs with a sequence the ledger can
   * take instead of meeting tefPAST_SEQ. Sequences below a validated Sequence are used, whoever
   * used them, so jumping never skips one that is still free.
   */
  async sawSequence(account: string, validatedSequence: number): Promise<void> {
    await this.db
      .update(ledgerAccounts)
      .set({
        nextSequence: sql`greatest(${ledgerAccounts.nextSequence}, ${validatedSequence})`,
        updatedAt: new Date(),
      })
      .where(
        and(eq(ledgerAccounts.account, account), sql`${ledgerAccounts.nextSequence} < ${validatedSequence}`),
      );
  }

  /**
   * Signs, records and submits without waiting. Calling it again with the same intent key returns
   * the existing record instead of signing another transaction.
   */
  async prepare(req: SubmitRequest, forcedSequence?: number): Promise<SubmissionRow> {
    if (!this.opts.connection.isConnected() || this.validatedIndex === 0) {
      const existing = await this.findIntent(req.intentKey);
      if (existing) return existing;
      throw ledgerUnavailable();
    }
    await this.ensureAccount(req.account);
    if (forcedSequence !== undefined) {
      return this.withAccount(req.account, () => this.prepareOne(req, forcedSequence));
    }
    // Requests for one account that arrive while its previous batch is being signed are signed
    // together: one database transaction allocates their consecutive sequences and records them.
    return new Promise<SubmissionRow>((resolve, reject) => {
      let queue = this.queues.get(req.account);
      if (!queue) this.queues.set(req.account, (queue = []));
      queue.push({ req, resolve, reject });
      if (queue.length === 1) void this.withAccount(req.account, () => this.drain(req.account));
    });
  }

  /**
   * `prepare` for a burst of transactions of many accounts (an airdrop's claimers setting their
   * trust lines): their sequence rows are made in one statement, every account's sequences are
   * allocated in one statement and all are recorded in one database transaction, then submitted.
   * Each result is the record, or the error that refused that request (a request whose intent is
   * already recorded gets that record, as with `prepare`).
   */
  async prepareMany(reqs: SubmitRequest[]): Promise<Array<SubmissionRow | Error>> {
    if (reqs.length <= 1 || !this.opts.connection.isConnected() || this.validatedIndex === 0) {
      return Promise.all(reqs.map((r) => this.prepare(r).catch((err: unknown) => asError(err))));
    }
    const results: Array<SubmissionRow | Error> = new Array<SubmissionRow | Error>(reqs.length);
    const ready = await this.ensureAccounts([...new Set(reqs.map((r) => r.account))]);
    const usable: number[] = [];
    reqs.forEach((r, i) => {
      const err = ready.get(r.account);
      if (err) results[i] = err;
      else usable.push(i);
    });
    if (usable.length) {
      const accounts = [...new Set(usable.map((i) => reqs[i]!.account))];
      const rows = await this.withAccounts(accounts, () => this.recordMany(usable.map((i) => reqs[i]!)));
      usable.forEach((i, k) => (results[i] = rows[k]!));
    }
    return results;
  }

  /** Signs and records requests of many accounts at once; the caller holds all their accounts. */
  private async recordMany(reqs: SubmitRequest[]): Promise<Array<SubmissionRow | Error>> {
    const results: Array<SubmissionRow | Error> = new Array<SubmissionRow | Error>(reqs.length);
    const found = await this.db
      .select()
      .from(ledgerSubmissions)
      .where(inArray(ledgerSubmissions.intentKey, [...new Set(reqs.map((r) => r.intentKey))]));
    const byKey = new Map<string, SubmissionRow>();
    for (const row of found) {
      byKey.set(row.intentKey, row);
      if (!(FINAL as readonly string[]).includes(row.status)) this.track(row);
    }
    const fresh = new Map<string, { req: SubmitRequest; txJson: Record<string, unknown>; at: number[] }>();
    reqs.forEach((req, i) => {
      const known = byKey.get(req.intentKey);
      if (known) return void (results[i] = known);
      const same = fresh.get(req.intentKey);
      if (same) return void same.at.push(i);
      const txJson = this.txJson(req, 1);
      try {
        validate(txJson);
      } catch (err) {
        // Refused before any sequence is allocated for it.
        return void (results[i] = asError(err));
      }
      fresh.set(req.intentKey, { req, txJson, at: [i] });
    });
    const entries = [...fresh.values()];
    if (entries.length === 0) return results;
    const counts = new Map<string, number>();
    for (const e of entries) counts.set(e.req.account, (counts.get(e.req.account) ?? 0) + 1);
    const signers = await this.walletsFor([...counts.keys()]);
    const lastLedgerSequence = this.validatedIndex + this.window;
    let rows: SubmissionRow[];
    try {
      rows = await this.db.transaction(async (t) => {
        const pairs = [...counts].map(([account, n]) => sql`(${account}, ${n}::bigint)`);
        const allocated = await t.execute<{ account: string; next_sequence: number | string }>(sql`
          update ${ledgerAccounts} as la
             set next_sequence = la.next_sequence + c.n, updated_at = now()
            from (values ${sql.join(pairs, sql`, `)}) as c(account, n)
           where la.account = c.account
          returning la.account, la.next_sequence`);
        const next = new Map<string, number>();
        for (const r of rowsOf<{ account: string; next_sequence: number | string }>(allocated))
          next.set(r.account, Number(r.next_sequence) - counts.get(r.account)!);
        const values = entries.map((e) => {
          const account = e.req.account;
          const sequence = next.get(account);
          const wallet = signers.get(account);
          if (sequence === undefined) throw new Error(`No sequence row for ${account}`);
          if (!wallet || wallet.classicAddress !== account) throw new Error(`No key held for ${account}`);
          next.set(account, sequence + 1);
          e.txJson.Sequence = sequence;
          e.txJson.LastLedgerSequence = lastLedgerSequence;
          const signed = signTransaction(wallet, e.txJson);
          return this.rowValues(e.req, sequence, lastLedgerSequence, signed);
        });
        return t.insert(ledgerSubmissions).values(values).returning();
      });
    } catch {
      // A duplicate intent raced in, or one request could not be signed: the batch rolled back and
      // allocated nothing; one at a time, each finds its own answer (the existing record, an error).
      for (const e of entries) {
        let one: SubmissionRow | Error;
        try {
          one = await this.prepareOne(e.req);
        } catch (err) {
          one = asError(err);
        }
        for (const i of e.at) results[i] = one;
      }
      return results;
    }
    rows.sort((a, b) => a.sequence - b.sequence);
    for (const row of rows) this.track(row);
    // Each account's transactions are sent in sequence order while its lock is held.
    for (const row of rows) void this.send(row.hash);
    for (const row of rows) for (const i of fresh.get(row.intentKey)?.at ?? []) results[i] = row;
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

  private async drain(account: string): Promise<void> {
    const batch = this.queues.get(account)?.splice(0) ?? [];
    if (batch.length === 0) return;
    const pending = new Set(batch);
    const settle = (item: Queued, row: SubmissionRow) => {
      pending.delete(item);
      item.resolve(row);
    };
    try {
      const keys = [...new Set(batch.map((b) => b.req.intentKey))];
      const found = await this.db
        .select()
        .from(ledgerSubmissions)
        .where(inArray(ledgerSubmissions.intentKey, keys));
      const byKey = new Map<string, SubmissionRow>();
      for (const row of found) {
        byKey.set(row.intentKey, row);
        if (!(FINAL as readonly string[]).includes(row.status)) this.track(row);
      }
      const fresh = new Map<
        string,
        { req: SubmitRequest; txJson: Record<string, unknown>; items: Queued[]; error?: unknown }
      >();
      for (const item of batch) {
        const known = byKey.get(item.req.intentKey);
        if (known) {
          settle(item, known);
          continue;
        }
        const same = fresh.get(item.req.intentKey);
        if (same) {
          same.items.push(item);
          continue;
        }
        const txJson = this.txJson(item.req, 1);
        try {
          validate(txJson);
        } catch (err) {
          // Refused before any sequence is allocated for it.
          pending.delete(item);
          item.reject(err);
          continue;
        }
        fresh.set(item.req.intentKey, { req: item.req, txJson, items: [item] });
      }
      if (fresh.size === 0) return;
      const wallet = await this.opts.signers.walletFor(account);
      if (wallet.classicAddress !== account) throw new Error('Signer does not match the account');
      const entries = [...fresh.values()];
      const lastLedgerSequence = this.validatedIndex + this.window;
      let rows: SubmissionRow[];
      try {
        rows = await this.db.transaction(async (t) => {
          const [alloc] = await t
            .update(ledgerAccounts)
            .set({
              nextSequence: sql`${ledgerAccounts.nextSequence} + ${entries.length}`,
              updatedAt: new Date(),
            })
            .where(eq(ledgerAccounts.account, account))
            .returning({ next: ledgerAccounts.nextSequence });
          if (!alloc) throw new Error(`No sequence row for ${account}`);
          const first = alloc.next - entries.length;
          const values: Array<typeof ledgerSubmissions.$inferInsert> = [];
          for (const e of entries) {
            // Sequences go only to transactions that sign, so a refused one leaves no gap.
            const sequence = first + values.length;
            e.txJson.Sequence = sequence;
            e.txJson.LastLedgerSequence = lastLedgerSequence;
            try {
              const signed = signTransaction(wallet, e.txJson);
              values.push(this.rowValues(e.req, sequence, lastLedgerSequence, signed));
            } catch (err) {
              e.error = err;
            }
          }
          if (values.length < entries.length) {
            await t
              .update(ledgerAccounts)
              .set({ nextSequence: first + values.length })
              .where(eq(ledgerAccounts.account, account));
          }
          if (values.length === 0) return [];
          return t.insert(ledgerSubmissions).values(values).returning();
        });
      } catch (err) {
        if (pgErrorCode(err) !== '23505') throw err;
        // An intent of this batch was recorded elsewhere meanwhile: nothing of the batch was
        // allocated (rolled back); do them one at a time, which resolves the duplicate.
        for (const e of entries) {
          try {
            const row = await this.prepareOne(e.req);
            for (const item of e.items) settle(item, row);
          } catch (oneErr) {
            for (const item of e.items) {
              pending.delete(item);
              item.reject(oneErr);
            }
          }
        }
        return;
      }
      for (const e of entries) {
        if (e.error === undefined) continue;
        for (const item of e.items) {
          pending.delete(item);
          item.reject(e.error);
        }
      }
      rows.sort((a, b) => a.sequence - b.sequence);
      for (const row of rows) this.track(row);
      // Sent in sequence order while the account is locked, so the ledger never sees a gap.
      for (const row of rows) void this.send(row.hash);
      for (const row of rows) for (const item of fresh.get(row.intentKey)?.items ?? []) settle(item, row);
    } catch (err) {
      for (const item of pending) item.reject(err);
    }
  }

  private txJson(req: SubmitRequest, sequence: number): Record<string, unknown> {
    return {
      ...req.tx,
      Account: req.account,
      Sequence: sequence,
      Fee: req.tx.Fee ?? this.feeFor(req.tx.TransactionType),
      LastLedgerSequence: this.validatedIndex + this.window,
    };
  }

  private rowValues(
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

  /** One transaction on its own (gap fills with a fixed sequence, batch fallbacks); caller holds the account. */
  private async prepareOne(req: SubmitRequest, forcedSequence?: number): Promise<SubmissionRow> {
    const existing = await this.findIntent(req.intentKey);
    if (existing) return existing;
    const wallet = await this.opts.signers.walletFor(req.account);
    if (wallet.classicAddress !== req.account) throw new Error('Signer does not match the account');
    let row: SubmissionRow;
    try {
      row = await this.db.transaction(async (t) => {
        let sequence = forcedSequence;
        if (sequence === undefined) {
          const [alloc] = await t
            .update(ledgerAccounts)
            .set({ nextSequence: sql`${ledgerAccounts.nextSequence} + 1`, updatedAt: new Date() })
            .where(eq(ledgerAccounts.account, req.account))
            .returning({ next: ledgerAccounts.nextSequence });
          if (!alloc) throw new Error(`No sequence row for ${req.account}`);
          sequence = alloc.next - 1;
        }
        const txJson = this.txJson(req, sequence);
        // Thrown inside the transaction: the sequence allocation rolls back with it.
        validate(txJson);
        const signed = signTransaction(wallet, txJson);
        const [inserted] = await t
          .insert(ledgerSubmissions)
          .values(this.rowValues(req, sequence, txJson.LastLedgerSequence as number, signed))
          .returning();
        return inserted!;
      });
    } catch (err) {
      if (pgErrorCode(err) === '23505') {
        // The same intent raced in from elsewhere; it won, this attempt allocated nothing.
        const again = await this.findIntent(req.intentKey);
        if (again) return again;
      }
      throw err;
    }
    this.track(row);
    void this.send(row.hash);
    return row;
  }

  /**
   * The outcome of an intent already recorded (final or awaited), or undefined if never seen. When the
   * intent was signed again after tefPAST_SEQ, the latest signing's outcome.
   */
  async existing(intentKey: string): Promise<SubmissionOutcome | undefined> {
    const row = await this.findIntent(intentKey);
    if (!row) return undefined;
    if (this.resign && row.result === 'tefPAST_SEQ') {
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
    const rows = await this.db
      .select({ blob: ledgerSubmissions.txBlob })
      .from(ledgerSubmissions)
      .where(and(eq(ledgerSubmissions.account, account), inArray(ledgerSubmissions.status, [...OPEN])));
    let total = 0n;
    for (const r of rows)
      total += xrpOutflow(decode(r.blob) as Record<string, unknown>, this.reserveIncrement);
    return total;
  }

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
      if (!(FINAL as readonly string[]).includes(row.status)) this.track(row);
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
    const t = this.tracked.get(hash);
    if (t) {
      if (t.engineSeen && t.row.engineResult) return t.row.engineResult;
      return new Promise((resolve) => t.engineWaiters.push(resolve));
    }
    const [row] = await this.db.select().from(ledgerSubmissions).where(eq(ledgerSubmissions.hash, hash));
    if (!row) throw new Error(`Unknown submission ${hash}`);
    if ((FINAL as readonly string[]).includes(row.status)) return row.result ?? 'unknown';
    this.track(row);
    return this.engineResult(hash);
  }

  /** Waits for the final outcome of a recorded transaction. */
  async wait(hash: string): Promise<SubmissionOutcome> {
    const t = this.tracked.get(hash);
    if (t) return new Promise((resolve) => t.waiters.push({ resolve }));
    const [row] = await this.db.select().from(ledgerSubmissions).where(eq(ledgerSubmissions.hash, hash));
    if (!row) throw new Error(`Unknown submission ${hash}`);
    if ((FINAL as readonly string[]).includes(row.status)) return outcomeOf(row);
    // Open in the database but not tracked here (another instance owns it): follow it too.
    this.track(row);
    return this.wait(hash);
  }

  private async findIntent(intentKey: string): Promise<SubmissionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.intentKey, intentKey));
    if (row && !(FINAL as readonly string[]).includes(row.status) && !this.tracked.has(row.hash))
      this.track(row);
    return row;
  }

  private feeFor(txType: string): string {
    // AMMCreate and AccountDelete burn one owner reserve instead of the base fee.
    if (txType === 'AMMCreate' || txType === 'AccountDelete') return this.reserveIncrement.toString();
    return this.baseFee.toString();
  }

  private track(row: SubmissionRow): void {
    if (this.tracked.has(row.hash)) return;
    this.tracked.set(row.hash, {
      row,
      lastSubmitLedger: 0,
      waiters: [],
      engineWaiters: [],
      engineSeen: false,
    });
  }

  private withAccount<T>(account: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.accountChains.get(account) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const settled = next.catch(() => {});
    this.accountChains.set(account, settled);
    void settled.then(() => {
      if (this.accountChains.get(account) === settled) this.accountChains.delete(account);
    });
    return next;
  }

  /** Runs `fn` holding every account's lock at once (taken together, so no two callers deadlock). */
  private withAccounts<T>(accounts: string[], fn: () => Promise<T>): Promise<T> {
    const prev = accounts.map((a) => this.accountChains.get(a) ?? Promise.resolve());
    const next = Promise.all(prev.map((p) => p.catch(() => {}))).then(fn);
    const settled = next.catch(() => {});
    for (const account of accounts) {
      this.accountChains.set(account, settled);
      void settled.then(() => {
        if (this.accountChains.get(account) === settled) this.accountChains.delete(account);
      });
    }
    return next;
  }

  /**
   * Makes sure the account has a sequence row, reconciled once per process with the ledger: if the
   * account was used outside the platform its Sequence is ahead, and ours must jump forward.
   */
  private async ensureAccount(account: string): Promise<void> {
    const err = (await this.ensureAccounts([account])).get(account);
    if (err) throw err;
  }

  /** ensureAccount for many accounts: their ledger sequences read at once, one statement to record. */
  private async ensureAccounts(accounts: string[]): Promise<Map<string, Error | undefined>> {
    const missing = accounts.filter((a) => !this.accountReady.has(a));
    if (missing.length) {
      const batch = (async () => {
        const read = await Promise.all(
          missing.map(async (account) => {
            try {
              return { account, sequence: await this.ledgerSequence(account) };
            } catch (err) {
              return { account, err: asError(err) };
            }
          }),
        );
        const known = read.filter((r): r is { account: string; sequence: number } => 'sequence' in r);
        if (known.length) {
          await this.db
            .insert(ledgerAccounts)
            .values(known.map((r) => ({ account: r.account, nextSequence: r.sequence })))
            .onConflictDoUpdate({
              target: ledgerAccounts.account,
              set: {
                nextSequence: sql`greatest(${ledgerAccounts.nextSequence}, excluded.next_sequence)`,
                updatedAt: new Date(),
              },
            });
        }
        return new Map(read.map((r) => [r.account, 'err' in r ? r.err : undefined]));
      })();
      for (const account of missing) {
        const ready = batch.then((m) => {
          const err = m.get(account);
          if (err) throw err;
        });
        this.accountReady.set(account, ready);
        ready.catch(() => this.accountReady.delete(account));
      }
    }
    const out = new Map<string, Error | undefined>();
    await Promise.all(
      accounts.map((a) =>
        this.accountReady.get(a)!.then(
          () => void out.set(a, undefined),
          (err: unknown) => void out.set(a, asError(err)),
        ),
      ),
    );
    return out;
  }

  private async ledgerSequence(account: string): Promise<number> {
    try {
      const info = await this.client.request({ command: 'account_info', account, ledger_index: 'current' });
      return info.result.account_data.Sequence;
    } catch (err) {
      if (rippledErrorName(err) === 'actNotFound') {
        throw badRequest('This wallet is not activated on the XRP Ledger yet.');
      }
      throw err;
    }
  }

  private async send(hash: string): Promise<void> {
    const t = this.tracked.get(hash);
    if (!t || !this.opts.connection.isConnected()) return;
    t.lastSubmitLedger = this.validatedIndex;
    let engine: string;
    try {
      const res = await this.client.request({ command: 'submit', tx_blob: t.row.txBlob });
      engine = res.result.engine_result;
    } catch (err) {
      // Not sent or no answer (socket dropped): the record stays open and is resent after reconnect.
      this.log.warn({ hash, err: err instanceof Error ? err.message : String(err) }, 'submit failed');
      return;
    }
    if (!this.tracked.has(hash)) return;
    t.row.engineResult = engine;
    t.engineSeen = true;
    t.row.submitCount += 1;
    for (const w of t.engineWaiters.splice(0)) w(engine);
    if (t.row.status === 'pending') t.row.status = 'submitted';
    await this.db
      .update(ledgerSubmissions)
      .set({
        status: 'submitted',
        engineResult: engine,
        submitCount: sql`${ledgerSubmissions.submitCount} + 1`,
        updatedAt: new Date(),
      })
      .where(and(eq(ledgerSubmissions.hash, hash), inArray(ledgerSubmissions.status, [...OPEN])));
    if (engine.startsWith('tem') || (engine.startsWith('tef') && !RETRYABLE_TEF.has(engine))) {
      // Can never apply. If an earlier submission of these same bytes did apply, the hash says so.
      if (t.row.submitCount > 1 && (await this.lookup(hash)) === 'validated') return;
      await this.finalize(hash, { result: engine, ledgerIndex: null, meta: null, consumed: false });
    }
  }

  /**
   * Looks a transaction up by hash and finalizes it when it is in a validated ledger. 'absent' only
   * when the server searched every ledger of `range` (or no range was asked); a server with gaps in
   * its history answers 'unknown', and nothing is concluded from that.
   */
  private async lookup(
    hash: string,
    range?: { min: number; max: number },
  ): Promise<'validated' | 'absent' | 'unknown'> {
    try {
      const res = await this.client.request({
        command: 'tx',
        transaction: hash,
        ...(range ? { min_ledger: range.min, max_ledger: range.max } : {}),
      });
      const r = res.result as unknown as {
        validated?: boolean;
        meta?: TransactionMetadata | string;
        ledger_index?: number;
      };
      if (r.validated && r.meta && typeof r.meta === 'object') {
        await this.finalize(hash, {
          result: r.meta.TransactionResult,
          ledgerIndex: r.ledger_index ?? null,
          meta: r.meta,
          consumed: true,
        });
        return 'validated';
      }
      return 'unknown';
    } catch (err) {
      if (rippledErrorName(err) === 'txnNotFound') {
        const searchedAll = (err as RippledError & { data?: { searched_all?: boolean } }).data?.searched_all;
        return range && searchedAll === false ? 'unknown' : 'absent';
      }
      throw err;
    }
  }

  private async finalize(
    hash: string,
    f: { result: string; ledgerIndex: number | null; meta: TransactionMetadata | null; consumed: boolean },
  ): Promise<void> {
    const t = this.tracked.get(hash);
    if (!t) return;
    this.tracked.delete(hash);
    for (const w of t.engineWaiters.splice(0)) w(t.row.engineResult ?? f.result);
    const status = f.result === 'tesSUCCESS' ? 'success' : 'failed';
    const [row] = await this.db
      .update(ledgerSubmissions)
      .set({
        status,
        result: f.result,
        ledgerIndex: f.ledgerIndex,
        meta: f.meta,
        updatedAt: new Date(),
        finalizedAt: new Date(),
      })
      .where(and(eq(ledgerSubmissions.hash, hash), inArray(ledgerSubmissions.status, [...OPEN])))
      .returning();
    const finalRow =
      row ?? (await this.db.select().from(ledgerSubmissions).where(eq(ledgerSubmissions.hash, hash)))[0];
    if (finalRow) {
      const outcome = outcomeOf(finalRow);
      for (const w of t.waiters) w.resolve(outcome);
      if (status === 'failed') {
        this.log.warn(
          { hash, account: finalRow.account, sequence: finalRow.sequence, result: f.result },
          'transaction failed',
        );
      }
    }
    // Only the instance whose update finalized the record hands its sequence back (another instance
    // following the same record must not sign a second gap fill for it).
    if (!f.consumed && row) await this.releaseSequence(row);
    if (row) for (const listener of this.finalizedListeners) listener(row);
    if (this.tracked.size === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  /**
   * A sequence that was handed out but never used: give it back if nothing came after it, otherwise
   * fill it with a no-op AccountSet so the account's later transactions are not stuck behind it.
   */
  private async releaseSequence(row: SubmissionRow): Promise<void> {
    const given = await this.db
      .update(ledgerAccounts)
      .set({ nextSequence: row.sequence, updatedAt: new Date() })
      .where(and(eq(ledgerAccounts.account, row.account), eq(ledgerAccounts.nextSequence, row.sequence + 1)))
      .returning();
    if (given.length) return;
    if (this.stopped) return;
    try {
      await this.prepare(
        {
          intentKey: `gap-fill:${row.account}:${row.sequence}:${row.hash}`,
          account: row.account,
          tx: { TransactionType: 'AccountSet' },
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

  private async onConnected(): Promise<void> {
    if (this.stopped) return;
    try {
      const res = await this.client.request({ command: 'subscribe', streams: ['ledger'] });
      const r = res.result as unknown as Partial<LedgerStream>;
      this.applyLedgerInfo(r);
      // Everything sent before the drop may have been lost with the socket: resend the same bytes.
      await this.reconcileAll();
    } catch (err) {
      this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'ledger subscription failed');
    }
  }

  private applyLedgerInfo(r: Partial<LedgerStream>): void {
    if (typeof r.ledger_index === 'number' && r.ledger_index > this.validatedIndex)
      this.validatedIndex = r.ledger_index;
    if (r.fee_base !== undefined) this.baseFee = BigInt(r.fee_base);
    if (r.reserve_base !== undefined) this.reserveBase = BigInt(r.reserve_base);
    if (r.reserve_inc !== undefined) this.reserveIncrement = BigInt(r.reserve_inc);
  }

  private ledgerClosed(ev: LedgerStream): void {
    this.applyLedgerInfo(ev);
    this.scheduleTick();
  }

  private scheduleTick(): void {
    if (this.stopped) return;
    if (this.tickRunning) {
      this.tickAgain = true;
      return;
    }
    this.tickRunning = (async () => {
      do {
        this.tickAgain = false;
        try {
          await this.tick();
        } catch (err) {
          this.log.warn(
            { err: err instanceof Error ? err.message : String(err) },
            'ledger follow step failed',
          );
        }
      } while (this.tickAgain && !this.stopped);
    })().finally(() => {
      this.tickRunning = undefined;
    });
  }

  /** Finds our transactions in the newly validated ledger, expires the hopeless, resends the stuck. */
  private async tick(): Promise<void> {
    const ledgerIndex = this.validatedIndex;
    if (this.tracked.size === 0) {
      this.lastTickLedger = ledgerIndex;
      return;
    }
    // Ledgers closed while the previous step ran are read too (a few at most); after a longer gap
    // (a disconnect) asking per hash is cheaper.
    const from = this.lastTickLedger > 0 ? this.lastTickLedger + 1 : ledgerIndex;
    let scanned = ledgerIndex - from < 10;
    for (let index = from; scanned && index <= ledgerIndex && this.tracked.size > 0; index++) {
      try {
        scanned = await this.scanLedger(index);
      } catch {
        scanned = false;
      }
    }
    if (!scanned) {
      // We may have missed ledgers (disconnect) or the ledger could not be read: ask per hash.
      for (const hash of [...this.tracked.keys()]) await this.lookup(hash);
    }
    this.lastTickLedger = ledgerIndex;

    for (const [hash, t] of [...this.tracked]) {
      if (!this.tracked.has(hash)) continue;
      if (t.row.lastLedgerSequence < ledgerIndex || t.row.engineResult === 'tefPAST_SEQ') {
        await this.settleUnseen(hash, t, ledgerIndex);
      }
    }
    for (const [hash, t] of [...this.tracked]) {
      const stuck =
        t.row.status === 'pending' ||
        (t.row.engineResult !== null &&
          /^(tel|ter)/.test(t.row.engineResult) &&
          t.row.engineResult !== 'terQUEUED') ||
        ledgerIndex - t.lastSubmitLedger >= this.resubmitAfter;
      if (stuck) await this.send(hash);
      // terPRE_SEQ for ledgers on end: the account's sequence is behind ours and nothing of ours is
      // in flight to close the gap (a sequence given out and lost): fill it so this one can apply.
      const signedAt = t.row.lastLedgerSequence - this.window;
      if (t.row.engineResult === 'terPRE_SEQ' && ledgerIndex - signedAt >= this.resubmitAfter) {
        await this.fillGapsBefore(t.row).catch((err: unknown) =>
          this.log.warn({ hash, err: err instanceof Error ? err.message : String(err) }, 'gap fill failed'),
        );
      }
    }
  }

  /**
   * No-op AccountSets for the sequences between the account's current one and `row`'s that no open
   * record of ours holds. An AccountSet can only take a sequence nothing else took, so this never
   * makes two transactions of an intent apply.
   */
  private async fillGapsBefore(row: SubmissionRow): Promise<void> {
    const info = await this.client.request({
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
          tx: { TransactionType: 'AccountSet' },
          purpose: 'sequence-gap-fill',
        },
        seq,
      );
    }
  }

  /** Reads the ledger's transactions in one request and finalizes ours. */
  private async scanLedger(ledgerIndex: number): Promise<boolean> {
    const res = await this.client.request({
      command: 'ledger',
      ledger_index: ledgerIndex,
      transactions: true,
      expand: true,
    });
    const ledger = res.result.ledger as unknown as { transactions?: unknown[] };
    if (!res.result.validated || !Array.isArray(ledger.transactions)) return false;
    const ours: Array<{ hash: string; meta: TransactionMetadata }> = [];
    for (const item of ledger.transactions) {
      const tx = item as {
        hash?: string;
        tx_json?: { hash?: string };
        meta?: TransactionMetadata;
        metaData?: TransactionMetadata;
      };
      const hash = tx.hash ?? tx.tx_json?.hash;
      const meta = tx.meta ?? tx.metaData;
      if (!hash || !meta || typeof meta !== 'object' || !this.tracked.has(hash)) continue;
      ours.push({ hash, meta });
    }
    if (ours.length === 1) {
      const [{ hash, meta }] = ours as [{ hash: string; meta: TransactionMetadata }];
      await this.finalize(hash, { result: meta.TransactionResult, ledgerIndex, meta, consumed: true });
    } else if (ours.length > 1) {
      await this.finalizeValidated(ours, ledgerIndex);
    }
    return true;
  }

  /**
   * `finalize` for every tracked transaction of one validated ledger (each consumed its sequence):
   * one statement records them all, one reads them back — a burst of 500 payments costs two
   * statements, not a thousand, before their callers hear the outcome.
   */
  private async finalizeValidated(
    items: Array<{ hash: string; meta: TransactionMetadata }>,
    ledgerIndex: number,
  ): Promise<void> {
    const live = items.flatMap((i) => {
      const t = this.tracked.get(i.hash);
      if (!t) return [];
      this.tracked.delete(i.hash);
      for (const w of t.engineWaiters.splice(0)) w(t.row.engineResult ?? i.meta.TransactionResult);
      return [{ ...i, t }];
    });
    if (live.length === 0) return;
    const ours = new Set<string>();
    // In chunks well under PostgreSQL's 65,535 parameters per statement.
    for (let at = 0; at < live.length; at += 2_000) {
      const values = live
        .slice(at, at + 2_000)
        .map(
          (i) =>
            sql`(${i.hash}, ${i.meta.TransactionResult === 'tesSUCCESS' ? 'success' : 'failed'}, ${i.meta.TransactionResult}, ${JSON.stringify(i.meta)}::jsonb)`,
        );
      const updated = await this.db.execute<{ hash: string }>(sql`
        update ${ledgerSubmissions} as s
           set status = v.status, result = v.result, ledger_index = ${ledgerIndex}, meta = v.meta,
               updated_at = now(), finalized_at = now()
          from (values ${sql.join(values, sql`, `)}) as v(hash, status, result, meta)
         where s.hash = v.hash and s.status in ('pending', 'submitted')
        returning s.hash`);
      for (const r of rowsOf<{ hash: string }>(updated)) ours.add(r.hash);
    }
    const rows = await this.db
      .select()
      .from(ledgerSubmissions)
      .where(
        inArray(
          ledgerSubmissions.hash,
          live.map((i) => i.hash),
        ),
      );
    const byHash = new Map(rows.map((r) => [r.hash, r]));
    for (const { hash, t } of live) {
      const row = byHash.get(hash);
      if (!row) continue;
      const outcome = outcomeOf(row);
      for (const w of t.waiters) w.resolve(outcome);
      if (row.status === 'failed') {
        this.log.warn(
          { hash, account: row.account, sequence: row.sequence, result: row.result },
          'transaction failed',
        );
      }
      // Listeners hear of the records this instance finalized (once per record, as in finalize).
      if (ours.has(hash)) for (const listener of this.finalizedListeners) listener(row);
    }
    if (this.tracked.size === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  /**
   * Not found in any validated ledger: past its LastLedgerSequence it can never apply (expired, its
   * sequence unused); if the account's sequence moved past it, something else took the sequence.
   */
  private async settleUnseen(hash: string, t: Tracked, ledgerIndex: number): Promise<void> {
    // From about the ledger it was signed in (LastLedgerSequence − window) to now.
    // To the ledger the account was read at, when that is newer than the stream has told us of: a
    // transaction that took its sequence in that ledger must be inside the range searched.
    let readAt = 0;
    const range = () => ({
      min: Math.max(1, t.row.lastLedgerSequence - this.window - 1),
      max: Math.max(this.validatedIndex, readAt),
    });
    if ((await this.lookup(hash, range())) === 'validated') return;
    let accountSequence: number | undefined;
    try {
      const info = await this.client.request({
        command: 'account_info',
        account: t.row.account,
        ledger_index: 'validated',
      });
      accountSequence = info.result.account_data.Sequence;
      readAt = info.result.ledger_index ?? 0;
    } catch (err) {
      if (rippledErrorName(err) !== 'actNotFound') throw err;
    }
    if (accountSequence !== undefined && accountSequence > t.row.sequence) {
      // The sequence is used. Asked again after reading the account: had our transaction used it,
      // this lookup finds it. With gaps in the server's history nothing is concluded yet. (Before
      // the range reached the account's ledger, a payment validated in the newest ledger was
      // found 'absent' here and recorded as never applied: an airdrop claim released and paid.)
      if ((await this.lookup(hash, range())) !== 'absent') return;
      // The allocator jumps past the used sequences first, so a caller that signs the intent again
      // on hearing the outcome gets a sequence the ledger can still take.
      await this.db
        .update(ledgerAccounts)
        .set({
          nextSequence: sql`greatest(${ledgerAccounts.nextSequence}, ${accountSequence})`,
          updatedAt: new Date(),
        })
        .where(eq(ledgerAccounts.account, t.row.account));
      await this.finalize(hash, { result: 'tefPAST_SEQ', ledgerIndex: null, meta: null, consumed: true });
      return;
    }
    // The account's validated Sequence has not passed ours, so it was not applied; past its
    // LastLedgerSequence it never can be.
    if (t.row.lastLedgerSequence < ledgerIndex) {
      await this.finalize(hash, { result: 'expired', ledgerIndex: null, meta: null, consumed: false });
    }
  }

  private async reconcileAll(): Promise<void> {
    for (const hash of [...this.tracked.keys()]) {
      if ((await this.lookup(hash)) !== 'validated') await this.send(hash);
    }
    this.lastTickLedger = this.validatedIndex;
  }
}

const TX_CREATING_OBJECT = new Set([
  'TrustSet',
  'OfferCreate',
  'AMMDeposit',
  'AMMCreate',
  'CheckCreate',
  'EscrowCreate',
]);

const xrpDrops = (a: unknown): bigint => (typeof a === 'string' && /^\d+$/.test(a) ? BigInt(a) : 0n);

/** The most XRP one signed transaction can take from its account, in drops (see `inFlightXrp`). */
export function xrpOutflow(tx: Record<string, unknown>, reserveIncrement: bigint): bigint {
  let out = xrpDrops(tx.Fee);
  switch (tx.TransactionType) {
    case 'Payment':
      // A payment to oneself (a swap) spends at most SendMax; to others, SendMax or the amount.
      out +=
        tx.SendMax !== undefined
          ? xrpDrops(tx.SendMax)
          : tx.Destination === tx.Account
            ? 0n
            : xrpDrops(tx.Amount);
      break;
    case 'OfferCreate':
      out += xrpDrops(tx.TakerGets);
      break;
    case 'AMMDeposit':
    case 'AMMCreate':
      out += xrpDrops(tx.Amount) + xrpDrops(tx.Amount2);
      break;
    case 'CheckCreate':
    case 'EscrowCreate':
      out += xrpDrops(tx.SendMax) + xrpDrops(tx.Amount);
      break;
  }
  // A new object locks an owner reserve (a TrustSet to limit 0 removes one; counted anyway: it is
  // an upper bound).
  if (TX_CREATING_OBJECT.has(String(tx.TransactionType))) out += reserveIncrement;
  return out;
}
