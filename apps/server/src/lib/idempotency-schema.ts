import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per (user, Idempotency-Key) of a state-changing request (lib/idempotency.ts): the first
 * request's answer, replayed to every retry — also after a restart and on another instance. A row
 * stays 'running' while its request runs; one whose lease ran out (its instance died) runs again,
 * and the intent keys derived from the Idempotency-Key make the ledger part converge. The answer is
 * stored without any secret field (a created wallet's seed) and the row is deleted 24 h after it was
 * made (docs/money.md "Done once").
 */
export const idempotentRequests = pgTable(
  'idempotent_requests',
  {
    userId: integer('user_id').notNull(),
    key: text('key').notNull(),
    /** 'POST /api/swap': a key reused for another route is refused. */
    route: text('route').notNull(),
    /** SHA-256 of the body: a key reused with another body is refused. */
    bodyHash: text('body_hash').notNull(),
    /** 'running' | 'done'. */
    state: text('state').notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }).notNull(),
    statusCode: integer('status_code'),
    /** The answer as replayed: never a secret (lib/secrets.ts). */
    response: jsonb('response'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    // The expiry sweep deletes by age.
    index('idempotent_requests_created_idx').on(t.createdAt),
  ],
);

/**
 * Secrets found stored outside the custody store by a migration (0021: seeds in stored idempotent
 * answers). The migration removes them from the rows; the first instance to start afterwards takes
 * the row (done_at) and rewrites what the old versions of those rows left in the database's files
 * (VACUUM FULL, and on the embedded PGlite a WAL switch and checkpoint: docs/key-custody.md).
 */
export const secretPurges = pgTable('secret_purges', {
  name: text('name').primaryKey(),
  /** Rows the migration changed or deleted. */
  rows: integer('rows').notNull(),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
  doneAt: timestamp('done_at', { withTimezone: true }),
});
