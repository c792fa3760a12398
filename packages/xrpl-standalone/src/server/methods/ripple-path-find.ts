// ripple_path_find for the paths the app needs: one order book/AMM (default path) or two through
// XRP. Each candidate is run as a dry payment on a sandbox of the current ledger to find the
// source amount that delivers destination_amount; the cheapest per source currency is returned.
import { isValidClassicAddress } from 'ripple-address-codec';
import type { CoreConfig, JsonObject, LedgerView } from '../../core/contract';
import { Num } from '../../core/number';
import { flow } from '../../core/payment/flow';
import type { Strand } from '../../core/payment/step';
import { ApplyView } from '../../core/state/apply-view';
import { type Amt, type Issue, XRP_ISSUE, isXrp, sameIssue } from '../../amm/amount';
import { buildCrossStrand } from '../../core/book/strand-builder';
import { toAmount, toAmt } from '../../core/book/funds';
import { amtFromJson, amtToJson, issueFromJson, readAccount } from '../../core/book/read';
import { ownedEntries } from '../owner-dir';
import type { MethodSpec } from '../context';
import { RpcError, missingField } from '../errors';
import { isObject, resolveLedger } from '../params';

const XRP_PATH_ELEMENT = { currency: 'XRP', type: 16, type_hex: '0000000000000010' };
const HUGE_IOU = new Num(9_999_999_999_999_999n, 79);

interface Candidate {
  via: Issue[];
  paths: JsonObject[][];
}

/** The source currencies: `source_currencies` when given, else XRP and the account's lines. */
export function sourceIssues(view: LedgerView, account: string, params: JsonObject): Issue[] {
  const list = params.source_currencies;
  if (list !== undefined) {
    if (!Array.isArray(list)) throw new RpcError('invalidParams', "Invalid field 'source_currencies'.");
    return list.map((c) => {
      if (!isObject(c) || typeof c.currency !== 'string') throw new RpcError('srcCurMalformed');
      if (c.currency === 'XRP') return XRP_ISSUE;
      const issuer = typeof c.issuer === 'string' ? c.issuer : account;
      if (!isValidClassicAddress(issuer)) throw new RpcError('srcIsrMalformed');
      return { currency: c.currency, issuer };
    });
  }
  const out: Issue[] = [XRP_ISSUE];
  for (const e of ownedEntries(view, account)) {
    if (e.LedgerEntryType !== 'RippleState') continue;
    const low = e.LowLimit as { issuer: string; currency: string };
    const high = e.HighLimit as { issuer: string };
    const peer = low.issuer === account ? high.issuer : low.issuer;
    const issue = { currency: low.currency, issuer: peer };
    if (!out.some((i) => sameIssue(i, issue))) out.push(issue);
  }
  return out;
}

/** Source amount needed along one candidate, or undefined when it cannot deliver in full. */
function trial(
  view: LedgerView,
  config: CoreConfig,
  src: string,
  dst: string,
  source: Issue,
  deliver: Amt,
  candidate: Candidate,
): Amt | undefined {
  const sb = new ApplyView(view, {
    ledgerSeq: view.header.ledger_index,
    parentCloseTime: view.header.parent_close_time,
    config,
  });
  const strand: Strand = buildCrossStrand({
    src,
    dst,
    inIssue: source,
    outIssue: deliver.issue,
    via: candidate.via,
    ownerPaysTransferFee: false,
  });
  const ok = strand.every(
    (step, i) =>
      step.check(sb, { src, dst, isFirst: i === 0, isLast: i === strand.length - 1, prev: strand[i - 1] }) ===
      'tesSUCCESS',
  );
  if (!ok) return undefined;
  const sendMax: Amt = isXrp(source)
    ? { issue: XRP_ISSUE, value: Num.of(100_000_000_000_000_000n) }
    : { issue: source, value: HUGE_IOU };
  try {
    const r = flow(sb, [strand], {
      src,
      dst,
      deliver: toAmount(deliver),
      sendMax: toAmount(sendMax),
      partialPayment: false,
    });
    if (r.ter !== 'tesSUCCESS') return undefined;
    return { issue: source, value: toAmt(r.actualIn).value };
  } catch {
    return undefined;
  }
}

/** rippled accountDestCurrencies: XRP and every currency the account can still receive. */
function destinationCurrencies(view: LedgerView, account: string): string[] {
  const out = new Set<string>(['XRP']);
  for (const e of ownedEntries(view, account)) {
    if (e.LedgerEntryType !== 'RippleState') continue;
    const low = e.LowLimit as { issuer: string; currency: string; value: string };
    const high = e.HighLimit as { issuer: string; value: string };
    const isLow = low.issuer === account;
    const balance = Num.parse((e.Balance as { value: string }).value);
    const mine = isLow ? balance : balance.neg();
    const limit = Num.parse(isLow ? low.value : high.value);
    if (mine.lt(limit)) out.add(low.currency);
  }
  return [...out];
}

/** One way to pay `deliver` from one source currency: what it costs and the path it takes. */
export interface PathAlternative {
  source_amount: unknown;
  paths_computed: JsonObject[][];
}

/**
 * The cheapest way from each source currency to deliver `deliver` to `dst` (rippled's
 * PathRequest::findPaths for the paths this server builds): the default path through one book or
 * pool, or two books through XRP. A source currency that is the destination currency is skipped.
 */
export function findAlternatives(
  view: LedgerView,
  config: CoreConfig,
  src: string,
  dst: string,
  deliver: Amt,
  sources: Issue[],
): PathAlternative[] {
  const alternatives: PathAlternative[] = [];
  for (const source of sources) {
    if (sameIssue(source, deliver.issue)) continue;
    const candidates: Candidate[] = [{ via: [], paths: [] }];
    if (!isXrp(source) && !isXrp(deliver.issue))
      candidates.push({ via: [XRP_ISSUE], paths: [[XRP_PATH_ELEMENT]] });
    let best: { amount: Amt; paths: JsonObject[][] } | undefined;
    for (const c of candidates) {
      const amount = trial(view, config, src, dst, source, deliver, c);
      if (amount && (!best || amount.value.lt(best.amount.value))) best = { amount, paths: c.paths };
    }
    if (best) alternatives.push({ source_amount: amtToJson(best.amount), paths_computed: best.paths });
  }
  return alternatives;
}

/** rippled's destination amount check (PathRequest::parseJson): an amount, XRP or token, not 0. */
export function readDestinationAmount(value: unknown): Amt {
  let deliver: Amt;
  try {
    deliver = amtFromJson(value);
  } catch {
    throw new RpcError('dstAmtMalformed');
  }
  if (!isXrp(deliver.issue) && !issueFromJson(value)) throw new RpcError('dstAmtMalformed');
  return deliver;
}

export const ripplePathFindMethod: MethodSpec = {
  handler: ({ node, params }) => {
    const src = params.source_account;
    if (src === undefined) throw missingField('source_account');
    if (typeof src !== 'string' || !isValidClassicAddress(src)) throw new RpcError('srcActMalformed');
    const dst = params.destination_account;
    if (dst === undefined) throw missingField('destination_account');
    if (typeof dst !== 'string' || !isValidClassicAddress(dst)) throw new RpcError('dstActMalformed');
    if (params.destination_amount === undefined) throw missingField('destination_amount');
    const deliver = readDestinationAmount(params.destination_amount);
    const { view, fields } = resolveLedger(node, params);
    if (!readAccount(view, src)) throw new RpcError('srcActNotFound');
    const alternatives = findAlternatives(
      view,
      node.config,
      src,
      dst,
      deliver,
      sourceIssues(view, src, params),
    ).map(
      // The legacy ripple_path_find answer adds paths_canonical (rippled: "Old ripple_path_find API requires this").
      (a) => ({ paths_canonical: [], ...a }),
    );
    const result: JsonObject = {
      alternatives,
      destination_account: dst,
      destination_amount: params.destination_amount,
      destination_currencies: destinationCurrencies(view, dst),
      full_reply: true,
      source_account: src,
      ...fields,
    };
    // rippled echoes the request id inside ripple_path_find's result
    if (params.id !== undefined) result.id = params.id;
    return result;
  },
};
