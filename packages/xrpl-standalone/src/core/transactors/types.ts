// What a transactor is: rippled's preflight (no ledger), preclaim (read-only ledger checks) and
// doApply (changes through the ApplyView). Adding a transaction type = one file + one registry line.
import type { Rules } from '../amendments';
import type { CoreConfig, JsonObject } from '../contract';
import type { Ter } from '../results';
import type { ApplyView, StateReader } from '../state/apply-view';

export interface PreflightContext {
  tx: JsonObject;
  config: CoreConfig;
  /** The applying ledger's amendments (rippled's ctx.rules). */
  rules: Rules;
  /**
   * For a Batch only: the engine's preflight of one of its inner transactions (rippled's
   * preflight with tapBATCH), so the transactor needs no import of the engine.
   */
  preflightInner?: (inner: JsonObject) => Ter;
}

export interface PreclaimContext {
  tx: JsonObject;
  account: string;
  view: StateReader;
  config: CoreConfig;
  ledgerSeq: number;
  /** The applying ledger's amendments (rippled's ctx.view.rules()). */
  rules: Rules;
  /** Close time of the parent ledger (rippled's ctx.view.parentCloseTime()): expirations. */
  parentCloseTime?: number;
}

export interface ApplyContext {
  tx: JsonObject;
  txId: string;
  account: string;
  view: ApplyView;
  config: CoreConfig;
  /** Sender's XRP balance before the fee was taken (rippled mPriorBalance). */
  priorBalance: bigint;
  /** Sender's XRP balance after the fee (rippled mSourceBalance). */
  sourceBalance: bigint;
  /** Record the delivered amount (JSON) for metadata DeliveredAmount. */
  deliver(amount: unknown): void;
}

export interface Transactor {
  /** Transaction-specific flags allowed besides the universal ones. */
  readonly flagsMask?: number;
  /** Whether the ledger's amendments enable this type (else temDISABLED before anything else). */
  enabled?(rules: Rules): boolean;
  preflight?(ctx: PreflightContext): Ter;
  preclaim?(ctx: PreclaimContext): Ter;
  doApply(ctx: ApplyContext): Ter;
  /**
   * Minimum fee in drops when not the base fee (rippled calculateBaseFee). `feeOf` is the engine's
   * own rule for another transaction (a Batch adds up its inner transactions' fees).
   */
  baseFee?(
    tx: JsonObject,
    config: CoreConfig,
    view: StateReader,
    feeOf?: (other: JsonObject) => bigint,
  ): bigint;
}
