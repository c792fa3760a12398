// OfferCreate (rippled CreateOffer.cpp with flow-based crossing): cross the book and the AMM at
// the offer's quality or better (tfPassive: strictly better), through XRP as well when neither
// side is XRP (autobridging), then place what remains as a resting offer unless it was filled,
// is immediate-or-cancel or fill-or-kill. The offer owner pays transfer fees, as in rippled.
import { accountReserve, adjustOwnerCount, readAccount } from '../account';
import { isValidAddress } from '../account-id';
import type { Amount } from '../amount/amount';
import { currencyToHex, isBadCurrency } from '../amount/currency';
import type { LedgerEntry } from '../contract';
import { offerKey, ownerDirKey, bookQualityKey } from '../keylets';
import { Num, withRound } from '../number';
import { flow } from '../payment/flow';
import { registerStrandBuilder } from '../payment/strands';
import { isTes, type Ter } from '../results';
import { dirAppend, dirInsert, u64Json } from '../state/directory';
import { ownerDescribe } from '../trust-lines';
import {
  type Amt,
  type Issue,
  XRP_ISSUE,
  isXrp,
  sameIssue,
  toAmt as roundAmt,
  zeroAmt,
} from '../../amm/amount';
import { buildCrossStrand, crossCurrencyStrands } from '../book/strand-builder';
import { offerDelete, toAmount, toAmt } from '../book/funds';
import { getRate, qualityRate } from '../book/quality';
import {
  accountFunds,
  accountHex,
  amtFromJson,
  bookBase,
  isGlobalFrozen,
  readAccount as readAcct,
  trustLine,
} from '../book/read';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';
import { LSF } from '../ledger-flags';

// Cross-currency payments use the same order-book strands (registered once, on first import).
registerStrandBuilder(crossCurrencyStrands);

export const TF_OFFER = {
  passive: 0x00010000,
  immediateOrCancel: 0x00020000,
  fillOrKill: 0x00040000,
  sell: 0x00080000,
};
const LSF_OFFER = { passive: 0x00010000, sell: 0x00020000 };
const QUALITY_ONE = 1_000_000_000;
// rippled STAmount::cMaxNative, cMaxValue and cMaxOffset.
const MAX_NATIVE_DROPS = 100_000_000_000_000_000n;
const MAX_IOU_MANTISSA = 9_999_999_999_999_999n;
const MAX_IOU_OFFSET = 80;

function amountJson(a: unknown): Amt | undefined {
  try {
    if (typeof a === 'string') {
      if (!/^-?\d+$/.test(a)) return undefined;
      return amtFromJson(a);
    }
    if (!a || typeof a !== 'object') return undefined;
    const o = a as Record<string, unknown>;
    if (typeof o.currency !== 'string' || typeof o.value !== 'string') return undefined;
    return amtFromJson(a);
  } catch {
    return undefined;
  }
}

function jsonOf(a: Amt): unknown {
  const am = toAmount(a);
  return am.kind === 'xrp'
    ? am.drops.toString()
    : { currency: am.currency, issuer: am.issuer, value: am.value.toString() };
}

function hasExpired(expiration: unknown, parentCloseTime: number): boolean {
  return expiration !== undefined && Number(expiration) <= parentCloseTime;
}

/** rippled checkAcceptAsset: may the account receive this token? */
function checkAcceptAsset(view: PreclaimContext['view'], account: string, issue: Issue): Ter {
  const issuer = readAcct(view, issue.issuer);
  if (!issuer) return 'tecNO_ISSUER';
  if (account === issue.issuer) return 'tesSUCCESS';
  if ((Number(issuer.Flags ?? 0) & LSF.requireAuth) !== 0) {
    const line = trustLine(view, account, issue.issuer, issue.currency);
    if (!line) return 'tecNO_LINE';
    const issuerHigh = accountHex(issue.issuer) > accountHex(account);
    const flag = issuerHigh ? LSF.highAuth : LSF.lowAuth;
    if ((Number(line.Flags ?? 0) & flag) === 0) return 'tecNO_AUTH';
  }
  // Deep freeze by either side means the account may not receive the token (XLS-77).
  const line = trustLine(view, account, issue.issuer, issue.currency);
  if (line && (Number(line.Flags ?? 0) & (LSF.lowDeepFreeze | LSF.highDeepFreeze)) !== 0) return 'tecFROZEN';
  return 'tesSUCCESS';
}

export const offerCreate: Transactor = {
  flagsMask: TF_OFFER.passive | TF_OFFER.immediateOrCancel | TF_OFFER.fillOrKill | TF_OFFER.sell,

  preflight({ tx }: PreflightContext): Ter {
    const flags = Number(tx.Flags ?? 0);
    if (flags & TF_OFFER.immediateOrCancel && flags & TF_OFFER.fillOrKill) return 'temINVALID_FLAG';
    if (tx.Expiration !== undefined && Number(tx.Expiration) === 0) return 'temBAD_EXPIRATION';
    if (tx.OfferSequence !== undefined && Number(tx.OfferSequence) === 0) return 'temBAD_SEQUENCE';
    const pays = amountJson(tx.TakerPays);
    const gets = amountJson(tx.TakerGets);
    if (!pays || !gets) return 'temBAD_AMOUNT';
    if (isXrp(pays.issue) && isXrp(gets.issue)) return 'temBAD_OFFER';
    if (pays.value.signum() <= 0 || gets.value.signum() <= 0) return 'temBAD_OFFER';
    for (const a of [pays, gets]) {
      if (!isXrp(a.issue)) {
        const hex = currencyToHex(a.issue.currency);
        if (hex === undefined || isBadCurrency(hex)) return 'temBAD_CURRENCY';
        if (!isValidAddress(a.issue.issuer)) return 'temBAD_ISSUER';
      } else if (a.value.toBigInt() > 100_000_000_000_000_000n) {
        return 'temBAD_AMOUNT';
      }
    }
    if (sameIssue(pays.issue, gets.issue)) return 'temREDUNDANT';
    return 'tesSUCCESS';
  },

  preclaim({ tx, account, view, config }: PreclaimContext): Ter {
    const pays = amtFromJson(tx.TakerPays);
    const gets = amtFromJson(tx.TakerGets);
    if (
      (!isXrp(pays.issue) && isGlobalFrozen(view, pays.issue.issuer)) ||
      (!isXrp(gets.issue) && isGlobalFrozen(view, gets.issue.issuer))
    ) {
      return 'tecFROZEN';
    }
    if (accountFunds(view, account, gets.issue, config).value.signum() <= 0) return 'tecUNFUNDED_OFFER';
    const acct = readAccount(view, account) as LedgerEntry;
    if (tx.OfferSequence !== undefined && Number(acct.Sequence) <= Number(tx.OfferSequence))
      return 'temBAD_SEQUENCE';
    if (!isXrp(pays.issue)) {
      const ter = checkAcceptAsset(view, account, pays.issue);
      if (!isTes(ter)) return ter;
    }
    return 'tesSUCCESS';
  },

  doApply(ctx: ApplyContext): Ter {
    const { tx, account } = ctx;
    const view = ctx.view;
    const flags = Number(tx.Flags ?? 0);
    const parentCloseTime = view.ctx.parentCloseTime;
    if (hasExpired(tx.Expiration, parentCloseTime)) return 'tecEXPIRED';
    if (tx.OfferSequence !== undefined) {
      const old = view.read(offerKey(account, Number(tx.OfferSequence)));
      if (old) {
        const ter = offerDelete(view, old);
        if (!isTes(ter)) return ter;
      }
    }
    let takerPays = amtFromJson(tx.TakerPays);
    let takerGets = amtFromJson(tx.TakerGets);
    const sb = view.sandbox();
    const cross = crossOffer(sb, account, takerGets, takerPays, flags);
    if (!isTes(cross.ter)) return cross.ter;
    const crossed = cross.crossed;
    if (flags & TF_OFFER.fillOrKill && !cross.filled) return 'tecKILLED';
    sb.apply();
    if (cross.remaining) {
      takerGets = cross.remaining.gets;
      takerPays = cross.remaining.pays;
    }
    if (takerGets.value.signum() <= 0 || takerPays.value.signum() <= 0) return 'tesSUCCESS';
    if (flags & TF_OFFER.immediateOrCancel) return crossed ? 'tesSUCCESS' : 'tecKILLED';
    if (flags & TF_OFFER.fillOrKill) return 'tesSUCCESS';
    const acct = readAccount(view, account) as LedgerEntry;
    const reserve = accountReserve(ctx.config, Number(acct.OwnerCount ?? 0) + 1);
    if (ctx.priorBalance < reserve) return crossed ? 'tesSUCCESS' : 'tecINSUF_RESERVE_OFFER';
    return placeOffer(ctx, takerPays, takerGets, flags);
  },
};

interface CrossResult {
  ter: Ter;
  crossed: boolean;
  filled: boolean;
  remaining?: { gets: Amt; pays: Amt };
}

/**
 * rippled flowCross (CreateOffer.cpp): a payment from the taker to itself delivering TakerPays for
 * at most TakerGets (grossed up by the transfer fee, and no more than the taker holds), at no worse
 * than the offer's quality. Without tfSell the taker buys: crossing stops once it has received
 * TakerPays, whichever side is XRP. With tfSell it sells: the delivery is unbounded, so all of
 * TakerGets may go and more than TakerPays come back. Returns what is left of the offer, kept at
 * its original quality.
 */
function crossOffer(
  sb: ApplyContext['view'],
  account: string,
  gets: Amt,
  pays: Amt,
  flags: number,
): CrossResult {
  const cfg = sb.ctx.config;
  // Fees already charged may have left an XRP seller with nothing to spend above its reserve.
  const startFunds = accountFunds(sb, account, gets.issue, cfg);
  if (startFunds.value.signum() <= 0) return { ter: 'tecUNFUNDED_OFFER', crossed: false, filled: false };
  let rate = QUALITY_ONE;
  let sendMax = gets;
  if (!isXrp(gets.issue) && account !== gets.issue.issuer) {
    const root = readAcct(sb, gets.issue.issuer);
    rate = Number(root?.TransferRate ?? 0) || QUALITY_ONE;
    if (rate !== QUALITY_ONE) sendMax = roundAmt(gets.issue, gets.value.mul(Num.of(rate, -9)), 'upward');
  }
  // The threshold includes the transfer fee (flow compares qualities after it).
  let threshold = getRate(pays.value, sendMax.value);
  if (flags & TF_OFFER.passive) threshold -= 1n;
  if (sendMax.value.gt(startFunds.value)) sendMax = startFunds;
  const sell = (flags & TF_OFFER.sell) !== 0;
  // tfSell: deliver as much as possible (rippled: the largest XRP amount, or half the largest
  // token amount so a transfer fee cannot overflow it). Otherwise exactly TakerPays.
  const deliverAmount: Amount = !sell
    ? toAmount(pays)
    : isXrp(pays.issue)
      ? { kind: 'xrp', drops: MAX_NATIVE_DROPS }
      : toAmount({ issue: pays.issue, value: Num.of(MAX_IOU_MANTISSA / 2n, MAX_IOU_OFFSET) });
  const base = {
    src: account,
    dst: account,
    inIssue: gets.issue,
    outIssue: pays.issue,
    ownerPaysTransferFee: true,
    limitQuality: threshold,
  };
  const strands = [buildCrossStrand({ ...base, via: [] })];
  if (!isXrp(gets.issue) && !isXrp(pays.issue)) strands.push(buildCrossStrand({ ...base, via: [XRP_ISSUE] }));
  const usable = strands.filter((s) =>
    s.every((step, i) =>
      isTes(
        step.check(sb, {
          src: account,
          dst: account,
          isFirst: i === 0,
          isLast: i === s.length - 1,
          prev: s[i - 1],
        }),
      ),
    ),
  );
  if (usable.length === 0) return { ter: 'tesSUCCESS', crossed: false, filled: false };
  const fill = (flags & TF_OFFER.fillOrKill) !== 0;
  let result;
  try {
    result = flow(sb, usable, {
      src: account,
      dst: account,
      deliver: deliverAmount,
      sendMax: toAmount(sendMax),
      partialPayment: !fill || sell,
    });
  } catch (e) {
    void e;
    return { ter: 'tecINTERNAL', crossed: false, filled: false };
  }
  const actualIn = toAmt(result.actualIn);
  const actualOut = toAmt(result.actualOut);
  const crossed = actualOut.value.signum() > 0 || actualIn.value.signum() > 0;
  if (!crossed) return { ter: 'tesSUCCESS', crossed: false, filled: false };
  if (!isTes(result.ter) && result.ter !== 'tecPATH_PARTIAL' && result.ter !== 'tecPATH_DRY') {
    return { ter: result.ter, crossed, filled: false };
  }
  const funds = accountFunds(sb, account, gets.issue, cfg);
  // The remainder keeps the offer's quality: rate = TakerGets / TakerPays as a 64-bit quality.
  const rate64 = qualityRate(getRate(pays.value, gets.value));
  let remGets: Amt;
  let remPays: Amt;
  if (funds.value.signum() <= 0) {
    remGets = zeroAmt(gets.issue);
    remPays = zeroAmt(pays.issue);
  } else if (sell) {
    let net = actualIn;
    if (rate !== QUALITY_ONE)
      net = roundAmt(
        gets.issue,
        withRound('upward', () => actualIn.value.div(Num.of(rate, -9))),
        'upward',
      );
    const left = gets.value.sub(net.value);
    remGets = roundAmt(gets.issue, left.signum() < 0 ? Num.zero : left, 'downward');
    remPays = withRound('downward', () => roundAmt(pays.issue, remGets.value.div(rate64), 'downward'));
  } else {
    const left = pays.value.sub(actualOut.value);
    remPays = roundAmt(pays.issue, left.signum() < 0 ? Num.zero : left, 'downward');
    remGets = withRound('upward', () => roundAmt(gets.issue, remPays.value.mul(rate64), 'upward'));
  }
  const filled = sell ? remGets.value.signum() <= 0 : remPays.value.signum() <= 0;
  return { ter: 'tesSUCCESS', crossed, filled, remaining: { gets: remGets, pays: remPays } };
}

function currencyField(issue: Issue): string {
  return isXrp(issue) ? '0'.repeat(40) : (currencyToHex(issue.currency) as string);
}

function issuerField(issue: Issue): string {
  return isXrp(issue) ? '0'.repeat(40) : accountHex(issue.issuer);
}

function placeOffer(ctx: ApplyContext, pays: Amt, gets: Amt, flags: number): Ter {
  const { view, tx, account } = ctx;
  const seq = tx.TicketSequence !== undefined ? Number(tx.TicketSequence) : Number(tx.Sequence);
  const index = offerKey(account, seq);
  const ownerNode = dirInsert(view, ownerDirKey(account), index, ownerDescribe(account));
  if (ownerNode === undefined) return 'tecDIR_FULL';
  const quality = getRate(gets.value, pays.value);
  const bookDir = bookQualityKey(bookBase(pays.issue, gets.issue), quality);
  const bookNode = dirAppend(view, bookDir, index, (page) => {
    page.ExchangeRate = u64Json(quality);
    page.TakerPaysCurrency = currencyField(pays.issue);
    page.TakerPaysIssuer = issuerField(pays.issue);
    page.TakerGetsCurrency = currencyField(gets.issue);
    page.TakerGetsIssuer = issuerField(gets.issue);
  });
  if (bookNode === undefined) return 'tecDIR_FULL';
  adjustOwnerCount(view, account, 1);
  let lsf = 0;
  if (flags & TF_OFFER.passive) lsf |= LSF_OFFER.passive;
  if (flags & TF_OFFER.sell) lsf |= LSF_OFFER.sell;
  const offer: LedgerEntry = {
    LedgerEntryType: 'Offer',
    Account: account,
    BookDirectory: bookDir,
    BookNode: u64Json(bookNode),
    Flags: lsf,
    OwnerNode: u64Json(ownerNode),
    PreviousTxnID: '0'.repeat(64),
    PreviousTxnLgrSeq: 0,
    Sequence: seq,
    TakerGets: jsonOf(gets),
    TakerPays: jsonOf(pays),
    index,
  };
  if (tx.Expiration !== undefined) offer.Expiration = Number(tx.Expiration);
  view.insert(offer);
  return 'tesSUCCESS';
}
