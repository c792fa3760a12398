import { z } from 'zod';

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
  /** balance × current price in XRP, 6 decimals. */
  valueInXRP: decimal,
  /** Proceeds of sales minus their average cost, XRP, 6 decimals. */
  realizedPNL: decimal,
  /** valueInXRP minus the cost of what is still held, XRP, 6 decimals. */
  unrealizedPNL: decimal,
  totalPNL: decimal,
});
export type PositionToken = z.infer<typeof positionTokenSchema>;

export const positionSchema = z.object({
  wallet: z.string(),
  walletName: z.string().nullable(),
  /** XRP, decimal string (0 for a wallet not activated yet). */
  xrpBalance: decimal,
  tokens: z.array(positionTokenSchema),
});
export type PositionView = z.infer<typeof positionSchema>;

export const positionsResponseSchema = z.object({ positions: z.array(positionSchema) });
export type PositionsResponse = z.infer<typeof positionsResponseSchema>;
