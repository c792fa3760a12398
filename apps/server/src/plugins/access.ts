import type { FastifyInstance, HTTPMethods, preHandlerHookHandler } from 'fastify';
import { requireAdmin, requireUser } from './auth';

// Who may call a route is declared once, in its config, and enforced here for every route — secure
// by default: an /api route that declares nothing needs a signed-in user. Public routes say
// `config: { access: 'public' }`, admin routes `access: 'admin'`. The authorization suite reads the
// same table, so a new route is covered without editing a test.

export type RouteAccess = 'public' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; default 'user' for /api and /ws routes. */
    access?: RouteAccess;
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
}

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url === '/ws';

/** Must be registered before any route. */
export function registerAccessControl(app: FastifyInstance): void {
  const table: ApiRoute[] = [];
  app.decorate('apiRoutes', table);
  app.addHook('onRoute', (route) => {
    if (!isApi(route.url)) return;
    const access: RouteAccess = route.config?.access ?? 'user';
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethods[];
    for (const method of methods) {
      if (method === 'HEAD') continue; // Fastify's automatic HEAD twin of a GET
      table.push({ method, url: route.url, access });
    }
    if (access === 'public') return;
    const guard: preHandlerHookHandler = access === 'admin' ? requireAdmin : requireUser;
    const existing = route.preHandler;
    route.preHandler = [guard, ...(Array.isArray(existing) ? existing : existing ? [existing] : [])];
  });
}
