// Batch (XLS-56), as rippled 3.4.1's Batch.cpp with BatchV1_1 and fixBatchV1_2: the outer
// transaction only pays its fee and consumes its sequence; its inner transactions are applied
// after it, each as a transaction of its own (core/batch-apply.ts). Here: the outer's preflight
// (mode, count, every inner's shape and preflight, the BatchSigners required), its authorization
// of the BatchSigners against the ledger (Transactor::checkBatchSign) and its fee
// (Batch::calculateBaseFee). BatchSigners' signatures are checked with the local checks, as
// rippled's checkValidity does.
import { readAccount } from '../account';
import { accountIdHex, addressOfPublicKey, isValidAddress } from '../account-id';
import type { Rules } from '../amendments';
import { parseAmount } from '../amount/amount';
import {
  BATCH_MODE,
  BATCH_MODES_MASK,
  MAX_BATCH_TXS,
  batchEnabled,
  batchSigners,
  innerInitiator,
  innerTransactions,
  isInnerBatchTxn,
} from '../batch-txs';
import type { CoreConfig, JsonObject } from '../contract';
import { LSF, hasFlag } from '../ledger-flags';
import { checkMultiSignAuthority } from '../multisign';
import type { Ter } from '../results';
import type { StateReader } from '../state/apply-view';
import type { PreclaimContext, PreflightContext, Transactor } from './types';
import { VAULT_AND_LENDING_TYPES } from '../vault-lending-types';

/** What rippled charges for an impossible batch (an inner Batch, too many inners): INITIAL_XRP. */
const UNPAYABLE_FEE = 100_000_000_000_000_000n;

/**
 * Types that may never be inner transactions (rippled's Batch::disabledTxTypes: the vault and
 * lending transactions). None is implemented here, so their own preflight would refuse them too;
 * the list keeps the result rippled gives, checked where rippled checks it.
 */
const DISABLED_INNER_TYPES = new Set(VAULT_AND_LENDING_TYPES);

function popcount(n: number): number {
  let c = 0;
  for (let x = n >>> 0; x !== 0; x &= x - 1) c += 1;
  return c;
}

/** An inner transaction (or its CounterpartySignature) must carry no signature of its own. */
function signatureFieldsPresent(sig: JsonObject): Ter | undefined {
  if (sig.TxnSignature !== undefined) return 'temBAD_SIGNATURE';
  if (sig.Signers !== undefined) return 'temBAD_SIGNER';
  if (typeof sig.SigningPubKey === 'string' && sig.SigningPubKey !== '') return 'temBAD_REGKEY';
  return undefined;
}

function preflightInners(ctx: PreflightContext, flags: number): Ter {
  const { tx, rules } = ctx;
  const inners = innerTransactions(tx);
  if (!inners) return 'temMALFORMED';
  // fixBatchV1_2 (rippled 3.4.1): each inner must be wrapped as RawTransaction, checked first.
  const wrapperRule = rules.enabled('fixBatchV1_2');
  const unique = (flags & (BATCH_MODE.allOrNothing | BATCH_MODE.untilFailure)) !== 0;
  const ids = new Set<string>();
  const seqsOf = new Map<string, Set<number>>();
  for (const inner of inners) {
    if (wrapperRule && inner.wrapper !== 'RawTransaction') return 'temMALFORMED';
    if (ids.has(inner.txId)) return 'temREDUNDANT';
    ids.add(inner.txId);
    const t = inner.tx;
    if (t.TransactionType === 'Batch') return 'temINVALID';
    if (DISABLED_INNER_TYPES.has(String(t.TransactionType))) return 'temINVALID_INNER_BATCH';
    if (!isInnerBatchTxn(t)) return 'temINVALID_FLAG';
    const own = signatureFieldsPresent(t);
    if (own) return own;
    const counterparty = t.CounterpartySignature;
    if (typeof counterparty === 'object' && counterparty !== null) {
      const c = signatureFieldsPresent(counterparty as JsonObject);
      if (c) return c;
    }
    const fee = parseAmount(t.Fee);
    if (!fee || fee.kind !== 'xrp' || fee.drops !== 0n) return 'temBAD_FEE';
    if ((ctx.preflightInner?.(t) ?? 'temINVALID_INNER_BATCH') !== 'tesSUCCESS')
      return 'temINVALID_INNER_BATCH';
    const seq = Number(t.Sequence ?? 0);
    const ticketed = t.TicketSequence !== undefined;
    if (ticketed === (seq !== 0)) return 'temSEQ_AND_TICKET';
    // AllOrNothing and UntilFailure stop at the first failure: a repeated sequence or ticket of
    // one account could only fail, so it is refused up front.
    if (unique) {
      const account = String(t.Account);
      let seen = seqsOf.get(account);
      if (!seen) seqsOf.set(account, (seen = new Set()));
      const n = ticketed ? Number(t.TicketSequence) : seq;
      if (seen.has(n)) return 'temREDUNDANT';
      seen.add(n);
    }
  }
  return 'tesSUCCESS';
}

/**
 * rippled's preflightSigValidated: every account with an inner transaction other than the outer
 * account signs exactly once in BatchSigners, and nobody else does (the outer account never).
 */
function preflightSigners(tx: JsonObject, rules: Rules): Ter {
  const outer = String(tx.Account);
  const required = new Set<string>();
  for (const inner of innerTransactions(tx) ?? []) {
    const initiator = innerInitiator(inner.tx);
    if (initiator !== outer) required.add(initiator);
  }
  if (tx.BatchSigners !== undefined) {
    if (!Array.isArray(tx.BatchSigners)) return 'temMALFORMED';
    if (tx.BatchSigners.length > MAX_BATCH_TXS) return 'temARRAY_TOO_LARGE';
    // BatchV1_1 requires the signers in ascending account order, as multi-signing's Signers.
    const ordered = rules.enabled('BatchV1_1');
    const seen = new Set<string>();
    let last = '';
    for (const signer of batchSigners(tx)) {
      const account = signer.Account;
      if (!isValidAddress(account)) return 'temMALFORMED';
      if (account === outer) return 'temBAD_SIGNER';
      if (seen.has(account)) return 'temREDUNDANT';
      seen.add(account);
      const id = accountIdHex(account);
      if (ordered && id < last) return 'temBAD_SIGNER';
      last = id;
      if (!required.delete(account)) return 'temBAD_SIGNER';
    }
  }
  return required.size === 0 ? 'tesSUCCESS' : 'temBAD_SIGNER';
}

/** Transactor::checkBatchSign: each BatchSigner's key (or signer list) may sign for its account. */
function batchSignerAuthority(view: StateReader, tx: JsonObject): Ter {
  for (const signer of batchSigners(tx)) {
    const account = String(signer.Account);
    const key = signer.SigningPubKey;
    if (typeof key !== 'string' || key === '') {
      const ter = checkMultiSignAuthority(view, { Account: account, Signers: signer.Signers });
      if (ter !== 'tesSUCCESS') return ter;
      continue;
    }
    const signerAccount = addressOfPublicKey(key);
    const root = readAccount(view, account);
    // An account an earlier inner transaction creates can sign with its master key only. (The
    // check goes on to the next signer: rippled 3.1's early return here was the Batch bug.)
    if (!root) {
      if (signerAccount !== account) return 'tefBAD_AUTH';
      continue;
    }
    // Transactor::checkSingleSign: regular key, else the master key unless disabled.
    if (root.RegularKey === signerAccount) continue;
    if (signerAccount !== account) return 'tefBAD_AUTH';
    if (hasFlag(root.Flags, LSF.disableMaster)) return 'tefMASTER_DISABLED';
  }
  return 'tesSUCCESS';
}

export const batch: Transactor = {
  flagsMask: BATCH_MODES_MASK,

  enabled: batchEnabled,

  preflight(ctx: PreflightContext): Ter {
    const { tx } = ctx;
    const flags = Number(tx.Flags ?? 0) >>> 0;
    if (popcount(flags & BATCH_MODES_MASK) !== 1) return 'temINVALID_FLAG';
    const raw = tx.RawTransactions;
    if (!Array.isArray(raw)) return 'temMALFORMED';
    if (raw.length <= 1) return 'temARRAY_EMPTY';
    if (raw.length > MAX_BATCH_TXS) return 'temARRAY_TOO_LARGE';
    const inners = preflightInners(ctx, flags);
    if (inners !== 'tesSUCCESS') return inners;
    return preflightSigners(tx, ctx.rules);
  },

  preclaim({ tx, view }: PreclaimContext): Ter {
    return batchSignerAuthority(view, tx);
  },

  /**
   * Batch::calculateBaseFee: twice the base fee (the outer's own, and one for the batch), every
   * inner transaction's own minimum fee, and one base fee per BatchSigner signature (each
   * signer of a multi-signing BatchSigner counts). The engine adds the outer's own Signers.
   */
  baseFee(
    tx: JsonObject,
    config: CoreConfig,
    _view: StateReader,
    feeOf?: (other: JsonObject) => bigint,
  ): bigint {
    const base = config.baseFee;
    let total = base + base;
    const inners = innerTransactions(tx) ?? [];
    if (inners.length > MAX_BATCH_TXS) return UNPAYABLE_FEE;
    for (const inner of inners) {
      if (inner.tx.TransactionType === 'Batch') return UNPAYABLE_FEE;
      total += feeOf ? feeOf(inner.tx) : base;
    }
    let signatures = 0n;
    for (const signer of batchSigners(tx)) {
      if (signer.TxnSignature !== undefined) signatures += 1n;
      else if (Array.isArray(signer.Signers)) signatures += BigInt(signer.Signers.length);
    }
    return total + signatures * base;
  },

  doApply(): Ter {
    // The inner transactions are applied after the outer one (applyBatchInners).
    return 'tesSUCCESS';
  },
};
