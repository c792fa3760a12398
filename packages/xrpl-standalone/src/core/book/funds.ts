// Moving value as rippled's accountSend/rippleCredit do, for the DEX and AMM code: XRP between
// account roots (or from/to "nowhere" at a strand's XRP boundary), tokens along trust lines,
// creating the receiver's line (limit 0, reserve on the receiver) when it has none, as
// rippleCreditIOU does for offer owners and LP token holders. Also the Amount <-> Amt bridge
// between the engine's amounts and the AMM math's Numbers.
import { adjustOwnerCount, readAccount } from '../account';
import type { Amount } from '../amount/amount';
import { IouValue } from '../amount/iou-value';
import type { LedgerEntry } from '../contract';
import { ownerDirKey } from '../keylets';
import { accountKey } from './read';
import { LSF, hasFlag } from '../ledger-flags';
import { Num, toIouPrecision } from '../number';
import type { Ter } from '../results';
import type { ApplyView } from '../state/apply-view';
import { dirRemove, readU64 } from '../state/directory';
import { readLine, rippleCredit, trustCreate } from '../trust-lines';
import { type Amt, type Issue, XRP_ISSUE, isXrp, xrpDrops } from '../../amm/amount';

export function toAmt(a: Amount): Amt {
  if (a.kind === 'xrp') return xrpDrops(a.drops);
  const v = a.value;
  return {
    issue: { currency: a.currency, issuer: a.issuer },
    value: v.isZero() ? Num.zero : Num.fromNormalized(v.negative ? -v.mantissa : v.mantissa, v.exponent),
  };
}

export function iouValueOf(n0: Num): IouValue {
  if (n0.isZero()) return IouValue.ZERO;
  const n = toIouPrecision(n0);
  const m = n.mantissa;
  return IouValue.raw(m < 0n ? -m : m, n.exponent, m < 0n);
}

export function toAmount(a: Amt): Amount {
  if (isXrp(a.issue)) return { kind: 'xrp', drops: a.value.toBigInt() };
  return { kind: 'iou', currency: a.issue.currency, issuer: a.issue.issuer, value: iouValueOf(a.value) };
}

export function issueOfAmount(a: Amount): Issue {
  return a.kind === 'xrp' ? XRP_ISSUE : { currency: a.currency, issuer: a.issuer };
}

/** Add `delta` drops to an account's XRP balance. */
export function creditXrp(view: ApplyView, address: string, delta: bigint): void {
  const acct = view.peek(accountKey(address));
  if (!acct) throw new Error(`no account ${address}`);
  acct.Balance = (BigInt(String(acct.Balance)) + delta).toString();
  view.update(acct);
}

/** Create the receiver's side of a line (limit 0) like rippleCreditIOU, then credit it. */
function creditCreatingLine(
  view: ApplyView,
  sender: string,
  receiver: string,
  currency: string,
  v: IouValue,
): Ter {
  if (!readLine(view, sender, receiver, currency)) {
    const recv = readAccount(view, receiver);
    if (!recv) return 'tecNO_DST';
    const ter = trustCreate(view, {
      src: receiver,
      dst: sender,
      currency,
      limit: IouValue.ZERO,
      auth: false,
      noRipple: !hasFlag(recv.Flags, LSF.defaultRipple),
      freeze: false,
      qualityIn: 0,
      qualityOut: 0,
      reserveOwner: receiver,
    });
    if (ter !== 'tesSUCCESS') return ter;
  }
  return rippleCredit(view, sender, receiver, currency, v);
}

/**
 * Move `amount` between accounts. `''` stands for outside the two parties (the strand boundary):
 * XRP is then created/destroyed on one side only, tokens are issued/redeemed by the issuer.
 * No transfer fee is applied here; callers charge it where rippled does.
 */
export function send(view: ApplyView, from: string, to: string, amount: Amt): Ter {
  if (amount.value.signum() <= 0 || from === to) return 'tesSUCCESS';
  if (isXrp(amount.issue)) {
    const drops = amount.value.toBigInt();
    if (from !== '') creditXrp(view, from, -drops);
    if (to !== '') creditXrp(view, to, drops);
    return 'tesSUCCESS';
  }
  const { currency, issuer } = amount.issue;
  const v = iouValueOf(amount.value);
  const src = from === '' ? issuer : from;
  const dst = to === '' ? issuer : to;
  if (src === dst) return 'tesSUCCESS';
  if (src === issuer || dst === issuer) return creditCreatingLine(view, src, dst, currency, v);
  const t1 = rippleCredit(view, src, issuer, currency, v);
  if (t1 !== 'tesSUCCESS') return t1;
  return creditCreatingLine(view, issuer, dst, currency, v);
}

/** rippled offerDelete: unlink from the owner and book directories, erase, release the reserve. */
export function offerDelete(view: ApplyView, offer: LedgerEntry): Ter {
  const owner = String(offer.Account);
  if (!dirRemove(view, ownerDirKey(owner), readU64(offer, 'OwnerNode'), offer.index, false))
    return 'tefBAD_LEDGER';
  if (!dirRemove(view, String(offer.BookDirectory), readU64(offer, 'BookNode'), offer.index, false)) {
    return 'tefBAD_LEDGER';
  }
  view.erase(offer);
  adjustOwnerCount(view, owner, -1);
  return 'tesSUCCESS';
}
