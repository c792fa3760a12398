import { z } from 'zod';
import { Decimal } from '../money';

// Positions (spec 001 §2 Positions, §3 Position, §5 GET /api/positions/{userId}): each of the user's
// wallets with its XRP and, per token it holds, the value and the profit and loss in XRP on an
// average-cost basis (docs/positions.md). Every amount is a decimal string, never a float.

export const POSITIONS_MESSAGES = {
  fetchFailed: 'Failed to fetch positions.',
  onlyXrp: 'Your wallets hold only XRP. Buy a token on the Swap page to see positions here.',
  noWallets: 'You have no wallets yet. Create one on the Wallets page.',
} as const;

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal string');

export const positionTokenSchema = z.object({
  /** The ledger's currency code (3-character ticker or 40-hex), as the swap screen takes it. */
  tokenCode: z.string(),
  /** The ticker for display (hex codes decoded). */
  ticker: z.string(),
  issuer: z.string(),
  /** The trust-line balance on the validated ledger, exact: what the wallet can spend. */
  balance: decimal,
  /** Held in the wallet's own escrows (a locked dev allocation): not spendable until released. */
  locked: decimal.optional(),
  /** Spot value: balance × current price in XRP, 6 decimals (shown beside the realisable value). */
  valueInXRP: decimal,
  /**
   * What selling the whole spendable balance now would return, in XRP (issue 39): through the
   * token's pool (the ledger's swap math) or, without one, its curve's ladder or the book's bids; net
   * of the platform's fee on the sale; an RLUSD result at the XRP/RLUSD price. '0' without a market.
   * 6 decimals, rounded down. Below spot when the position is large against the market's depth.
   */
  realisableXRP: decimal,
  /** Proceeds of sales minus their average cost, XRP, 6 decimals. */
  realizedPNL: decimal,
  /**
   * realisableXRP minus the cost of what is still held, XRP, 6 decimals: the holding is marked at
   * what selling it would return, not at spot.
   */
  unrealizedPNL: decimal,
  totalPNL: decimal,
});
export type PositionToken = z.infer<typeof positionTokenSchema>;

/**
 * A wallet's LP tokens in an AMM pool (issue 37: the creator's kept LP in its "{TICKER} liquidity"
 * wallet): its share of the pool and what that share holds, valued at the pool's own spot price —
 * the quote side plus the token side at quote ÷ tokens, i.e. twice the quote side — in XRP. Fees
 * earned are not shown: they cannot be told apart from the pool's price moves without the
 * deposit's history (docs/positions.md).
 */
export const positionLiquiditySchema = z.object({
  /** The LP token's currency (03…) and issuer (the pool's AMM account). */
  lpCurrency: z.string(),
  ammAccount: z.string(),
  /** The pool's token (ticker, code, issuer) and quote asset ('XRP' or 'RLUSD'). */
  ticker: z.string(),
  tokenCode: z.string(),
  issuer: z.string(),
  quote: z.string(),
  lpBalance: decimal,
  /** lpBalance ÷ the pool's LP supply, in percent (6 decimals, rounded down). */
  sharePercent: decimal,
  /** The share's part of the pool: quote (6 decimals) and tokens (15 significant digits), rounded down. */
  pooledQuote: decimal,
  pooledTokens: decimal,
  /** 2 × pooledQuote in XRP (an RLUSD quote at the XRP/RLUSD price; '0' without one), 6 decimals. */
  valueInXRP: decimal,
});
export type PositionLiquidity = z.infer<typeof positionLiquiditySchema>;

export const positionSchema = z.object({
  wallet: z.string(),
  walletName: z.string().nullable(),
  /** XRP, decimal string (0 for a wallet not activated yet). */
  xrpBalance: decimal,
  tokens: z.array(positionTokenSchema),
  /** LP tokens the wallet holds, with their value (absent without a ledger or any LP tokens). */
  liquidity: z.array(positionLiquiditySchema).optional(),
});
export type PositionView = z.infer<typeof positionSchema>;

/**
 * A holding whose sale would return less than this share of its spot value reads as larger than its
 * market's depth (the positions page marks it).
 */
export const DEPTH_WARNING_RATIO = '0.9';

/** The holding would sell for well below spot: it is large against its pool's (or book's) depth. */
export function exceedsDepth(token: Pick<PositionToken, 'valueInXRP' | 'realisableXRP'>): boolean {
  const spot = new Decimal(token.valueInXRP);
  return spot.gt(0) && new Decimal(token.realisableXRP).lt(spot.mul(DEPTH_WARNING_RATIO));
}

export const positionsResponseSchema = z.object({ positions: z.array(positionSchema) });
export type PositionsResponse = z.infer<typeof positionsResponseSchema>;

/** The figures of an LP position from the pool (`amm_info`): exact decimals, rounded down. */
export function lpPositionFigures(p: {
  lpBalance: string;
  lpSupply: string;
  poolQuote: string;
  poolTokens: string;
  /** XRP per unit of the quote asset (1 for XRP); null when unknown. */
  xrpPerQuote: string | null;
}): Pick<PositionLiquidity, 'sharePercent' | 'pooledQuote' | 'pooledTokens' | 'valueInXRP'> {
  const D = Decimal.clone({ precision: 60 });
  const supply = new D(p.lpSupply);
  const share = supply.gt(0) ? D.min(1, new D(p.lpBalance).div(supply)) : new D(0);
  const pooledQuote = share.mul(p.poolQuote).toDecimalPlaces(6, Decimal.ROUND_DOWN);
  const pooledTokens = share.mul(p.poolTokens).toSignificantDigits(15, Decimal.ROUND_DOWN);
  const value = p.xrpPerQuote
    ? share.mul(p.poolQuote).mul(2).mul(p.xrpPerQuote).toDecimalPlaces(6, Decimal.ROUND_DOWN)
    : new D(0);
  return {
    sharePercent: share.mul(100).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed(),
    pooledQuote: pooledQuote.toFixed(),
    pooledTokens: pooledTokens.toFixed(),
    valueInXRP: value.toFixed(),
  };
}
