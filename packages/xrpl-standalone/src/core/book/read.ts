// Read-side helpers shared by the DEX transactors, the payment liquidity and the API methods:
// balances and funds as rippled's accountHolds/accountFunds see them, freezes, transfer rates,
// AMM pool balances and walking an order book in quality order.
import { decodeAccountID } from 'ripple-address-codec';
import type { LedgerEntry } from '../contract';
import { iouText } from '../amount/iou-value';
import { Num, toIouPrecision } from '../number';
import { type Amt, type Issue, XRP_ISSUE, isXrp, xrpDrops, zeroAmt } from '../../amm/amount';
import { ammIndex } from '../../amm/ids';
import { accountRootKey, bookBaseKey, dirPageKey, trustLineKey } from '../keylets';
import { LSF } from '../ledger-flags';

// Keylets are SHA-512 hashes; the order book walks the same few accounts and lines over and
// over, so their indexes are memoized (bounded, cleared when full).
const MEMO_LIMIT = 100_000;
const accountKeys = new Map<string, string>();
const lineKeys = new Map<string, string>();

function memo(map: Map<string, string>, key: string, make: () => string): string {
  let v = map.get(key);
  if (v === undefined) {
    if (map.size >= MEMO_LIMIT) map.clear();
    v = make();
    map.set(key, v);
  }
  return v;
}

export interface ReadLedger {
  read(index: string): LedgerEntry | undefined;
}

export interface ReserveConfig {
  reserveBase: bigint;
  reserveIncrement: bigint;
}

const QUALITY_ONE = 1_000_000_000;

const hexes = new Map<string, string>();

export function accountHex(address: string): string {
  return memo(hexes, address, () => Buffer.from(decodeAccountID(address)).toString('hex').toUpperCase());
}

export function issueFromJson(json: unknown): Issue | undefined {
  if (!json || typeof json !== 'object') return undefined;
  const o = json as Record<string, unknown>;
  if (o.currency === 'XRP' && o.issuer === undefined) return XRP_ISSUE;
  if (typeof o.currency !== 'string' || typeof o.issuer !== 'string') return undefined;
  return { currency: o.currency, issuer: o.issuer };
}

export function issueToJson(issue: Issue): Record<string, string> {
  return isXrp(issue) ? { currency: 'XRP' } : { currency: issue.currency, issuer: issue.issuer };
}

/** Ledger JSON amount (drops string or IOU object) to an Amt. */
export function amtFromJson(json: unknown): Amt {
  if (typeof json === 'string') return xrpDrops(BigInt(json));
  const o = json as { currency: string; issuer: string; value: string };
  return { issue: { currency: o.currency, issuer: o.issuer }, value: Num.parse(o.value) };
}

/** A Num as rippled writes a token value (IOU precision first). */
function numText(n0: Num): string {
  if (n0.isZero()) return '0';
  const n = toIouPrecision(n0);
  const negative = n.mantissa < 0n;
  return iouText(negative ? -n.mantissa : n.mantissa, n.exponent, negative);
}

/** Amt to rippled's JSON amount (STAmount::getText for token values). */
export function amtToJson(a: Amt): string | Record<string, string> {
  if (isXrp(a.issue)) return a.value.toBigInt().toString();
  return { currency: a.issue.currency, issuer: a.issue.issuer, value: numText(a.value) };
}

/** STAmount-style text of a bare number (book_offers "quality"). */
export function numberText(n: Num): string {
  return numText(n);
}

export function accountKey(address: string): string {
  return memo(accountKeys, address, () => accountRootKey(address));
}

export function lineKey(a: string, b: string, currency: string): string {
  const k = a < b ? `${a}/${b}/${currency}` : `${b}/${a}/${currency}`;
  return memo(lineKeys, k, () => trustLineKey(a, b, currency));
}

export function readAccount(view: ReadLedger, address: string): LedgerEntry | undefined {
  return view.read(accountKey(address));
}

export function trustLine(view: ReadLedger, a: string, b: string, currency: string): LedgerEntry | undefined {
  return view.read(lineKey(a, b, currency));
}

/** `holder`'s balance of an IOU on its line with the issuer (positive = holder owns). */
export function lineBalance(view: ReadLedger, holder: string, issue: Issue): Num {
  const line = trustLine(view, holder, issue.issuer, issue.currency);
  if (!line) return Num.zero;
  const bal = Num.parse(String((line.Balance as { value: string }).value));
  const holderIsLow = accountHex(holder) < accountHex(issue.issuer);
  return holderIsLow ? bal : bal.neg();
}

export function isGlobalFrozen(view: ReadLedger, issuer: string): boolean {
  const root = readAccount(view, issuer);
  return root !== undefined && (Number(root.Flags ?? 0) & LSF.globalFreeze) !== 0;
}

/** rippled isFrozen: global freeze of the issuer or the issuer froze the holder's line. */
export function isFrozen(view: ReadLedger, holder: string, issue: Issue): boolean {
  if (isXrp(issue)) return false;
  if (isGlobalFrozen(view, issue.issuer)) return true;
  if (holder === issue.issuer) return false;
  const line = trustLine(view, holder, issue.issuer, issue.currency);
  if (!line) return false;
  const issuerIsHigh = accountHex(issue.issuer) > accountHex(holder);
  return (Number(line.Flags ?? 0) & (issuerIsHigh ? LSF.highFreeze : LSF.lowFreeze)) !== 0;
}

export function ownerCount(view: ReadLedger, address: string): number {
  return Number(readAccount(view, address)?.OwnerCount ?? 0);
}

export function xrpBalance(view: ReadLedger, address: string): bigint {
  const root = readAccount(view, address);
  return root ? BigInt(String(root.Balance)) : 0n;
}

/** XRP above the reserve for `ownerCount + delta` objects (rippled xrpLiquid), never negative. */
export function xrpLiquid(view: ReadLedger, address: string, cfg: ReserveConfig, ownerDelta = 0): bigint {
  const root = readAccount(view, address);
  if (!root) return 0n;
  const count = BigInt(Math.max(0, Number(root.OwnerCount ?? 0) + ownerDelta));
  const reserve = cfg.reserveBase + cfg.reserveIncrement * count;
  const liquid = BigInt(String(root.Balance)) - reserve;
  return liquid > 0n ? liquid : 0n;
}

const UNLIMITED = new Num(9_999_999_999_999_999n, 80);

/** rippled accountHolds with fhZERO_IF_FROZEN: frozen funds count as zero; issuers hold unlimited. */
export function accountFunds(view: ReadLedger, holder: string, issue: Issue, cfg: ReserveConfig): Amt {
  if (isXrp(issue)) return xrpDrops(xrpLiquid(view, holder, cfg));
  if (holder === issue.issuer) return { issue, value: UNLIMITED };
  if (isFrozen(view, holder, issue)) return zeroAmt(issue);
  const bal = lineBalance(view, holder, issue);
  return { issue, value: bal.signum() > 0 ? bal : Num.zero };
}

/** The issuer's TransferRate (1e9 = no fee). */
export function transferRate(view: ReadLedger, issuer: string): number {
  const root = readAccount(view, issuer);
  const rate = Number(root?.TransferRate ?? 0);
  return rate === 0 ? QUALITY_ONE : rate;
}

export interface AmmState {
  index: string;
  sle: LedgerEntry;
  account: string;
  asset: Issue;
  asset2: Issue;
  lptIssue: Issue;
  lptBalance: Amt;
  tradingFee: number;
}

export function readAmm(view: ReadLedger, a: Issue, b: Issue): AmmState | undefined {
  const k = [`${a.currency}/${a.issuer}`, `${b.currency}/${b.issuer}`].sort().join('|');
  const index = memo(ammKeys, k, () => ammIndex(a, b));
  const sle = view.read(index);
  if (!sle) return undefined;
  return ammStateOf(index, sle);
}

export function ammStateOf(index: string, sle: LedgerEntry): AmmState {
  const lpt = amtFromJson(sle.LPTokenBalance);
  return {
    index,
    sle,
    account: String(sle.Account),
    asset: issueFromJson(sle.Asset)!,
    asset2: issueFromJson(sle.Asset2)!,
    lptIssue: lpt.issue,
    lptBalance: lpt,
    tradingFee: Number(sle.TradingFee ?? 0),
  };
}

/** The pool's balance of one asset: the pseudo-account's XRP or its trust line balance. */
export function ammPoolBalance(
  view: ReadLedger,
  ammAccount: string,
  issue: Issue,
  zeroIfFrozen = false,
): Amt {
  if (isXrp(issue)) return xrpDrops(xrpBalance(view, ammAccount));
  if (zeroIfFrozen && isFrozen(view, ammAccount, issue)) return zeroAmt(issue);
  return { issue, value: lineBalance(view, ammAccount, issue) };
}

/** `holder`'s LP tokens of an AMM. */
export function lpHolding(view: ReadLedger, amm: AmmState, holder: string): Amt {
  return { issue: amm.lptIssue, value: lineBalance(view, holder, amm.lptIssue) };
}

/** The fee `account` trades at: the discounted fee while it holds (or is authorized on) the slot. */
export function tradingFeeFor(amm: AmmState, account: string | undefined, parentCloseTime: number): number {
  const slot = amm.sle.AuctionSlot as Record<string, unknown> | undefined;
  if (slot && account !== undefined) {
    const expiration = Number(slot.Expiration ?? 0);
    if (parentCloseTime < expiration) {
      const discounted = Number(slot.DiscountedFee ?? 0);
      if (slot.Account === account) return discounted;
      const auth = (slot.AuthAccounts as Array<{ AuthAccount: { Account: string } }> | undefined) ?? [];
      if (auth.some((a) => a.AuthAccount.Account === account)) return discounted;
    }
  }
  return amm.tradingFee;
}

const bookKeys = new Map<string, string>();
const ammKeys = new Map<string, string>();

export function bookBase(takerPays: Issue, takerGets: Issue): string {
  const k = `${takerPays.currency}/${takerPays.issuer}>${takerGets.currency}/${takerGets.issuer}`;
  return memo(bookKeys, k, () => bookBaseUncached(takerPays, takerGets));
}

function bookBaseUncached(takerPays: Issue, takerGets: Issue): string {
  return bookBaseKey(
    isXrp(takerPays) ? { currency: 'XRP' } : takerPays,
    isXrp(takerGets) ? { currency: 'XRP' } : takerGets,
  );
}

export function dirPage(root: string, page: bigint): string {
  return dirPageKey(root, page);
}

/** Offer indexes of one book directory (all pages), in directory order. */
export function* directoryOffers(view: ReadLedger, rootIndex: string): Generator<string> {
  let page = 0n;
  for (let guard = 0; guard < 1_000_000; guard++) {
    const dir = view.read(dirPageKey(rootIndex, page));
    if (!dir) return;
    for (const idx of (dir.Indexes as string[] | undefined) ?? []) yield idx;
    const next = dir.IndexNext === undefined ? 0n : BigInt('0x' + String(dir.IndexNext));
    if (next === 0n) return;
    page = next;
  }
}
