// Trust-line (RippleState) primitives as rippled's View.cpp has them: create, delete, credit,
// balances and limits seen from either side.
import { accountReserve, adjustOwnerCount, readAccount } from './account';
import { ACCOUNT_ONE, accountIdHex } from './account-id';
import { iouJson } from './amount/amount';
import { IouValue } from './amount/iou-value';
import type { LedgerEntry } from './contract';
import { ownerDirKey, trustLineKey } from './keylets';
import { LSF, hasFlag } from './ledger-flags';
import type { ApplyView, StateReader } from './state/apply-view';
import { dirInsert, dirRemove, readU64, u64Json } from './state/directory';
import type { Ter } from './results';

export function isHigh(account: string, other: string): boolean {
  return accountIdHex(account) > accountIdHex(other);
}

export function readLine(view: StateReader, a: string, b: string, currency: string): LedgerEntry | undefined {
  return view.read(trustLineKey(a, b, currency));
}

function val(json: unknown): IouValue {
  return IouValue.parse((json as { value: string }).value);
}

/** Balance of the line from `account`'s point of view (positive: `account` holds the peer's IOUs). */
export function lineBalanceFor(line: LedgerEntry, account: string, peer: string): IouValue {
  const b = val(line.Balance);
  return isHigh(account, peer) ? b.negate() : b;
}

/** The limit `account` set on this line (how much of the peer's IOUs it accepts). */
export function lineLimitOf(line: LedgerEntry, account: string, peer: string): IouValue {
  return val(isHigh(account, peer) ? line.HighLimit : line.LowLimit);
}

export function ownerDescribe(owner: string) {
  return (page: LedgerEntry): void => {
    page.Owner = owner;
  };
}

/** rippled trustCreate. `srcHigh` says whether `src` (the side setting the limit) is the high account. */
export function trustCreate(
  view: ApplyView,
  opts: {
    src: string;
    dst: string;
    currency: string;
    limit: IouValue;
    auth: boolean;
    noRipple: boolean;
    freeze: boolean;
    deepFreeze?: boolean;
    qualityIn: number;
    qualityOut: number;
    /** Account whose owner count goes up (the one setting the limit). */
    reserveOwner: string;
  },
): Ter {
  const { src, dst, currency } = opts;
  const srcHigh = isHigh(src, dst);
  const low = srcHigh ? dst : src;
  const high = srcHigh ? src : dst;
  const index = trustLineKey(src, dst, currency);
  const lowNode = dirInsert(view, ownerDirKey(low), index, ownerDescribe(low));
  if (lowNode === undefined) return 'tecDIR_FULL';
  const highNode = dirInsert(view, ownerDirKey(high), index, ownerDescribe(high));
  if (highNode === undefined) return 'tecDIR_FULL';
  const setHigh = srcHigh;
  const peer = readAccount(view, dst);
  let flags = setHigh ? LSF.highReserve : LSF.lowReserve;
  if (opts.auth) flags |= setHigh ? LSF.highAuth : LSF.lowAuth;
  if (opts.noRipple) flags |= setHigh ? LSF.highNoRipple : LSF.lowNoRipple;
  if (opts.freeze) flags |= setHigh ? LSF.highFreeze : LSF.lowFreeze;
  if (opts.deepFreeze) flags |= setHigh ? LSF.highDeepFreeze : LSF.lowDeepFreeze;
  if (!hasFlag(peer?.Flags, LSF.defaultRipple)) flags |= setHigh ? LSF.lowNoRipple : LSF.highNoRipple;
  const line: LedgerEntry = {
    LedgerEntryType: 'RippleState',
    Flags: flags >>> 0,
    Balance: iouJson(currency, ACCOUNT_ONE, IouValue.ZERO),
    LowLimit: iouJson(currency, low, setHigh ? IouValue.ZERO : opts.limit),
    HighLimit: iouJson(currency, high, setHigh ? opts.limit : IouValue.ZERO),
    LowNode: u64Json(lowNode),
    HighNode: u64Json(highNode),
    PreviousTxnID: '0'.repeat(64),
    PreviousTxnLgrSeq: 0,
    index,
  };
  if (opts.qualityIn) line[setHigh ? 'HighQualityIn' : 'LowQualityIn'] = opts.qualityIn;
  if (opts.qualityOut) line[setHigh ? 'HighQualityOut' : 'LowQualityOut'] = opts.qualityOut;
  view.insert(line);
  adjustOwnerCount(view, opts.reserveOwner, 1);
  return 'tesSUCCESS';
}

/**
 * A holder's own new line to an issuer for funds it asked for (a cashed Check, an escrow it
 * finishes): limit 0 and the reserve on its side, NoRipple unless it has DefaultRipple. The
 * reserve comes from its balance before the fee (`tecNO_LINE_INSUF_RESERVE`).
 */
export function createHolderLine(
  view: ApplyView,
  holder: string,
  issuer: string,
  currency: string,
  priorBalance: bigint,
): Ter {
  const root = readAccount(view, holder) as LedgerEntry;
  if (priorBalance < accountReserve(view.config, Number(root.OwnerCount ?? 0) + 1))
    return 'tecNO_LINE_INSUF_RESERVE';
  return trustCreate(view, {
    src: holder,
    dst: issuer,
    currency,
    limit: IouValue.ZERO,
    auth: false,
    noRipple: !hasFlag(root.Flags, LSF.defaultRipple),
    freeze: false,
    qualityIn: 0,
    qualityOut: 0,
    reserveOwner: holder,
  });
}

/** rippled trustDelete: unlink from both owner directories and erase. */
export function trustDelete(view: ApplyView, line: LedgerEntry, low: string, high: string): Ter {
  if (!dirRemove(view, ownerDirKey(low), readU64(line, 'LowNode'), line.index, false)) return 'tefBAD_LEDGER';
  if (!dirRemove(view, ownerDirKey(high), readU64(line, 'HighNode'), line.index, false))
    return 'tefBAD_LEDGER';
  view.erase(line);
  return 'tesSUCCESS';
}

/** rippled rippleCreditIOU: move `amount` of IOUs from sender to receiver on their line. */
export function rippleCredit(
  view: ApplyView,
  sender: string,
  receiver: string,
  currency: string,
  amount: IouValue,
): Ter {
  const index = trustLineKey(sender, receiver, currency);
  const line = view.peek(index);
  if (!line) return 'tecNO_LINE';
  const senderHigh = isHigh(sender, receiver);
  let balance = val(line.Balance);
  if (senderHigh) balance = balance.negate();
  const before = balance;
  balance = balance.sub(amount);
  let del = false;
  const flags = Number(line.Flags ?? 0);
  const senderAcct = readAccount(view, sender);
  const side = senderHigh
    ? {
        reserve: LSF.highReserve,
        noRipple: LSF.highNoRipple,
        freeze: LSF.highFreeze,
        limit: 'HighLimit',
        qin: 'HighQualityIn',
        qout: 'HighQualityOut',
      }
    : {
        reserve: LSF.lowReserve,
        noRipple: LSF.lowNoRipple,
        freeze: LSF.lowFreeze,
        limit: 'LowLimit',
        qin: 'LowQualityIn',
        qout: 'LowQualityOut',
      };
  if (
    before.signum() > 0 &&
    balance.signum() <= 0 &&
    hasFlag(flags, side.reserve) &&
    hasFlag(flags, side.noRipple) !== hasFlag(senderAcct?.Flags, LSF.defaultRipple) &&
    !hasFlag(flags, side.freeze) &&
    val(line[side.limit]).isZero() &&
    !Number(line[side.qin] ?? 0) &&
    !Number(line[side.qout] ?? 0)
  ) {
    adjustOwnerCount(view, sender, -1);
    line.Flags = (flags & ~side.reserve) >>> 0;
    del = balance.isZero() && !hasFlag(flags, senderHigh ? LSF.lowReserve : LSF.highReserve);
  }
  if (senderHigh) balance = balance.negate();
  line.Balance = iouJson(currency, ACCOUNT_ONE, balance);
  if (del) {
    return trustDelete(view, line, senderHigh ? receiver : sender, senderHigh ? sender : receiver);
  }
  view.update(line);
  return 'tesSUCCESS';
}

/** rippled transferRate: the issuer's TransferRate, or QUALITY_ONE. */
export const QUALITY_ONE = 1_000_000_000n;

export function transferRate(view: StateReader, issuer: string): bigint {
  const acct = readAccount(view, issuer);
  const r = acct?.TransferRate;
  return r === undefined || r === 0 ? QUALITY_ONE : BigInt(r as number);
}

/** Is `account`'s holding of `issuer`'s currency frozen (global or per line by the issuer)? */
export function isFrozen(view: StateReader, account: string, currency: string, issuer: string): boolean {
  if (account === issuer) return false;
  const iss = readAccount(view, issuer);
  if (hasFlag(iss?.Flags, LSF.globalFreeze)) return true;
  const line = readLine(view, account, issuer, currency);
  if (!line) return false;
  return hasFlag(line.Flags, isHigh(issuer, account) ? LSF.highFreeze : LSF.lowFreeze);
}

/** rippled accountHolds for an IOU: the positive balance `account` holds of `issuer`'s currency. */
export function accountHoldsIou(
  view: StateReader,
  account: string,
  currency: string,
  issuer: string,
  zeroIfFrozen: boolean,
): IouValue {
  if (account === issuer) return IouValue.ZERO;
  if (zeroIfFrozen && isFrozen(view, account, currency, issuer)) return IouValue.ZERO;
  const line = readLine(view, account, issuer, currency);
  if (!line) return IouValue.ZERO;
  const b = lineBalanceFor(line, account, issuer);
  return b.signum() > 0 ? b : IouValue.ZERO;
}

/**
 * rippled requireAuth(view, issue, account) for a trust-line token: when the issuer requires
 * authorization, the account's line must exist (tecNO_LINE) and carry the issuer's auth flag
 * (tecNO_AUTH). The issuer itself always passes.
 */
export function requireAuth(view: StateReader, account: string, currency: string, issuer: string): Ter {
  if (account === issuer) return 'tesSUCCESS';
  if (!hasFlag(readAccount(view, issuer)?.Flags, LSF.requireAuth)) return 'tesSUCCESS';
  const line = readLine(view, account, issuer, currency);
  if (!line) return 'tecNO_LINE';
  return hasFlag(line.Flags, isHigh(account, issuer) ? LSF.lowAuth : LSF.highAuth)
    ? 'tesSUCCESS'
    : 'tecNO_AUTH';
}

/** rippled isDeepFrozen: a deep freeze on either side of the account's line to the issuer. */
export function isDeepFrozen(view: StateReader, account: string, currency: string, issuer: string): boolean {
  if (account === issuer) return false;
  const line = readLine(view, account, issuer, currency);
  if (!line) return false;
  return hasFlag(line.Flags, LSF.highDeepFreeze) || hasFlag(line.Flags, LSF.lowDeepFreeze);
}
