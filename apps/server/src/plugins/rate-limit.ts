import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { rateLimited } from '../lib/errors';
import { sharedRateLimitStore, type SharedCounters } from './rate-limit-store';

/** Limits key on the user when signed in (shared NATs stay usable), else on the client IP. */
const userOrIpKey = (request: FastifyRequest): string =>
  request.user ? `u:${request.user.id}` : `ip:${request.ip}`;
const ipKey = (request: FastifyRequest): string => `ip:${request.ip}`;

const MINUTE = 60_000;

/** The web client's backoff keys on the text 'Too Many Requests' and the Retry-After header. */
const tooMany = (retryAfterSeconds: number) =>
  rateLimited(`Too Many Requests: retry in ${retryAfterSeconds} s`, {
    retryAfter: retryAfterSeconds,
  });

/**
 * Public reads whose answer is computed per distinct question rather than served from the
 * per-ledger snapshot or read cache for everyone: a quote (simulated on the ledger), chart history
 * for any range, a token's trades, risk, holders, pool and order reads, searches and bulk lookups.
 * A client varying the parameters gets a fresh computation each time, so they share a tighter
 * limit (RATE_LIMIT_EXPENSIVE_PER_MIN per user or anonymous IP) on top of the global one. Listed
 * here (Fastify's route patterns), in one place, rather than flagged in each module's routes.
 */
const EXPENSIVE_ROUTES: ReadonlySet<string> = new Set([
  '/api/amm-info',
  '/api/amm_info',
  '/api/tradingview/history',
  '/api/holders',
  '/api/tokens/:issuer/trades',
  '/api/tokens/:issuer/risk',
  '/api/gateway-balances',
  '/api/blackhole-status/bulk',
  '/api/swapsearch/search-tokens/:query',
  '/api/wallets/open-orders/:issuer/:ticker',
]);

export interface RateLimits {
  /** Route config for sign-in endpoints: per IP, RATE_LIMIT_AUTH_PER_MIN. */
  auth: { max: number; timeWindow: number; keyGenerator: (r: FastifyRequest) => string };
  demo: { max: number; timeWindow: number; keyGenerator: (r: FastifyRequest) => string };
}

/** How often an instance deletes the shared counters of windows long over. */
const SWEEP_MS = 60_000;

/**
 * Registers the global per-user/IP limit (every route) and a tighter one for state-changing
 * requests. Must be registered after the session hook (keys use request.user) and before routes.
 * With `shared` (PostgreSQL), every limit — these, the sign-in and upload routes' own — counts in
 * the database every instance uses (rate-limit-store.ts); without it, in this process's memory.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  config: Pick<
    Config,
    | 'RATE_LIMIT_AUTH_PER_MIN'
    | 'RATE_LIMIT_DEMO_PER_MIN'
    | 'RATE_LIMIT_READ_PER_MIN'
    | 'RATE_LIMIT_WRITE_PER_MIN'
    | 'RATE_LIMIT_EXPENSIVE_PER_MIN'
  >,
  shared?: SharedCounters,
): Promise<RateLimits> {
  if (shared) {
    // An owned loop: started with the app, stopped (and its statement awaited) when it closes.
    let timer: NodeJS.Timeout | undefined;
    let sweeping: Promise<unknown> = Promise.resolve();
    app.addHook('onReady', async () => {
      timer = setInterval(() => {
        sweeping = shared.sweep().catch((err: unknown) => app.log.warn({ err }, 'rate-limit sweep failed'));
      }, SWEEP_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await sweeping;
    });
  }
  await app.register(fastifyRateLimit, {
    // A limiter that cannot count (the database is unreachable) lets the request through: the
    // routes that matter need the database anyway, and the health check reports it.
    ...(shared ? { store: sharedRateLimitStore(shared), skipOnError: true } : {}),
    global: true,
    max: config.RATE_LIMIT_READ_PER_MIN,
    timeWindow: MINUTE,
    keyGenerator: userOrIpKey,
    errorResponseBuilder: (_req, ctx) => tooMany(Math.max(1, Math.ceil(ctx.ttl / 1000))),
  });
  const writeLimiter = app.createRateLimit({
    max: config.RATE_LIMIT_WRITE_PER_MIN,
    timeWindow: MINUTE,
    keyGenerator: userOrIpKey,
  });
  const expensiveLimiter = app.createRateLimit({
    max: config.RATE_LIMIT_EXPENSIVE_PER_MIN,
    timeWindow: MINUTE,
    keyGenerator: userOrIpKey,
  });
  // An expensive read is counted as it arrives, in the same turn of the event loop as the global
  // limit's count (that hook runs right after this one), so with the shared store both land in one
  // statement instead of two round trips in a row (issue 40: the worst public read's CPU). Its answer
  // is awaited before the body is read, as before.
  const expensiveCounts = new WeakMap<FastifyRequest, ReturnType<typeof expensiveLimiter>>();
  app.addHook('onRequest', async (request) => {
    if (!EXPENSIVE_ROUTES.has(request.routeOptions.url ?? '')) return;
    const counted = expensiveLimiter(request);
    // Refused by the global limit first: this count is then never awaited below.
    counted.catch(() => undefined);
    expensiveCounts.set(request, counted);
  });
  app.addHook('preParsing', async (request, reply, payload) => {
    const counted = expensiveCounts.get(request);
    if (!counted) return payload;
    const result = await counted;
    if (!result.isAllowed && result.isExceeded) {
      reply.header('retry-after', result.ttlInSeconds);
      throw tooMany(result.ttlInSeconds);
    }
    return payload;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    if (request.routeOptions.config?.rateLimit) return; // sign-in routes have their own limit
    const result = await writeLimiter(request);
    if (!result.isAllowed && result.isExceeded) {
      reply.header('retry-after', result.ttlInSeconds);
      throw tooMany(result.ttlInSeconds);
    }
  });
  return {
    auth: { max: config.RATE_LIMIT_AUTH_PER_MIN, timeWindow: MINUTE, keyGenerator: ipKey },
    demo: { max: config.RATE_LIMIT_DEMO_PER_MIN, timeWindow: MINUTE, keyGenerator: ipKey },
  };
}
