// Shared checks and ledger operations of the AMM transactors (rippled AMMCore.cpp / AMMUtils.cpp):
// asset and amount validation, pool balances, the pseudo-account's sends, the creator's vote and
// auction slot, and deleting an emptied AMM.
import { adjustOwnerCount } from '../account';
import { currencyToHex, isBadCurrency } from '../amount/currency';
import type { JsonObject, LedgerEntry } from '../contract';
import { accountRootKey, dirPageKey, ownerDirKey } from '../keylets';
import type { Ter } from '../results';
import type { ApplyView, StateReader } from '../state/apply-view';
import { dirRemove, readU64 } from '../state/directory';
import { trustDelete } from '../trust-lines';
import { type Amt, type Issue, isXrp, sameIssue } from '../../amm/amount';
import {
  TOTAL_TIME_SLOT_SECS,
  AUCTION_SLOT_DISCOUNTED_FEE_FRACTION,
  VOTE_WEIGHT_SCALE_FACTOR,
} from '../../amm/math';
import { send } from '../book/funds';
import {
  ammPoolBalance,
  amtFromJson,
  isFrozen,
  issueFromJson,
  lineBalance,
  readAmm,
  type AmmState,
} from '../book/read';
import { LSF } from '../ledger-flags';

export const TRADING_FEE_THRESHOLD = 1000;

export function readIssueField(tx: JsonObject, field: string): Issue | undefined {
  const v = tx[field];
  if (!v || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  if (o.currency === 'XRP')
    return o.issuer === undefined
      ? { currency: 'XRP', issuer: '' }
      : { currency: 'XRP', issuer: String(o.issuer) };
  return issueFromJson(v);
}

export function readAmountField(tx: JsonObject, field: string): Amt | undefined {
  const v = tx[field];
  if (v === undefined) return undefined;
  return amtFromJson(v);
}

/** rippled invalidAMMAsset. */
export function invalidAsset(issue: Issue, pair?: [Issue, Issue]): Ter {
  if (!isXrp(issue)) {
    const hex = currencyToHex(issue.currency);
    if (hex === undefined || isBadCurrency(hex)) return 'temBAD_CURRENCY';
  } else if (issue.issuer !== '') {
    return 'temBAD_ISSUER';
  }
  if (pair && !sameIssue(issue, pair[0]) && !sameIssue(issue, pair[1])) return 'temBAD_AMM_TOKENS';
  return 'tesSUCCESS';
}

export function invalidAssetPair(a: Issue, b: Issue, pair?: [Issue, Issue]): Ter {
  if (sameIssue(a, b)) return 'temBAD_AMM_TOKENS';
  const r1 = invalidAsset(a, pair);
  if (r1 !== 'tesSUCCESS') return r1;
  return invalidAsset(b, pair);
}

/** rippled invalidAMMAmount. */
export function invalidAmount(amount: Amt, pair?: [Issue, Issue], validZero = false): Ter {
  const r = invalidAsset(amount.issue, pair);
  if (r !== 'tesSUCCESS') return r;
  if (amount.value.signum() < 0 || (!validZero && amount.value.isZero())) return 'temBAD_AMOUNT';
  return 'tesSUCCESS';
}

/** The AMM of the transaction's Asset/Asset2. */
export function txAmm(view: StateReader, tx: JsonObject): AmmState | undefined {
  const a = readIssueField(tx, 'Asset');
  const b = readIssueField(tx, 'Asset2');
  if (!a || !b) return undefined;
  return readAmm(view, a, b);
}

/** Pool balances ordered as `first` (when given) and the other asset, plus the LP token balance. */
export function ammHolds(
  view: StateReader,
  amm: AmmState,
  first: Issue | undefined,
  zeroIfFrozen: boolean,
): { balance: Amt; balance2: Amt; lpt: Amt } {
  const [i1, i2] = first && sameIssue(first, amm.asset2) ? [amm.asset2, amm.asset] : [amm.asset, amm.asset2];
  return {
    balance: ammPoolBalance(view, amm.account, i1, zeroIfFrozen),
    balance2: ammPoolBalance(view, amm.account, i2, zeroIfFrozen),
    lpt: amtFromJson(view.read(amm.index)?.LPTokenBalance ?? amm.sle.LPTokenBalance),
  };
}

export function lpHolds(view: StateReader, amm: AmmState, account: string): Amt {
  return { issue: amm.lptIssue, value: lineBalance(view, account, amm.lptIssue) };
}

/** rippled isIndividualFrozen: the issuer froze this holder's line (no global freeze). */
export function isIndividualFrozen(view: StateReader, account: string, issue: Issue): boolean {
  if (isXrp(issue) || account === issue.issuer) return false;
  return isFrozen(view, account, issue) && !isFrozen(view, issue.issuer, issue);
}

export function sendOrThrow(view: ApplyView, from: string, to: string, amount: Amt): void {
  const ter = send(view, from, to, amount);
  if (ter !== 'tesSUCCESS') throw new TerError(ter);
}

export class TerError extends Error {
  readonly ter: Ter;
  constructor(ter: Ter) {
    super(ter);
    this.ter = ter;
  }
}

/** The creator (or first depositor into an empty pool) gets the only vote and the auction slot. */
export function initializeFeeAuctionVote(
  view: ApplyView,
  amm: LedgerEntry,
  account: string,
  lptIssue: Issue,
  tfee: number,
): void {
  const vote: JsonObject = { Account: account, VoteWeight: VOTE_WEIGHT_SCALE_FACTOR };
  if (tfee !== 0) vote.TradingFee = tfee;
  amm.VoteSlots = [{ VoteEntry: vote }];
  const slot: JsonObject = {
    Account: account,
    Expiration: view.ctx.parentCloseTime + TOTAL_TIME_SLOT_SECS,
    Price: { currency: lptIssue.currency, issuer: lptIssue.issuer, value: '0' },
  };
  const discounted = Math.trunc(tfee / AUCTION_SLOT_DISCOUNTED_FEE_FRACTION);
  if (discounted !== 0) slot.DiscountedFee = discounted;
  amm.AuctionSlot = slot;
  if (tfee !== 0) amm.TradingFee = tfee;
  else delete amm.TradingFee;
}

/** rippled deleteAMMAccount: remove the pool's trust lines, the AMM entry and the pseudo-account. */
export function deleteAmmAccount(view: ApplyView, amm: AmmState): Ter {
  const ammAccount = amm.account;
  const dirRoot = ownerDirKey(ammAccount);
  let page = 0n;
  const lines: LedgerEntry[] = [];
  for (let guard = 0; guard < 100_000; guard++) {
    const dir = view.read(page === 0n ? dirRoot : dirPageKey(dirRoot, page));
    if (!dir) break;
    for (const idx of (dir.Indexes as string[]) ?? []) {
      const e = view.read(idx);
      if (e?.LedgerEntryType === 'RippleState') lines.push(e);
    }
    const next = readU64(dir, 'IndexNext');
    if (next === 0n) break;
    page = next;
  }
  for (const line of lines) {
    const low = (line.LowLimit as { issuer: string }).issuer;
    const high = (line.HighLimit as { issuer: string }).issuer;
    const ter = trustDelete(view, line, low, high);
    if (ter !== 'tesSUCCESS') return 'tecINTERNAL';
    const other = low === ammAccount ? high : low;
    const otherReserve = low === ammAccount ? LSF.highReserve : LSF.lowReserve;
    if ((Number(line.Flags ?? 0) & otherReserve) !== 0) adjustOwnerCount(view, other, -1);
  }
  const sle = view.read(amm.index);
  if (!sle) return 'tecINTERNAL';
  if (!dirRemove(view, dirRoot, readU64(sle, 'OwnerNode'), amm.index, false)) return 'tecINTERNAL';
  if (view.exists(dirRoot)) view.erase(dirRoot);
  view.erase(sle);
  const root = view.read(accountRootKey(ammAccount));
  if (root) view.erase(root);
  return 'tesSUCCESS';
}

/** Number of set bits: AMMDeposit/AMMWithdraw take exactly one sub-transaction flag. */
export function popcount(n: number): number {
  let c = 0;
  for (let x = n >>> 0; x; x &= x - 1) c++;
  return c;
}
