import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { conflict } from './errors';
import { idempotentRequests } from './idempotency-schema';

// Done once (docs/money.md "Done once"): a state-changing request of a signed-in user that carries
// an `Idempotency-Key` runs once. Its answer is stored with the key; a retry — a double click, a
// page retrying after a timeout, the same request after the server restarted, on any instance —
// gets that answer (with `Idempotent-Replayed: true`) instead of running again. A retry arriving
// while the first still runs waits for it. Modules also derive their ledger intent keys from the
// same key, so a request whose instance died mid-way converges on the same transactions when it is
// run again after its lease.

/**
 * A running request holds its key for this long and renews it while it runs, so when its instance
 * dies (kill -9) a retry runs it again within seconds instead of waiting for a long timeout.
 */
const LEASE_MS = 6_000;
const RENEW_MS = 2_000;
const POLL_MS = 50;

const IDEMPOTENCY_MESSAGES = {
  reused: 'This Idempotency-Key was already used for a different request.',
} as const;

const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface Owned {
  userId: number;
  key: string;
}

const hashBody = (body: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');

export function registerIdempotency(app: FastifyInstance, db: Db): void {
  const owned = new WeakMap<FastifyRequest, Owned>();
  const running = new Map<string, Promise<void>>();
  const settle = new Map<string, () => void>();
  const renewals = new Map<string, NodeJS.Timeout>();

  const load = async (userId: number, key: string) =>
    (
      await db
        .select()
        .from(idempotentRequests)
        .where(and(eq(idempotentRequests.userId, userId), eq(idempotentRequests.key, key)))
    )[0];

  /** Extends a running request's lease (when `also` holds too); returns the rows it extended. */
  const extendLease = (userId: number, key: string, also?: SQL) =>
    db
      .update(idempotentRequests)
      .set({ leaseUntil: new Date(Date.now() + LEASE_MS) })
      .where(
        and(
          eq(idempotentRequests.userId, userId),
          eq(idempotentRequests.key, key),
          eq(idempotentRequests.state, 'running'),
          also,
        ),
      )
      .returning({ key: idempotentRequests.key });

  // After authentication, CSRF and the edge checks (preValidation), before any route's handler.
  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || !request.user || !WRITE.has(request.method)) return;
    if (!request.url.startsWith('/api/') || request.routeOptions.config?.csrf === false) return;
    const userId = request.user.id;
    const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
    const bodyHash = hashBody(request.body);
    const local = `${userId}:${key}`;
    for (;;) {
      // The same key running in this process: wait for it rather than polling the database.
      await running.get(local);
      const claimed = await db
        .insert(idempotentRequests)
        .values({
          userId,
          key,
          route,
          bodyHash,
          state: 'running',
          leaseUntil: new Date(Date.now() + LEASE_MS),
        })
        .onConflictDoNothing()
        .returning({ key: idempotentRequests.key });
      let row = claimed.length ? undefined : await load(userId, key);
      if (row && (row.route !== route || row.bodyHash !== bodyHash))
        throw conflict(IDEMPOTENCY_MESSAGES.reused);
      if (row?.state === 'done') {
        reply
          .code(row.statusCode ?? 200)
          .header('idempotent-replayed', 'true')
          .header('cache-control', 'private, no-store');
        return reply.send(row.response);
      }
      if (row) {
        // Running elsewhere: take it over only when its lease ran out (its instance is gone).
        const taken = await extendLease(userId, key, lt(idempotentRequests.leaseUntil, sql`now()`));
        if (!taken.length) {
          if (!running.has(local)) await new Promise((r) => setTimeout(r, POLL_MS));
          continue;
        }
        row = undefined;
      }
      owned.set(request, { userId, key });
      running.set(local, new Promise<void>((resolve) => settle.set(local, resolve)));
      const timer = setInterval(() => {
        void extendLease(userId, key).catch(() => undefined);
      }, RENEW_MS);
      timer.unref();
      renewals.set(local, timer);
      return;
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const own = owned.get(request);
    if (!own) return payload;
    owned.delete(request);
    const local = `${own.userId}:${own.key}`;
    try {
      const where = and(eq(idempotentRequests.userId, own.userId), eq(idempotentRequests.key, own.key));
      if (reply.statusCode >= 500) {
        // Nothing final to replay: a retry runs again (the ledger intents converge).
        await db.delete(idempotentRequests).where(where);
      } else {
        let response: unknown = null;
        if (typeof payload === 'string') {
          try {
            response = JSON.parse(payload);
          } catch {
            response = payload;
          }
        }
        await db
          .update(idempotentRequests)
          .set({ state: 'done', statusCode: reply.statusCode, response: response as never })
          .where(where);
      }
    } finally {
      clearInterval(renewals.get(local));
      renewals.delete(local);
      running.delete(local);
      settle.get(local)?.();
      settle.delete(local);
    }
    return payload;
  });
}
