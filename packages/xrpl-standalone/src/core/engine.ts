// The transaction engine: rippled's checkValidity (signature, local checks), preflight (tem),
// preclaim (sequence, tickets, LastLedgerSequence, fee, authorization) and apply (fee claimed and
// sequence consumed, then the transactor; on tec everything but the fee and sequence is undone).
import { encode, encodeForSigning } from 'ripple-binary-codec';
import { decodeTransaction } from './tx-decoder';
import { readAccount, xrpBalance } from './account';
import { addressOfPublicKey, isValidAddress } from './account-id';
import { parseAmount, isLegalXrp } from './amount/amount';
import type { CoreConfig, JsonObject, LedgerEntry } from './contract';
import { HASH_PREFIX, sha512HalfHexOfBytes, sha512HalfHexOfHex } from './hash';
import { signingDataBytes, signingDataHex } from './signing-data';
import {
  nativeCheckOf,
  runNativeCheck,
  verifyMessage,
  verifySignature,
  verifyWithKeypairs,
} from './crypto-verify';
import { INVALID, VALID, type SignatureJob } from './signature-thread';
import { checkMultiSignAuthority, checkMultiSignatures, txSigners } from './multisign';
import { accountRootKey, ownerDirKey, ticketKey } from './keylets';
import { TF, TF_UNIVERSAL, hasFlag, LSF } from './ledger-flags';
import { batchEnabled } from './batch-txs';
import { isTec, isTes, type Ter } from './results';
import type { StateReader, ViewContext } from './state/apply-view';
import { ApplyView } from './state/apply-view';
import { dirRemove, readU64 } from './state/directory';
import { TRANSACTORS } from './transactors/index';
import type { ApplyContext, Transactor } from './transactors/types';
import { DEFAULT_RULES, ledgerRules, withRules, type Rules } from './amendments';
import { checkDelegatePermission, delegatePreflight, feePayerOf } from './delegation/delegated-tx';

export interface RpcError {
  error: string;
  error_exception?: string;
  error_message?: string;
}

export interface DecodedTx {
  tx: JsonObject;
  txId: string;
  blob: string;
  /**
   * The blob's bytes, decoded once for the decoder, the transaction ID and the signing data (the
   * hex is not decoded three times over). Not kept in ledger records.
   */
  bytes?: Buffer;
}

export function transactionId(blobHex: string): string {
  return sha512HalfHexOfHex(HASH_PREFIX.transactionId, blobHex);
}

const HEX = /^[0-9A-Fa-f]*$/;

/** Decode a blob (rippled: deserialization errors are RPC errors, not engine results). */
export function decodeBlob(blob: unknown): DecodedTx | RpcError {
  if (typeof blob !== 'string' || blob.length === 0 || blob.length % 2 !== 0) {
    return { error: 'invalidParams', error_message: "Invalid field 'tx_blob'." };
  }
  // Hex decoding stops at the first pair that is not hex: a full-length result is the hex check
  // (no regular expression over the blob, then a second pass to decode it).
  const bytes = Buffer.from(blob, 'hex');
  if (bytes.length * 2 !== blob.length) {
    return { error: 'invalidParams', error_message: "Invalid field 'tx_blob'." };
  }
  let tx: JsonObject;
  try {
    tx = decodeTransaction(blob, bytes);
  } catch (e) {
    return { error: 'invalidTransaction', error_exception: (e as Error).message || 'deserialization error' };
  }
  if (typeof tx.TransactionType !== 'string' || typeof tx.Account !== 'string') {
    return { error: 'invalidTransaction', error_exception: 'Field not found' };
  }
  return {
    tx,
    txId: sha512HalfHexOfBytes(HASH_PREFIX.transactionId, bytes),
    blob: blob.toUpperCase(),
    bytes,
  };
}

const MEMO_URL_CHARS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;

/** rippled's checkValidity: signature and passesLocalChecks. Returns a failure reason or undefined. */
export function localChecks(tx: JsonObject): string | undefined {
  const memos = tx.Memos;
  if (memos !== undefined) {
    if (!Array.isArray(memos)) return 'A memo array may contain only Memo objects.';
    let size: number;
    try {
      size = encode({ Memos: memos }).length / 2 - 2;
    } catch {
      return 'A memo array may contain only Memo objects.';
    }
    if (size > 1024) return 'The memo exceeds the maximum allowed size.';
    for (const wrapper of memos as unknown[]) {
      const memo = (wrapper as { Memo?: Record<string, unknown> }).Memo;
      if (!memo || typeof memo !== 'object') return 'A memo array may contain only Memo objects.';
      for (const [name, value] of Object.entries(memo)) {
        if (name !== 'MemoType' && name !== 'MemoData' && name !== 'MemoFormat') {
          return 'A memo may contain only MemoType, MemoData or MemoFormat fields.';
        }
        if (typeof value !== 'string' || !HEX.test(value) || value.length % 2 !== 0) {
          return 'The MemoType, MemoData and MemoFormat fields may only contain hex-encoded data.';
        }
        if (name === 'MemoData') continue;
        const text = Buffer.from(value, 'hex').toString('latin1');
        if (!MEMO_URL_CHARS.test(text)) {
          return 'The MemoType and MemoFormat fields may only contain characters that are allowed in URLs under RFC 3986.';
        }
      }
    }
  }
  return undefined;
}

const PUBKEY = /^(0[23][0-9A-Fa-f]{64}|[Ee][Dd][0-9A-Fa-f]{64})$/;

// The key last found well formed: prepareSubmit, the signature check and preflight each test the
// same transaction's SigningPubKey (the same string), so the regular expression runs once.
let wellFormedKey: string | undefined;

function isWellFormedKey(pk: string): boolean {
  if (pk === wellFormedKey) return true;
  if (!PUBKEY.test(pk)) return false;
  wellFormedKey = pk;
  return true;
}

/**
 * A SigningPubKey that is not a key at all (empty without Signers, or malformed) is reported by
 * the engine as temBAD_SIGNATURE rather than as a failed signature check.
 */
export function hasMalformedSigningKey(tx: JsonObject): boolean {
  const pk = tx.SigningPubKey;
  if (typeof pk !== 'string') return true;
  if (pk === '') return tx.Signers === undefined;
  return !isWellFormedKey(pk);
}

/**
 * The single signature's key and signature, or the verdict when there is none to verify here
 * (multi-signed: checked in full; no well-formed key or no signature: false).
 */
function singleSignature(tx: JsonObject): { pk: string; sig: string } | boolean {
  if (tx.Signers !== undefined) return checkMultiSignatures(tx) === undefined;
  const pk = tx.SigningPubKey;
  const sig = tx.TxnSignature;
  if (typeof pk !== 'string' || !isWellFormedKey(pk)) return false;
  if (typeof sig !== 'string' || sig.length === 0) return false;
  return { pk, sig };
}

/**
 * Verify the single signature over the canonical signing encoding (blob given: fast path; its
 * bytes given too: the message is cut from them, no hex in between).
 */
export function checkSignature(tx: JsonObject, blob?: string, bytes?: Buffer): boolean {
  const single = singleSignature(tx);
  if (typeof single === 'boolean') return single;
  const { pk, sig } = single;
  try {
    if (bytes) return verifyMessage(signingDataBytes(bytes, tx), sig, pk);
    return verifySignature(blob ? signingDataHex(blob, tx) : encodeForSigning(tx), sig, pk);
  } catch {
    return false;
  }
}

/**
 * checkSignature split for a second thread: the verdict when it needs no OpenSSL call (multi-signed,
 * malformed, refused on its form), or the one check to run (signatureThread, then
 * finishSignatureCheck) — the same rules and verdicts as checkSignature.
 */
export function signatureWork(tx: JsonObject, bytes: Buffer): boolean | SignatureWork {
  const single = singleSignature(tx);
  if (typeof single === 'boolean') return single;
  const { pk, sig } = single;
  try {
    const message = signingDataBytes(bytes, tx);
    const check = nativeCheckOf(sig, pk);
    if (check === false) return false;
    if (check === undefined) return verifyWithKeypairs(message, sig, pk);
    return { message, check, signature: sig, publicKey: pk };
  } catch {
    return false;
  }
}

export interface SignatureWork extends SignatureJob {
  readonly signature: string;
  readonly publicKey: string;
}

/** The verdict of a SignatureWork from the thread's answer (undefined or 2: checked here). */
export function finishSignatureCheck(work: SignatureWork, verdict: number | undefined): boolean {
  if (verdict === VALID) return true;
  if (verdict === INVALID) return false;
  return (
    runNativeCheck(work.message, work.check) ??
    verifyWithKeypairs(work.message, work.signature, work.publicKey)
  );
}

export interface ApplyOutcome {
  ter: Ter;
  /** tes or tec: in the ledger. */
  applied: boolean;
  meta?: JsonObject;
  changes?: Array<[string, LedgerEntry | null]>;
  feeBurned: bigint;
}

// The Fee of the transaction last parsed: preflight, preclaim and the fee claim each need it, and
// they run back to back on the same (decoded, never mutated) tx object.
let feeOf: JsonObject | undefined;
let feeValue: unknown;
let feeParsed: bigint | undefined;

function feeDrops(tx: JsonObject): bigint | undefined {
  const raw = tx.Fee;
  if (feeOf === tx && feeValue === raw) return feeParsed;
  const f = parseAmount(raw);
  const drops = f && f.kind === 'xrp' ? f.drops : undefined;
  feeOf = tx;
  feeValue = raw;
  feeParsed = drops;
  return drops;
}

function transactorFor(tx: JsonObject): Transactor | undefined {
  return TRANSACTORS[tx.TransactionType as string];
}

/**
 * rippled's preflight1 rule for tfInnerBatchTxn: only with Batch enabled, and only inside a batch
 * (a transaction carrying it anywhere else is an attempt to skip its signature and fee).
 */
function innerBatchFlagRule(rules: Rules, inBatch: boolean): Ter | undefined {
  if (!batchEnabled(rules)) return 'temINVALID_FLAG';
  if (!inBatch) return 'temINVALID_INNER_BATCH';
  return undefined;
}

/** A Batch's inner transaction, preflighted under the batch's ledger (rippled's tapBATCH). */
function preflightFor(config: CoreConfig, rules: Rules): (inner: JsonObject) => Ter {
  return (inner) => preflight(inner, config, false, rules, true);
}

/**
 * rippled preflight0/preflight1/preflight2 plus the transactor's own preflight. `inBatch`: an inner
 * transaction of a Batch (no signature, no fee of its own).
 */
export function preflight(
  tx: JsonObject,
  config: CoreConfig,
  dryRun = false,
  rules: Rules = DEFAULT_RULES,
  inBatch = false,
): Ter {
  const t = transactorFor(tx);
  if (!t) return 'temUNKNOWN';
  if (t.enabled && !t.enabled(rules)) return 'temDISABLED';
  // rippled preflight1 looks at a Delegate field first (amendment, self-delegation, type).
  const delegated = delegatePreflight(tx, rules);
  if (delegated !== 'tesSUCCESS') return delegated;
  if (tx.NetworkID !== undefined) {
    const nid = config.networkId ?? 0;
    if (nid <= 1024) return 'telNETWORK_ID_MAKES_TX_NON_CANONICAL';
    if (tx.NetworkID !== nid) return 'telWRONG_NETWORK';
  } else if ((config.networkId ?? 0) > 1024) return 'telREQUIRES_NETWORK_ID';
  if (!isValidAddress(tx.Account) || tx.Account === 'rrrrrrrrrrrrrrrrrrrrrhoLvTp')
    return 'temBAD_SRC_ACCOUNT';
  const fee = feeDrops(tx);
  if (fee === undefined || fee < 0n || !isLegalXrp(fee)) return 'temBAD_FEE';
  const pk = tx.SigningPubKey;
  if (typeof pk !== 'string') return 'temMALFORMED';
  if (pk !== '' && !isWellFormedKey(pk)) return 'temBAD_SIGNATURE';
  // A dry run (simulate) is unsigned: rippled's tapDRY_RUN skips the signature requirement; so is
  // a batch's inner transaction, and its Sequence/TicketSequence rule is the batch's to report.
  if (pk === '' && tx.Signers === undefined && !dryRun && !inBatch) return 'temBAD_SIGNATURE';
  if (!inBatch && tx.TicketSequence !== undefined && Number(tx.Sequence ?? 0) !== 0)
    return 'temSEQ_AND_TICKET';
  const flags = Number(tx.Flags ?? 0) >>> 0;
  // tfInnerBatchTxn is universal (rippled's tfUniversalMask) except on a Batch itself.
  const type = tx.TransactionType;
  const allowed = (TF_UNIVERSAL | (t.flagsMask ?? 0) | (type === 'Batch' ? 0 : TF.innerBatchTxn)) >>> 0;
  if ((flags & ~allowed) >>> 0 !== 0) return 'temINVALID_FLAG';
  if ((flags & TF.innerBatchTxn) !== 0) {
    const ter = innerBatchFlagRule(rules, inBatch);
    if (ter) return ter;
  }
  if (!t.preflight) return 'tesSUCCESS';
  if (type === 'Batch')
    return t.preflight({ tx, config, rules, preflightInner: preflightFor(config, rules) });
  return t.preflight({ tx, config, rules });
}

export function requiredFee(tx: JsonObject, config: CoreConfig, view: StateReader): bigint {
  const t = transactorFor(tx);
  const base = t?.baseFee
    ? t.baseFee(tx, config, view, (other) => requiredFee(other, config, view))
    : config.baseFee;
  // A multi-signed transaction pays one base fee per signature on top (rippled calculateBaseFee).
  return tx.Signers !== undefined ? base + BigInt(txSigners(tx).length) * config.baseFee : base;
}

/**
 * Common preclaim: account, sequence/ticket, prior tx, last ledger, fee, authorization. A batch's
 * inner transaction (`inBatch`) has no fee to check (it is zero) and no signature of its own: the
 * outer transaction's signer and BatchSigners authorized it.
 */
export function preclaim(
  view: StateReader,
  tx: JsonObject,
  config: CoreConfig,
  ledgerSeq: number,
  dryRun = false,
  rules: Rules = DEFAULT_RULES,
  parentCloseTime = 0,
  inBatch = false,
): Ter {
  const account = tx.Account as string;
  const acct = readAccount(view, account);
  if (!acct) return 'terNO_ACCOUNT';
  const acctSeq = Number(acct.Sequence);
  const txSeq = Number(tx.Sequence ?? 0);
  if (tx.TicketSequence !== undefined) {
    const ticketSeq = Number(tx.TicketSequence);
    if (acctSeq <= ticketSeq) return 'terPRE_TICKET';
    if (!view.read(ticketKey(account, ticketSeq))) return 'tefNO_TICKET';
  } else {
    if (txSeq > acctSeq) return 'terPRE_SEQ';
    if (txSeq < acctSeq) return 'tefPAST_SEQ';
  }
  if (tx.AccountTxnID !== undefined && acct.AccountTxnID !== tx.AccountTxnID) return 'tefWRONG_PRIOR';
  if (tx.LastLedgerSequence !== undefined && ledgerSeq > Number(tx.LastLedgerSequence))
    return 'tefMAX_LEDGER';
  // A delegated transaction: the delegate's permissions, then its signature and its balance.
  const permission = checkDelegatePermission(view, tx, rules);
  if (permission !== 'tesSUCCESS') return permission;
  const payer = tx.Delegate === undefined ? acct : readAccount(view, feePayerOf(tx));
  if (!payer) return 'terNO_ACCOUNT';

  if (!inBatch) {
    const fee = feeDrops(tx) as bigint;
    if (fee < requiredFee(tx, config, view)) return 'telINSUF_FEE_P';
    const balance = xrpBalance(payer);
    if (fee > 0n && balance < fee) return 'terINSUF_FEE_B';
  }

  // Authorization (Transactor::checkSign); an unsigned dry run has no key to check.
  if (inBatch || (dryRun && tx.SigningPubKey === '' && tx.Signers === undefined)) {
    // nothing to authorize
  } else if (tx.Signers !== undefined) {
    const ter = checkMultiSignAuthority(view, tx);
    if (ter !== 'tesSUCCESS') return ter;
  } else {
    const ter = checkSingleSign(payer, tx);
    if (ter !== 'tesSUCCESS') return ter;
  }
  const t = transactorFor(tx) as Transactor;
  return t.preclaim
    ? t.preclaim({ tx, account, view, config, ledgerSeq, rules, parentCloseTime })
    : 'tesSUCCESS';
}

/** `acct` is the signing account's root: the transaction's Account, or its Delegate. */
function checkSingleSign(acct: LedgerEntry, tx: JsonObject): Ter {
  const account = acct.Account as string;
  // Transactor::checkSingleSign with fixMasterKeyAsRegularKey (enabled on mainnet).
  const signer = addressOfPublicKey(tx.SigningPubKey as string);
  if (acct.RegularKey !== signer) {
    if (signer !== account) return 'tefBAD_AUTH';
    if (hasFlag(acct.Flags, LSF.disableMaster)) return 'tefMASTER_DISABLED';
  }
  return 'tesSUCCESS';
}

/**
 * Take the fee and consume the sequence or ticket (Transactor::apply / reset). `prior` and `after`
 * are the account's balance before and after (rippled mPriorBalance / mSourceBalance): a delegate
 * pays the fee of a delegated transaction, so the account's balance is then untouched.
 */
function payFeeAndConsume(
  view: ApplyView,
  tx: JsonObject,
  txId: string,
): { prior: bigint; after: bigint; charged: bigint } {
  const account = tx.Account as string;
  const fee = feeDrops(tx) as bigint;
  const delegated = tx.Delegate !== undefined;
  const key = accountRootKey(account);
  if (tx.TicketSequence !== undefined) {
    const ticketSeq = Number(tx.TicketSequence);
    const tkey = ticketKey(account, ticketSeq);
    const ticket = view.read(tkey) as LedgerEntry;
    dirRemove(view, ownerDirKey(account), readU64(ticket, 'OwnerNode'), tkey, true);
    const a = view.peek(key) as LedgerEntry;
    const tc = Number(a.TicketCount ?? 0);
    if (tc <= 1) delete a.TicketCount;
    else a.TicketCount = tc - 1;
    a.OwnerCount = Math.max(0, Number(a.OwnerCount ?? 0) - 1);
    view.update(a);
    view.erase(tkey);
  }
  const acct = view.peek(key) as LedgerEntry;
  const prior = xrpBalance(acct);
  let charged = delegated ? 0n : fee;
  if (charged > prior) charged = prior;
  const after = prior - charged;
  acct.Balance = after.toString();
  if (tx.TicketSequence === undefined) acct.Sequence = Number(acct.Sequence) + 1;
  if (acct.AccountTxnID !== undefined) acct.AccountTxnID = txId;
  view.update(acct);
  if (delegated) charged = chargeDelegate(view, tx, fee);
  return { prior, after, charged };
}

/** The fee of a delegated transaction, from the delegate's balance (at most all of it). */
function chargeDelegate(view: ApplyView, tx: JsonObject, fee: bigint): bigint {
  const delegate = view.peek(accountRootKey(feePayerOf(tx))) as LedgerEntry;
  const held = xrpBalance(delegate);
  const charged = fee > held ? held : fee;
  delegate.Balance = (held - charged).toString();
  view.update(delegate);
  return charged;
}

// The transactor call runs through module-level functions rather than per-transaction closures
// (a closure for withRules and one for deliver, each also wrapped in a __name call by tsx/esbuild,
// showed up in profiles). Applying is synchronous; `pending` is saved and restored around it.
interface PendingApply {
  t: Transactor;
  ctx: ApplyContext;
  delivered: unknown;
}
let pending: PendingApply | undefined;

function runPending(): Ter {
  const p = pending as PendingApply;
  return p.t.doApply(p.ctx);
}

function recordDelivered(amount: unknown): void {
  (pending as PendingApply).delivered = amount;
}

/**
 * Apply one already-decoded, signature-checked transaction on top of `base`.
 * Never throws for transaction-level problems: an internal error becomes tefEXCEPTION.
 */
export function applyTransaction(
  base: StateReader,
  vctx: ViewContext,
  tx: JsonObject,
  txId: string,
  txIndex: number,
  dryRun = false,
  parentBatchId?: string,
): ApplyOutcome {
  const config = vctx.config;
  // The ledger's amendments, for preflight and preclaim as for the transactor (rippled's Rules).
  const rules = ledgerRules(base);
  const inBatch = parentBatchId !== undefined;
  let ter = preflight(tx, config, dryRun, rules, inBatch);
  if (!isTes(ter)) return { ter, applied: false, feeBurned: 0n };
  ter = preclaim(base, tx, config, vctx.ledgerSeq, dryRun, rules, vctx.parentCloseTime, inBatch);
  if (!isTes(ter) && !isTec(ter)) return { ter, applied: false, feeBurned: 0n };

  const view = new ApplyView(base, vctx);
  let delivered: unknown;
  let fee = 0n;
  try {
    const { prior, after, charged } = payFeeAndConsume(view, tx, txId);
    fee = charged;
    if (isTes(ter)) {
      const t = transactorFor(tx) as Transactor;
      const ctx: ApplyContext = {
        tx,
        txId,
        account: tx.Account as string,
        view,
        config,
        priorBalance: prior,
        sourceBalance: after,
        deliver: recordDelivered,
      };
      // The ledger's amendments (and the Number range they select) hold while the transactor runs.
      const outer = pending;
      pending = { t, ctx, delivered: undefined };
      try {
        ter = withRules(rules, runPending);
        delivered = pending.delivered;
      } finally {
        pending = outer;
      }
    }
  } catch (e) {
    engineHooks.onException?.(e, tx);
    ter = 'tefEXCEPTION';
  }
  if (!isTes(ter) && !isTec(ter)) return { ter, applied: false, feeBurned: 0n };
  if (isTec(ter)) {
    view.discard();
    delivered = undefined;
    fee = payFeeAndConsume(view, tx, txId).charged;
  }
  const meta = view.buildMetadata(txId, txIndex, ter, delivered);
  // An inner transaction names its Batch (rippled's TxMeta sfParentBatchID).
  if (inBatch) meta.ParentBatchID = parentBatchId;
  return { ter, applied: true, meta, changes: view.changes(), feeBurned: fee };
}

/** Observability hooks: an internal error inside a transactor becomes tefEXCEPTION, reported here. */
export const engineHooks: { onException?: (error: unknown, tx: JsonObject) => void } = {};
