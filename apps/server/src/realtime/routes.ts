import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { NewTrade, OrderUpdated } from '@ledgerpad/shared';
import type { Config } from '../config';
import { forbidden, rateLimited, unauthorized } from '../lib/errors';
import type { OriginPolicy } from '../plugins/origin';
import type { EventBus } from './event-bus';
import { SocketHub } from './hub';
import { SESSIONS_REVOKED_TOPIC } from './topics';

/** What feature modules use to push live events (to sockets on every instance, via the bus). */
export interface Realtime {
  bus: EventBus;
  hub: SocketHub;
  publishTrade(trade: NewTrade): Promise<void>;
  /** Reaches only the sockets of `userId`. */
  publishOrderUpdate(userId: number, update: OrderUpdated): Promise<void>;
  /** Closes the sockets of ended sessions on every instance. */
  sessionsRevoked(sessionIds: number[]): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

/** What a socket token says: the user (null: anonymous visitor) and the session it was issued to. */
export interface SocketClaims {
  sub: number | null;
  /**
   * The session the token was issued to (null for anonymous visitors): the socket is refused once
   * that session has ended, and closed when it ends while open (sign-out).
   */
  sid: number | null;
  /** Expiry, milliseconds since the epoch. */
  exp: number;
}

export interface RealtimeDeps {
  config: Pick<
    Config,
    'WS_MAX_BUFFERED_BYTES' | 'WS_HEARTBEAT_MS' | 'WS_MAX_MESSAGES_PER_SEC' | 'WS_MAX_CONNECTIONS_PER_IP'
  >;
  bus: EventBus;
  /**
   * The claims a socket token carries, or null when it is forged, expired or malformed (the auth
   * module's check, injected: realtime imports no module).
   */
  verifySocketToken(token: string): SocketClaims | null;
  origins: OriginPolicy;
  /** Whether the session a user's token names still exists (signed out: refused). */
  sessionLive(sessionId: number): Promise<boolean>;
}

const SOCKET_CAP_RETRY_AFTER_S = 30;

/** Client frames are tiny subscribe/unsubscribe messages; anything bigger is abuse. */
const MAX_CLIENT_FRAME_BYTES = 4096;

export async function registerRealtime(app: FastifyInstance, deps: RealtimeDeps): Promise<Realtime> {
  const hub = new SocketHub({
    bus: deps.bus,
    maxBufferedBytes: deps.config.WS_MAX_BUFFERED_BYTES,
    heartbeatMs: deps.config.WS_HEARTBEAT_MS,
    maxMessagesPerSecond: deps.config.WS_MAX_MESSAGES_PER_SEC,
    log: app.log,
  });
  const claimsOf = new WeakMap<FastifyRequest, SocketClaims>();
  // Open sockets per client IP, so one address can't hold thousands of idle sockets.
  const perIp = new Map<string, number>();

  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_CLIENT_FRAME_BYTES, perMessageDeflate: false },
  });

  app.get(
    '/ws',
    {
      websocket: true,
      // Public: the short-lived socket token, checked below, is the credential.
      config: { csrf: false, access: 'public' },
      // Runs before the upgrade: a refused socket gets a plain HTTP 401/403, never a connection.
      preValidation: async (request, reply) => {
        // Browsers always send Origin on WebSocket handshakes; non-browser clients (no Origin) are
        // not exposed to cross-site hijacking and still need a valid token.
        const origin = request.headers.origin;
        if (origin && !deps.origins.isAllowed(origin, request)) {
          throw forbidden('Origin not allowed');
        }
        if ((perIp.get(request.ip) ?? 0) >= deps.config.WS_MAX_CONNECTIONS_PER_IP) {
          // A slot frees when one of this address's sockets closes; clients back off and retry.
          reply.header('retry-after', String(SOCKET_CAP_RETRY_AFTER_S));
          throw rateLimited('Too Many Requests: too many open sockets from this address', {
            retryAfter: SOCKET_CAP_RETRY_AFTER_S,
          });
        }
        const token = (request.query as Record<string, unknown>).token;
        const claims = typeof token === 'string' ? deps.verifySocketToken(token) : null;
        if (!claims) throw unauthorized('Invalid or expired socket token');
        if (claims.sid !== null && !(await deps.sessionLive(claims.sid))) {
          throw unauthorized('This session has ended; sign in again');
        }
        claimsOf.set(request, claims);
      },
    },
    (socket, request) => {
      const ip = request.ip;
      perIp.set(ip, (perIp.get(ip) ?? 0) + 1);
      socket.once('close', () => {
        const n = (perIp.get(ip) ?? 1) - 1;
        if (n <= 0) perIp.delete(ip);
        else perIp.set(ip, n);
      });
      const claims = claimsOf.get(request);
      hub.accept(socket, claims?.sub ?? null, claims?.sid ?? null);
    },
  );

  // A session that ends on any instance closes its sockets on every instance.
  const unsubscribeRevoked = deps.bus.subscribe(SESSIONS_REVOKED_TOPIC, (payload) => {
    const ids = (payload as { ids?: unknown }).ids;
    if (Array.isArray(ids)) hub.closeSessions(ids.filter((id): id is number => typeof id === 'number'));
  });
  app.addHook('preClose', async () => unsubscribeRevoked());

  const realtime: Realtime = {
    bus: deps.bus,
    hub,
    sessionsRevoked: async (ids) => {
      // This instance's sockets close at once; the bus carries it to the others.
      hub.closeSessions(ids);
      await deps.bus.publish(SESSIONS_REVOKED_TOPIC, { ids });
    },
    publishTrade: (trade) => hub.publishTrade(trade),
    publishOrderUpdate: (userId, update) => hub.publishOrderUpdate(userId, update),
  };
  app.decorate('realtime', realtime);
  app.addHook('preClose', async () => hub.close());
  return realtime;
}
