import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { SECRET_MESSAGES } from '@ledgerpad/shared';
import { batchedCall, batchedWrite } from '../db/batched';
import type { Database } from '../db/client';
import { conflict } from './errors';
import { idempotentRequests, secretPurges } from './idempotency-schema';
import { secretsOf, withoutSecrets } from './secrets';

// Done once (docs/money.md "Done once"): a state-changing request of a signed-in user that carries
// an `Idempotency-Key` runs once. Its answer is stored with the key; a retry — a double click, a
// page retrying after a timeout, the same request after the server restarted, on any instance —
// gets that answer (with `Idempotent-Replayed: true`) instead of running again. A retry arriving
// while the first still runs waits for it. Modules also derive their ledger intent keys from the
// same key, so a request whose instance died mid-way converges on the same transactions when it is
// run again after its lease.
//
// What is stored never carries a secret: a created wallet's seed is in the first answer only. The
// stored copy drops every secret field (and any seed or request secret echoed elsewhere in it), and
// says so: a replay answers the same wallet with `secret_shown_once` and a notice. Rows expire 24 h
// after they were made: a key older than that runs as new, and every instance's sweep deletes them.

/**
 * A running request holds its key for this long and renews it while it runs, so when its instance
 * dies (kill -9) a retry runs it again within seconds instead of waiting for a long timeout.
 */
const LEASE_MS = 6_000;
const RENEW_MS = 2_000;
const POLL_MS = 50;
/** How long an answer is kept and replayed (Stripe's rule too): after it, the row is deleted. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How often each instance deletes expired rows (a plain DELETE: instances never get in each other's way). */
const SWEEP_MS = 10 * 60 * 1000;
const SWEEP_BATCH = 1000;

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

/**
 * `column` (a row's creation time) is within an Idempotency-Key's life: a row a request recorded
 * under its key is that request's effect only for as long as the key itself is remembered.
 */
export function withinKeyLife(column: AnyPgColumn): SQL {
  return sql`${column} > now() - ${IDEMPOTENCY_TTL_MS} * interval '1 millisecond'`;
}

/** The answer as it may be stored: no secret, and a note where one was left out. */
export function storableAnswer(response: unknown, requestBody: unknown): unknown {
  const { value, removed } = withoutSecrets(response, secretsOf(requestBody));
  if (!removed.length || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return { ...value, secret_shown_once: true, secret_notice: SECRET_MESSAGES.shownOnce };
}

export interface IdempotencyStore {
  /** Deletes every row older than the TTL; resolves with how many went. */
  sweep(): Promise<number>;
  /** Runs a purge a migration asked for (see purgeStoredSecrets); undefined when none is pending. */
  purgeStoredSecrets(): Promise<PurgeReport | undefined>;
}

export interface IdempotencyOptions {
  /** Milliseconds between two sweeps of this instance; 0 stops the loop (tests sweep by hand). */
  sweepMs?: number;
  log?: FastifyBaseLogger;
}

export function registerIdempotency(
  app: FastifyInstance,
  database: Database,
  opts: IdempotencyOptions = {},
): IdempotencyStore {
  const db = database.db;
  const log = opts.log ?? app.log;
  const owned = new WeakMap<FastifyRequest, Owned>();
  const running = new Map<string, Promise<void>>();
  const settle = new Map<string, () => void>();
  /**
   * The keys this process runs, renewed together: one statement every RENEW_MS for all of them.
   * One timer and one UPDATE per running request cost a hot launch's 1,000 requests 500 statements a
   * second on a database that runs one at a time (issue 40: a third of PGlite's time at 100 users,
   * growing with the number of requests times how long they wait).
   */
  const renewing = new Map<string, Owned>();
  let renewTimer: NodeJS.Timeout | undefined;
  const renewAll = async () => {
    const owners = [...renewing.values()];
    if (!owners.length) return;
    await db.execute(sql`
      update ${idempotentRequests} as r
         set lease_until = ${new Date(Date.now() + LEASE_MS).toISOString()}::timestamptz
        from (select unnest(${sql.param(owners.map((o) => o.userId))}::int[]) as user_id,
                     unnest(${sql.param(owners.map((o) => o.key))}::text[]) as key) as v
       where r.user_id = v.user_id and r.key = v.key and r.state = 'running'`);
  };
  const startRenewing = (local: string, own: Owned) => {
    renewing.set(local, own);
    if (renewTimer) return;
    renewTimer = setInterval(() => {
      void renewAll().catch(() => undefined);
    }, RENEW_MS);
    renewTimer.unref();
  };
  const stopRenewing = (local: string) => {
    renewing.delete(local);
    if (renewing.size || !renewTimer) return;
    clearInterval(renewTimer);
    renewTimer = undefined;
  };

  // A burst of requests (issue 40's hot launch: a thousand buys, a key each) claims its keys in one
  // insert per turn and stores its answers in one update per turn, not one statement each.
  const claim = batchedCall(
    async (items: Array<{ userId: number; key: string; route: string; bodyHash: string }>) => {
      const claimed = await db
        .insert(idempotentRequests)
        .values(
          items.map((i) => ({
            ...i,
            state: 'running',
            leaseUntil: new Date(Date.now() + LEASE_MS),
          })),
        )
        .onConflictDoNothing()
        .returning({ userId: idempotentRequests.userId, key: idempotentRequests.key });
      // A key asked twice in one turn: the first asker has it, the other finds it running.
      const got = new Set(claimed.map((c) => `${c.userId}:${c.key}`));
      return items.map((i) => got.delete(`${i.userId}:${i.key}`));
    },
  );
  const storeAnswers = batchedWrite(
    async (items: Array<{ userId: number; key: string; statusCode: number; response: unknown }>) => {
      const values = items.map(
        (i) =>
          sql`(${i.userId}::int, ${i.key}::text, ${i.statusCode}::int, ${i.response == null ? null : JSON.stringify(i.response)}::jsonb)`,
      );
      await db.execute(sql`
        update ${idempotentRequests} as r
           set state = 'done', status_code = v.status_code, response = v.response
          from (values ${sql.join(values, sql`, `)}) as v(user_id, key, status_code, response)
         where r.user_id = v.user_id and r.key = v.key`);
    },
  );

  const expired = sql`not ${withinKeyLife(idempotentRequests.createdAt)}`;
  const load = async (userId: number, key: string) =>
    (
      await db
        .select({ row: idempotentRequests, expired: sql<boolean>`${expired}` })
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
      const claimed = await claim({ userId, key, route, bodyHash });
      const found = claimed ? undefined : await load(userId, key);
      if (found?.expired) {
        // Past its 24 h: deleted on sight (the sweep would have), and the request runs as new.
        await db
          .delete(idempotentRequests)
          .where(and(eq(idempotentRequests.userId, userId), eq(idempotentRequests.key, key), expired));
        continue;
      }
      let row = found?.row;
      if (row && (row.route !== route || row.bodyHash !== bodyHash))
        throw conflict(IDEMPOTENCY_MESSAGES.reused);
      if (row?.state === 'done') {
        reply
          .code(row.statusCode ?? 200)
          .header('idempotent-replayed', 'true')
          .header('cache-control', 'private, no-store');
        // Stored without secrets; scrubbed again on the way out, for a row an older version wrote
        // (an instance not yet upgraded during a rolling upgrade).
        return reply.send(storableAnswer(row.response, null));
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
      startRenewing(local, { userId, key });
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
        // The first answer goes out whole (the seed, once); the stored copy never holds a secret.
        await storeAnswers({
          userId: own.userId,
          key: own.key,
          statusCode: reply.statusCode,
          response: storableAnswer(response, request.body),
        });
      }
    } finally {
      stopRenewing(local);
      running.delete(local);
      settle.get(local)?.();
      settle.delete(local);
    }
    return payload;
  });

  const sweep = async (): Promise<number> => {
    let total = 0;
    for (;;) {
      // In batches: a backlog (a long-stopped instance) never holds one long delete.
      const gone = await db
        .delete(idempotentRequests)
        .where(
          sql`(${idempotentRequests.userId}, ${idempotentRequests.key}) in (
            select user_id, key from ${idempotentRequests} where ${expired} limit ${SWEEP_BATCH})`,
        )
        .returning({ key: idempotentRequests.key });
      total += gone.length;
      if (gone.length < SWEEP_BATCH) return total;
    }
  };
  const store: IdempotencyStore = {
    sweep,
    purgeStoredSecrets: () => purgeStoredSecrets(database, log),
  };

  // The owned sweep loop: every instance runs it (deleting expired rows twice is harmless), from
  // ready to close; a sweep in progress is awaited on close.
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> = Promise.resolve();
  const every = opts.sweepMs ?? SWEEP_MS;
  const tick = () => {
    sweeping = sweep().catch((err: unknown) => log.warn({ err }, 'idempotency sweep failed'));
  };
  app.addHook('onReady', async () => {
    await store.purgeStoredSecrets().catch((err: unknown) => {
      log.error({ err }, 'purging stored secrets failed; it runs again at the next start');
    });
    if (every > 0) {
      tick();
      timer = setInterval(tick, every);
      timer.unref();
    }
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    if (renewTimer) clearInterval(renewTimer);
    await sweeping;
  });
  return store;
}

export interface PurgeReport {
  /** The purges a migration asked for, and the rows each changed or deleted. */
  purges: Array<{ name: string; rows: number }>;
  /** Stored answers still carrying a secret by the server's own rule, scrubbed now. */
  scrubbed: number;
  /** What was done to the files (VACUUM FULL, a WAL switch and checkpoint on PGlite). */
  compacted: string[];
}

/**
 * A migration that removed secrets from rows (0021: seeds in stored answers) leaves the old row
 * versions in the table's pages until they are rewritten, and in the WAL until its segments are
 * removed. The first instance to start afterwards takes the purge (one statement: one instance
 * does it), scrubs what the migration's SQL could not judge (a seed echoed inside another field),
 * rewrites the table (VACUUM FULL) and, on the embedded PGlite (its data directory is the whole
 * database), switches to a new WAL segment and checkpoints: with `wal_recycle=off` (db/client.ts)
 * the segments that held the old rows are deleted instead of renamed for reuse. On PostgreSQL the
 * WAL, its archive, replicas and backups are the operator's: the log line says what to do
 * (docs/key-custody.md).
 */
export async function purgeStoredSecrets(
  database: Database,
  log: FastifyBaseLogger,
): Promise<PurgeReport | undefined> {
  const { db } = database;
  const purges = await db
    .update(secretPurges)
    .set({ doneAt: new Date() })
    .where(isNull(secretPurges.doneAt))
    .returning({ name: secretPurges.name, rows: secretPurges.rows });
  if (!purges.length) return undefined;
  try {
    return await purge(database, log, purges);
  } catch (err) {
    // Given back: the next start (this instance's or another's) runs it again.
    await db
      .update(secretPurges)
      .set({ doneAt: null })
      .where(
        inArray(
          secretPurges.name,
          purges.map((p) => p.name),
        ),
      );
    throw err;
  }
}

async function purge(
  database: Database,
  log: FastifyBaseLogger,
  purges: PurgeReport['purges'],
): Promise<PurgeReport> {
  const { db } = database;
  let scrubbed = 0;
  for (const row of await db.select().from(idempotentRequests)) {
    const answer = withoutSecrets(row.response);
    if (!answer.changed) continue;
    await db
      .update(idempotentRequests)
      .set({ response: storableAnswer(row.response, null) as never })
      .where(and(eq(idempotentRequests.userId, row.userId), eq(idempotentRequests.key, row.key)));
    scrubbed++;
  }
  const compacted: string[] = [];
  await database.sql.exec('vacuum full idempotent_requests');
  compacted.push('vacuum full idempotent_requests');
  if (database.driver === 'pglite') {
    await database.sql.exec('set wal_recycle = off');
    await database.sql.query('select pg_switch_wal()');
    await database.sql.exec('checkpoint');
    compacted.push('pg_switch_wal()', 'checkpoint');
  }
  const report: PurgeReport = { purges, scrubbed, compacted };
  const rows = purges.reduce((n, p) => n + p.rows, 0);
  if (database.driver === 'pglite') {
    log.warn(
      report,
      `Removed wallet secrets from ${rows + scrubbed} stored answers and from the database's files. ` +
        'Copies of the data directory made before this start (backups) still hold them: delete them.',
    );
  } else {
    log.warn(
      report,
      `Removed wallet secrets from ${rows + scrubbed} stored answers and rewrote the table. PostgreSQL's ` +
        'WAL, WAL archive, replicas and backups made before now may still hold them: run CHECKPOINT ' +
        'and rotate the WAL (docs/key-custody.md "Secrets found stored and removed"), and delete older backups.',
    );
  }
  return report;
}
