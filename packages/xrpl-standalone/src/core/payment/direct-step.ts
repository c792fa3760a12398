// rippled's DirectStepI: IOUs of one currency moving between two accounts along their trust line.
// The source redeems (sends back IOUs it holds of the destination) or issues (creates its own IOUs,
// up to the destination's limit); issuing after a redeeming step charges the source's transfer fee.
import { readAccount } from '../account';
import type { Amount } from '../amount/amount';
import { IouValue } from '../amount/iou-value';
import { LSF, hasFlag } from '../ledger-flags';
import type { Ter } from '../results';
import type { ApplyView, StateReader } from '../state/apply-view';
import {
  QUALITY_ONE,
  isHigh,
  lineBalanceFor,
  lineLimitOf,
  readLine,
  rippleCredit,
  transferRate,
} from '../trust-lines';
import type { DebtDirection, Step, StepResult, StrandContext } from './step';

export class DirectStep implements Step {
  readonly kind = 'direct';
  readonly src: string;
  readonly dst: string;
  readonly currency: string;
  private dir: DebtDirection = 'issues';
  private cap: IouValue = IouValue.ZERO;
  private srcQOut = QUALITY_ONE;
  private prev: Step | undefined;

  constructor(src: string, dst: string, currency: string) {
    this.src = src;
    this.dst = dst;
    this.currency = currency;
  }

  check(view: StateReader, ctx: StrandContext): Ter {
    const line = readLine(view, this.src, this.dst, this.currency);
    if (!line) return 'terNO_LINE';
    const srcAcct = readAccount(view, this.src);
    if (!srcAcct) return 'terNO_ACCOUNT';
    const authFlag = isHigh(this.src, this.dst) ? LSF.highAuth : LSF.lowAuth;
    if (
      hasFlag(srcAcct.Flags, LSF.requireAuth) &&
      !hasFlag(line.Flags, authFlag) &&
      IouValue.parse((line.Balance as { value: string }).value).isZero()
    ) {
      return 'terNO_AUTH';
    }
    const prev = ctx.prev;
    if (prev instanceof DirectStep) {
      // rippled checkNoRipple: an account with NoRipple on both of its lines cannot be rippled through.
      const inLine = readLine(view, prev.src, this.src, this.currency);
      if (inLine) {
        const inFlag = isHigh(this.src, prev.src) ? LSF.highNoRipple : LSF.lowNoRipple;
        const outFlag = isHigh(this.src, this.dst) ? LSF.highNoRipple : LSF.lowNoRipple;
        if (hasFlag(inLine.Flags, inFlag) && hasFlag(line.Flags, outFlag)) return 'terNO_RIPPLE';
      }
    }
    if (!(ctx.isFirst && ctx.isLast)) {
      // rippled checkFreeze: a frozen line (by the receiving side) or a global freeze stops rippling.
      const dstAcct = readAccount(view, this.dst);
      if (hasFlag(dstAcct?.Flags, LSF.globalFreeze)) return 'terNO_LINE';
      const freezeFlag = isHigh(this.dst, this.src) ? LSF.highFreeze : LSF.lowFreeze;
      if (hasFlag(line.Flags, freezeFlag)) return 'terNO_LINE';
    }
    return 'tesSUCCESS';
  }

  prepare(view: StateReader, ctx: StrandContext): void {
    this.prev = ctx.prev;
    const line = readLine(view, this.src, this.dst, this.currency);
    if (!line) {
      this.cap = IouValue.ZERO;
      return;
    }
    const owed = lineBalanceFor(line, this.src, this.dst);
    if (owed.signum() > 0) {
      this.dir = 'redeems';
      this.cap = owed;
    } else {
      this.dir = 'issues';
      const room = lineLimitOf(line, this.dst, this.src).add(owed);
      this.cap = room.signum() > 0 ? room : IouValue.ZERO;
    }
    this.srcQOut =
      this.dir === 'issues' && this.prev?.debtDirection() === 'redeems' ? transferRate(view, this.src) : QUALITY_ONE;
  }

  debtDirection(): DebtDirection {
    return this.dir;
  }

  dry(): boolean {
    return this.cap.isZero();
  }

  private amount(v: IouValue): Amount {
    return { kind: 'iou', currency: this.currency, issuer: this.dst, value: v };
  }

  private value(a: Amount): IouValue {
    if (a.kind !== 'iou') throw new TypeError('DirectStep needs an issued amount');
    return a.value;
  }

  rev(sb: ApplyView, out: Amount): StepResult {
    const want = this.value(out);
    const x = want.min(this.cap);
    const inp = this.srcQOut === QUALITY_ONE ? x : x.mulRatio(this.srcQOut, QUALITY_ONE, true);
    this.apply(sb, x);
    return { in: this.amount(inp), out: this.amount(x) };
  }

  fwd(sb: ApplyView, input: Amount): StepResult {
    const given = this.value(input);
    let x = this.srcQOut === QUALITY_ONE ? given : given.mulRatio(QUALITY_ONE, this.srcQOut, false);
    let inp = given;
    if (x.gt(this.cap)) {
      x = this.cap;
      inp = this.srcQOut === QUALITY_ONE ? x : x.mulRatio(this.srcQOut, QUALITY_ONE, true);
    }
    this.apply(sb, x);
    return { in: this.amount(inp), out: this.amount(x) };
  }

  private apply(sb: ApplyView, x: IouValue): void {
    if (x.isZero()) return;
    const ter = rippleCredit(sb, this.src, this.dst, this.currency, x);
    if (ter !== 'tesSUCCESS') throw new Error(`rippleCredit failed: ${ter}`);
    this.cap = this.cap.sub(x);
  }
}
