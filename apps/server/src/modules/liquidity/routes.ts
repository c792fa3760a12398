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
import { withLedger } from '../../lib/errors';
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
  const { submissions, connection, funds } = platform;
  // Without a ledger the routes are there and answer 503 (withLedger), as every ledger route does.
  const service =
    submissions && connection && funds
      ? new LiquidityService({
          client: connection.client,
          submissions,
          funds,
          tokens: deps.tokens,
          wallets: deps.wallets,
          rlusdIssuer: () => rlusdIssuer(platform.database.db, platform.config.XRPL_NETWORK),
          intents: platform.intents,
        })
      : undefined;
  // Deposits, withdrawals and votes of self-custody wallets, once signed (docs/self-custody.md).
  if (service)
    for (const purpose of AMM_INTENT_PURPOSES) platform.intents?.register(purpose, service.finisher(purpose));
  userPost(app, '/api/add-liquidity', addLiquiditySchema, (u, b, k) => withLedger(service).add(u, b, k));
  userPost(app, '/api/remove-liquidity', removeLiquiditySchema, (u, b, k) =>
    withLedger(service).remove(u, b, k),
  );
  userPost(app, '/api/amm-vote', ammVoteSchema, (u, b, k) => withLedger(service).vote(u, b, k));
  userPost(app, '/api/lp-token-balance', lpBalanceSchema, (u, b) => withLedger(service).lpBalance(u, b));
  userPost(app, '/api/get-lp-price', lpPriceSchema, (_u, b) => withLedger(service).lpPrice(b));
  userPost(app, '/api/lp-position', lpPositionSchema, (u, b) => withLedger(service).position(u, b));
  userPost(app, '/api/amm-auction', ammAuctionSchema, (_u, b) => withLedger(service).auction(b));
  userPost(app, '/api/amm-bid', ammBidSchema, (u, b, k) => withLedger(service).bid(u, b, k));
  return service;
}
