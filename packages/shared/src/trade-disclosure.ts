import {
  PRICE_IMPACT_BLOCK_PERCENT,
  PRICE_IMPACT_CONFIRM_PERCENT,
  PRICE_IMPACT_WARN_PERCENT,
} from './constants';
import {
  Decimal,
  decimalToDrops,
  dropsToXrp,
  parseDecimal,
  platformFee,
  toLedgerValue,
  type DecimalValue,
} from './money';
import type { QuoteView, TradeSide } from './schemas/trading';

// What the swap box says before the click (issue 25, docs/swap-box.md), from the server's quote: what
// the user pays in every asset (amount + platform fee + network fees + the reserve a new trust line
// locks), what they receive, the least they can receive at their slippage (as the ledger enforces
// it), the rate both ways, the price impact and how loudly to warn. Pure: the screen and its tests
// share it; the server's swap uses `slippageFloor` for the same floor.

/** The least a trade may deliver: the expected amount less the slippage percent (not yet rounded). */
export function slippageFloor(expected: DecimalValue, slippagePercent: DecimalValue): Decimal {
  return new Decimal(expected).mul(new Decimal(100).minus(slippagePercent)).div(100);
}

/**
 * The floor as the ledger holds it (DeliverMin): XRP rounded down to the drop, a token down to 15
 * significant digits. This is the 'Minimum received' the screen promises.
 */
export function minimumReceived(expected: DecimalValue, slippagePercent: DecimalValue, xrp: boolean): string {
  const floor = slippageFloor(expected, slippagePercent);
  if (floor.lte(0)) return '0';
  return xrp ? dropsToXrp(decimalToDrops(floor, 'down')) : toLedgerValue(floor, 'down');
}

export type ImpactLevel = 'ok' | 'warn' | 'confirm' | 'block';

/**
 * How loudly to warn (issue 25): above 5% amber, above 15% a second confirmation naming the impact,
 * above 50% disabled unless the user ticks 'I understand'. No impact figure: no warning.
 */
export function impactLevel(impactPercent: string | null | undefined): ImpactLevel {
  const d = parseDecimal(impactPercent);
  if (!d) return 'ok';
  if (d.gt(PRICE_IMPACT_BLOCK_PERCENT)) return 'block';
  if (d.gt(PRICE_IMPACT_CONFIRM_PERCENT)) return 'confirm';
  if (d.gt(PRICE_IMPACT_WARN_PERCENT)) return 'warn';
  return 'ok';
}

/** The levels in order of harm: a batch warns as its worst wallet. */
export const impactLevelRank = (level: ImpactLevel): number =>
  (['ok', 'warn', 'confirm', 'block'] as const).indexOf(level);

/** An amount of one asset: 'XRP', 'RLUSD' or a token's ledger code. */
export interface AssetAmount {
  asset: string;
  amount: string;
}

export interface TradeDisclosure {
  side: TradeSide;
  /** What the trade takes and gives: `pay` of `payAsset` for about `receive` of `receiveAsset`. */
  payAsset: string;
  receiveAsset: string;
  /** The trade's own amount (what the ledger moves from the wallet). */
  amount: string;
  /** The platform's fee paid as its own payment, in `feeAsset` (the quote asset), and its rate. */
  platformFee: string;
  feeAsset: string;
  feePercent: string | null;
  /** The fee inside a bonding curve's price (not charged again), and the curve's rate. */
  feeInPrice: string;
  curveFeePercent: string | null;
  /** Network fees (XRP) of every transaction, and the owner reserve a new trust line locks (XRP). */
  networkFee: string;
  reserve: string;
  opensTrustLine: boolean;
  /**
   * Everything the wallet must have, per asset (amount, fee, network fees and the reserve a new line
   * locks): what the balance check counts.
   */
  totalPay: AssetAmount[];
  /** What the wallet spends, per asset: `totalPay` without the reserve, which stays locked, not paid (issue 39). */
  youPay: AssetAmount[];
  /** About what arrives; for a sell, what is left after the fee paid from it. */
  receive: string;
  receiveAfterFee: string;
  /** The least the ledger will deliver at the chosen slippage (else nothing trades): the floor signed. */
  minimumReceived: string;
  /**
   * What that floor leaves once the fees come out of it (issue 39): a sell's platform fee (on what it
   * receives) and, when it receives XRP, the network fees; a buy's fees are paid from the other asset,
   * so its net minimum is the floor.
   */
  minimumNet: string;
  /** About what is left: `receive` less a sell's fee and, in XRP, the network fees. */
  receiveNet: string;
  /** Quote asset per token, and tokens per quote asset, as this trade executes. */
  price: string;
  inversePrice: string;
  /** Before the trade: the pool's spot price (quote per token), when known. */
  spotPrice: string | null;
  priceImpactPercent: string | null;
  /** What the impact is measured against: the pool's spot, a curve's next price, the book's best. */
  impactAgainst: 'pool' | 'curve' | 'book' | null;
  level: ImpactLevel;
  /** Less than the whole amount would execute at any price. */
  partial: boolean;
}

const plain = (d: Decimal) => d.toFixed();

/**
 * The disclosure of a market trade. `token` is the traded token's code (RLUSD in XRP ⇄ RLUSD mode,
 * where XRP is the quote); `quote.quote` names the quote asset (XRP or RLUSD).
 */
export function tradeDisclosure(
  side: TradeSide,
  token: string,
  quote: QuoteView,
  slippagePercent: string,
): TradeDisclosure {
  const quoteAsset = quote.quote;
  const [payAsset, receiveAsset] = side === 'BUY' ? [quoteAsset, token] : [token, quoteAsset];
  const spend = new Decimal(quote.spend);
  const receive = new Decimal(quote.receive);
  const fee = new Decimal(quote.fee);
  const networkFee = new Decimal(quote.networkFee ?? '0');
  const reserve = new Decimal(quote.reserve ?? '0');

  // Per asset: the trade's amount, the fee on a buy (paid from the wallet after the trade: the
  // proceeds of a sell pay it there), the network fees and the new reserve in XRP.
  const totals = new Map<string, Decimal>();
  const add = (asset: string, v: Decimal) => {
    if (v.gt(0)) totals.set(asset, (totals.get(asset) ?? new Decimal(0)).plus(v));
  };
  add(payAsset, spend);
  if (side === 'BUY') add(quoteAsset, fee);
  add('XRP', networkFee);
  add('XRP', reserve);
  const totalPay = [...totals].map(([asset, amount]) => ({ asset, amount: plain(amount) }));
  const youPay = [...totals].flatMap(([asset, amount]) => {
    const spent = asset === 'XRP' ? amount.minus(reserve) : amount;
    return spent.gt(0) ? [{ asset, amount: plain(spent) }] : [];
  });

  const receiveAfterFee = side === 'SELL' ? Decimal.max(0, receive.minus(fee)) : receive;
  const floor = minimumReceived(quote.receive, slippagePercent, receiveAsset === 'XRP');
  // Fees that come out of what arrives: a sell's platform fee (its rate on what it receives), and
  // the network fees when that is XRP.
  const outOfReceived = (got: Decimal, feeOnIt: Decimal) =>
    Decimal.max(0, got.minus(side === 'SELL' ? feeOnIt : 0).minus(receiveAsset === 'XRP' ? networkFee : 0));
  const floorFee =
    side === 'SELL' && quote.feePercent && fee.gt(0)
      ? platformFee(floor, quote.feePercent, quoteAsset === 'XRP' ? 'xrp' : 'iou')
      : new Decimal(0);
  const price = new Decimal(quote.effectivePrice);
  return {
    side,
    payAsset,
    receiveAsset,
    amount: plain(spend),
    platformFee: plain(fee),
    feeAsset: quoteAsset,
    feePercent: quote.feePercent ?? null,
    feeInPrice: plain(new Decimal(quote.feeInPrice ?? '0')),
    curveFeePercent: quote.curveFeePercent ?? null,
    networkFee: plain(networkFee),
    reserve: plain(reserve),
    opensTrustLine: quote.opensTrustLine === true,
    totalPay,
    youPay,
    receive: plain(receive),
    receiveAfterFee: plain(receiveAfterFee),
    minimumReceived: floor,
    minimumNet: plain(outOfReceived(new Decimal(floor), floorFee)),
    receiveNet: plain(outOfReceived(receive, fee)),
    price: plain(price),
    inversePrice: price.gt(0) ? plain(new Decimal(1).div(price).toSignificantDigits(15)) : '0',
    spotPrice: quote.spotPrice,
    priceImpactPercent: quote.priceImpactPercent,
    impactAgainst: quote.impactAgainst ?? null,
    level: impactLevel(quote.priceImpactPercent),
    partial: quote.partial,
  };
}

/** What the wallet holds of each asset it could pay with ('XRP' = available: balance − reserve). */
export type Holdings = Readonly<Record<string, string | undefined>>;

/** The first asset the wallet cannot cover, with what it has and what this needs; null when it can pay. */
export function shortfall(
  needs: readonly AssetAmount[],
  has: Holdings,
): (AssetAmount & { have: string }) | null {
  for (const need of needs) {
    const have = parseDecimal(has[need.asset] ?? '0') ?? new Decimal(0);
    if (new Decimal(need.amount).gt(have)) return { ...need, have: plain(Decimal.max(0, have)) };
  }
  return null;
}

/** The submit button's own words when the wallet cannot pay (issue 23): 'Insufficient XRP balance'. */
export const insufficientBalanceLabel = (asset: string): string => `Insufficient ${asset} balance`;
