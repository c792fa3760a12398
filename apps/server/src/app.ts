import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Config } from './config';
import type { Database } from './db/client';
import { AppError } from './lib/errors';
import { loadOrCreateSecret } from './lib/secret-file';
import { adminRoutes } from './modules/admin/routes';
import { authRoutes } from './modules/auth/routes';
import { healthRoutes } from './modules/health/routes';
import { userRoutes } from './modules/users/routes';
import { registerWallets } from './modules/wallets/routes';
import { registerSessions } from './plugins/auth';
import { registerCsrf } from './plugins/csrf';
import { createOriginPolicy } from './plugins/origin';
import { registerRateLimits } from './plugins/rate-limit';
import { createMemoryBus, type EventBus } from './realtime/event-bus';
import { createPostgresBus } from './realtime/pg-event-bus';
import { registerRealtime } from './realtime/routes';
import { SPA_ROUTES } from './spa-routes';

/** The ledger connection as the app sees it; built in main.ts (or by tests) around an xrpl.js Client. */
export interface LedgerConnection {
  network: Config['XRPL_NETWORK'];
  url: string;
  isConnected(): boolean;
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
  /** The live-event bus; default: PostgreSQL LISTEN/NOTIFY on PostgreSQL, in-process otherwise. */
  eventBus?: EventBus;
}

/** Builds the whole HTTP app from its dependencies without listening (tests inject requests). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    trustProxy: deps.config.TRUST_PROXY,
    // Request bodies are small JSON documents; uploads go through multipart with their own limit.
    bodyLimit: 1024 * 1024,
  });

  app.setErrorHandler(errorHandler);

  // Order matters: the session hook sets request.user, which the rate-limit keys and CSRF read;
  // rate limits must exist before routes are added (they attach per route).
  const production = deps.config.NODE_ENV === 'production';
  const db = deps.database.db;
  const sessions = await registerSessions(app, { db, production, now: deps.now });
  const limits = await registerRateLimits(app, deps.config);
  registerCsrf(app);
  const origins = createOriginPolicy(deps.config);
  const socketSecret = deps.config.SOCKET_TOKEN_SECRET
    ? Buffer.from(deps.config.SOCKET_TOKEN_SECRET, 'utf8')
    : await loadOrCreateSecret(path.join(deps.config.dataDir, 'socket-token.key'));
  if (!deps.config.SOCKET_TOKEN_SECRET && deps.database.driver === 'postgres') {
    // Several instances on one PostgreSQL each generating their own key would refuse each
    // other's socket tokens behind a load balancer.
    app.log.warn('SOCKET_TOKEN_SECRET is not set: set the same value on every instance');
  }

  const bus = deps.eventBus ?? (await createEventBus(app, deps));
  if (!deps.eventBus) app.addHook('onClose', () => bus.close());
  await registerRealtime(app, { config: deps.config, bus, socketSecret, origins });

  healthRoutes(app, {
    pingDatabase: () => deps.database.ping(),
    databaseDriver: deps.database.driver,
    ledger: deps.ledger,
  });
  authRoutes(app, { config: deps.config, db, sessions, origins, limits, socketSecret });
  userRoutes(app);
  adminRoutes(app);

  // Feature modules register here (one line each).
  await registerWallets(app, deps);

  await registerWeb(app, deps.webDistDir);

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api') {
      return reply
        .code(404)
        .send({ error: 'not_found', message: `No API route ${request.method} ${request.url.split('?')[0]}` });
    }
    return reply.code(404).type('text/plain').send('Not found');
  });

  return app;
}

async function createEventBus(app: FastifyInstance, deps: AppDeps): Promise<EventBus> {
  const wanted = deps.config.EVENT_BUS;
  const postgres = wanted === 'postgres' || (wanted === 'auto' && deps.database.driver === 'postgres');
  if (postgres) return createPostgresBus({ database: deps.database, log: app.log });
  return createMemoryBus((err, topic) => app.log.error({ err, topic }, 'event handler failed'));
}

async function registerWeb(app: FastifyInstance, distDir: string | undefined): Promise<void> {
  const indexFile = distDir ? path.join(distDir, 'index.html') : undefined;
  const built = indexFile !== undefined && existsSync(indexFile);
  if (built && distDir) {
    await app.register(fastifyStatic, { root: distDir, index: false, wildcard: false, prefix: '/' });
  }
  for (const route of SPA_ROUTES) {
    app.get(route, (_req, reply) => {
      if (!built) {
        return reply
          .code(503)
          .type('text/plain')
          .send('The web app is not built. Run `npm run build` (npm start does it for you).');
      }
      // index.html must never be cached: it names the hashed asset files of the current build.
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  }
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
 * The one error handler: AppError codes map to their status; Fastify's own 4xx errors (bad JSON,
 * body too large, schema validation) keep their status with a stable code; anything else is a 500
 * whose body never shows internals.
 */
function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
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
