import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyRequest,
  HTTPMethods,
  preHandlerHookHandler,
} from 'fastify';
import { EDGE_MESSAGES, publicRouteDoc, type PublicRoute, type RouteSchemas } from '@ledgerpad/shared';
import { forbidden } from '../lib/errors';
import { requireAdmin, requireUser } from './auth';
import { idParam } from './edge';

// Who may call a route is declared once, in its config, and enforced here for every route — secure
// by default: an /api route that declares nothing needs a signed-in user. Public routes say
// `config: { access: 'public' }`, admin routes `access: 'admin'`. The authorization suite reads the
// same table, so a new route is covered without editing a test.
//
// A signed-in route whose path names a user (`/api/positions/:userId`) is checked here too, once for
// all: the id is parsed with the shared id rule (400) and must be the caller's own (403, one
// sentence, EDGE_MESSAGES.notOwnUser). A path id is never a way to read someone else's data; the
// handler reads the caller's id from the session.

export type RouteAccess = 'public' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; default 'user' for /api and /ws routes. */
    access?: RouteAccess;
    /**
     * A public route's documentation (summary, parameters, response schema from packages/shared):
     * GET /api/docs is generated from the routes that declare one (modules/api-docs).
     */
    docs?: PublicRoute;
    /**
     * Any other route's summary, body and response schemas (packages/shared; `declared(…)`): its
     * OpenAPI operation is generated from them and the route's URL (issue 41).
     */
    schemas?: RouteSchemas;
  }
  interface FastifyInstance {
    /** Every API route with its declared access (for the authorization suite and audits). */
    apiRoutes: ApiRoute[];
  }
}

export interface ApiRoute {
  method: HTTPMethods;
  url: string;
  access: RouteAccess;
  /** The path names a user (`:userId`) that must be the caller's own. */
  ownUser: boolean;
  /**
   * The route's OpenAPI documentation, when it declares one: a public catalogue entry
   * (`documented`), or its own schemas with the path and path parameters of its URL (`declared`).
   */
  docs?: PublicRoute;
  /** A write that needs the session's CSRF token (every unsafe method unless `csrf: false`). */
  csrf: boolean;
}

/** Fastify's `/api/tokens/:issuer` as OpenAPI writes it, `/api/tokens/{issuer}`. */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/**
 * The options of a public route that GET /api/docs documents: `app.get('/api/tokens/:issuer/stats',
 * documented('/api/tokens/{issuer}/stats'), …)`. The summary, parameters and response schema are the
 * route's entry in packages/shared (public-api.ts); `config` adds route settings (rate limit, CSRF).
 */
export function documented(
  path: string,
  opts: { method?: 'get' | 'post'; config?: Omit<FastifyContextConfig, 'access' | 'docs'> } = {},
): { config: FastifyContextConfig } {
  return { config: { ...opts.config, access: 'public', docs: publicRouteDoc(path, opts.method) } };
}

type RouteConfig = Omit<FastifyContextConfig, 'access' | 'docs' | 'schemas'>;

/**
 * The options of any other /api route: who may call it and its schemas from packages/shared —
 * `app.get('/api/referrals/me', declared('user', { summary, response: referralSummarySchema }), …)`.
 * GET /api/docs documents it (with its security: the session cookie, and the CSRF token on a write).
 */
export function declared(
  access: RouteAccess,
  schemas: RouteSchemas,
  config: RouteConfig = {},
): { config: FastifyContextConfig } {
  return { config: { ...config, access, schemas } };
}

/** A `declared` route's documentation: its path and path parameters are its URL's. */
function docOfSchemas(url: string, method: HTTPMethods, schemas: RouteSchemas): PublicRoute {
  const { query = [], ...rest } = schemas;
  return {
    ...rest,
    path: openApiPath(url),
    method: method.toLowerCase() as PublicRoute['method'],
    parameters: [
      ...[...url.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1]!, in: 'path' as const, required: true })),
      ...query.map((p) => ({ ...p, in: 'query' as const })),
    ],
  };
}

const UNSAFE_METHODS = new Set<HTTPMethods>(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A route's declared documentation must be of this route: same path, same method, public. */
function checkDocs(url: string, method: HTTPMethods, access: RouteAccess, docs: PublicRoute): void {
  const same = docs.path === openApiPath(url) && (docs.method ?? 'get') === method.toLowerCase();
  if (!same || access !== 'public') {
    throw new Error(`${method} ${url} declares the documentation of ${docs.method ?? 'get'} ${docs.path}`);
  }
}

/** The path parameter that names a user. */
const USER_PARAM = 'userId';

/** preHandler (after requireUser): 400 for a malformed `:userId`, 403 unless it is the caller's id. */
async function requireOwnUser(request: FastifyRequest): Promise<void> {
  if (idParam(request, USER_PARAM) !== request.user!.id) throw forbidden(EDGE_MESSAGES.notOwnUser);
}

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url === '/ws';

/** Must be registered before any route. */
export function registerAccessControl(app: FastifyInstance): void {
  const table: ApiRoute[] = [];
  app.decorate('apiRoutes', table);
  app.addHook('onRoute', (route) => {
    if (!isApi(route.url)) return;
    const access: RouteAccess = route.config?.access ?? 'user';
    const ownUser = access === 'user' && route.url.includes(`:${USER_PARAM}`);
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethods[];
    const { docs: publicDocs, schemas } = route.config ?? {};
    for (const method of methods) {
      if (method === 'HEAD') continue; // Fastify's automatic HEAD twin of a GET
      if (publicDocs) checkDocs(route.url, method, access, publicDocs);
      const docs = publicDocs ?? (schemas ? docOfSchemas(route.url, method, schemas) : undefined);
      const csrf = UNSAFE_METHODS.has(method) && route.config?.csrf !== false;
      table.push({ method, url: route.url, access, ownUser, csrf, ...(docs ? { docs } : {}) });
    }
    if (access === 'public') return;
    const guards: preHandlerHookHandler[] =
      access === 'admin' ? [requireAdmin] : ownUser ? [requireUser, requireOwnUser] : [requireUser];
    const existing = route.preHandler;
    route.preHandler = [...guards, ...(Array.isArray(existing) ? existing : existing ? [existing] : [])];
  });
}
