// The two parts of a Batch outside its transactor, as rippled's apply.cpp and STTx do them:
// - batchLocalChecks: what checkValidity refuses before any ledger is touched — the inner
//   transactions' local checks and every BatchSigner signature;
// - applyBatchInners: after the outer Batch applied with tesSUCCESS, each inner transaction is
//   applied on its own view over the batch's view, in order, until the mode says stop; the batch's
//   view reaches the ledger unless an AllOrNothing inner failed (then none of them does, and the
//   outer stays, its fee paid and its sequence used).
import { accountIdHex } from './account-id';
import type { Rules } from './amendments';
import { BATCH_MODE, batchSigners, batchSigningData, innerTransactions, type InnerTx } from './batch-txs';
import type { JsonObject, LedgerEntry } from './contract';
import { verifySignature } from './crypto-verify';
import { applyTransaction, localChecks, type ApplyOutcome } from './engine';
import { MAX_MULTI_SIGNERS } from './multisign';
import { isTec, isTes } from './results';
import { ApplyView, type StateReader, type ViewContext } from './state/apply-view';

/**
 * Most BatchSigners whose signatures are verified at all (rippled's kMaxBatchSigners: an inner
 * transaction can need up to three accounts' signatures); preflight allows eight.
 */
const MAX_BATCH_SIGNERS = 24;

const PUBKEY = /^(0[23][0-9A-Fa-f]{64}|[Ee][Dd][0-9A-Fa-f]{64})$/;

function verifies(message: string, signature: unknown, key: string): boolean {
  if (typeof signature !== 'string' || !PUBKEY.test(key)) return false;
  try {
    return verifySignature(message, signature, key);
  } catch {
    return false;
  }
}

/** STTx::checkBatchMultiSign (multiSignHelper): shape, order and each signer's signature. */
function multiSignedBatchSigner(
  outer: JsonObject,
  ids: string[],
  v1_1: boolean,
  account: string,
  signers: unknown,
  signedToo: boolean,
): string | undefined {
  if (!Array.isArray(signers)) return 'Empty SigningPubKey.';
  if (signedToo) return 'Cannot both single- and multi-sign.';
  if (signers.length < 1 || signers.length > MAX_MULTI_SIGNERS) return 'Invalid Signers array size.';
  let last = '';
  for (const wrapper of signers as Array<{ Signer?: JsonObject }>) {
    const s = wrapper?.Signer ?? {};
    if (typeof s.Account !== 'string') return 'Invalid signature.';
    if (s.TxnSignature === undefined) return 'Invalid signature.';
    if (s.Account === account) return 'Invalid multisigner.';
    const id = accountIdHex(s.Account);
    if (id === last) return 'Duplicate Signers not allowed.';
    if (id < last) return 'Unsorted Signers array.';
    last = id;
    const message = batchSigningData(outer, ids, v1_1, account, s.Account);
    if (!verifies(message, s.TxnSignature, String(s.SigningPubKey ?? ''))) {
      return `Invalid signature on account ${s.Account}.`;
    }
  }
  return undefined;
}

/**
 * What rippled's checkValidity refuses in a Batch before the engine sees it (an RPC error
 * `invalidTransaction`, "fails local checks: <reason>"): an inner transaction failing its own
 * local checks (memos) and any BatchSigner signature that does not verify over the batch
 * signing data of the ledger's rules. Undefined when it passes.
 */
export function batchLocalChecks(outer: JsonObject, rules: Rules): string | undefined {
  const inners = innerTransactions(outer);
  // Malformed RawTransactions are the transactor's to refuse (temMALFORMED and friends).
  if (!inners) return undefined;
  for (const inner of inners) {
    const reason = localChecks(inner.tx);
    if (reason) return reason;
  }
  if (outer.BatchSigners === undefined) return undefined;
  const signers = batchSigners(outer);
  if (signers.length > MAX_BATCH_SIGNERS) return 'BatchSigners array exceeds max entries.';
  const v1_1 = rules.enabled('BatchV1_1');
  const ids = inners.map((i) => i.txId);
  for (const signer of signers) {
    const account = signer.Account;
    if (typeof account !== 'string') return 'Invalid signature.';
    const key = typeof signer.SigningPubKey === 'string' ? signer.SigningPubKey : '';
    if (key === '') {
      const reason = multiSignedBatchSigner(
        outer,
        ids,
        v1_1,
        account,
        signer.Signers,
        signer.TxnSignature !== undefined,
      );
      if (reason) return reason;
      continue;
    }
    if (signer.Signers !== undefined) return 'Cannot both single- and multi-sign.';
    if (!verifies(batchSigningData(outer, ids, v1_1, account), signer.TxnSignature, key)) {
      return 'Invalid signature.';
    }
  }
  return undefined;
}

/** An inner transaction that reached the ledger: its own record, after the outer's. */
export interface AppliedInner {
  readonly inner: InnerTx;
  readonly ter: string;
  readonly meta: JsonObject;
}

export interface BatchOutcome {
  /** The inner transactions to record, in order (none when an AllOrNothing batch failed). */
  readonly applied: AppliedInner[];
  /** Their state changes, to commit to the open ledger. */
  readonly changes: Array<[string, LedgerEntry | null]>;
  /** Every inner transaction tried, with its result, applied or not (for callers and tests). */
  readonly results: Array<{ txId: string; ter: string }>;
}

function commit(view: ApplyView, changes: Array<[string, LedgerEntry | null]>): void {
  for (const [index, entry] of changes) {
    if (entry === null) view.erase(index);
    else if (view.read(index) !== undefined) view.update(entry);
    else view.insert(entry);
  }
}

/**
 * rippled's applyBatchTransactions, for an outer Batch that applied with tesSUCCESS on `base`:
 * `firstIndex` is the TransactionIndex of the first inner to reach the ledger; `known` says
 * whether a transaction ID is already in the ledger being built (tefALREADY).
 */
export function applyBatchInners(
  base: StateReader,
  vctx: ViewContext,
  outer: JsonObject,
  outerId: string,
  firstIndex: number,
  known: (txId: string) => boolean,
): BatchOutcome {
  const inners = innerTransactions(outer) ?? [];
  const mode = Number(outer.Flags ?? 0) >>> 0;
  const whole = new ApplyView(base, vctx);
  const applied: AppliedInner[] = [];
  const results: Array<{ txId: string; ter: string }> = [];
  for (const inner of inners) {
    let out: ApplyOutcome;
    if (known(inner.txId) || applied.some((a) => a.inner.txId === inner.txId)) {
      out = { ter: 'tefALREADY', applied: false, feeBurned: 0n };
    } else {
      out = applyTransaction(whole, vctx, inner.tx, inner.txId, firstIndex + applied.length, false, outerId);
    }
    results.push({ txId: inner.txId, ter: out.ter });
    if (out.applied && out.meta && out.changes && (isTes(out.ter) || isTec(out.ter))) {
      commit(whole, out.changes);
      applied.push({ inner, ter: out.ter, meta: out.meta });
    }
    if (!isTes(out.ter)) {
      if ((mode & BATCH_MODE.allOrNothing) !== 0) return { applied: [], changes: [], results };
      if ((mode & BATCH_MODE.untilFailure) !== 0) break;
    } else if ((mode & BATCH_MODE.onlyOne) !== 0) {
      break;
    }
  }
  return { applied, changes: applied.length ? whole.changes() : [], results };
}
