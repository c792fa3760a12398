// Strands for payments and offer crossing that change currency (rippled toStrands for the cases
// the app uses): the source's issue enters through an XRP endpoint or a trust line to its issuer,
// crosses one order book (default path) or two through XRP (a path naming XRP, or autobridging
// for offers), and leaves through a trust line from the issuer or an XRP endpoint.
import { DirectStep } from '../payment/direct-step';
import type { Step, Strand } from '../payment/step';
import type { PathElement, StrandRequest } from '../payment/strands';
import { type Issue, XRP_ISSUE, isXrp, sameIssue } from '../../amm/amount';
import { BookStep, type StrandLimit } from './book-step';
import { issueOfAmount, toAmt } from './funds';
import { getRate } from './quality';
import { CrossingDeliverStep, XrpEndpointStep } from './xrp-step';

export interface CrossStrandOptions {
  src: string;
  dst: string;
  inIssue: Issue;
  outIssue: Issue;
  /** Intermediate issues between in and out (empty: one book). */
  via: Issue[];
  ownerPaysTransferFee: boolean;
  limitQuality?: bigint;
}

export function buildCrossStrand(o: CrossStrandOptions): Strand {
  const steps: Step[] = [];
  if (isXrp(o.inIssue)) steps.push(new XrpEndpointStep(o.src, true));
  else if (o.src !== o.inIssue.issuer)
    steps.push(new DirectStep(o.src, o.inIssue.issuer, o.inIssue.currency));
  const chain = [o.inIssue, ...o.via, o.outIssue];
  const limit: StrandLimit | undefined =
    o.limitQuality === undefined ? undefined : { quality: o.limitQuality, steps: [] };
  for (let i = 0; i + 1 < chain.length; i++) {
    const step = new BookStep(chain[i] as Issue, chain[i + 1] as Issue, {
      ownerPaysTransferFee: o.ownerPaysTransferFee,
      limit,
    });
    limit?.steps.push(step);
    steps.push(step);
  }
  if (isXrp(o.outIssue)) steps.push(new XrpEndpointStep(o.dst, false));
  else if (o.dst !== o.outIssue.issuer) {
    steps.push(
      o.ownerPaysTransferFee
        ? new CrossingDeliverStep(o.dst, o.outIssue)
        : new DirectStep(o.outIssue.issuer, o.dst, o.outIssue.currency),
    );
  }
  return steps;
}

function pathIssues(path: PathElement[], start: Issue): Issue[] | undefined {
  const out: Issue[] = [];
  let cur = start;
  for (const e of path) {
    if (e.account !== undefined) return undefined;
    if (e.currency === undefined && e.issuer === undefined) return undefined;
    const currency = e.currency ?? cur.currency;
    const next: Issue = currency === 'XRP' ? XRP_ISSUE : { currency, issuer: e.issuer ?? cur.issuer };
    if (!sameIssue(next, cur)) out.push(next);
    cur = next;
  }
  return out;
}

/** Registered with the payment engine: strands for cross-currency payments. */
export function crossCurrencyStrands(
  req: StrandRequest,
): { ter: 'tesSUCCESS' | 'temBAD_PATH'; strands: Strand[] } | undefined {
  const outIssue = issueOfAmount(req.deliver);
  const inIssue = req.sendMax ? issueOfAmount(req.sendMax) : outIssue;
  const sameCurrency = inIssue.currency === outIssue.currency && isXrp(inIssue) === isXrp(outIssue);
  const hopsChangeCurrency = req.paths.some((p) =>
    p.some((e) => e.currency !== undefined && e.currency !== outIssue.currency),
  );
  if (sameCurrency && !hopsChangeCurrency) return undefined;
  if (isXrp(inIssue) && isXrp(outIssue)) return undefined;
  const strands: Strand[] = [];
  // tfLimitQuality: no worse than SendMax / Amount (rippled Quality{Amounts(sendMax, deliver)})
  const limitQuality =
    req.limitQuality && req.sendMax ? getRate(toAmt(req.deliver).value, toAmt(req.sendMax).value) : undefined;
  const base = { src: req.src, dst: req.dst, inIssue, outIssue, ownerPaysTransferFee: false, limitQuality };
  if (req.defaultPaths && !sameIssue(inIssue, outIssue)) strands.push(buildCrossStrand({ ...base, via: [] }));
  for (const path of req.paths) {
    const via = pathIssues(path, inIssue);
    if (!via) continue;
    while (via.length > 0 && sameIssue(via[via.length - 1] as Issue, outIssue)) via.pop();
    if (via.some((v) => sameIssue(v, inIssue))) continue;
    strands.push(buildCrossStrand({ ...base, via }));
  }
  return { ter: 'tesSUCCESS', strands };
}
