import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tokens } from '../tokens/schema';
import { users } from '../users/schema';

/**
 * The dashboard's 'Release automatically when due' (issue 28, docs/vesting.md): one row per token
 * whose deployer opted in (a token has one deployer, so the token is the key; `user_id` is who
 * opted in and whose wallet signs). The auto-release keeper (`keeper.ts`) claims a row whose
 * `next_due_at` the validated ledger's close time has passed, with a short lease so one instance
 * works on a token at a time; the release itself is the dashboard's (one intent key per escrow).
 */
export const vestingAutoRelease = pgTable(
  'vesting_auto_release',
  {
    tokenId: bigint('token_id', { mode: 'number' })
      .primaryKey()
      .references(() => tokens.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    enabled: boolean('enabled').notNull(),
    /**
     * Ripple-epoch seconds: the earliest unlock of a tranche not yet released (the keeper looks at
     * the token once the ledger's close time is past it); null when nothing is left to release.
     */
    nextDueAt: integer('next_due_at'),
    /** `<host>:<pid>/<nonce>` of the keeper round holding the row, and until when. */
    keeperOwner: text('keeper_owner'),
    keeperUntil: timestamp('keeper_until', { withTimezone: true }),
    /** After a failed round: not before (a refused release is not tried again every ledger). */
    retryAfter: timestamp('retry_after', { withTimezone: true }),
    /** The last round's user-facing failure, shown beside the toggle; null after a good round. */
    lastError: text('last_error'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('vesting_auto_release_due_idx')
      .on(t.nextDueAt)
      .where(sql`${t.enabled}`),
  ],
);
export type AutoReleaseRow = typeof vestingAutoRelease.$inferSelect;
