import { integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/schema';

/** Who may use /admin. User id 1 (the owner) is inserted on creation and can never be removed. */
export const admins = pgTable('admins', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  addedBy: integer('added_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
