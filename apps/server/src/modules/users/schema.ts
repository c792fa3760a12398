import { bigint, integer, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * People who signed in. Identity columns are unique so one Telegram or Google account maps to one
 * user; `demo_username` only exists on the embedded stand-alone ledger's demo sign-in.
 */
export const users = pgTable('users', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  telegramId: bigint('telegram_id', { mode: 'number' }).unique(),
  googleId: text('google_id').unique(),
  demoUsername: text('demo_username').unique(),
  /**
   * SHA-256 of the device secret (HttpOnly cookie) of the browser that created this demo user:
   * a demo name can be re-entered only from that browser, so nobody signs in as someone else.
   */
  demoDeviceHash: text('demo_device_hash'),
  username: text('username'),
  firstName: text('first_name'),
  photoUrl: text('photo_url'),
  email: text('email'),
  /** The saved market slippage in percent (2 decimals); null means the default, 0.50. */
  slippage: numeric('slippage'),
  /** The admin-set trading fee in percent for this user; null means the platform's fee. */
  customFeePercentage: numeric('custom_fee_percentage'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type UserRow = typeof users.$inferSelect;
