import {
  addLiquiditySchema,
  ammAuctionSchema,
  ammBidSchema,
  ammVoteSchema,
  lpBalanceSchema,
  lpPositionSchema,
  lpPriceSchema,
  removeLiquiditySchema,
} from '@ledgerpad/shared';
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform';
import { rlusdIssuer } from '../../platform/accounts';
import { userPost } from '../../plugins/edge';
import type { TokenRegistry } from '../tokens';
import type { WalletsApi } from '../wallets';
import { AMM_INTENT_PURPOSES, LiquidityService } from './service';

/**
 * POST /api/add-liquidity, /api/remove-liquidity, /api/amm-vote, /api/amm-bid (CSRF: every POST),
 * and the reads /api/lp-token-balance, /api/get-lp-price, /api/lp-position and /api/amm-auction.
 * Signed-in users only; wallets are the caller's own.
 */
export function registerLiquidity(
  app: FastifyInstance,
  deps: { platform: Platform; tokens: TokenRegistry; wallets: WalletsApi },
): LiquidityService | undefined {
  const { platform } = deps;
  if (!platform.submissions || !platform.connection || !platform.funds) return undefined;
  const service = new LiquidityService({
    client: platform.connection.client,
    submissions: platform.submissions,
    funds: platform.funds,
    tokens: deps.tokens,
    wallets: deps.wallets,
    rlusdIssuer: () => rlusdIssuer(platform.database.db, platform.config.XRPL_NETWORK),
    intents: platform.intents,
  });
  // Deposits, withdrawals and votes of self-custody wallets, once signed (docs/self-custody.md).
  for (const purpose of AMM_INTENT_PURPOSES) platform.intents?.register(purpose, service.finisher(purpose));
  userPost(app, '/api/add-liquidity', addLiquiditySchema, (u, b, k) => service.add(u, b, k));
  userPost(app, '/api/remove-liquidity', removeLiquiditySchema, (u, b, k) => service.remove(u, b, k));
  userPost(app, '/api/amm-vote', ammVoteSchema, (u, b, k) => service.vote(u, b, k));
  userPost(app, '/api/lp-token-balance', lpBalanceSchema, (u, b) => service.lpBalance(u, b));
  userPost(app, '/api/get-lp-price', lpPriceSchema, (_u, b) => service.lpPrice(b));
  userPost(app, '/api/lp-position', lpPositionSchema, (u, b) => service.position(u, b));
  userPost(app, '/api/amm-auction', ammAuctionSchema, (_u, b) => service.auction(b));
  userPost(app, '/api/amm-bid', ammBidSchema, (u, b, k) => service.bid(u, b, k));
  return service;
}
