import { bigint, integer, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Per-minute request counters shared by every instance on one PostgreSQL (plugins/rate-limit.ts):
 * one row per limiter and caller, counting from the caller's first request of the window. Created
 * UNLOGGED (drizzle/0022): counters need no crash safety, and skipping the WAL keeps the upsert of
 * every request cheap. Rows of windows long past are deleted by the limiter's sweep.
 */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text('key').primaryKey(),
  /** When the window started, ms since the epoch (the database's clock). */
  windowStart: bigint('window_start', { mode: 'number' }).notNull(),
  windowMs: integer('window_ms').notNull(),
  hits: integer('hits').notNull(),
});
