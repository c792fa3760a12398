// The ledger chain: closed (= validated in stand-alone) ledgers as persistent SHAMaps sharing
// structure, an open ledger that submit() applies to tentatively, held (ter) transactions retried
// at each close, a transaction index by hash and per account for account_tx.
import { serializeHex, serializeTransient } from './serializer';
import { checkMultiSignatures } from './multisign';
import { readAccount, newAccountRoot } from './account';
import type {
  AccountTxPage,
  AccountTxQuery,
  ClosedLedgerRecord,
  CoreConfig,
  JsonObject,
  LedgerEntry,
  LedgerHeader,
  LedgerNodeApi,
  LedgerSelector,
  LedgerView,
  PreparedSubmission,
  SimulateResult,
  SubmitResult,
  TxRecord,
} from './contract';
import {
  applyTransaction,
  checkSignature,
  decodeBlob,
  finishSignatureCheck,
  signatureWork,
  type SignatureWork,
  hasMalformedSigningKey,
  localChecks,
  requiredFee,
  type DecodedTx,
  type RpcError,
} from './engine';
import { applyBatchInners, batchLocalChecks } from './batch-apply';
import { isInnerBatchTxn } from './batch-txs';
import { sha512HalfHex, u16, u32 } from './hash';
import { signatureThread } from './signature-thread';
import { DEFAULT_AMENDMENTS, ledgerRules, rulesFor } from './amendments';
import { amendmentsKey, feeSettingsKey, skipListKey, LEDGER_NAMESPACE } from './keylets';
import { ledgerHeaderHash, newStateMap, transactionTreeHashOfLeaves, txLeafHashOf } from './ledger-hash';
import { isTec, isTer, isTes, terCode, terMessage, type Ter } from './results';
import type { StateReader } from './state/apply-view';
import type { ShaMap } from './state/shamap';

export const GENESIS_ADDRESS = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
export const GENESIS_SEED = 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb';
export const INITIAL_DROPS = 100_000_000_000_000_000n;
export const CLOSE_TIME_RESOLUTION = 10;
/** Seconds between the Unix epoch and the Ripple epoch (2000-01-01T00:00:00Z). */
export const RIPPLE_EPOCH_OFFSET = 946_684_800;
const ZERO_HASH = '0'.repeat(64);
/** The default amendment set (mainnet today; see core/amendments). */
export const ENABLED_AMENDMENTS = DEFAULT_AMENDMENTS;

/**
 * Closed ledgers kept in memory by default (rippled's [ledger_history]): about 2.8 hours at one
 * close per second, far more than anything the app looks up, ~100 MB at ~10 KB per ledger.
 */
export const DEFAULT_LEDGER_HISTORY = 10_000;

/** How many ledgers a held (ter) transaction is retried for, as rippled's LocalTxs. */
export const HOLD_LEDGERS = 5;

export const DEFAULT_CORE_CONFIG: CoreConfig = {
  baseFee: 10n,
  reserveBase: 1_000_000n,
  reserveIncrement: 200_000n,
};

export function rippleTimeNow(): number {
  return Math.floor(Date.now() / 1000) - RIPPLE_EPOCH_OFFSET;
}

interface ClosedLedger {
  header: LedgerHeader;
  state: ShaMap<LedgerEntry>;
  transactions: TxRecord[];
  record: ClosedLedgerRecord;
}

/**
 * prepareSubmit's result. Only this module constructs it, so submit() can trust `signatureValid`
 * (undefined: not checked ahead; submit checks it as for a plain blob).
 */
class Prepared implements PreparedSubmission {
  readonly decodes: boolean;
  readonly upperBlob: string;
  constructor(
    readonly blob: string,
    readonly decoded: DecodedTx | RpcError,
    readonly signatureValid: boolean | undefined,
  ) {
    this.decodes = !('error' in decoded);
    this.upperBlob = 'error' in decoded ? blob.toUpperCase() : decoded.blob;
  }
}

interface HeldTx extends DecodedTx {
  firstSeen: number;
}

class ClosedLedgerView implements LedgerView {
  readonly closed = true;
  constructor(private readonly l: ClosedLedger) {}
  get header(): LedgerHeader {
    return this.l.header;
  }
  get transactions(): readonly TxRecord[] {
    return this.l.transactions;
  }
  read(index: string): LedgerEntry | undefined {
    return this.l.state.get(index.toUpperCase());
  }
  *entries(afterIndex?: string): Iterable<LedgerEntry> {
    for (const [, v] of this.l.state.entries(afterIndex)) yield v;
  }
}

class OpenLedger implements StateReader {
  readonly overlay = new Map<string, LedgerEntry | null>();
  /** The overlay's keys in ascending order, for succ() over the open ledger (order books). */
  readonly overlayKeys: string[] = [];
  readonly transactions: TxRecord[] = [];
  readonly txIds = new Set<string>();
  feesBurned = 0n;
  /** Bumped by every write: what was simulated at one version is what would be simulated again. */
  version = 0;
  constructor(
    readonly seq: number,
    readonly parent: ClosedLedger,
  ) {}
  read(index: string): LedgerEntry | undefined {
    const o = this.overlay.get(index);
    if (o !== undefined) return o ?? undefined;
    return this.parent.state.get(index);
  }
  set(index: string, entry: LedgerEntry | null): void {
    this.version += 1;
    if (!this.overlay.has(index)) {
      const keys = this.overlayKeys;
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((keys[mid] as string) < index) lo = mid + 1;
        else hi = mid;
      }
      keys.splice(lo, 0, index);
    }
    this.overlay.set(index, entry);
  }
}

class OpenLedgerView implements LedgerView {
  readonly closed = false;
  constructor(
    private readonly o: OpenLedger,
    private readonly closeTime: number,
  ) {}
  get header(): LedgerHeader {
    const p = this.o.parent.header;
    return {
      ledger_index: this.o.seq,
      ledger_hash: ZERO_HASH,
      parent_hash: p.ledger_hash,
      account_hash: ZERO_HASH,
      transaction_hash: ZERO_HASH,
      close_time: this.closeTime,
      parent_close_time: p.close_time,
      close_time_resolution: CLOSE_TIME_RESOLUTION,
      close_flags: 0,
      total_coins: (BigInt(p.total_coins) - this.o.feesBurned).toString(),
    };
  }
  get transactions(): readonly TxRecord[] {
    return this.o.transactions;
  }
  read(index: string): LedgerEntry | undefined {
    return this.o.read(index.toUpperCase());
  }
  *entries(afterIndex?: string): Iterable<LedgerEntry> {
    const after = afterIndex?.toUpperCase();
    const extra =
      after === undefined ? this.o.overlayKeys.slice() : this.o.overlayKeys.filter((k) => k > after);
    let i = 0;
    for (const [k, v] of this.o.parent.state.entries(after)) {
      while (i < extra.length && (extra[i] as string) < k) {
        const e = this.o.overlay.get(extra[i++] as string);
        if (e) yield e;
      }
      if (i < extra.length && extra[i] === k) {
        const e = this.o.overlay.get(extra[i++] as string);
        if (e) yield e;
        continue;
      }
      yield v;
    }
    while (i < extra.length) {
      const e = this.o.overlay.get(extra[i++] as string);
      if (e) yield e;
    }
  }
}

const ACCOUNT_FIELDS = ['Account', 'Destination', 'Owner', 'RegularKey', 'Issuer'] as const;
const ISSUED_AMOUNT_FIELDS = ['LowLimit', 'HighLimit', 'TakerPays', 'TakerGets'] as const;

/** Accounts a transaction affects (rippled getAffectedAccounts): AccountIDs and limit issuers in its metadata. */
export function affectedAccounts(meta: JsonObject): Set<string> {
  const out = new Set<string>();
  for (const wrapper of (meta.AffectedNodes as JsonObject[]) ?? []) {
    const node = (wrapper.CreatedNode ?? wrapper.ModifiedNode ?? wrapper.DeletedNode) as JsonObject;
    const fields = (node.NewFields ?? node.FinalFields) as JsonObject | undefined;
    if (!fields) continue;
    // Named lookups instead of walking every field: this runs for every transaction at close.
    for (const k of ACCOUNT_FIELDS) {
      const v = fields[k];
      if (typeof v === 'string') out.add(v);
    }
    for (const k of ISSUED_AMOUNT_FIELDS) {
      const v = fields[k];
      if (typeof v === 'object' && v) {
        const issuer = (v as { issuer?: string }).issuer;
        if (issuer) out.add(issuer);
      }
    }
  }
  return out;
}

function roundCloseTime(t: number, resolution: number): number {
  if (t === 0) return 0;
  const x = t + Math.floor(resolution / 2);
  return x - (x % resolution);
}

/**
 * A transaction in a ledger. Its metadata is serialized once, right after it is applied (while
 * the metadata is hot in the CPU caches), for its SHAMap leaf hash; the hex metaBlob is made from
 * those bytes only when asked for (binary requests, persistence).
 */
class LedgerTx implements TxRecord {
  private serializedMeta: string | undefined;
  private metaBytes: Buffer | undefined;
  private leaf: Buffer | undefined;
  closeTime?: number;
  constructor(
    public hash: string,
    public blob: string,
    public tx: JsonObject,
    public meta: JsonObject,
    public ledgerIndex: number,
    metaBlob?: string,
    blobBytes?: Uint8Array,
  ) {
    if (metaBlob === undefined) {
      this.metaBytes = Buffer.from(serializeTransient(this.binaryMeta()));
      this.leaf = txLeafHashOf(hash, blobBytes ?? blob, this.metaBytes);
    } else {
      // Restored from disk: its ledger's hashes are known, so the leaf is hashed only if asked.
      this.serializedMeta = metaBlob;
    }
  }

  /** The transaction-tree leaf hash (rippled's txNode: blob, metadata, ID). */
  get leafHash(): Buffer {
    this.leaf ??= txLeafHashOf(this.hash, this.blob, this.metaBlob);
    return this.leaf;
  }

  /** The metadata as it is serialized: without the API-only delivered_amount. */
  binaryMeta(): JsonObject {
    if (this.meta.delivered_amount === undefined) return this.meta;
    const { delivered_amount: _d, ...binary } = this.meta;
    return binary;
  }

  get metaBlob(): string {
    if (this.serializedMeta === undefined) {
      this.serializedMeta = this.metaBytes
        ? this.metaBytes.toString('hex').toUpperCase()
        : serializeHex(this.binaryMeta());
      this.metaBytes = undefined;
    }
    return this.serializedMeta;
  }

  /** Persistence writes records as JSON: the metadata blob must be in it. */
  toJSON(): TxRecord {
    return {
      hash: this.hash,
      blob: this.blob,
      tx: this.tx,
      meta: this.meta,
      metaBlob: this.metaBlob,
      ledgerIndex: this.ledgerIndex,
      closeTime: this.closeTime,
    };
  }
}

function makeTxRecord(d: DecodedTx, meta: JsonObject, ledgerIndex: number, metaBlob?: string): LedgerTx {
  return new LedgerTx(d.txId, d.blob, d.tx, meta, ledgerIndex, metaBlob, d.bytes);
}

const SIMULATE_MEMO_ENTRIES = 1_000;

export class LedgerNode implements LedgerNodeApi {
  readonly config: CoreConfig;
  private ledgers = new Map<number, ClosedLedger>();
  private byHash = new Map<string, ClosedLedger>();
  private last!: ClosedLedger;
  private open!: OpenLedger;
  private held: HeldTx[] = [];
  /**
   * simulate's answers for the open ledger as it is now, by transaction blob. A quote screen asks
   * the same question again and again (every keystroke pause, every visitor of a token's page); the
   * answer is a function of the blob and the open ledger's state only (its sequence, parent close
   * time and entries), so it is kept until the open ledger changes: any write (a transaction
   * applied, a close) starts a new memo. Exact by construction, not a time-based cache.
   */
  private simulated: { open?: OpenLedger; version: number; results: Map<string, SimulateResult> } = {
    version: -1,
    results: new Map(),
  };
  private txs = new Map<string, TxRecord>();
  private accountIndex = new Map<string, Array<[number, number, string]>>();
  private listeners = new Set<(r: ClosedLedgerRecord) => void>();
  private initial: ClosedLedgerRecord[] = [];
  /** Clock in Ripple-epoch seconds; replaceable for tests. */
  now: () => number = rippleTimeNow;
  /**
   * prepareSubmits sends a batch's signature checks to the signature thread from this many on
   * (Infinity: never); fewer are checked on this thread.
   */
  signatureThreadMin = 8;

  /** How many closed ledgers (headers, state roots, transactions, account_tx index) stay in memory. */
  readonly ledgerHistory: number;

  constructor(config: Partial<CoreConfig> = {}, opts: { now?: () => number; ledgerHistory?: number } = {}) {
    this.config = { ...DEFAULT_CORE_CONFIG, ...config };
    if (opts.now) this.now = opts.now;
    const history = opts.ledgerHistory ?? DEFAULT_LEDGER_HISTORY;
    if (!(history >= 1)) throw new RangeError('ledgerHistory must be at least 1');
    this.ledgerHistory = history;
    this.startGenesis();
  }

  private startGenesis(): void {
    const genesisAccount = newAccountRoot(GENESIS_ADDRESS, INITIAL_DROPS, 1);
    const fees: LedgerEntry = {
      LedgerEntryType: 'FeeSettings',
      Flags: 0,
      BaseFeeDrops: this.config.baseFee.toString(),
      ReserveBaseDrops: this.config.reserveBase.toString(),
      ReserveIncrementDrops: this.config.reserveIncrement.toString(),
      index: feeSettingsKey(),
    };
    // rippled --start enables its amendments in the genesis ledger: this node's set (config
    // `amendments`, default mainnet's), IDs being SHA-512Half of the names.
    const amendments: LedgerEntry = {
      LedgerEntryType: 'Amendments',
      Flags: 0,
      Amendments: rulesFor(this.config.amendments).ids(),
      index: amendmentsKey(),
    };
    const changes: Array<[string, LedgerEntry | null]> = [
      [genesisAccount.index, genesisAccount],
      [fees.index, fees],
      [amendments.index, amendments],
    ];
    const state = newStateMap().withChanges(changes);
    const h1: Omit<LedgerHeader, 'ledger_hash'> = {
      ledger_index: 1,
      parent_hash: ZERO_HASH,
      account_hash: state.hashHex(),
      transaction_hash: ZERO_HASH,
      close_time: 0,
      parent_close_time: 0,
      close_time_resolution: CLOSE_TIME_RESOLUTION,
      close_flags: 0,
      total_coins: INITIAL_DROPS.toString(),
    };
    const header1: LedgerHeader = { ...h1, ledger_hash: ledgerHeaderHash(h1) };
    const l1: ClosedLedger = {
      header: header1,
      state,
      transactions: [],
      record: { header: header1, transactions: [], stateChanges: changes },
    };
    this.addClosed(l1);
    this.open = new OpenLedger(2, l1);
    const rec2 = this.closeLedger(this.now(), true);
    this.initial = [l1.record, rec2];
  }

  /** Oldest ledger held (history is contiguous from here to the last closed ledger). */
  private firstSeq = Number.MAX_SAFE_INTEGER;

  private addClosed(l: ClosedLedger): void {
    this.ledgers.set(l.header.ledger_index, l);
    if (l.header.ledger_index < this.firstSeq) this.firstSeq = l.header.ledger_index;
    this.byHash.set(l.header.ledger_hash, l);
    this.last = l;
    for (const t of l.transactions) {
      this.txs.set(t.hash, t);
      for (const a of affectedAccounts(t.meta)) {
        let list = this.accountIndex.get(a);
        if (!list) this.accountIndex.set(a, (list = []));
        list.push([t.ledgerIndex, Number(t.meta.TransactionIndex), t.hash]);
      }
    }
    while (this.last.header.ledger_index - this.firstSeq + 1 > this.ledgerHistory) this.dropOldest();
  }

  /**
   * Forgets the oldest closed ledger (rippled's online_delete): its header, state root, transactions
   * and their account_tx entries. Newer ledgers share its unchanged state subtrees, so only what was
   * unique to it is freed. History stays contiguous: [firstSeq, last].
   */
  private dropOldest(): void {
    const seq = this.firstSeq;
    const l = this.ledgers.get(seq);
    this.firstSeq = seq + 1;
    if (!l) return;
    this.ledgers.delete(seq);
    this.byHash.delete(l.header.ledger_hash);
    for (const t of l.transactions) {
      this.txs.delete(t.hash);
      for (const a of affectedAccounts(t.meta)) {
        const list = this.accountIndex.get(a);
        if (!list) continue;
        // Entries are in ledger order, so the dropped ledger's are at the front.
        let n = 0;
        while (n < list.length && (list[n] as [number, number, string])[0] <= seq) n += 1;
        if (n === list.length) this.accountIndex.delete(a);
        else if (n > 0) list.splice(0, n);
      }
    }
  }

  /** The retained, contiguous range of closed ledgers (rippled's complete_ledgers). */
  completeLedgers(): { first: number; last: number } {
    return { first: this.firstSeq, last: this.last.header.ledger_index };
  }

  initialRecords(): ClosedLedgerRecord[] {
    return this.initial.slice();
  }

  private viewContext() {
    return {
      ledgerSeq: this.open.seq,
      parentCloseTime: this.last.header.close_time,
      parentHash: this.last.header.ledger_hash,
      config: this.config,
    };
  }

  prepareSubmit(txBlob: string): PreparedSubmission {
    const split = this.splitForCheck(txBlob);
    if (split instanceof Prepared) return split;
    return new Prepared(txBlob, split.decoded, finishSignatureCheck(split.work, undefined));
  }

  prepareSubmits(txBlobs: readonly string[], done: (prepared: PreparedSubmission[]) => void): void {
    const prepared: Prepared[] = new Array<Prepared>(txBlobs.length);
    const work: SignatureWork[] = [];
    const workAt: Array<{ i: number; decoded: DecodedTx }> = [];
    for (let i = 0; i < txBlobs.length; i += 1) {
      const split = this.splitForCheck(txBlobs[i] as string);
      if (split instanceof Prepared) prepared[i] = split;
      else {
        work.push(split.work);
        workAt.push({ i, decoded: split.decoded });
      }
    }
    const finish = (verdicts: Uint8Array | undefined) => {
      for (let j = 0; j < work.length; j += 1) {
        const { i, decoded } = workAt[j] as { i: number; decoded: DecodedTx };
        const valid = finishSignatureCheck(work[j] as SignatureWork, verdicts?.[j]);
        prepared[i] = new Prepared(txBlobs[i] as string, decoded, valid);
      }
      done(prepared);
    };
    // A few checks cost less here than the hop to the other thread and back.
    if (work.length < this.signatureThreadMin || !signatureThread.available) finish(undefined);
    else signatureThread.check(work, finish);
  }

  /**
   * A blob decoded, and prepared at once when its signature needs no OpenSSL call; else the one
   * check left to run (here or on the signature thread).
   */
  private splitForCheck(txBlob: string): Prepared | { decoded: DecodedTx; work: SignatureWork } {
    const decoded = decodeBlob(txBlob);
    // Multi-signed and malformed ones are left to submit(), which checks them in rippled's order.
    if ('error' in decoded || decoded.tx.Signers !== undefined || hasMalformedSigningKey(decoded.tx)) {
      return new Prepared(txBlob, decoded, undefined);
    }
    const work = decoded.bytes
      ? signatureWork(decoded.tx, decoded.bytes)
      : checkSignature(decoded.tx, decoded.blob);
    return typeof work === 'boolean' ? new Prepared(txBlob, decoded, work) : { decoded, work };
  }

  submit(input: string | PreparedSubmission): SubmitResult {
    const prepared = input instanceof Prepared ? input : undefined;
    const decoded = prepared ? prepared.decoded : decodeBlob(typeof input === 'string' ? input : input.blob);
    if ('error' in decoded) return this.rpcFailure('', decoded);
    const local = isInnerBatchTxn(decoded.tx)
      ? // rippled's checkValidity: an inner transaction is never valid outside its Batch, whatever
        // the amendments (it carries no signature and pays no fee of its own).
        'Batch inner transactions are never considered validly signed.'
      : localChecks(decoded.tx);
    if (local) {
      return this.rpcFailure(
        decoded.txId,
        { error: 'invalidTransaction', error_exception: `fails local checks: ${local}` },
        decoded.tx,
      );
    }
    if (decoded.tx.Signers !== undefined) {
      const reason = checkMultiSignatures(decoded.tx);
      if (reason) {
        return this.rpcFailure(
          decoded.txId,
          { error: 'invalidTransaction', error_exception: `fails local checks: ${reason}` },
          decoded.tx,
        );
      }
    } else if (
      !hasMalformedSigningKey(decoded.tx) &&
      !(prepared?.signatureValid ?? checkSignature(decoded.tx, decoded.blob, decoded.bytes))
    ) {
      return this.rpcFailure(
        decoded.txId,
        { error: 'invalidTransaction', error_exception: 'fails local checks: Invalid signature.' },
        decoded.tx,
      );
    }
    if (decoded.tx.TransactionType === 'Batch') {
      // The inner transactions' local checks and the BatchSigners' signatures (STTx::checkSign).
      const reason = batchLocalChecks(decoded.tx, ledgerRules(this.open));
      if (reason) {
        return this.rpcFailure(
          decoded.txId,
          { error: 'invalidTransaction', error_exception: `fails local checks: ${reason}` },
          decoded.tx,
        );
      }
    }
    const ter = this.applyToOpen(decoded);
    if (isTer(ter) && !this.held.some((h) => h.txId === decoded.txId)) {
      // (without its bytes: a held transaction would keep a pooled buffer's slab alive)
      this.held.push({ ...decoded, bytes: undefined, firstSeen: this.open.seq });
    }
    return this.submitResult(decoded, ter);
  }

  private rpcFailure(
    hash: string,
    error: NonNullable<SubmitResult['rpcError']>,
    tx?: JsonObject,
  ): SubmitResult {
    return {
      engine_result: '',
      engine_result_code: 0,
      engine_result_message: '',
      applied: false,
      kept: false,
      queued: false,
      hash,
      tx,
      rpcError: error,
    };
  }

  private submitResult(d: DecodedTx, ter: Ter): SubmitResult {
    const acct = readAccount(this.open, d.tx.Account as string);
    const applied = isTes(ter) || isTec(ter);
    return {
      engine_result: ter,
      engine_result_code: terCode(ter),
      engine_result_message: terMessage(ter),
      applied,
      kept: applied || isTer(ter),
      queued: isTer(ter),
      hash: d.txId,
      tx: d.tx,
      account_sequence_next: acct ? Number(acct.Sequence) : undefined,
      account_sequence_available: acct ? Number(acct.Sequence) : undefined,
      open_ledger_cost: this.config.baseFee.toString(),
      validated_ledger_index: this.last.header.ledger_index,
    };
  }

  /**
   * rippled's `simulate`: apply an unsigned (or signed) transaction to a scratch copy of the open
   * ledger and return the result and metadata it would have; nothing is kept. The caller has
   * autofilled it. Throws an RpcError-shaped object when the blob does not decode.
   */
  simulate(txBlob: string): SimulateResult {
    const memo = this.simulated;
    if (memo.open !== this.open || memo.version !== this.open.version) {
      this.simulated = { open: this.open, version: this.open.version, results: new Map() };
    }
    const kept = this.simulated.results.get(txBlob);
    if (kept) return kept;
    const out = this.simulateUncached(txBlob);
    // Bounded: distinct questions per open ledger are few (a quote per amount typed), but a
    // client could vary them endlessly.
    if (this.simulated.results.size < SIMULATE_MEMO_ENTRIES) this.simulated.results.set(txBlob, out);
    return out;
  }

  private simulateUncached(txBlob: string): SimulateResult {
    const decoded = decodeBlob(txBlob);
    if ('error' in decoded) return { rpcError: decoded };
    // rippled's simulate refuses a Batch: its inner transactions would need a second dry run.
    if (decoded.tx.TransactionType === 'Batch') {
      return { rpcError: { error: 'notImpl', error_message: 'Not implemented.' } };
    }
    const local = localChecks(decoded.tx);
    if (local) {
      return { rpcError: { error: 'invalidTransaction', error_exception: `fails local checks: ${local}` } };
    }
    const out = applyTransaction(
      this.open,
      this.viewContext(),
      decoded.tx,
      decoded.txId,
      this.open.transactions.length,
      true,
    );
    const meta = out.meta;
    if (
      meta &&
      isTes(out.ter) &&
      (decoded.tx.TransactionType === 'Payment' || decoded.tx.TransactionType === 'CheckCash')
    ) {
      meta.delivered_amount = meta.DeliveredAmount ?? decoded.tx.Amount;
    }
    return { ter: out.ter, tx: decoded.tx, hash: decoded.txId, meta, ledgerIndex: this.open.seq };
  }

  private applyToOpen(d: DecodedTx): Ter {
    if (this.open.txIds.has(d.txId)) return 'tefALREADY';
    const out = applyTransaction(this.open, this.viewContext(), d.tx, d.txId, this.open.transactions.length);
    if (out.applied && out.meta && out.changes) {
      for (const [k, v] of out.changes) this.open.set(k, v);
      this.recordApplied(d, out.ter, out.meta);
      this.open.feesBurned += out.feeBurned;
      // The outer Batch applied: now its inner transactions, each recorded as its own.
      if (isTes(out.ter) && d.tx.TransactionType === 'Batch') this.applyBatch(d);
    }
    return out.ter;
  }

  /** A transaction applied to the open ledger joins its transaction list. */
  private recordApplied(d: DecodedTx, ter: Ter, meta: JsonObject): void {
    if (
      isTes(ter) &&
      (d.tx.TransactionType === 'Payment' ||
        d.tx.TransactionType === 'CheckCash' ||
        d.tx.TransactionType === 'AccountDelete')
    ) {
      meta.delivered_amount = meta.DeliveredAmount ?? d.tx.Amount;
    }
    const rec = makeTxRecord(d, meta, this.open.seq);
    this.open.transactions.push(rec);
    this.open.txIds.add(d.txId);
  }

  /** rippled's applyBatchTransactions on the open ledger, right after the outer Batch. */
  private applyBatch(outer: DecodedTx): void {
    const open = this.open;
    const out = applyBatchInners(
      open,
      this.viewContext(),
      outer.tx,
      outer.txId,
      open.transactions.length,
      (id) => open.txIds.has(id),
    );
    for (const [k, v] of out.changes) open.set(k, v);
    for (const a of out.applied) {
      this.recordApplied({ tx: a.inner.tx, txId: a.inner.txId, blob: a.inner.blob }, a.ter, a.meta);
    }
  }

  requiredFee(tx: JsonObject): bigint {
    return requiredFee(tx, this.config, this.open);
  }

  closeLedger(closeTime?: number, genesis = false): ClosedLedgerRecord {
    const parent = this.last;
    const open = this.open;
    const seq = open.seq;
    // Skip lists (rippled Ledger::updateSkipList) are part of the new ledger's state.
    this.updateSkipList(open, parent.header.ledger_hash, seq);
    const stateChanges = [...open.overlay.entries()];
    const state = parent.state.withChanges(stateChanges);
    let ct = roundCloseTime(closeTime ?? this.now(), CLOSE_TIME_RESOLUTION);
    if (ct <= parent.header.close_time) ct = parent.header.close_time + 1;
    const transactions = open.transactions.map((t) => {
      t.closeTime = ct;
      return t;
    });
    const h: Omit<LedgerHeader, 'ledger_hash'> = {
      ledger_index: seq,
      parent_hash: parent.header.ledger_hash,
      account_hash: state.hashHex(),
      transaction_hash: transactions.length
        ? transactionTreeHashOfLeaves(transactions as LedgerTx[])
        : ZERO_HASH,
      close_time: ct,
      parent_close_time: parent.header.close_time,
      close_time_resolution: CLOSE_TIME_RESOLUTION,
      close_flags: 0,
      total_coins: (BigInt(parent.header.total_coins) - open.feesBurned).toString(),
    };
    const header: LedgerHeader = { ...h, ledger_hash: ledgerHeaderHash(h) };
    const record: ClosedLedgerRecord = { header, transactions, stateChanges };
    const closed: ClosedLedger = { header, state, transactions, record };
    this.addClosed(closed);
    this.open = new OpenLedger(seq + 1, closed);
    if (!genesis) {
      this.retryHeld();
      for (const l of this.listeners) {
        // A failing listener must not stop the others or undo the close.
        try {
          l(record);
        } catch (err) {
          console.error('xrpl-standalone: ledger listener failed', err);
        }
      }
    }
    return record;
  }

  private updateSkipList(open: OpenLedger, parentHash: string, seq: number): void {
    const prevIndex = seq - 1;
    const push = (key: string): void => {
      const cur = open.read(key);
      const hashes = cur ? (cur.Hashes as string[]).slice() : [];
      if (hashes.length >= 256) hashes.shift();
      hashes.push(parentHash);
      const entry: LedgerEntry = cur
        ? { ...cur, Hashes: hashes, LastLedgerSequence: prevIndex }
        : {
            LedgerEntryType: 'LedgerHashes',
            Flags: 0,
            Hashes: hashes,
            LastLedgerSequence: prevIndex,
            index: key,
          };
      open.set(key, entry);
    };
    if ((prevIndex & 0xff) === 0 && prevIndex > 0) {
      push(sha512HalfHex(u16(LEDGER_NAMESPACE.skipList), u32(prevIndex >>> 16)));
    }
    push(skipListKey());
  }

  private retryHeld(): void {
    // Like rippled's canonical order for retries: by account, then sequence, so chains resolve in one close.
    const held = this.held.slice().sort((a, b) => {
      const ac = String(a.tx.Account);
      const bc = String(b.tx.Account);
      if (ac !== bc) return ac < bc ? -1 : 1;
      return (
        Number(a.tx.Sequence || a.tx.TicketSequence || 0) - Number(b.tx.Sequence || b.tx.TicketSequence || 0)
      );
    });
    this.held = [];
    for (const h of held) {
      const lls = h.tx.LastLedgerSequence;
      if (lls !== undefined && Number(lls) < this.open.seq) continue;
      // rippled's LocalTxs keeps a transaction for a few ledgers only (holdLedgers).
      if (this.open.seq > h.firstSeen + HOLD_LEDGERS) continue;
      const ter = this.applyToOpen(h);
      if (isTer(ter)) this.held.push(h);
    }
  }

  ledger(selector: LedgerSelector): LedgerView | undefined {
    if (!selector) return this.validated();
    if (selector.ledger_hash !== undefined) {
      const l = this.byHash.get(selector.ledger_hash.toUpperCase());
      return l ? new ClosedLedgerView(l) : undefined;
    }
    const i = selector.ledger_index;
    if (i === undefined || i === 'validated' || i === 'closed') return this.validated();
    if (i === 'current') return this.current();
    if (i === this.open.seq) return this.current();
    const l = this.ledgers.get(i);
    return l ? new ClosedLedgerView(l) : undefined;
  }

  validated(): LedgerView {
    return new ClosedLedgerView(this.last);
  }

  current(): LedgerView {
    return new OpenLedgerView(this.open, roundCloseTime(this.now(), CLOSE_TIME_RESOLUTION));
  }

  txByHash(hash: string): TxRecord | undefined {
    const h = hash.toUpperCase();
    return this.txs.get(h) ?? this.open.transactions.find((t) => t.hash === h);
  }

  accountTx(query: AccountTxQuery): AccountTxPage {
    const first = this.firstSeq;
    const min =
      query.ledgerIndexMin !== undefined && query.ledgerIndexMin >= first ? query.ledgerIndexMin : first;
    const max =
      query.ledgerIndexMax !== undefined && query.ledgerIndexMax >= 0
        ? Math.min(query.ledgerIndexMax, this.last.header.ledger_index)
        : this.last.header.ledger_index;
    const list = this.accountIndex.get(query.account) ?? [];
    const forward = query.forward ?? false;
    const limit = query.limit ?? 200;
    const inRange = list.filter(([l]) => l >= min && l <= max);
    const ordered = forward ? inRange : inRange.slice().reverse();
    let start = 0;
    if (query.marker) {
      const m = query.marker;
      start = ordered.findIndex(([l, s]) => l === m.ledger && s === m.seq);
      if (start < 0) {
        start = ordered.findIndex(([l, s]) =>
          forward
            ? l > m.ledger || (l === m.ledger && s >= m.seq)
            : l < m.ledger || (l === m.ledger && s <= m.seq),
        );
        if (start < 0) start = ordered.length;
      }
    }
    const page = ordered.slice(start, start + limit);
    const next = ordered[start + limit];
    const transactions = page.map(([, , hash]) => this.txs.get(hash) as TxRecord);
    return {
      transactions,
      ledgerIndexMin: min,
      ledgerIndexMax: max,
      marker: next ? { ledger: next[0], seq: next[1] } : undefined,
    };
  }

  restore(records: Iterable<ClosedLedgerRecord>): void {
    let started = false;
    for (const rec of records) {
      const seq = rec.header.ledger_index;
      if (!started) {
        started = true;
        // Keep the ledgers before the first record (e.g. our own genesis); drop everything else.
        for (const k of [...this.ledgers.keys()]) if (k >= seq) this.ledgers.delete(k);
        this.byHash = new Map([...this.ledgers.values()].map((l) => [l.header.ledger_hash, l]));
        this.txs.clear();
        this.accountIndex.clear();
        this.held = [];
        const prev = this.ledgers.get(seq - 1);
        const kept = [...this.ledgers.values()].sort((a, b) => a.header.ledger_index - b.header.ledger_index);
        this.ledgers.clear();
        this.firstSeq = Number.MAX_SAFE_INTEGER;
        for (const l of kept) this.addClosed(l);
        if (!prev) this.last = { header: rec.header, state: newStateMap(), transactions: [], record: rec };
      }
      const base = this.ledgers.get(seq - 1)?.state ?? newStateMap();
      const state = base.withChanges(rec.stateChanges);
      const transactions = rec.transactions.map((t) => {
        const r = makeTxRecord({ tx: t.tx, txId: t.hash, blob: t.blob }, t.meta, t.ledgerIndex, t.metaBlob);
        r.closeTime = t.closeTime ?? rec.header.close_time;
        return r;
      });
      this.addClosed({ header: rec.header, state, transactions, record: { ...rec, transactions } });
    }
    if (started) {
      this.open = new OpenLedger(this.last.header.ledger_index + 1, this.last);
      // Hash the rebuilt state now (not at the first close) and check it against the stored header.
      const actual = this.last.state.hashHex();
      if (actual !== this.last.header.account_hash) {
        console.warn(
          `xrpl-standalone: restored state hash ${actual} differs from ledger ${this.last.header.ledger_index}'s account_hash ${this.last.header.account_hash}`,
        );
      }
    }
  }

  onLedgerClosed(listener: (record: ClosedLedgerRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Number of transactions waiting to be retried (ter results). */
  get heldCount(): number {
    return this.held.length;
  }
}
