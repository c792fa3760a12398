import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per (user, Idempotency-Key) of a state-changing request (lib/idempotency.ts): the first
 * request's answer, replayed to every retry — also after a restart and on another instance. A row
 * stays 'running' while its request runs; one whose lease ran out (its instance died) runs again,
 * and the intent keys derived from the Idempotency-Key make the ledger part converge.
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
    response: jsonb('response'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);
