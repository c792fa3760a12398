import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/schema';

/**
 * Server-side sessions, so any instance can serve any user. Only the SHA-256 of the cookie's token
 * is stored: a leaked table can't be replayed as cookies.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Random per session; the CSRF token the client must echo on state-changing requests. */
    csrfToken: text('csrf_token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export type SessionRow = typeof sessions.$inferSelect;

/**
 * One-time sign-in links (the owner's link printed at start). Only the token's SHA-256 is stored;
 * a link works once and until `expires_at`.
 */
export const signInLinks = pgTable('sign_in_links', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  tokenHash: text('token_hash').notNull().unique(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  /** Set when a newer link replaced this one before it was used. */
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});

export type SignInLinkRow = typeof signInLinks.$inferSelect;
