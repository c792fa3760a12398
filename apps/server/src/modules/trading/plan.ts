import { OfferCreateFlags, PaymentFlags } from 'xrpl';
import type { BalanceChanges } from '../../ledger/submission-service';
import {
  Decimal,
  decimalToDrops,
  dropsToDecimal,
  slippageFloor,
  type DecimalValue,
  type LedgerAmount,
} from '@ledgerpad/shared';

// The ledger side of a market trade, pure: a Payment to oneself that spends exactly the amount given
// (SendMax, with an Amount no market can fill and tfPartialPayment) and delivers at least the
// slippage floor (DeliverMin), so the ledger — not a pre-check — refuses to execute worse on
// average; and what a trade moved, read back from its balance changes.
//
// Why not an OfferCreate with the floor as its price: offer crossing stops an AMM at the offer's
// quality, i.e. where the pool's marginal price reaches the limit, so a trade with a large price
// impact fills far less than its slippage allows (or nothing). DeliverMin bounds the average.

const TF_IMMEDIATE_OR_CANCEL = OfferCreateFlags.tfImmediateOrCancel;
const TF_SELL = OfferCreateFlags.tfSell;
const TF_PARTIAL_PAYMENT = PaymentFlags.tfPartialPayment;

export type Asset = { kind: 'xrp' } | { kind: 'iou'; currency: string; issuer: string };
export type { LedgerAmount };

/** A ledger amount of `value` units of `asset`: XRP as whole drops (rounded down), IOUs to 15 digits. */
export function ledgerAmount(
  asset: Asset,
  value: DecimalValue,
  rounding: 'down' | 'up' = 'down',
): LedgerAmount {
  const d = new Decimal(value);
  if (asset.kind === 'xrp') return decimalToDrops(d, rounding).toString();
  const v = d.toSignificantDigits(15, rounding === 'down' ? Decimal.ROUND_DOWN : Decimal.ROUND_UP);
  return { currency: asset.currency, issuer: asset.issuer, value: v.toFixed() };
}

/** The smallest positive amount of `asset`: as an offer's TakerPays it accepts any price. */
function anyPrice(asset: Asset): LedgerAmount {
  return asset.kind === 'xrp' ? '1' : { currency: asset.currency, issuer: asset.issuer, value: '1e-15' };
}

export interface TradeOffer {
  TransactionType: 'OfferCreate';
  TakerGets: LedgerAmount;
  TakerPays: LedgerAmount;
  Flags: number;
}

/** Spend exactly `spend` of `pay`, receiving at least `minReceive` of `get` (whatever the market gives when absent). */
export function marketOffer(
  pay: Asset,
  spend: DecimalValue,
  get: Asset,
  minReceive?: DecimalValue,
): TradeOffer {
  const floor = minReceive === undefined ? undefined : ledgerAmount(get, minReceive, 'down');
  const positive = floor !== undefined && new Decimal(typeof floor === 'string' ? floor : floor.value).gt(0);
  return {
    TransactionType: 'OfferCreate',
    TakerGets: ledgerAmount(pay, spend, 'down'),
    TakerPays: positive ? floor! : anyPrice(get),
    Flags: TF_IMMEDIATE_OR_CANCEL | TF_SELL,
  };
}

export interface TradePayment {
  TransactionType: 'Payment';
  Destination: string;
  Amount: LedgerAmount;
  SendMax: LedgerAmount;
  DeliverMin?: LedgerAmount;
  Flags: number;
}

/** More of `asset` than any market holds: the partial payment then spends all of SendMax. */
function unfillable(asset: Asset): LedgerAmount {
  return asset.kind === 'xrp'
    ? '100000000000000000'
    : { currency: asset.currency, issuer: asset.issuer, value: '1e30' };
}

/**
 * `account` pays itself: spend exactly `spend` of `pay` for as much `get` as the ledger's book and
 * pools give, failing (tecPATH_PARTIAL) when that is less than `minReceive`.
 */
export function marketPayment(
  account: string,
  pay: Asset,
  spend: DecimalValue,
  get: Asset,
  minReceive?: DecimalValue,
): TradePayment {
  const floor = minReceive === undefined ? undefined : ledgerAmount(get, minReceive, 'down');
  const positive = floor !== undefined && new Decimal(typeof floor === 'string' ? floor : floor.value).gt(0);
  return {
    TransactionType: 'Payment',
    Destination: account,
    Amount: unfillable(get),
    SendMax: ledgerAmount(pay, spend, 'down'),
    ...(positive ? { DeliverMin: floor } : {}),
    Flags: TF_PARTIAL_PAYMENT,
  };
}

/**
 * The least a trade must receive: the expected amount less the slippage percent (the shared rule:
 * the swap box shows the same floor as 'Minimum received').
 */
export const minimumReceive = slippageFloor;

const sameAsset = (asset: Asset, b: { currency: string; issuer?: string }) =>
  asset.kind === 'xrp' ? b.currency === 'XRP' : b.currency === asset.currency && b.issuer === asset.issuer;

/**
 * What `account` paid and got in a trade, from its balance changes: the XRP side without the
 * transaction fee (the network's, not the trade's).
 */
export function tradeMoved(
  changes: BalanceChanges,
  account: string,
  pay: Asset,
  get: Asset,
  feeDrops: string,
): { spent: Decimal; received: Decimal } {
  const mine = changes.find((c) => c.account === account)?.balances ?? [];
  const sum = (asset: Asset) =>
    mine.filter((b) => sameAsset(asset, b)).reduce((s, b) => s.plus(b.value), new Decimal(0));
  const fee = dropsToDecimal(feeDrops);
  const paid = sum(pay)
    .neg()
    .minus(pay.kind === 'xrp' ? fee : 0);
  const got = sum(get).plus(get.kind === 'xrp' ? fee : 0);
  return { spent: Decimal.max(paid, 0), received: Decimal.max(got, 0) };
}

/**
 * The market a batch walks, as far as the walk needs it: a pool's two reserves and its trading fee
 * (the input side first), or the book's offers in the order a trade takes them (each what it takes
 * of the input and gives of the output, as funded).
 */
export type MarketDepth =
  | { kind: 'pool'; input: Decimal; output: Decimal; feeFraction: Decimal }
  | { kind: 'book'; offers: Array<{ takes: Decimal; gives: Decimal }> };

/** What `spent` of the input asset gets from the market (a pool's swap-in, or the book walked). */
export function walkOut(depth: MarketDepth, spent: Decimal): Decimal {
  if (spent.lte(0)) return new Decimal(0);
  if (depth.kind === 'pool') {
    // XLS-30 swap in: out = B · (1 − A / (A + in · (1 − fee))).
    const inAfterFee = spent.mul(new Decimal(1).minus(depth.feeFraction));
    return depth.output.mul(new Decimal(1).minus(depth.input.div(depth.input.plus(inAfterFee))));
  }
  let left = spent;
  let out = new Decimal(0);
  for (const o of depth.offers) {
    if (left.lte(0)) break;
    if (o.takes.lte(0)) continue;
    const take = Decimal.min(left, o.takes);
    out = out.plus(o.gives.mul(take).div(o.takes));
    left = left.minus(take);
  }
  return out;
}

/**
 * Multi-wallet trades one after another (issue 39): how much of what wallet i would get alone it gets
 * after the wallets before it traded, by the walk: (walk(C_i) − walk(C_{i−1})) / walk(a_i), C_i the
 * amounts up to and with wallet i's. The first wallet's share is 1: its quote is the ledger's own
 * simulation; the others' quotes are scaled by their share, so the walk's model only sets the
 * degradation, never the level.
 */
export function sequentialShares(depth: MarketDepth, amounts: readonly DecimalValue[]): Decimal[] {
  let before = new Decimal(0);
  return amounts.map((a) => {
    const amount = new Decimal(a);
    const after = before.plus(amount);
    const alone = walkOut(depth, amount);
    const share = alone.gt(0)
      ? walkOut(depth, after).minus(walkOut(depth, before)).div(alone)
      : new Decimal(1);
    before = after;
    return Decimal.min(1, Decimal.max(0, share));
  });
}
