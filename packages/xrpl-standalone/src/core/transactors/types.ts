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
  preflight?(ctx: PreflightContext): Ter;
  preclaim?(ctx: PreclaimContext): Ter;
  doApply(ctx: ApplyContext): Ter;
  /** Minimum fee in drops when not the base fee (rippled calculateBaseFee). */
  baseFee?(tx: JsonObject, config: CoreConfig, view: StateReader): bigint;
}
