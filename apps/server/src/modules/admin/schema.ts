import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/schema';

/** Who may use /admin. User id 1 (the owner) is inserted on creation and can never be removed. */
export const admins = pgTable('admins', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  addedBy: integer('added_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every admin write: who, when, what, the value before and after, and the ledger transaction it
 * caused. Append-only: a trigger refuses UPDATE and DELETE, so not even a route with a bug (or an
 * admin with a database session through the app) can rewrite it.
 */
export const adminAudit = pgTable(
  'admin_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    adminUserId: integer('admin_user_id').notNull(),
    action: text('action').notNull(),
    target: text('target'),
    before: jsonb('before'),
    after: jsonb('after'),
    txHash: text('tx_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_audit_created_idx').on(t.createdAt)],
);

export type AdminAuditRow = typeof adminAudit.$inferSelect;
