import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../modules/users/schema';

/**
 * Custodial wallets: users' wallets (role 'user') and the platform's own (RLUSD issuer, market maker,
 * fee and service wallets, the standalone genesis account). The secret is sealed by src/keys
 * (per-record data key wrapped by the master key `key_id`); archiving keeps it so nothing is lost.
 */
export const wallets = pgTable(
  'wallets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Owner; null for platform wallets. */
    userId: integer('user_id').references(() => users.id),
    role: text('role').notNull().default('user'),
    address: text('address').notNull(),
    name: text('name'),
    /** 'seed' (family seed) or 'keypair' (imported by private key or BIP39 mnemonic). */
    secretKind: text('secret_kind').notNull(),
    secretCiphertext: text('secret_ciphertext').notNull(),
    secretNonce: text('secret_nonce').notNull(),
    dataKeyWrapped: text('data_key_wrapped').notNull(),
    dataKeyNonce: text('data_key_nonce').notNull(),
    keyId: text('key_id').notNull(),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('wallets_user_address_uq').on(t.userId, t.address),
    // One live platform wallet per role (bootstrap runs once per network).
    uniqueIndex('wallets_platform_role_uq')
      .on(t.role)
      .where(sql`${t.userId} is null and ${t.archivedAt} is null`),
    index('wallets_address_idx').on(t.address),
  ],
);
