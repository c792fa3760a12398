import { bigserial, index, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';

/**
 * Deploy attempts per user (spec 001 §5: after 5 attempts a 60 s lock), kept in the database so a
 * reload, a restart or another instance does not lift the lock.
 */
export const deployAttempts = pgTable(
  'deploy_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    /** Set on the attempt that tripped the lock: no attempt passes until then. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('deploy_attempts_user_idx').on(t.userId, t.at)],
);
