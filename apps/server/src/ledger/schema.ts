import { bigint, bigserial, index, integer, json, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Every transaction the server signs, recorded with its signed blob BEFORE it is submitted, so a
 * restart can resubmit the very same bytes or find them by hash instead of signing again.
 * `intent_key` makes one caller intent map to at most one live transaction.
 */
export const ledgerSubmissions = pgTable(
  'ledger_submissions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    intentKey: text('intent_key').notNull().unique(),
    account: text('account').notNull(),
    sequence: bigint('sequence', { mode: 'number' }).notNull(),
    lastLedgerSequence: bigint('last_ledger_sequence', { mode: 'number' }).notNull(),
    txType: text('tx_type').notNull(),
    purpose: text('purpose').notNull(),
    userId: integer('user_id'),
    walletId: bigint('wallet_id', { mode: 'number' }),
    hash: text('hash').notNull().unique(),
    txBlob: text('tx_blob').notNull(),
    /**
     * Who signed: 'platform' (a key the platform holds, signed by this service) or 'wallet' (a
     * self-custody wallet signed it and the intents checked it: docs/self-custody.md). The service
     * never re-signs, gap-fills or gives back sequences of a 'wallet' row: it holds no key for them.
     */
    signer: text('signer').notNull().default('platform'),
    /**
     * An inner transaction of a Batch (XLS-56, docs/batch-in-the-app.md): the outer Batch's hash. Its
     * blob is the unsigned inner transaction, never sent alone; it is settled with its outer, in the
     * same statement, from the outer's validated ledger (applied, or rolled back / not applied).
     */
    parentHash: text('parent_hash'),
    /** pending → submitted → success | failed (final). */
    status: text('status').notNull().default('pending'),
    /** Preliminary engine result of the latest submit. */
    engineResult: text('engine_result'),
    /** Final result: the validated TransactionResult, 'tefPAST_SEQ' or 'expired'. */
    result: text('result'),
    ledgerIndex: bigint('ledger_index', { mode: 'number' }),
    /**
     * The validated transaction's metadata, as the ledger gave it. `json`, not `jsonb`: stored
     * verbatim and read back as written, where jsonb parses it into its binary form on every write
     * and prints it again on every read (issue 40: the settling UPDATE was the costliest statement
     * of a hot launch). Nothing queries inside it in SQL; the code reads it whole.
     */
    meta: json('meta'),
    submitCount: integer('submit_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finalizedAt: timestamp('finalized_at', { withTimezone: true }),
  },
  (t) => [
    index('ledger_submissions_open_idx').on(t.status, t.account, t.sequence),
    index('ledger_submissions_parent_idx').on(t.parentHash),
  ],
);

/** Next sequence to hand out per signing account, so independent transactions share a ledger. */
export const ledgerAccounts = pgTable('ledger_accounts', {
  account: text('account').primaryKey(),
  nextSequence: bigint('next_sequence', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Short leases serializing the funds check and the signing of one account's actions across
 * instances (ledger/funds.ts): two actions of one wallet never both pass the check on the same XRP.
 */
export const fundsLocks = pgTable('funds_locks', {
  account: text('account').primaryKey(),
  owner: text('owner').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
