import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../../modules/users/schema';

/**
 * What the server prepared for a self-custody wallet to sign (docs/self-custody.md): recorded before
 * it is handed out, so the blob that comes back is checked against exactly this, and a restart
 * between the two loses nothing. `intent_key` is the action's idempotency (one request ⇒ one intent).
 */
export const signingIntents = pgTable(
  'signing_intents',
  {
    id: uuid('id').primaryKey(),
    intentKey: text('intent_key').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    walletId: bigint('wallet_id', { mode: 'number' }).notNull(),
    account: text('account').notNull(),
    /** The action (a registered finisher): 'transfer', 'swap', … */
    purpose: text('purpose').notNull(),
    /**
     * 'single' (one transaction), 'sequence' (consecutive sequences, each submitted once the one
     * before succeeded) or 'batch' (one outer Batch carrying the inner transactions, all or nothing).
     */
    mode: text('mode').notNull(),
    /** The exact unsigned transactions (for 'batch': the outer Batch first, then each inner one). */
    txs: jsonb('txs').notNull(),
    /** What the action's finisher needs afterwards (the market, the order, the fee it carries). */
    context: jsonb('context').notNull(),
    /** prepared → submitted → done | failed | expired. */
    status: text('status').notNull().default('prepared'),
    lastLedgerSequence: bigint('last_ledger_sequence', { mode: 'number' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The signed blobs as received and checked (public once submitted; never a key). */
    signed: jsonb('signed'),
    /** The action's answer once done (what the custodial route would have answered). */
    result: jsonb('result'),
    /** A refusal after signing (a failed trade): `{ statusCode, body }` replayed as it was. */
    error: jsonb('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('signing_intents_open_idx')
      .on(t.status, t.createdAt)
      .where(sql`${t.status} in ('prepared', 'submitted')`),
    index('signing_intents_user_idx').on(t.userId, t.createdAt),
  ],
);

export type IntentRow = typeof signingIntents.$inferSelect;
