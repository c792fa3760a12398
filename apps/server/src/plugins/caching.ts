import type { FastifyInstance } from 'fastify';

const PRIVATE_NO_STORE = 'private, no-store';

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url === '/ws';

/**
 * Every answer of a signed-in route (access 'user' or 'admin', whatever its status) and every API
 * answer to a request with a session defaults to `Cache-Control: private, no-store`: a wallet seed,
 * a balance or a CSRF token must never sit in a shared cache or the browser's disk cache. A route
 * that sets its own header keeps it (public market data).
 */
export function registerPrivateCaching(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.hasHeader('cache-control') || !isApi(request.url.split('?')[0]!)) return payload;
    const access = request.routeOptions.url ? (request.routeOptions.config?.access ?? 'user') : 'public';
    if (access !== 'public' || request.session) reply.header('cache-control', PRIVATE_NO_STORE);
    return payload;
  });
}
