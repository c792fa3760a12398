import type { FastifyInstance } from 'fastify';
import {
  ORDERS_PAGE,
  addTrustlineSchema,
  limitOrderSchema,
  ordersQuerySchema,
  quoteRequestSchema,
  swapBatchSchema,
  swapRequestSchema,
  addTrustlineResultSchema,
  checkOrdersResultSchema,
  intentRequiredSchema,
  limitOrderResultSchema,
  orderListSchema,
  orderViewSchema,
  quoteViewSchema,
  swapBatchQuoteSchema,
  swapBatchResultSchema,
  swapResultSchema,
  type OrderStatus,
  type OrderUpdated,
} from '@ledgerpad/shared';
import { withLedger } from '../../lib/errors';
import { pageOf, sendPageHeaders } from '../../lib/paging';
import { ledgerReader } from '../../ledger/local-ledger';
import { parseInput } from '../../lib/validation';
import type { Platform } from '../../platform';
import { PLATFORM_ROLES, rlusdIssuer } from '../../platform/accounts';
import { platformWallet } from '../../platform/custody';
import { idempotencyKey, idParam, userPost } from '../../plugins/edge';
import { declared } from '../../plugins/access';
import { z } from 'zod';
import type { TokenRegistry } from '../tokens';
import type { DelegationsApi, WalletsApi } from '../wallets';
import { registerTradingFeeJob } from './fee-job';
import { creatorShareListener, FeeSettlement, type FeePaidListener } from './fee-paid';
import { OrderRecords } from './orders';
import { TradingService } from './service';
import { TRADE_PURPOSES, TradeRecorder, tradingObligations, type CurveAccounts } from './trade-records';

const TRADE_SWEEP_MS = 60_000;

/** POST /api/amm-info (quote), POST /api/swap, POST /api/add-trustline, and the trading-fee job. */
export function registerTrading(
  app: FastifyInstance,
  deps: {
    platform: Platform;
    tokens: TokenRegistry;
    wallets: WalletsApi;
    /** Delegated trading of self-custody wallets (docs/self-custody.md). */
    delegations?: DelegationsApi;
    publishOrderUpdate: (userId: number, update: OrderUpdated) => Promise<void>;
    /** Curve launches: the curve's prices carry their fee, so the part of a trade on a curve pays none here. */
    curves?: CurveAccounts;
    /** What else accrues from a paid trading fee (the referrer's share), besides the creator's. */
    onFeePaid?: FeePaidListener[];
  },
): TradingService | undefined {
  const { platform, tokens, wallets } = deps;
  platform.logWrites({ swap: 'trade', 'limit-order': 'limit order', 'cancel-order': 'order cancel' });
  if (!platform.submissions || !platform.connection || !platform.funds) {
    // The routes are there without a ledger too, and answer 503 (withLedger), as every ledger route does.
    tradingRoutes(app, undefined);
    return undefined;
  }
  const db = platform.database.db;
  const submissions = platform.submissions;
  const rlusd = () => rlusdIssuer(db, platform.config.XRPL_NETWORK);
  const settlement = new FeeSettlement(db);
  settlement.onPaid(creatorShareListener({ settings: platform.settings, tokens }));
  for (const listener of deps.onFeePaid ?? []) settlement.onPaid(listener);
  const recorder = new TradeRecorder({
    db,
    jobs: platform.jobs,
    settings: platform.settings,
    tokens,
    rlusdIssuer: rlusd,
    curves: deps.curves,
    settlement,
  });
  const orders = new OrderRecords(db, rlusd, {
    recorder,
    feePercent: (userId) => recorder.feePercent(userId),
    tokenId: async (issuer, currency) => (await tokens.byIssuer(issuer, currency))?.id ?? null,
  });
  const publishOrderUpdate = (u: { userId: number; orderId: number; status: OrderStatus }) =>
    deps.publishOrderUpdate(u.userId, { orderId: u.orderId, status: u.status }).catch((err: unknown) => {
      // A missed push is healed by the screen's 60 s status check; never fail the write for it.
      app.log.warn({ err }, 'orderUpdated push failed');
    });
  // Every ledger's offer changes for custodial wallets: crossings by anyone, cancels, removals.
  platform.indexer?.register(orders.handler(publishOrderUpdate));
  const service = new TradingService({
    db,
    curves: deps.curves,
    client: platform.connection.client,
    reader: ledgerReader(platform.connection.client, platform.connection.local),
    submissions: platform.submissions,
    funds: platform.funds,
    jobs: platform.jobs,
    settings: platform.settings,
    tokens,
    wallets,
    rlusdIssuer: rlusd,
    orders,
    recorder,
    publishOrderUpdate,
    cache: platform.readCache,
    intents: platform.intents,
    feeWallet: async () => (await platformWallet(db, PLATFORM_ROLES.fee))?.address,
    // issue 36: the fee in the trade's own all-or-nothing Batch, where the ledger has Batch.
    feeInBatch: async () => {
      const mode = platform.config.TRADE_FEE_BATCH;
      const wanted = mode === 'on' || (mode === 'auto' && platform.config.NODE_ENV !== 'test');
      return wanted && (await submissions.batchEnabled());
    },
    settlement,
    delegations: deps.delegations,
  });
  // A self-custody wallet's swap, once signed in the browser or its wallet app (docs/self-custody.md).
  platform.intents?.register('swap', service.swapFinisher());
  // Its limit orders, cancels and the payment of fees its delegated trades owe.
  for (const [purpose, finisher] of Object.entries(service.orderFinishers()))
    platform.intents?.register(purpose, finisher);
  platform.intents?.register('add-trustline', service.addTrustlineFinisher());
  // What a wallet owes that its ledger balance does not show yet: checked before it signs anything.
  platform.funds.addObligations(tradingObligations(db, rlusd, (u) => recorder.feePercent(u)));
  // Every validated trade is recorded as it is finalized — also the ones a restart resolves, whose
  // caller is gone.
  platform.submissions.onFinalized((row) => {
    if (row.status !== 'success' || !(TRADE_PURPOSES as readonly string[]).includes(row.purpose)) return;
    recorder
      .record(row.hash, row)
      .catch((err: unknown) => app.log.warn({ err, hash: row.hash }, 'trade record failed'));
  });
  // The safety net (finalized but never recorded: a crash between the two): at start, then every minute.
  let sweeping: Promise<unknown> | undefined;
  const sweep = () => {
    sweeping ??= recorder
      .sweep()
      .catch((err: unknown) => app.log.warn({ err }, 'trade sweep failed'))
      .finally(() => (sweeping = undefined));
  };
  const timer = setInterval(sweep, TRADE_SWEEP_MS);
  timer.unref();
  app.addHook('onReady', async () => sweep());
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await sweeping;
  });
  registerTradingFeeJob({
    db,
    jobs: platform.jobs,
    submissions: platform.submissions,
    settlement,
    rlusdIssuer: rlusd,
  });
  tradingRoutes(app, service);
  return service;
}

/** A self-custody wallet answers the transaction it signs instead (docs/self-custody.md). */
const orSign = (response: z.ZodType) => z.union([response, intentRequiredSchema]);

function tradingRoutes(app: FastifyInstance, service: TradingService | undefined): void {
  const trading = () => withLedger(service);
  userPost(
    app,
    '/api/amm-info',
    quoteRequestSchema,
    { summary: 'What a market trade would execute now (the swap box quote).', response: quoteViewSchema },
    (u, b) => trading().quote(u, b),
  );
  userPost(
    app,
    '/api/swap',
    swapRequestSchema,
    { summary: 'A market trade from one of your wallets.', response: orSign(swapResultSchema) },
    (u, b, k) => trading().swap(u, b, k),
  );
  userPost(
    app,
    '/api/swap/batch',
    swapBatchSchema,
    {
      summary: 'One market trade from several of your wallets, one after another.',
      response: swapBatchResultSchema,
    },
    (u, b, k) => trading().swapBatch(u, b, k),
  );
  userPost(
    app,
    '/api/swap/batch/quote',
    swapBatchSchema,
    {
      summary: "Each wallet's quote of a multi-wallet trade, in the order it trades.",
      response: swapBatchQuoteSchema,
    },
    (u, b) => trading().quoteBatch(u, b),
  );
  userPost(
    app,
    '/api/add-trustline',
    addTrustlineSchema,
    { summary: "A wallet's trust line to a token.", response: orSign(addTrustlineResultSchema) },
    (u, b, k) => trading().addTrustline(u, b, k),
  );
  userPost(
    app,
    '/api/limit-order',
    limitOrderSchema,
    { summary: "Place a limit order on the ledger's book.", response: orSign(limitOrderResultSchema) },
    (u, b, k) => trading().limitOrder(u, b, k),
  );
  // `:userId` is the caller's own: the access plugin checks it (plugins/access.ts).
  app.get(
    '/api/orders/get-orders/:userId',
    declared('user', {
      summary: 'Your orders, newest first (filtered by wallet, status, side and date).',
      response: orderListSchema,
      query: ['wallet', 'status', 'type', 'from', 'to'].map((name) => ({ name, required: false })),
      paged: true,
    }),
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      // Paged (`?limit=&offset=`, X-Total-Count; docs/paging.md): the filters and the page together.
      const page = pageOf(request, ORDERS_PAGE);
      const { items, total } = await trading().listOrders(
        request.user!.id,
        parseInput(ordersQuerySchema, request.query),
        page,
      );
      sendPageHeaders(request, reply, page, total);
      return items;
    },
  );
  // The session cookie identifies the user (spec 001 §7 has a bearer token from local storage:
  // a token readable by scripts is what the cookie session avoids — docs/trading.md).
  app.get(
    '/api/check-orders-status',
    declared('user', {
      summary: 'Check your resting orders on the ledger: those whose status changed.',
      response: checkOrdersResultSchema,
    }),
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return await trading().checkOrders(request.user!.id);
    },
  );
  // The platform fees a self-custody wallet's delegated trades owe, as one payment it signs.
  app.post(
    '/api/wallets/:id/owed-fees',
    declared('user', {
      summary: "Pay the platform fees a self-custody wallet's delegated trades owe: the payment it signs.",
      response: intentRequiredSchema,
    }),
    async (request) =>
      trading().payOwedFees(request.user!.id, idParam(request, 'id'), idempotencyKey(request)),
  );
  app.delete<{ Params: { orderId: string } }>(
    '/api/cancel-order/:orderId',
    declared('user', { summary: 'Cancel one of your resting orders.', response: orSign(orderViewSchema) }),
    async (request) => {
      const id = idParam(request, 'orderId', 'orderId must be a number.');
      return await trading().cancelOrder(request.user!.id, id, idempotencyKey(request));
    },
  );
}
