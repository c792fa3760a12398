import type { FastifyInstance } from 'fastify';
import type { OrderStatus, OrderUpdated } from '@ledgerpad/shared';
import { toLedgerAppError } from '../../ledger/errors';
import { badRequest } from '../../lib/errors';
import type { Platform } from '../../platform';
import { rlusdIssuer } from '../../platform/accounts';
import { idempotencyKey } from '../../plugins/edge';
import type { TokenRegistry } from '../tokens';
import type { WalletsApi } from '../wallets';
import { registerTradingFeeJob } from './fee-job';
import { OrderRecords } from './orders';
import { TradingService } from './service';

/** POST /api/amm-info (quote), POST /api/swap, POST /api/add-trustline, and the trading-fee job. */
export function registerTrading(
  app: FastifyInstance,
  deps: {
    platform: Platform;
    tokens: TokenRegistry;
    wallets: WalletsApi;
    publishOrderUpdate: (userId: number, update: OrderUpdated) => Promise<void>;
  },
): TradingService | undefined {
  const { platform, tokens, wallets } = deps;
  if (!platform.submissions || !platform.connection) return undefined;
  const db = platform.database.db;
  const rlusd = () => rlusdIssuer(db, platform.config.XRPL_NETWORK);
  const orders = new OrderRecords(db, rlusd);
  const publishOrderUpdate = (u: { userId: number; orderId: number; status: OrderStatus }) =>
    deps.publishOrderUpdate(u.userId, { orderId: u.orderId, status: u.status }).catch((err: unknown) => {
      // A missed push is healed by the screen's 60 s status check; never fail the write for it.
      app.log.warn({ err }, 'orderUpdated push failed');
    });
  // Every ledger's offer changes for custodial wallets: crossings by anyone, cancels, removals.
  platform.indexer?.register(orders.handler(publishOrderUpdate));
  const service = new TradingService({
    db,
    client: platform.connection.client,
    submissions: platform.submissions,
    jobs: platform.jobs,
    settings: platform.settings,
    tokens,
    wallets,
    rlusdIssuer: rlusd,
    orders,
    publishOrderUpdate,
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
  app.post('/api/limit-order', user, async (request) => {
    try {
      return await service.limitOrder(request.user!.id, request.body, idempotencyKey(request));
    } catch (err) {
      throw toLedgerAppError(err);
    }
  });
  app.get<{ Params: { userId: string } }>('/api/orders/get-orders/:userId', user, async (request, reply) => {
    TradingService.ownUser(request.user!.id, request.params.userId);
    reply.header('cache-control', 'private, no-store');
    return service.listOrders(request.user!.id, request.query);
  });
  // The session cookie identifies the user (spec 001 §7 has a bearer token from local storage:
  // a token readable by scripts is what the cookie session avoids — docs/trading.md).
  app.get('/api/check-orders-status', user, async (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    try {
      return await service.checkOrders(request.user!.id);
    } catch (err) {
      throw toLedgerAppError(err);
    }
  });
  app.delete<{ Params: { orderId: string } }>('/api/cancel-order/:orderId', user, async (request) => {
    const id = request.params.orderId;
    if (!/^\d{1,15}$/.test(id)) throw badRequest('orderId must be a number.');
    try {
      return await service.cancelOrder(request.user!.id, Number(id), idempotencyKey(request));
    } catch (err) {
      throw toLedgerAppError(err);
    }
  });
  return service;
}
