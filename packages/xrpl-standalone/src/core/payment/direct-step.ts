// rippled's DirectStepI (payment flavour): IOUs of one currency moving between two accounts along
// their trust line. The source redeems (sends back IOUs it holds of the destination) or issues
// (creates its own IOUs, up to the destination's limit); issuing after a redeeming step charges the
// source's transfer fee; the lines' QualityIn/QualityOut scale the amounts like rippled does.
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

function ratio(v: IouValue, num: bigint, den: bigint, roundUp: boolean): IouValue {
  return num === den ? v : v.mulRatio(num, den, roundUp);
}

export class DirectStep implements Step {
  readonly kind = 'direct';
  readonly src: string;
  readonly dst: string;
  readonly currency: string;
  private dir: DebtDirection = 'issues';
  private cap: IouValue = IouValue.ZERO;
  private srcQOut = QUALITY_ONE;
  private dstQIn = QUALITY_ONE;
  private prev: Step | undefined;

  constructor(src: string, dst: string, currency: string) {
    this.src = src;
    this.dst = dst;
    this.currency = currency;
  }

  check(view: StateReader, ctx: StrandContext): Ter {
    if (this.src === this.dst) return 'temBAD_PATH';
    const srcAcct = readAccount(view, this.src);
    if (!srcAcct) return 'terNO_ACCOUNT';
    const line = readLine(view, this.src, this.dst, this.currency);
    if (!(ctx.isFirst && ctx.isLast)) {
      // rippled checkFreeze: a global freeze, a freeze set by the receiving side, or a deep freeze.
      const dstAcct = readAccount(view, this.dst);
      if (hasFlag(dstAcct?.Flags, LSF.globalFreeze)) return 'terNO_LINE';
      if (line) {
        const freezeFlag = isHigh(this.dst, this.src) ? LSF.highFreeze : LSF.lowFreeze;
        if (hasFlag(line.Flags, freezeFlag)) return 'terNO_LINE';
        if (hasFlag(line.Flags, LSF.highDeepFreeze) || hasFlag(line.Flags, LSF.lowDeepFreeze))
          return 'terNO_LINE';
      }
    }
    const prev = ctx.prev;
    if (prev instanceof DirectStep) {
      // rippled checkNoRipple: an account with NoRipple on both of its lines cannot be rippled through.
      const inLine = readLine(view, prev.src, this.src, this.currency);
      if (!inLine || !line) return 'terNO_LINE';
      const inFlag = isHigh(this.src, prev.src) ? LSF.highNoRipple : LSF.lowNoRipple;
      const outFlag = isHigh(this.src, this.dst) ? LSF.highNoRipple : LSF.lowNoRipple;
      if (hasFlag(inLine.Flags, inFlag) && hasFlag(line.Flags, outFlag)) return 'terNO_RIPPLE';
    }
    if (!line) return 'terNO_LINE';
    const authFlag = isHigh(this.src, this.dst) ? LSF.highAuth : LSF.lowAuth;
    if (
      hasFlag(srcAcct.Flags, LSF.requireAuth) &&
      !hasFlag(line.Flags, authFlag) &&
      IouValue.parse((line.Balance as { value: string }).value).isZero()
    ) {
      return 'terNO_AUTH';
    }
    if (prev && !(prev instanceof DirectStep) && prev.kind === 'book') {
      if (hasFlag(line.Flags, isHigh(this.src, this.dst) ? LSF.highNoRipple : LSF.lowNoRipple))
        return 'terNO_RIPPLE';
    }
    // Neither redeemable nor issuable: the strand is dry before it starts.
    const owed = lineBalanceFor(line, this.src, this.dst);
    if (owed.signum() <= 0 && owed.negate().gte(lineLimitOf(line, this.dst, this.src))) return 'tecPATH_DRY';
    return 'tesSUCCESS';
  }

  /** The trust line's quality field: the receiver's QualityIn or the sender's QualityOut. */
  private quality(view: StateReader, direction: 'in' | 'out'): bigint {
    const line = readLine(view, this.src, this.dst, this.currency);
    if (!line) return QUALITY_ONE;
    const owner = direction === 'in' ? this.dst : this.src;
    const other = direction === 'in' ? this.src : this.dst;
    const field = `${isHigh(owner, other) ? 'High' : 'Low'}Quality${direction === 'in' ? 'In' : 'Out'}`;
    const q = Number(line[field] ?? 0);
    return q === 0 ? QUALITY_ONE : BigInt(q);
  }

  lineQualityIn(view: StateReader): bigint {
    return this.quality(view, 'in');
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
    if (this.dir === 'redeems') {
      // rippled qualitiesSrcRedeems
      this.dstQIn = QUALITY_ONE;
      if (!this.prev) this.srcQOut = QUALITY_ONE;
      else {
        const prevQIn = this.prev.lineQualityIn?.(view) ?? QUALITY_ONE;
        const out = this.quality(view, 'out');
        this.srcQOut = prevQIn > out ? prevQIn : out;
      }
    } else {
      // rippled qualitiesSrcIssues: the transfer fee applies when the previous step redeems.
      this.srcQOut = this.prev?.debtDirection() === 'redeems' ? transferRate(view, this.src) : QUALITY_ONE;
      const qIn = this.quality(view, 'in');
      this.dstQIn = ctx.isLast && qIn > QUALITY_ONE ? QUALITY_ONE : qIn;
    }
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
    const srcToDst = ratio(want, QUALITY_ONE, this.dstQIn, true);
    if (srcToDst.lte(this.cap)) {
      const inp = ratio(srcToDst, this.srcQOut, QUALITY_ONE, true);
      this.apply(sb, srcToDst);
      return { in: this.amount(inp), out: this.amount(want) };
    }
    const max = this.cap;
    const inp = ratio(max, this.srcQOut, QUALITY_ONE, true);
    const actualOut = ratio(max, this.dstQIn, QUALITY_ONE, false);
    this.apply(sb, max);
    return { in: this.amount(inp), out: this.amount(actualOut) };
  }

  fwd(sb: ApplyView, input: Amount): StepResult {
    const given = this.value(input);
    const srcToDst = ratio(given, QUALITY_ONE, this.srcQOut, false);
    if (srcToDst.lte(this.cap)) {
      const out = ratio(srcToDst, this.dstQIn, QUALITY_ONE, false);
      this.apply(sb, srcToDst);
      return { in: this.amount(given), out: this.amount(out) };
    }
    const max = this.cap;
    const actualIn = ratio(max, this.srcQOut, QUALITY_ONE, true);
    const out = ratio(max, this.dstQIn, QUALITY_ONE, false);
    this.apply(sb, max);
    return { in: this.amount(actualIn), out: this.amount(out) };
  }

  private apply(sb: ApplyView, x: IouValue): void {
    if (x.isZero()) return;
    const ter = rippleCredit(sb, this.src, this.dst, this.currency, x);
    if (ter !== 'tesSUCCESS') throw new Error(`rippleCredit failed: ${ter}`);
    this.cap = this.cap.sub(x);
  }
}
