import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Event payloads too large for a PostgreSQL NOTIFY (8000 bytes): stored here and referenced by id
 * in the notification. Rows are short-lived; the bus deletes ones older than five minutes
 * (pg-event-bus.ts).
 */
export const eventPayloads = pgTable('event_payloads', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  payload: text('payload').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
