import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { forbidden } from '../lib/errors';
import { METRICS_PATH } from './metrics';

/**
 * Which hosts the server answers and which browser origins may sign in and open the socket.
 *
 * Host: only loopback names (the local app), the host of PUBLIC_ORIGIN, the hosts of
 * ALLOWED_ORIGINS and the address HOST binds to. Anything else is refused on every route: a page
 * on a DNS-rebinding domain (attacker.example resolving to 127.0.0.1) reaches the server with its
 * own name in Host, so "Origin equals Host" alone would let it drive a locally running server.
 *
 * Origin: a configured origin, or the app's own origin — safe once Host is known to be ours.
 */
export interface OriginPolicy {
  isAllowedHost(host: string | undefined): boolean;
  isAllowed(origin: string, request: FastifyRequest): boolean;
  /** preHandler for sign-in routes: Origin must be present and allowed. */
  requireAllowedOrigin(request: FastifyRequest): Promise<void>;
}

const LOOPBACK_NAMES = new Set(['localhost', '::1', '[::1]']);

/** Host header → lower-cased hostname without port ('[::1]:3000' → '[::1]'). */
function hostnameOf(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end === -1 ? h : h.slice(0, end + 1);
  }
  const colon = h.lastIndexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

function isLoopbackHostname(hostname: string): boolean {
  if (LOOPBACK_NAMES.has(hostname) || hostname.endsWith('.localhost')) return true;
  // 127.0.0.0/8, written in the dotted form browsers send.
  return isIP(hostname) === 4 && hostname.startsWith('127.');
}

export function createOriginPolicy(
  config: Pick<Config, 'PUBLIC_ORIGIN' | 'ALLOWED_ORIGINS' | 'HOST'>,
): OriginPolicy {
  const configured = new Set<string>();
  const configuredHosts = new Set<string>();
  for (const o of [config.PUBLIC_ORIGIN, ...config.ALLOWED_ORIGINS]) {
    if (!o) continue;
    const url = new URL(o);
    configured.add(url.origin);
    // Host as browsers send it: with the port unless it is the scheme's default.
    configuredHosts.add(url.host.toLowerCase());
  }
  const bound = config.HOST.toLowerCase();
  const boundName = bound.includes(':') && !bound.startsWith('[') ? `[${bound}]` : bound;
  const wildcard = bound === '0.0.0.0' || bound === '::' || bound === '[::]';

  const isAllowedHost = (host: string | undefined): boolean => {
    if (!host) return false;
    const lower = host.trim().toLowerCase();
    if (configuredHosts.has(lower)) return true;
    const name = hostnameOf(lower);
    if (isLoopbackHostname(name)) return true;
    return !wildcard && name === boundName;
  };

  const isAllowed = (origin: string, request: FastifyRequest): boolean => {
    if (configured.has(origin)) return true;
    return isAllowedHost(request.host) && origin === `${request.protocol}://${request.host}`;
  };
  return {
    isAllowedHost,
    isAllowed,
    async requireAllowedOrigin(request) {
      const origin = request.headers.origin;
      if (!origin || !isAllowed(origin, request)) {
        throw forbidden('Sign-in is only accepted from the Ledgerpad web app (Origin not allowed)');
      }
    },
  };
}

/**
 * The first hook of every request, the socket's upgrade included: a Host we don't serve is 403
 * before sessions, rate limits or routes see it.
 */
export function registerHostCheck(app: FastifyInstance, policy: OriginPolicy): void {
  app.addHook('onRequest', async (request, reply) => {
    if (policy.isAllowedHost(request.host)) return;
    // Prometheus scrapes by an internal address; the route itself demands its bearer token, which
    // a rebinding page cannot know.
    if (request.url === METRICS_PATH) return;
    const message =
      'This host name is not served here. Open Ledgerpad at its configured address (PUBLIC_ORIGIN or ALLOWED_ORIGINS).';
    if (request.headers.upgrade) {
      // A refused WebSocket upgrade: answer on the raw socket and close it (nothing else owns it).
      reply.hijack();
      const body = JSON.stringify({ error: 'forbidden', message });
      request.raw.socket.end(
        `HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    if (request.url.startsWith('/api') || request.url.startsWith('/ws')) {
      throw forbidden(message);
    }
    return reply.code(403).type('text/plain').send(message);
  });
}
