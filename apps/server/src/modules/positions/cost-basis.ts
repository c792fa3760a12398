import { Decimal, type DecimalValue } from '@ledgerpad/shared';

// Average-cost basis, in XRP, for one wallet's holding of one token: a single pass over its trades
// in ledger order. Pure arithmetic (no database, no ledger), so the rule is tested on its own with
// figures worked by hand. The rule and its limits are written down in docs/positions.md.

export interface CostTrade {
  side: 'BUY' | 'SELL';
  tokenAmount: DecimalValue;
  /** What the trade paid (BUY) or got (SELL), already in XRP; null when it can't be counted in XRP. */
  xrpAmount: DecimalValue | null;
  /**
   * What the trade cost besides its executed amounts, in XRP: the platform fee and the network fees
   * (issue 39). A BUY's cost includes them; a SELL's proceeds are net of them. Absent: none known.
   */
  feeXrp?: DecimalValue;
}

export interface CostBasis {
  /** Tokens the trades leave the wallet holding (never negative). */
  quantity: Decimal;
  /** XRP cost of those tokens. */
  cost: Decimal;
  /** XRP realized by sells: proceeds − average cost × quantity sold. */
  realized: Decimal;
}

export const emptyBasis = (): CostBasis => ({
  quantity: new Decimal(0),
  cost: new Decimal(0),
  realized: new Decimal(0),
});

/**
 * Runs the trades, oldest first, from `start`. A BUY adds its tokens and its XRP, fees included, to
 * the cost. A SELL realizes its proceeds net of its fees minus the average cost of what it sold, and lowers the cost in
 * proportion to the tokens sold (the average stays). Tokens sold beyond what the trades bought
 * arrived some other way (a transfer, an airdrop): they count as bought at the price of the sale
 * itself, so that part realizes nothing. Trades without an XRP amount (`xrpAmount` null) are skipped.
 *
 * The loop is exact decimal arithmetic in bigint fixed point (40 decimals; divisions truncate at the
 * 40th), not decimal.js: a position can have tens of thousands of trades, and decimal.js objects
 * made the pass three times slower. No float is involved anywhere.
 */
export function costBasis(trades: Iterable<CostTrade>, start: CostBasis = emptyBasis()): CostBasis {
  let quantity = toFixed(start.quantity);
  let cost = toFixed(start.cost);
  let realized = toFixed(start.realized);
  for (const trade of trades) {
    if (trade.xrpAmount === null) continue;
    const qty = toFixed(trade.tokenAmount);
    if (qty <= 0n) continue;
    const fee = trade.feeXrp === undefined ? 0n : toFixed(trade.feeXrp);
    if (trade.side === 'BUY') {
      quantity += qty;
      cost += toFixed(trade.xrpAmount) + fee;
      continue;
    }
    const xrp = toFixed(trade.xrpAmount) - fee;
    if (quantity <= 0n) continue;
    const whole = qty <= quantity;
    const covered = whole ? qty : quantity;
    // The covered part's share of the proceeds and of the cost basis.
    const proceeds = whole ? xrp : (xrp * covered) / qty;
    const costSold = covered === quantity ? cost : (cost * covered) / quantity;
    quantity -= covered;
    cost -= costSold;
    realized += proceeds - costSold;
  }
  return { quantity: fromFixed(quantity), cost: fromFixed(cost), realized: fromFixed(realized) };
}

const SCALE = 40;
const PLAIN = /^(-?)(\d+)(?:\.(\d+))?$/;

/** A decimal as an integer count of 1e-40 (digits past the 40th dropped). */
function toFixed(value: DecimalValue): bigint {
  const text = typeof value === 'string' ? value : new Decimal(value).toFixed(SCALE);
  const m = PLAIN.exec(text);
  if (!m) return toFixed(new Decimal(text).toFixed(SCALE));
  const fraction = (m[3] ?? '').slice(0, SCALE).padEnd(SCALE, '0');
  const n = BigInt(m[2]! + fraction);
  return m[1] ? -n : n;
}

function fromFixed(n: bigint): Decimal {
  const neg = n < 0n;
  const digits = (neg ? -n : n).toString().padStart(SCALE + 1, '0');
  const text = `${digits.slice(0, -SCALE)}.${digits.slice(-SCALE)}`;
  return new Decimal(neg ? `-${text}` : text);
}

export interface PositionFigures {
  /** The ledger balance's XRP cost after reconciling with the trades. */
  cost: Decimal;
  /** Balance × spot price. */
  valueInXRP: Decimal;
  /** What selling the balance now would return (net of the sale's platform fee); the PNL's mark. */
  realisableXRP: Decimal;
  realizedPNL: Decimal;
  unrealizedPNL: Decimal;
  totalPNL: Decimal;
}

/**
 * The position of a ledger balance given the trades' basis, the current spot price (XRP per token)
 * and what selling the whole balance would return now (`realisable`, XRP; spot × balance when not
 * given). The ledger is the truth for the quantity: tokens beyond what the trades explain (transfers
 * in, airdrops, a dev allocation) enter at the realisable average price (realisable ÷ balance), so
 * they add value but no profit; tokens missing from it (sent away, burned) leave at average cost,
 * which is not a sale, so nothing is realized. Unrealized PNL is realisable − cost: a holding is
 * marked at what it could be sold for, not at spot (issue 39).
 */
export function positionFigures(
  basis: CostBasis,
  balance: DecimalValue,
  price: DecimalValue,
  realisable?: DecimalValue,
): PositionFigures {
  const held = Decimal.max(new Decimal(balance), 0);
  const valueInXRP = held.mul(price);
  const realisableXRP = realisable === undefined ? valueInXRP : new Decimal(realisable);
  let cost: Decimal;
  let unrealizedPNL: Decimal;
  if (held.gt(basis.quantity)) {
    // The trades' tokens take their share of the realisable value; the rest enter at that same
    // average, so they carry neither profit nor loss (written so that share cancels exactly).
    const traded =
      realisable === undefined ? basis.quantity.mul(price) : realisableXRP.mul(basis.quantity).div(held);
    unrealizedPNL = traded.minus(basis.cost);
    cost = realisableXRP.minus(unrealizedPNL);
  } else {
    cost = held.lt(basis.quantity) ? basis.cost.mul(held).div(basis.quantity) : basis.cost;
    unrealizedPNL = realisableXRP.minus(cost);
  }
  return {
    cost,
    valueInXRP,
    realisableXRP,
    realizedPNL: basis.realized,
    unrealizedPNL,
    totalPNL: basis.realized.plus(unrealizedPNL),
  };
}

/** Outputs: rounded to 6 decimals (half away from zero), plain decimal strings ('62.5', never '6.25e1'). */
export function round6(d: Decimal): string {
  return d.toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed();
}
