// AMMVote and AMMBid arithmetic as rippled's AMMVote.cpp / AMMBid.cpp: vote weights, the
// LP-token-weighted trading fee, and the auction slot price, refund and burn by time interval.
import { decodeAccountID } from 'ripple-address-codec';
import { Num, power } from '../core/number';
import {
  AUCTION_SLOT_DISCOUNTED_FEE_FRACTION,
  AUCTION_SLOT_MIN_FEE_FRACTION,
  AUCTION_SLOT_TIME_INTERVALS,
  TOTAL_TIME_SLOT_SECS,
  AUCTION_SLOT_INTERVAL_DURATION,
  VOTE_MAX_SLOTS,
  VOTE_WEIGHT_SCALE_FACTOR,
  getFee,
} from './math';

export interface Vote {
  account: string;
  /** The voter's LP token holding now. */
  tokens: Num;
  fee: number;
}

export interface VoteEntry {
  account: string;
  fee: number;
  weight: number;
}

export interface VoteOutcome {
  slots: VoteEntry[];
  /** The new pool trading fee (0 = field absent). */
  tradingFee: number;
  /** The auction slot's discounted fee (0 = field absent). */
  discountedFee: number;
}

function weight(tokens: Num, lptBalance: Num): number {
  return Number(tokens.mul(VOTE_WEIGHT_SCALE_FACTOR).div(lptBalance).toBigInt());
}

/** AccountIDs order by their 20 bytes, not by their base58 spelling. */
function compareAccounts(a: string, b: string): number {
  const x = Buffer.from(decodeAccountID(a)).toString('hex');
  const y = Buffer.from(decodeAccountID(b)).toString('hex');
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Recomputes the vote slots after `voter` votes `feeNew`: existing voters are re-weighted by
 * their current holdings (those who hold no LP tokens drop out), a new voter takes a free slot
 * or replaces the smallest holder if it holds more (or as much with a higher fee).
 * `accountOrder` compares AccountIDs as rippled does (by their 20 bytes).
 */
export function applyVote(
  existing: Vote[],
  voter: Vote,
  lptBalance: Num,
  accountOrder: (a: string, b: string) => number = compareAccounts,
): VoteOutcome {
  let num = Num.zero;
  let den = Num.zero;
  const slots: Array<{ entry: VoteEntry; tokens: Num }> = [];
  let min: { tokens: Num; pos: number; account: string; fee: number } | undefined;
  let found = false;
  for (const v of existing) {
    let { tokens, fee } = v;
    if (tokens.isZero()) continue;
    if (v.account === voter.account) {
      tokens = voter.tokens;
      fee = voter.fee;
      found = true;
    }
    num = num.add(Num.of(fee).mul(tokens));
    den = den.add(tokens);
    if (
      !min ||
      tokens.lt(min.tokens) ||
      (tokens.eq(min.tokens) &&
        (fee < min.fee || (fee === min.fee && accountOrder(v.account, min.account) < 0)))
    ) {
      min = { tokens, pos: slots.length, account: v.account, fee };
    }
    slots.push({ entry: { account: v.account, fee, weight: weight(tokens, lptBalance) }, tokens });
  }
  if (!found) {
    const entry = { account: voter.account, fee: voter.fee, weight: weight(voter.tokens, lptBalance) };
    const add = (): void => {
      num = num.add(Num.of(voter.fee).mul(voter.tokens));
      den = den.add(voter.tokens);
    };
    if (slots.length < VOTE_MAX_SLOTS) {
      add();
      slots.push({ entry, tokens: voter.tokens });
    } else if (min && (voter.tokens.gt(min.tokens) || (voter.tokens.eq(min.tokens) && voter.fee > min.fee))) {
      num = num.sub(Num.of(slots[min.pos]!.entry.fee).mul(min.tokens));
      den = den.sub(min.tokens);
      add();
      slots[min.pos] = { entry, tokens: voter.tokens };
    }
  }
  const tradingFee = den.isZero() ? 0 : Number(num.div(den).toBigInt());
  return {
    slots: slots.map((s) => s.entry),
    tradingFee,
    discountedFee: Math.trunc(tradingFee / AUCTION_SLOT_DISCOUNTED_FEE_FRACTION),
  };
}

/** The current 72-minute interval (0..19) of a slot expiring at `expiration`, if still running. */
export function auctionTimeSlot(current: number, expiration: number): number | undefined {
  if (expiration < TOTAL_TIME_SLOT_SECS) return undefined;
  const start = expiration - TOTAL_TIME_SLOT_SECS;
  if (current < start) return undefined;
  const diff = current - start;
  return diff < TOTAL_TIME_SLOT_SECS ? Math.floor(diff / AUCTION_SLOT_INTERVAL_DURATION) : undefined;
}

/** Minimum slot price: LPTokenBalance * tradingFee / 25. */
export function minSlotPrice(lptBalance: Num, tradingFee: number): Num {
  return lptBalance.mul(getFee(tradingFee)).div(AUCTION_SLOT_MIN_FEE_FRACTION);
}

/**
 * Price to outbid an owner who paid `pricePurchased`, in interval `timeSlot`, and the owner's
 * refund: 1.05 * price (decaying with (t+1)/20 to the 60th) + min price; refund = unused share.
 */
export function outbidPrice(
  pricePurchased: Num,
  timeSlot: number,
  minPrice: Num,
): { price: Num; refund: Num } {
  const fractionUsed = Num.of(timeSlot + 1).div(AUCTION_SLOT_TIME_INTERVALS);
  const fractionRemaining = Num.one.sub(fractionUsed);
  const p105 = Num.of(105, -2);
  const price =
    timeSlot === 0
      ? pricePurchased.mul(p105).add(minPrice)
      : pricePurchased
          .mul(p105)
          .mul(Num.one.sub(power(fractionUsed, 60)))
          .add(minPrice);
  return { price, refund: fractionRemaining.mul(pricePurchased) };
}

/** What the bidder pays given BidMin/BidMax; undefined when the price exceeds BidMax. */
export function payPrice(computed: Num, bidMin?: Num, bidMax?: Num): Num | undefined {
  if (bidMax && computed.gt(bidMax)) return undefined;
  if (bidMin && bidMin.gt(computed)) return bidMin;
  return computed;
}

export const TAILING_SLOT = AUCTION_SLOT_TIME_INTERVALS - 1;
