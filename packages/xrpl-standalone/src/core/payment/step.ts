// The payment engine's building blocks, shaped like rippled's Flow: a strand is a list of steps,
// each converting an input amount into an output amount. DirectStep (IOU account -> account) lives
// here; order-book/AMM steps and XRP endpoints plug in through the same interface.
import type { Amount } from '../amount/amount';
import type { Ter } from '../results';
import type { ApplyView, StateReader } from '../state/apply-view';

export interface StepResult {
  in: Amount;
  out: Amount;
}

export interface StrandContext {
  /** Account paying (the transaction's Account). */
  src: string;
  /** Account receiving. */
  dst: string;
  isFirst: boolean;
  isLast: boolean;
  prev?: Step;
}

export type DebtDirection = 'issues' | 'redeems';

export interface Step {
  readonly kind: string;
  /** rippled Step::check: a non-tes result makes the strand unusable. */
  check(view: StateReader, ctx: StrandContext): Ter;
  /** Called once per strand evaluation, before rev/fwd, on the state the evaluation starts from. */
  prepare(view: StateReader, ctx: StrandContext): void;
  /** Whether the step's source redeems or issues (transfer fees depend on the previous step's). */
  debtDirection(): DebtDirection;
  /** Reverse pass: try to produce `out`; applies its changes to `sb`; returns what it consumed/produced. */
  rev(sb: ApplyView, out: Amount): StepResult;
  /** Forward pass: consume at most `input`; applies its changes to `sb`. */
  fwd(sb: ApplyView, input: Amount): StepResult;
  /** True when the step can move nothing (so the strand is dry). */
  dry(): boolean;
  /** Quality-in of the receiving side of this step's trust line (DirectStep only; else QUALITY_ONE). */
  lineQualityIn?(view: StateReader): bigint;
}

export type Strand = Step[];
