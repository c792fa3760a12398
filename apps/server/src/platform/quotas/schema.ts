import { bigint, bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What each bounded resource has used: one row per use (a demo user made from an IP, the bytes of
 * an upload), summed over a sliding window. In the database so the limits hold across instances.
 */
export const quotaEvents = pgTable(
  'quota_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Which limit: 'demo_users_ip', 'upload_bytes', ... */
    bucket: text('bucket').notNull(),
    /** Whose: an IP address or a user id. */
    subject: text('subject').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('quota_events_subject_idx').on(t.bucket, t.subject, t.createdAt)],
);
