import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform';
import { rlusdIssuer } from '../../platform/accounts';
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
  const route = <T>(path: string, fn: (userId: number, body: unknown, key?: string) => Promise<T>) =>
    app.post(path, user, async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return await fn(request.user!.id, request.body, idempotencyKey(request));
    });
  route('/api/add-liquidity', (u, b, k) => service.add(u, b, k));
  route('/api/remove-liquidity', (u, b, k) => service.remove(u, b, k));
  route('/api/amm-vote', (u, b, k) => service.vote(u, b, k));
  route('/api/lp-token-balance', (u, b) => service.lpBalance(u, b));
  route('/api/get-lp-price', (_u, b) => service.lpPrice(b));
  route('/api/lp-position', (u, b) => service.position(u, b));
  route('/api/amm-auction', (_u, b) => service.auction(b));
  route('/api/amm-bid', (u, b, k) => service.bid(u, b, k));
  return service;
}
