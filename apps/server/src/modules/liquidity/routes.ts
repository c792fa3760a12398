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
import type { z } from 'zod';
import type { Platform } from '../../platform';
import { rlusdIssuer } from '../../platform/accounts';
import { parseInput, type Parsed } from '../../lib/validation';
import { idempotencyKey } from '../../plugins/edge';
import type { TokenRegistry } from '../tokens';
import type { WalletsApi } from '../wallets';
import { LiquidityService } from './service';

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
  });
  const user = { config: { access: 'user' as const } };
  // The body is parsed at the edge with the route's shared schema; the service takes the parsed type.
  const route = <S extends z.ZodType, T>(
    path: string,
    schema: S,
    fn: (userId: number, body: Parsed<S>, key?: string) => Promise<T>,
  ) =>
    app.post(path, user, async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return await fn(request.user!.id, parseInput(schema, request.body), idempotencyKey(request));
    });
  route('/api/add-liquidity', addLiquiditySchema, (u, b, k) => service.add(u, b, k));
  route('/api/remove-liquidity', removeLiquiditySchema, (u, b, k) => service.remove(u, b, k));
  route('/api/amm-vote', ammVoteSchema, (u, b, k) => service.vote(u, b, k));
  route('/api/lp-token-balance', lpBalanceSchema, (u, b) => service.lpBalance(u, b));
  route('/api/get-lp-price', lpPriceSchema, (_u, b) => service.lpPrice(b));
  route('/api/lp-position', lpPositionSchema, (u, b) => service.position(u, b));
  route('/api/amm-auction', ammAuctionSchema, (_u, b) => service.auction(b));
  route('/api/amm-bid', ammBidSchema, (u, b, k) => service.bid(u, b, k));
  return service;
}
