// Turning a Payment's issues and paths into strands (rippled toStrands, for the part handled here:
// same-currency rippling through accounts). Paths that change currency need order-book steps; a
// builder for those can be registered with `registerStrandBuilder` and is tried first.
import type { Amount } from '../amount/amount';
import { sameCurrency } from '../amount/amount';
import type { Ter } from '../results';
import type { StateReader } from '../state/apply-view';
import { DirectStep } from './direct-step';
import type { Strand } from './step';

export interface PathElement {
  account?: string;
  currency?: string;
  issuer?: string;
}

export interface StrandRequest {
  view: StateReader;
  src: string;
  dst: string;
  deliver: Amount;
  /** SendMax, when given. */
  sendMax?: Amount;
  paths: PathElement[][];
  defaultPaths: boolean;
  /** tfLimitQuality: take no liquidity worse than SendMax/Amount (order-book strands). */
  limitQuality?: boolean;
}

/** An extension point: return strands for requests it understands, or undefined to decline. */
export type StrandBuilder = (req: StrandRequest) => { ter: Ter; strands: Strand[] } | undefined;

const builders: StrandBuilder[] = [];

export function registerStrandBuilder(b: StrandBuilder): void {
  builders.push(b);
}

function chainStrand(accounts: string[], currency: string): Strand {
  const dedup: string[] = [];
  for (const a of accounts) if (dedup[dedup.length - 1] !== a) dedup.push(a);
  const steps: Strand = [];
  for (let i = 0; i + 1 < dedup.length; i++)
    steps.push(new DirectStep(dedup[i] as string, dedup[i + 1] as string, currency));
  return steps;
}

export function buildStrands(req: StrandRequest): { ter: Ter; strands: Strand[] } {
  for (const b of builders) {
    const r = b(req);
    if (r) return r;
  }
  const { src, dst, deliver, sendMax } = req;
  if (deliver.kind !== 'iou') return { ter: 'tecPATH_DRY', strands: [] };
  if (sendMax && (sendMax.kind !== 'iou' || !sameCurrency(sendMax.currency, deliver.currency))) {
    // Cross-currency needs order books or AMMs (not handled by account-only strands).
    return { ter: 'tecPATH_DRY', strands: [] };
  }
  const currency = deliver.currency;
  const srcIssuer = sendMax ? sendMax.issuer : deliver.issuer;
  const dstIssuer = deliver.issuer;
  const strands: Strand[] = [];
  const head = srcIssuer === src ? [src] : [src, srcIssuer];
  const tail = dstIssuer === dst ? [dst] : [dstIssuer, dst];
  if (req.defaultPaths) strands.push(chainStrand([...head, ...tail], currency));
  for (const path of req.paths) {
    if (path.some((e) => e.currency !== undefined || e.issuer !== undefined || e.account === undefined)) {
      // A currency/issuer hop means an order book: not available to account-only strands.
      continue;
    }
    const accounts = path.map((e) => e.account as string);
    strands.push(chainStrand([...head, ...accounts, ...tail], currency));
  }
  return { ter: 'tesSUCCESS', strands };
}
