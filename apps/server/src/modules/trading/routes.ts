import type { FastifyInstance } from 'fastify';
import { toLedgerAppError } from '../../ledger/errors';
import type { Platform } from '../../platform';
import { rlusdIssuer } from '../../platform/accounts';
import { idempotencyKey } from '../../plugins/edge';
import type { TokenRegistry } from '../tokens';
import type { WalletsApi } from '../wallets';
import { registerTradingFeeJob } from './fee-job';
import { TradingService } from './service';

/** POST /api/amm-info (quote), POST /api/swap, POST /api/add-trustline, and the trading-fee job. */
export function registerTrading(
  app: FastifyInstance,
  deps: { platform: Platform; tokens: TokenRegistry; wallets: WalletsApi },
): TradingService | undefined {
  const { platform, tokens, wallets } = deps;
  if (!platform.submissions || !platform.connection) return undefined;
  const db = platform.database.db;
  const rlusd = () => rlusdIssuer(db, platform.config.XRPL_NETWORK);
  const service = new TradingService({
    db,
    client: platform.connection.client,
    submissions: platform.submissions,
    jobs: platform.jobs,
    settings: platform.settings,
    tokens,
    wallets,
    rlusdIssuer: rlusd,
  });
  registerTradingFeeJob({
    db,
    jobs: platform.jobs,
    submissions: platform.submissions,
    settings: platform.settings,
    tokens,
    rlusdIssuer: rlusd,
  });
  const user = { config: { access: 'user' as const } };
  app.post('/api/amm-info', user, async (request) => {
    try {
      return await service.quote(request.user!.id, request.body);
    } catch (err) {
      throw toLedgerAppError(err);
    }
  });
  app.post('/api/swap', user, async (request) => {
    try {
      return await service.swap(request.user!.id, request.body, idempotencyKey(request));
    } catch (err) {
      throw toLedgerAppError(err);
    }
  });
  app.post('/api/add-trustline', user, async (request) => {
    try {
      return await service.addTrustline(request.user!.id, request.body, idempotencyKey(request));
    } catch (err) {
      throw toLedgerAppError(err);
    }
  });
  return service;
}
