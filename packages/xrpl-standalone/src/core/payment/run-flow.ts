// rippled's flow() as Payment and CheckCash call it: build the strands (toStrands), drop the ones
// whose steps fail their checks (the last failure is the result when none is left), and run the
// payment engine on a sandbox of the view, applied back whatever the result (the caller's tec
// discards it all).
import type { Amount } from '../amount/amount';
import type { Ter } from '../results';
import { isTes } from '../results';
import type { ApplyView } from '../state/apply-view';
import { flow, type FlowResult } from './flow';
import type { Strand } from './step';
import { buildStrands, type PathElement } from './strands';

export interface FlowRequest {
  src: string;
  dst: string;
  deliver: Amount;
  /** SendMax as the strands see it (absent: the delivered issue). */
  sendMax?: Amount;
  /** The most the source may spend (SendMax, or the delivered amount in the source's issue). */
  maxSource: Amount;
  paths: PathElement[][];
  defaultPaths: boolean;
  limitQuality: boolean;
  partialPayment: boolean;
}

export function runFlow(view: ApplyView, req: FlowRequest): { ter: Ter; result?: FlowResult } {
  const { src, dst } = req;
  const built = buildStrands({
    view,
    src,
    dst,
    deliver: req.deliver,
    sendMax: req.sendMax,
    paths: req.paths,
    defaultPaths: req.defaultPaths,
    limitQuality: req.limitQuality,
  });
  if (!isTes(built.ter)) return { ter: built.ter };
  const usable: Strand[] = [];
  let lastError: Ter | undefined;
  for (const strand of built.strands) {
    let stepTer: Ter = 'tesSUCCESS';
    strand.forEach((step, i) => {
      if (!isTes(stepTer)) return;
      stepTer = step.check(view, {
        src,
        dst,
        isFirst: i === 0,
        isLast: i === strand.length - 1,
        prev: strand[i - 1],
      });
    });
    if (isTes(stepTer)) usable.push(strand);
    else lastError = stepTer;
  }
  // rippled toStrands: a failing path is skipped; with no usable strand the last failure wins.
  if (usable.length === 0) return { ter: lastError ?? 'tecPATH_DRY' };
  const sandbox = view.sandbox();
  const result = flow(sandbox, usable, {
    src,
    dst,
    deliver: req.deliver,
    sendMax: req.maxSource,
    partialPayment: req.partialPayment,
  });
  sandbox.apply();
  return { ter: result.ter, result };
}
