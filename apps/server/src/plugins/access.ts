import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyRequest,
  HTTPMethods,
  preHandlerHookHandler,
} from 'fastify';
import { EDGE_MESSAGES, publicRouteDoc, type PublicRoute } from '@ledgerpad/shared';
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
  /** The route's OpenAPI documentation, when it declares one (public routes only). */
  docs?: PublicRoute;
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
    const docs = route.config?.docs;
    for (const method of methods) {
      if (method === 'HEAD') continue; // Fastify's automatic HEAD twin of a GET
      if (docs) checkDocs(route.url, method, access, docs);
      table.push({ method, url: route.url, access, ownUser, ...(docs ? { docs } : {}) });
    }
    if (access === 'public') return;
    const guards: preHandlerHookHandler[] =
      access === 'admin' ? [requireAdmin] : ownUser ? [requireUser, requireOwnUser] : [requireUser];
    const existing = route.preHandler;
    route.preHandler = [...guards, ...(Array.isArray(existing) ? existing : existing ? [existing] : [])];
  });
}
