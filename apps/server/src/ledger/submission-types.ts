import { getBalanceChanges, RippledError, type Amount, type TransactionMetadata, type Wallet } from 'xrpl';
import type { ledgerSubmissions } from './schema';

// The shapes the submission service and its parts (allocator, signAndRecord, settle, tracker) share,
// kept apart so the parts import them without importing the service.

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
  /**
   * A delegated transaction (XLS-75, docs/self-custody.md "Delegated trading"): `account` is a
   * self-custody wallet that granted this platform-held account its permission; the delegate signs
   * and pays the fee, the transaction carries `Delegate` and uses the account's sequence.
   */
  delegate?: string;
}

/** A Batch's mode (XLS-56): which of its inner transactions apply. */
export type BatchMode = 'allOrNothing' | 'onlyOne' | 'untilFailure' | 'independent';

/**
 * Several transactions of one account signed, recorded and submitted as one Batch (XLS-56), one
 * intent: the outer transaction under `intentKey`, each inner under its own key (all recorded before
 * anything is sent). docs/batch-in-the-app.md.
 */
export interface BatchRequest {
  intentKey: string;
  account: string;
  mode: BatchMode;
  /** 2–8 transactions of `account`, in the order the ledger applies them. */
  inner: Array<{ intentKey: string; tx: TxRequest; purpose: string }>;
  purpose: string;
  userId?: number | null;
  walletId?: number | null;
}

/** A Batch's final outcome: the outer transaction's, and each inner one's in request order. */
export interface BatchOutcome {
  batch: SubmissionOutcome;
  /** success / its validated result; failed with 'rolled-back' or 'not-applied' when it never applied. */
  inner: SubmissionOutcome[];
}

/** A transaction a self-custody wallet signed, checked against its intent (platform/intents). */
export interface SignedRequest {
  intentKey: string;
  account: string;
  /** The signed transaction, hex. */
  blob: string;
  purpose: string;
  userId?: number | null;
  walletId?: number | null;
}

/**
 * A Batch a self-custody wallet signed (its outer blob), checked against its intent first: each
 * inner transaction's record key and purpose, in the order of its RawTransactions.
 */
export interface SignedBatchRequest extends SignedRequest {
  inner: Array<{ intentKey: string; purpose: string }>;
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

export const silentLog: SubmissionLog = { info: () => {}, warn: () => {}, error: () => {} };

const FINAL = ['success', 'failed'] as const;
export const OPEN = ['pending', 'submitted'] as const;

export const isFinal = (row: SubmissionRow): boolean => (FINAL as readonly string[]).includes(row.status);

export function rippledErrorName(err: unknown): string | undefined {
  if (err instanceof RippledError) {
    const data = err.data as { error?: string } | undefined;
    return data?.error;
  }
  return undefined;
}

export const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

export const errText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

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

/** A transaction this process follows until it is final. */
export interface Tracked {
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
