import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../../modules/users/schema';

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed';
export type StepStatus = 'pending' | 'running' | 'done' | 'failed';

export interface JobStep {
  name: string;
  status: StepStatus;
  txHash?: string;
  /** ISO timestamps of the latest run of the step. */
  startedAt?: string;
  finishedAt?: string;
}

/**
 * Persisted jobs (deploys, graduations, claims): a job is claimed by one instance at a time through
 * a lease (`lease_owner`, `lease_expires_at`) and persists every step as it runs, so after a crash
 * another instance continues from the first step that is not `done`. `state` holds the value each
 * done step returned, by step name.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').notNull(),
    /** Owner; null for platform jobs. */
    userId: integer('user_id').references(() => users.id),
    /** Optional idempotency key: enqueuing the same key again returns the first job. */
    key: text('key').unique(),
    status: text('status').$type<JobStatus>().notNull().default('queued'),
    payload: jsonb('payload').$type<unknown>().notNull().default({}),
    state: jsonb('state').$type<Record<string, unknown>>().notNull().default({}),
    steps: jsonb('steps').$type<JobStep[]>().notNull().default([]),
    result: jsonb('result').$type<unknown>(),
    /** The user-facing failure message (final failures only). */
    error: text('error'),
    /** The latest transient error, for operators (never shown to users). */
    lastError: text('last_error'),
    /** Claims so far (a graceful release gives its claim back). */
    attempts: integer('attempts').notNull().default(0),
    /** `<instance id>/<claim nonce>` of the claim holding the job; null when not running. */
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    // Claiming scans only unfinished jobs, oldest first.
    index('jobs_claim_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('queued', 'running')`),
    index('jobs_user_idx').on(t.userId, t.createdAt),
  ],
);

export type JobRow = typeof jobs.$inferSelect;
