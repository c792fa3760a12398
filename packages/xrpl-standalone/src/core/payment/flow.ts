// rippled's Flow, for strands of steps: evaluate each strand (reverse pass from the requested
// output, then a forward pass from the limiting step), take the best quality strand, apply it,
// and repeat until the payment is satisfied or liquidity runs dry.
import type { Amount } from '../amount/amount';
import type { IouValue } from '../amount/iou-value';
import type { Ter } from '../results';
import type { ApplyView } from '../state/apply-view';
import { amtAdd, amtCmp, amtIsZero, amtSub, amtValue, amtZero } from './amount-math';
import type { Strand, StrandContext } from './step';

export interface FlowResult {
  ter: Ter;
  actualIn: Amount;
  actualOut: Amount;
}

interface StrandOutcome {
  sb: ApplyView;
  in: Amount;
  out: Amount;
}

function prepareAll(
  view: ApplyView,
  strand: Strand,
  base: Omit<StrandContext, 'isFirst' | 'isLast' | 'prev'>,
): void {
  strand.forEach((step, i) =>
    step.prepare(view, { ...base, isFirst: i === 0, isLast: i === strand.length - 1, prev: strand[i - 1] }),
  );
}

function strandFlow(
  view: ApplyView,
  strand: Strand,
  ctx: Omit<StrandContext, 'isFirst' | 'isLast' | 'prev'>,
  remainingIn: Amount | undefined,
  remainingOut: Amount,
): StrandOutcome | undefined {
  const n = strand.length;
  let sb = view.sandbox();
  prepareAll(sb, strand, ctx);
  if (strand.some((s) => s.dry())) return undefined;
  let limiting = n;
  let limitOut: Amount = remainingOut;
  let stepOut: Amount = remainingOut;
  let firstIn: Amount | undefined;
  for (let i = n - 1; i >= 0; i--) {
    const step = strand[i] as Strand[number];
    let r = step.rev(sb, stepOut);
    if (amtIsZero(r.out)) return undefined;
    if (i === 0 && remainingIn !== undefined && amtCmp(r.in, remainingIn) > 0) {
      sb = view.sandbox();
      prepareAll(sb, strand, ctx);
      r = step.fwd(sb, remainingIn);
      limiting = 0;
      limitOut = r.out;
      firstIn = r.in;
      break;
    }
    if (amtCmp(r.out, stepOut) !== 0) {
      sb = view.sandbox();
      prepareAll(sb, strand, ctx);
      r = step.rev(sb, r.out);
      limiting = i;
      limitOut = r.out;
    }
    if (i === 0) firstIn = r.in;
    stepOut = r.in;
  }
  let out = limiting === n ? remainingOut : limitOut;
  if (limiting < n) {
    let stepIn = limitOut;
    for (let i = limiting + 1; i < n; i++) {
      const r = (strand[i] as Strand[number]).fwd(sb, stepIn);
      stepIn = r.out;
    }
    out = stepIn;
  }
  if (firstIn === undefined || amtIsZero(out)) return undefined;
  return { sb, in: firstIn, out };
}

/** Quality as in/out (lower is better). */
function quality(r: StrandOutcome): IouValue {
  return amtValue(r.in).div(amtValue(r.out));
}

export function flow(
  view: ApplyView,
  strands: Strand[],
  opts: { src: string; dst: string; deliver: Amount; sendMax?: Amount; partialPayment: boolean },
): FlowResult {
  let remainingOut = opts.deliver;
  let remainingIn = opts.sendMax;
  let actualIn: Amount = opts.sendMax ? amtZero(opts.sendMax) : amtZero(opts.deliver);
  let actualOut: Amount = amtZero(opts.deliver);
  const ctx = { src: opts.src, dst: opts.dst };
  for (let pass = 0; pass < 1000; pass++) {
    if (amtIsZero(remainingOut) || amtCmp(remainingOut, amtZero(remainingOut)) < 0) break;
    if (remainingIn !== undefined && amtCmp(remainingIn, amtZero(remainingIn)) <= 0) break;
    let best: StrandOutcome | undefined;
    let bestQ: IouValue | undefined;
    for (const strand of strands) {
      const r = strandFlow(view, strand, ctx, remainingIn, remainingOut);
      if (!r) continue;
      const q = quality(r);
      if (!best || (bestQ && q.lt(bestQ))) {
        best = r;
        bestQ = q;
      }
    }
    if (!best) break;
    best.sb.apply();
    actualIn = amtAdd(actualIn, best.in);
    actualOut = amtAdd(actualOut, best.out);
    remainingOut = amtSub(remainingOut, best.out);
    if (remainingIn !== undefined) remainingIn = amtSub(remainingIn, best.in);
  }
  if (amtCmp(actualOut, opts.deliver) !== 0) {
    if (amtCmp(actualOut, opts.deliver) > 0) return { ter: 'tefEXCEPTION', actualIn, actualOut };
    if (!opts.partialPayment) return { ter: 'tecPATH_PARTIAL', actualIn, actualOut };
    if (amtIsZero(actualOut)) return { ter: 'tecPATH_DRY', actualIn, actualOut };
  }
  return { ter: 'tesSUCCESS', actualIn, actualOut };
}
