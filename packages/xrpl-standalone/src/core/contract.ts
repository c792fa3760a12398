// The seam between the ledger model (src/core: amounts, state, transaction engine, ledger chain)
// and the network layer (src/server: WebSocket/JSON-RPC methods, subscriptions, persistence, faucet).
// The server never mutates ledger state except through LedgerNode.submit / closeLedger / restore.
// Shapes are rippled's JSON (ripple-binary-codec decode output), so the server can echo them unchanged.

export type JsonObject = Record<string, unknown>;

/** A ledger entry (SLE) in rippled's JSON form, including `LedgerEntryType` and `index`. */
export type LedgerEntry = JsonObject & { LedgerEntryType: string; index: string };

export interface CoreConfig {
  /** Base fee in drops (rippled default 10). */
  baseFee: bigint;
  /** Account reserve in drops (mainnet today: 1 XRP). */
  reserveBase: bigint;
  /** Owner reserve per owned object in drops (mainnet today: 0.2 XRP). */
  reserveIncrement: bigint;
  /** NetworkID, if any (standalone: none). */
  networkId?: number;
  /** Enabled amendment names (genesis Amendments object); default: DEFAULT_AMENDMENTS (mainnet). */
  amendments?: readonly string[];
}

export interface LedgerHeader {
  ledger_index: number;
  ledger_hash: string;
  parent_hash: string;
  account_hash: string;
  transaction_hash: string;
  /** Seconds since the Ripple epoch (2000-01-01). */
  close_time: number;
  parent_close_time: number;
  close_time_resolution: number;
  close_flags: number;
  /** Total XRP in drops, decimal string. */
  total_coins: string;
}

/** A transaction as applied in a ledger (open or closed). */
export interface TxRecord {
  hash: string;
  /** Signed transaction blob, uppercase hex. */
  blob: string;
  /** Decoded transaction JSON (with SigningPubKey, TxnSignature, ...). */
  tx: JsonObject;
  /** Metadata JSON: AffectedNodes, TransactionIndex, TransactionResult, delivered_amount. */
  meta: JsonObject;
  /** Metadata binary blob, uppercase hex. */
  metaBlob: string;
  ledgerIndex: number;
  /** Close time of its ledger (Ripple epoch seconds); undefined while in the open ledger. */
  closeTime?: number;
}

/** A decoded blob with its signature checked; made only by LedgerNodeApi.prepareSubmit. */
export interface PreparedSubmission {
  /** The tx_blob as it was handed to prepareSubmit (a request's own string: compared by identity). */
  readonly blob: string;
  /** The blob is hex and decoded (its tx_blob needs no second hex check). */
  readonly decodes?: boolean;
  /** The blob in upper case, as submit's reply echoes it (decoded once: no second copy). */
  readonly upperBlob?: string;
}

/** What submit returns: rippled's preliminary (tentative) result against the open ledger. */
export interface SubmitResult {
  engine_result: string;
  engine_result_code: number;
  engine_result_message: string;
  /** Applied to the open ledger (tes/tec). */
  applied: boolean;
  /** Will be relayed / kept: applied, or held for retry (ter). */
  kept: boolean;
  /** Held to be retried at the next close (ter codes such as terPRE_SEQ). */
  queued: boolean;
  hash: string;
  /** Decoded tx JSON (absent when the blob could not be decoded). */
  tx?: JsonObject;
  account_sequence_next?: number;
  account_sequence_available?: number;
  open_ledger_cost?: string;
  validated_ledger_index?: number;
  /**
   * Set when rippled would answer with an RPC error instead of an engine result (undecodable blob,
   * invalid signature, failed local checks such as bad memos). The server should reply with this
   * error envelope (e.g. `invalidTransaction` + `error_exception`); engine_result is then empty.
   */
  rpcError?: { error: string; error_exception?: string; error_message?: string };
}

/** A read-only view of one ledger: the open one, or a closed (= validated in stand-alone) one. */
export interface LedgerView {
  readonly header: LedgerHeader;
  readonly closed: boolean;
  read(index: string): LedgerEntry | undefined;
  /** Entries in ascending index order, starting strictly after `afterIndex` when given. */
  entries(afterIndex?: string): Iterable<LedgerEntry>;
  readonly transactions: readonly TxRecord[];
}

/** Everything needed to persist one closed ledger and rebuild it without re-executing anything. */
export interface ClosedLedgerRecord {
  header: LedgerHeader;
  transactions: TxRecord[];
  /** State changes relative to the parent ledger: index -> new entry, or null when deleted. */
  stateChanges: Array<[string, LedgerEntry | null]>;
}

export type LedgerSelector =
  { ledger_index?: number | 'validated' | 'closed' | 'current'; ledger_hash?: string } | undefined;

export interface AccountTxQuery {
  account: string;
  ledgerIndexMin?: number;
  ledgerIndexMax?: number;
  forward?: boolean;
  limit?: number;
  marker?: { ledger: number; seq: number };
}

export interface AccountTxPage {
  transactions: TxRecord[];
  ledgerIndexMin: number;
  ledgerIndexMax: number;
  marker?: { ledger: number; seq: number };
}

/** The ledger model the server drives. Implemented in src/core/ledger-node.ts. */
/** What a dry run would do: the engine result and metadata, or why the blob is not a transaction. */
export type SimulateResult =
  | { rpcError: { error: string; error_message?: string; error_exception?: string } }
  | {
      rpcError?: undefined;
      ter: string;
      tx: JsonObject;
      hash: string;
      meta?: JsonObject;
      ledgerIndex: number;
    };

export interface LedgerNodeApi {
  readonly config: CoreConfig;
  /**
   * Apply a signed blob tentatively to the open ledger (or hold it on ter). Never throws on bad input.
   * A PreparedSubmission (prepareSubmit) carries its decoding and signature check with it.
   */
  submit(txBlob: string | PreparedSubmission): SubmitResult;
  /**
   * Decode a blob and check its signature without touching the ledger. Both depend on the blob
   * alone, so a server can do them for a whole batch of requests before applying any of it.
   */
  prepareSubmit(txBlob: string): PreparedSubmission;
  /**
   * prepareSubmit for many blobs, their signatures checked on a second thread when there are
   * enough of them (signature-thread.ts); `done` gets them in the same order, synchronously when
   * every check was made here.
   */
  prepareSubmits(txBlobs: readonly string[], done: (prepared: PreparedSubmission[]) => void): void;
  /** prepareSubmits uses the signature thread from this many checks on (Infinity: never). */
  signatureThreadMin: number;
  /**
   * The least fee `tx` (JSON) must pay against the open ledger, in drops: rippled's
   * calculateBaseFee (a Batch: twice the base fee, its inner transactions' fees and one base fee
   * per BatchSigner signature; a multi-signed transaction one more per signer; AccountDelete and
   * AMMCreate the owner reserve). What `sign` fills in as Fee.
   */
  requiredFee(tx: JsonObject): bigint;
  /** Apply a transaction blob to a scratch copy of the open ledger (rippled's `simulate`); keeps nothing. */
  simulate(txBlob: string): SimulateResult;
  /** Close the open ledger into a validated one; retry held transactions; returns the new ledger's record. */
  closeLedger(closeTime?: number): ClosedLedgerRecord;
  ledger(selector: LedgerSelector): LedgerView | undefined;
  validated(): LedgerView;
  current(): LedgerView;
  txByHash(hash: string): TxRecord | undefined;
  accountTx(query: AccountTxQuery): AccountTxPage;
  /** Rebuild from persisted records (oldest first), replacing the genesis state. */
  restore(records: Iterable<ClosedLedgerRecord>): void;
  onLedgerClosed(listener: (record: ClosedLedgerRecord) => void): () => void;
  /**
   * Records of the ledgers that exist before the first closeLedger (genesis ledger 1 and ledger 2),
   * so a persistence layer can store them once; restore() accepts them as the first records.
   */
  initialRecords(): ClosedLedgerRecord[];
}
