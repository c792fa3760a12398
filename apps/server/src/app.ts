import path from 'node:path';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import pino from 'pino';
import type { Config } from './config';
import type { Database } from './db/client';
import { AppError } from './lib/errors';
import { fromLedgerError } from './ledger/errors';
import { registerIdempotency, type IdempotencyStore } from './lib/idempotency';
import { loadOrCreateSecret } from './lib/secret-file';
import { isAdmin, registerAdmin } from './modules/admin';
import { registerApiDocs } from './modules/api-docs';
import { registerAuth, verifySocketToken } from './modules/auth';
import { registerConfig } from './modules/config';
import { registerDashboard } from './modules/dashboard';
import { deployLogosInUse, registerDeploy } from './modules/deploy';
import { registerDemo } from './modules/demo';
import { registerJobs } from './modules/jobs';
import { registerMarket, type MarketSnapshot } from './modules/market';
import { registerTrading } from './modules/trading';
import { airdropLogosInUse, registerAirdrops } from './modules/airdrops';
import { registerBonding, type BondingApi } from './modules/bonding';
import { registerBurn } from './modules/burn';
import { registerVesting, type VestingApi } from './modules/vesting';
import { registerLiquidity } from './modules/liquidity';
import { createFeeWalletPayments, registerRewards } from './modules/rewards';
import { createReferralBinding, registerReferrals } from './modules/referrals';
import { registerPositions } from './modules/positions';
import { registerHealth } from './modules/health';
import { registerListing } from './modules/listing';
import { registerTokens, tokenLogosInUse, tokenPageHead } from './modules/tokens';
import { registerUsers } from './modules/users';
import { registerUploads, type LogoPublisher, type UploadsApi } from './modules/uploads';
import { registerWallets } from './modules/wallets';
import { registerSigning } from './modules/signing';
import { registerSessions } from './plugins/auth';
import { registerCsrf } from './plugins/csrf';
import { registerPrivateCaching } from './plugins/caching';
import { createOriginPolicy, registerHostCheck } from './plugins/origin';
import { registerAccessControl } from './plugins/access';
import { registerEdgeChecks } from './plugins/edge';
import { redactUrl, safeSerializers, scrubbingStream, type LogDestination } from './lib/log-safety';
import { registerRateLimits } from './plugins/rate-limit';
import { SharedCounters } from './plugins/rate-limit-store';
import { registerMetrics, type Metrics } from './plugins/metrics';
import type { LedgerConnection } from './ledger/connection';
import { createPlatform, type Platform } from './platform';
import type { EventBus } from './realtime/event-bus';
import { registerRealtime } from './realtime/routes';
import { registerSecurityHeaders, registerWebDelivery } from './web/delivery';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared platform (tests reach custody and the submission service through it). */
    platform: Platform;
    /** The market module's per-ledger snapshot (tests refresh it instead of waiting a ledger). */
    marketSnapshot: MarketSnapshot;
    /** The bonding module (tests await its keeper). */
    bonding: BondingApi;
    /** The vesting module (tests run its auto-release keeper's rounds). */
    vesting: VestingApi;
    /** The uploads module (tests run its unused-logo sweep). */
    uploads: UploadsApi;
    /** Prometheus metrics (main.ts serves them on METRICS_PORT too). */
    metrics: Metrics;
    /** Stored idempotent answers (tests run the expiry sweep and the secret purge by hand). */
    idempotency: IdempotencyStore;
  }
}

export interface AppDeps {
  config: Config;
  database: Database;
  ledger: LedgerConnection;
  /** Directory of the built web app (index.html + assets); absent in API-only tests. */
  webDistDir?: string;
  logger?: FastifyServerOptions['logger'];
  /** Clock for session expiry (tests); defaults to Date.now. */
  now?: () => number;
  /** Publishes uploaded logos to the messenger (none yet; tests pass a fake with the real interface). */
  logoPublisher?: LogoPublisher;
  /** The live-event bus; default: PostgreSQL LISTEN/NOTIFY on PostgreSQL, in-process otherwise. */
  eventBus?: EventBus;
}

/** Builds the whole HTTP app from its dependencies without listening (tests inject requests). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: withSafeSerializers(deps.logger),
    trustProxy: deps.config.TRUST_PROXY,
    // Fastify logs two lines per request; one line, written when the answer is sent, is enough.
    logController: new LogController({ disableRequestLogging: true }),
    // Request bodies are small JSON documents; uploads go through multipart with their own limit.
    bodyLimit: 1024 * 1024,
  });

  app.setErrorHandler(errorHandler);
  // A socket upgrade never gets an onResponse: its line is written when it arrives.
  // Request lines at debug (LOG_LEVEL=debug shows them): at info the console carries one line per
  // significant event (sign-in, deploy, trade, refund, job failure) and the start-up block stays
  // readable. Server errors are always logged.
  app.addHook('onRequest', async (request) => {
    if (request.headers.upgrade) request.log.debug(`${request.method} ${redactUrl(request.url)} upgrade`);
  });
  app.addHook('onResponse', async (request, reply) => {
    const ms = Math.round(reply.elapsedTime);
    const line = `${request.method} ${redactUrl(request.url)} ${reply.statusCode} ${ms} ms`;
    if (reply.statusCode >= 500) request.log.error({ statusCode: reply.statusCode, ms }, line);
    else request.log.debug({ statusCode: reply.statusCode, ms }, line);
  });

  // Order matters: the Host check runs first on every request; the session hook sets request.user,
  // which the rate-limit keys and CSRF read; access control and rate limits must exist before routes
  // are added (they attach per route).
  const production = deps.config.NODE_ENV === 'production';
  const db = deps.database.db;
  const origins = createOriginPolicy(deps.config);
  await registerSecurityHeaders(app, deps.config);
  registerHostCheck(app, origins);
  registerAccessControl(app);
  registerEdgeChecks(app);
  const sessions = await registerSessions(app, {
    db,
    production,
    now: deps.now,
    maxPerUser: deps.config.SESSIONS_PER_USER,
    isAdmin: (userId) => isAdmin(db, userId),
  });
  // One budget across instances on PostgreSQL (docs/security.md "Rate limits"); memory on PGlite.
  const sharedLimits =
    deps.config.RATE_LIMIT_STORE === 'database' ||
    (deps.config.RATE_LIMIT_STORE === 'auto' && deps.database.driver === 'postgres');
  const limits = await registerRateLimits(
    app,
    deps.config,
    sharedLimits ? new SharedCounters(deps.database.sql) : undefined,
  );
  registerCsrf(app, origins);
  registerPrivateCaching(app);
  // After the session, CSRF and edge checks: a retried write with the same Idempotency-Key gets the
  // first answer instead of running again (docs/money.md "Done once").
  app.decorate('idempotency', registerIdempotency(app, deps.database));
  const socketSecret = deps.config.SOCKET_TOKEN_SECRET
    ? Buffer.from(deps.config.SOCKET_TOKEN_SECRET, 'utf8')
    : await loadOrCreateSecret(path.join(deps.config.dataDir, 'socket-token.key'));
  if (!deps.config.SOCKET_TOKEN_SECRET && deps.database.driver === 'postgres') {
    // Several instances on one PostgreSQL each generating their own key would refuse each
    // other's socket tokens behind a load balancer.
    app.log.warn('SOCKET_TOKEN_SECRET is not set: set the same value on every instance');
  }

  // The composition root: the platform is built once here and each module gets what it needs.
  const platform = await createPlatform({
    config: deps.config,
    database: deps.database,
    ledger: deps.ledger,
    log: app.log,
    eventBus: deps.eventBus,
  });
  app.decorate('platform', platform);
  app.addHook('onReady', () => platform.start());
  app.addHook('onClose', () => platform.stop());
  const bus = platform.bus;
  const realtime = await registerRealtime(app, {
    config: deps.config,
    bus,
    verifySocketToken: (token) => verifySocketToken(socketSecret, token),
    origins,
    sessionLive: (id) => sessions.isLive(id),
  });
  sessions.onRevoked((ids) => {
    realtime
      .sessionsRevoked(ids)
      .catch((err: unknown) => app.log.warn({ err }, 'session revocation not published'));
  });

  registerHealth(app, {
    pingDatabase: () => deps.database.ping(),
    databaseDriver: deps.database.driver,
    ledger: deps.ledger,
    details: deps.config.HEALTH_DETAILS,
  });
  registerAuth(app, {
    config: deps.config,
    db,
    sessions,
    origins,
    limits,
    socketSecret,
    quotas: platform.quotas,
    referrals: createReferralBinding(platform),
  });
  registerUsers(app, { db });
  registerAdmin(app, { platform });

  // Feature modules register here (one line each), with what they use of the platform and of each other.
  const tokens = registerTokens(app, { platform });
  registerConfig(app, { platform });
  registerListing(app, { tokens, platform });
  const wallets = await registerWallets(app, platform);
  // Where signed intents of self-custody wallets come back (each action registers its finisher).
  registerSigning(app, platform);
  // The market snapshot (built below) knows the XRP/USD price the curve routes show market caps in.
  const later: { market?: MarketSnapshot } = {};
  const bonding = registerBonding(app, {
    platform,
    tokens,
    xrpUsd: async () => (later.market ? (await later.market.get()).xrpUsd : null),
  });
  app.decorate('bonding', bonding);
  const deploy = registerDeploy(app, {
    platform,
    tokens,
    wallets: wallets.service,
    bonding: bonding.registry,
  });
  registerDemo(app, { platform, tokens, deploy });
  registerDashboard(app, { tokens, platform, wallets: wallets.service });
  registerJobs(app, { jobs: platform.jobs });
  registerBurn(app, { platform, wallets: wallets.service });
  app.decorate('vesting', registerVesting(app, { platform, tokens, wallets: wallets.service }));
  // The fee wallet pays creator rewards and referral earnings alike; a paid trading fee accrues both.
  const payments = createFeeWalletPayments(platform);
  const referrals = registerReferrals(app, { platform, wallets: wallets.service, payments });
  const trading = registerTrading(app, {
    platform,
    tokens,
    wallets: wallets.service,
    delegations: wallets.delegations,
    publishOrderUpdate: realtime.publishOrderUpdate,
    curves: bonding.registry,
    onFeePaid: [referrals.accrue],
  });
  // A self-custody wallet's delegation shows the fees its delegated trades owe (trading keeps them).
  if (trading) wallets.delegations?.setOwedFees((address) => trading.owedFees(address));
  registerAirdrops(app, {
    platform,
    wallets: wallets.service,
    sweepMs: deps.config.AIRDROP_SWEEP_MS,
    identity: (check) => tokens.airdropRefusal(check),
  });
  registerLiquidity(app, { platform, tokens, wallets: wallets.service });
  registerRewards(app, { platform, tokens, wallets: wallets.service, payments });
  const market = registerMarket(app, {
    platform,
    tokens,
    publishTrade: realtime.publishTrade,
    curves: bonding.registry,
  });
  later.market = market;
  app.decorate('marketSnapshot', market);
  registerPositions(app, {
    platform,
    wallets: wallets.service,
    snapshot: market,
    curves: bonding.registry,
  });
  registerApiDocs(app);
  const uploads = await registerUploads(app, {
    config: deps.config,
    db: platform.database.db,
    telegram: deps.logoPublisher,
    quotas: platform.quotas,
    // Each module answers for its own references to a logo.
    logosInUse: async (urls) => {
      const found = await Promise.all([
        tokenLogosInUse(db, urls),
        airdropLogosInUse(db, urls),
        deployLogosInUse(db, urls),
      ]);
      return found.flat();
    },
  });
  app.decorate('uploads', uploads);

  const metrics = registerMetrics(app, {
    config: deps.config,
    database: deps.database,
    connection: platform.connection,
    submissions: platform.submissions,
    socketCount: () => realtime.hub.connectionCount,
  });
  app.decorate('metrics', metrics);

  // The landing page carries the list's first reads (the snapshot's bodies as served by /api/tokens,
  // /api/prices and /api/holders), so it renders without waiting for them.
  const web = await registerWebDelivery(
    app,
    deps.config,
    deps.webDistDir,
    async () => {
      const snap = await market.get();
      return { tokens: snap.tokensBody.json, prices: snap.pricesBody.json, holders: snap.holdersBody.json };
    },
    // A token page's title and link-preview tags: the listing's own name, description and logo.
    (issuer, currency) => tokenPageHead(tokens, issuer, currency),
  );

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api') {
      return reply
        .code(404)
        .send({ error: 'not_found', message: `No API route ${request.method} ${request.url.split('?')[0]}` });
    }
    return web.notFound(request, reply);
  });

  return app;
}

/**
 * Adds the serializers that keep secrets and query parameters out of every log line, and under them
 * the stream every line passes through on its way out (to stdout, the pretty printer or a test's
 * buffer), which redacts secret fields and family seeds wherever a line carries them.
 */
function withSafeSerializers(logger: AppDeps['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const base = (typeof logger === 'object' ? logger : {}) as {
    serializers?: object;
    stream?: LogDestination;
  };
  return {
    ...base,
    serializers: { ...base.serializers, ...safeSerializers },
    stream: scrubbingStream(base.stream ?? pino.destination(1)),
  };
}

const FASTIFY_4XX_CODES: Record<number, string> = {
  400: 'bad_request',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/**
 * The one error handler: AppError codes map to their status; xrpl.js connection failures (the
 * ledger is down, disconnected or timed out) are a 503 with LEDGER_UNAVAILABLE_MESSAGE and the
 * ledger server's refusals a 502; Fastify's own 4xx errors (bad JSON,
 * body too large, schema validation) keep their status with a stable code; anything else is a 500
 * whose body never shows internals.
 */
function errorHandler(thrown: unknown, request: FastifyRequest, reply: FastifyReply) {
  // xrpl.js failures become 503/502 here, once, whatever route they escaped from.
  const error = fromLedgerError(thrown);
  if (error instanceof AppError) {
    // Every limit says when to come back, in the header clients and proxies read.
    const retryAfter = error.details?.retryAfter;
    if (typeof retryAfter === 'number' && !reply.hasHeader('retry-after')) {
      reply.header('retry-after', String(retryAfter));
    }
    return reply
      .code(error.status)
      .send({ error: error.code.toLowerCase(), message: error.message, ...error.details });
  }
  const err = error as {
    validation?: Array<{ instancePath?: string; message?: string; params?: { missingProperty?: string } }>;
    validationContext?: string;
    statusCode?: number;
    message: string;
  };
  if (err.validation) {
    const fields = err.validation.map((v) => ({
      path: [v.instancePath?.replace(/^\//, '').replaceAll('/', '.'), v.params?.missingProperty]
        .filter(Boolean)
        .join('.'),
      message: v.message ?? 'is invalid',
    }));
    return reply.code(400).send({ error: 'validation', message: err.message, fields });
  }
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ error: 'internal', message: 'Internal server error' });
  }
  return reply.code(status).send({ error: FASTIFY_4XX_CODES[status] ?? 'bad_request', message: err.message });
}
