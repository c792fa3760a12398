import { and, desc, eq, inArray, lt, or } from 'drizzle-orm';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { batchedRead } from '../db/batched';
import type { Db } from '../db/client';
import { sha256Hex, randomToken } from '../lib/crypto';
import { forbidden, unauthorized } from '../lib/errors';
import { sessions, users, type SessionRow, type UserRow } from '../db/schema';

// Sessions live in the database so any instance can serve any user. The cookie holds a random
// 32-byte token; the table holds only its SHA-256.

const SESSION_IDLE_MS = 7 * 24 * 3600_000;
const SESSION_ABSOLUTE_MS = 30 * 24 * 3600_000;
/** Sliding expiry without a write per request: last_seen_at moves at most once an hour. */
const SESSION_TOUCH_MS = 3600_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user's row, or null for anonymous requests. */
    user: UserRow | null;
    /** The current session row (holds the CSRF token), or null. */
    session: SessionRow | null;
    /** Whether the signed-in user is in the admins table (one query, cached per request). */
    isAdmin(): Promise<boolean>;
  }
}

export interface SessionOptions {
  db: Db;
  production: boolean;
  /** Sessions one user may hold; a sign-in beyond it revokes the oldest (SESSIONS_PER_USER). */
  maxPerUser: number;
  /** Clock for tests of expiry; defaults to Date.now. */
  now?: () => number;
  /** Whether a user is an admin (the admin module's answer, injected: plugins import no module). */
  isAdmin(userId: number): Promise<boolean>;
}

const sessionCookieName = (production: boolean): string =>
  production ? '__Host-ledgerpad_session' : 'ledgerpad_session';

export interface SessionManager {
  cookieName: string;
  /** Rotates: deletes the request's current session (if any), creates a new one and sets the cookie. */
  signIn(request: FastifyRequest, reply: FastifyReply, userId: number): Promise<SessionRow>;
  signOut(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Called with the ids of sessions ended (sign-out, the per-user cap, a rotation at sign-in). */
  onRevoked(listener: (sessionIds: number[]) => void): void;
  /** Whether a session still exists (its socket tokens are honoured only while it does). */
  isLive(sessionId: number): Promise<boolean>;
}

export async function registerSessions(app: FastifyInstance, opts: SessionOptions): Promise<SessionManager> {
  const { db } = opts;
  const now = opts.now ?? Date.now;
  const cookieName = sessionCookieName(opts.production);
  const cookieOptions = {
    httpOnly: true,
    sameSite: 'lax' as const,
    path: '/',
    secure: opts.production,
  };
  const adminCache = new WeakMap<FastifyRequest, Promise<boolean>>();
  // Every signed-in request reads its session: the requests of one turn read theirs together.
  const sessionByHash = batchedRead(async (hashes: string[]) => {
    const rows = await db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(inArray(sessions.tokenHash, hashes));
    return new Map(rows.map((r) => [r.session.tokenHash, r]));
  });

  await app.register(fastifyCookie);
  app.decorateRequest('user', null);
  app.decorateRequest('session', null);
  app.decorateRequest('isAdmin', function (this: FastifyRequest) {
    const user = this.user;
    if (!user) return Promise.resolve(false);
    let cached = adminCache.get(this);
    if (!cached) {
      cached = opts.isAdmin(user.id);
      adminCache.set(this, cached);
    }
    return cached;
  });

  app.addHook('onRequest', async (request, reply) => {
    // Pages and static assets don't need the user: no database read for them.
    if (!request.url.startsWith('/api') && !request.url.startsWith('/ws')) return;
    const token = request.cookies[cookieName];
    if (!token || token.length > 128) return;
    const row = await sessionByHash(sha256Hex(token));
    // Two requests of one session in a turn share the row: each gets its own copy to change.
    const found = row && { session: { ...row.session }, user: { ...row.user } };
    if (!found) {
      reply.clearCookie(cookieName, cookieOptions);
      return;
    }
    const t = now();
    const idleFor = t - found.session.lastSeenAt.getTime();
    const age = t - found.session.createdAt.getTime();
    if (idleFor > SESSION_IDLE_MS || age > SESSION_ABSOLUTE_MS) {
      await db.delete(sessions).where(eq(sessions.id, found.session.id));
      reply.clearCookie(cookieName, cookieOptions);
      return;
    }
    if (idleFor > SESSION_TOUCH_MS) {
      const lastSeenAt = new Date(t);
      await db.update(sessions).set({ lastSeenAt }).where(eq(sessions.id, found.session.id));
      found.session.lastSeenAt = lastSeenAt;
    }
    request.user = found.user;
    request.session = found.session;
  });

  // Expired sessions are deleted when presented; ones never presented again are swept at sign-in
  // (at most once an hour per instance), so no background job is needed for them.
  let lastSweep = 0;
  const sweepExpired = async (t: number) => {
    if (t - lastSweep < SESSION_TOUCH_MS) return;
    lastSweep = t;
    await db
      .delete(sessions)
      .where(
        or(
          lt(sessions.lastSeenAt, new Date(t - SESSION_IDLE_MS)),
          lt(sessions.createdAt, new Date(t - SESSION_ABSOLUTE_MS)),
        ),
      );
  };

  const revokedListeners = new Set<(ids: number[]) => void>();
  const revoked = (ids: number[]) => {
    if (ids.length === 0) return;
    for (const l of revokedListeners) {
      try {
        l(ids);
      } catch (err) {
        app.log.warn({ err }, 'session revocation listener failed');
      }
    }
  };

  return {
    cookieName,
    onRevoked: (listener) => void revokedListeners.add(listener),
    isLive: async (sessionId) => {
      const rows = await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(eq(sessions.id, sessionId))
        .limit(1);
      return rows.length > 0;
    },
    async signIn(request, reply, userId) {
      await sweepExpired(now());
      if (request.session) {
        await db.delete(sessions).where(eq(sessions.id, request.session.id));
        revoked([request.session.id]);
      }
      const token = randomToken(32);
      const created = new Date(now());
      const [row] = await db
        .insert(sessions)
        .values({
          tokenHash: sha256Hex(token),
          userId,
          csrfToken: randomToken(32),
          createdAt: created,
          lastSeenAt: created,
          userAgent: request.headers['user-agent']?.slice(0, 512) ?? null,
          ip: request.ip,
        })
        .returning();
      if (!row) throw new Error('session insert returned no row');
      // At most maxPerUser sessions per user: the oldest beyond it end now (their sockets close).
      const surplus = await db
        .delete(sessions)
        .where(
          and(
            eq(sessions.userId, userId),
            inArray(
              sessions.id,
              db
                .select({ id: sessions.id })
                .from(sessions)
                .where(eq(sessions.userId, userId))
                .orderBy(desc(sessions.createdAt), desc(sessions.id))
                .offset(opts.maxPerUser),
            ),
          ),
        )
        .returning({ id: sessions.id });
      revoked(surplus.map((r) => r.id));
      reply.setCookie(cookieName, token, { ...cookieOptions, maxAge: SESSION_ABSOLUTE_MS / 1000 });
      request.session = row;
      return row;
    },
    async signOut(request, reply) {
      if (request.session) {
        await db
          .delete(sessions)
          .where(and(eq(sessions.id, request.session.id), eq(sessions.userId, request.session.userId)));
        revoked([request.session.id]);
      }
      request.user = null;
      request.session = null;
      reply.clearCookie(cookieName, cookieOptions);
    },
  };
}

/** preHandler: 401 unless signed in. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.user) throw unauthorized('Sign in required');
}

/** preHandler: 401 anonymous, 403 unless the user is an admin. */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (!request.user) throw unauthorized('Sign in required');
  if (!(await request.isAdmin())) throw forbidden('Admins only');
}
