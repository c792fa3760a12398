import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Where the ledger follower is: the last validated ledger whose handlers committed, and the lease
 * of the one instance that indexes (others stand by and take over when the lease expires).
 */
export const ledgerCursor = pgTable('ledger_cursor', {
  name: text('name').primaryKey(),
  lastLedger: integer('last_ledger').notNull(),
  leaseOwner: text('lease_owner'),
  leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
