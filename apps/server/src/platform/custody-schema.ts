import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../modules/users/schema';

/**
 * Wallets: users' wallets (role 'user') and the platform's own (RLUSD issuer, market maker, fee and
 * service wallets, the standalone genesis account). A custodial wallet's secret is sealed by
 * src/keys (per-record data key wrapped by the master key `key_id`); archiving keeps it so nothing
 * is lost. A self-custody wallet (`kind` 'browser' or 'external', docs/self-custody.md) has no
 * secret here at all: only its address and the public key that proved ownership.
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
    /**
     * 'custodial' (the sealed secret below signs), 'browser' (the key is generated or imported and
     * kept encrypted in the user's browser) or 'external' (a wallet app through xrpl-connect).
     */
    kind: text('kind').notNull().default('custodial'),
    /** For 'external': which app ('xaman', 'crossmark', 'gemwallet', 'walletconnect', 'ledger'). */
    walletApp: text('wallet_app'),
    /** For self-custody wallets: the public key that signed the ownership proof. */
    publicKey: text('public_key'),
    /** 'seed' (family seed) or 'keypair' (imported by private key or BIP39 mnemonic); custodial only. */
    secretKind: text('secret_kind'),
    secretCiphertext: text('secret_ciphertext'),
    secretNonce: text('secret_nonce'),
    dataKeyWrapped: text('data_key_wrapped'),
    dataKeyNonce: text('data_key_nonce'),
    keyId: text('key_id'),
    /**
     * The deploy job that created it (roles 'deploy_issuer' / 'deploy_hot' while staged): recorded
     * before any XRP moves, so a failed deploy leaves its wallets for the admin refund tool.
     */
    jobId: uuid('job_id'),
    /**
     * The Idempotency-Key of the request that created or imported it: that request's retry (its
     * first answer lost to a crash) answers with this wallet instead of making a second one.
     */
    requestKey: text('request_key'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A custodial wallet has its sealed secret; a self-custody one has none, ever.
    check(
      'wallets_kind_secret_ck',
      sql`(${t.kind} = 'custodial') = (${t.secretCiphertext} is not null and ${t.keyId} is not null)`,
    ),
    check('wallets_kind_ck', sql`${t.kind} in ('custodial', 'browser', 'external')`),
    uniqueIndex('wallets_user_address_uq').on(t.userId, t.address),
    // One live platform wallet per role (bootstrap runs once per network).
    uniqueIndex('wallets_platform_role_uq')
      .on(t.role)
      .where(sql`${t.userId} is null and ${t.archivedAt} is null`),
    index('wallets_address_idx').on(t.address),
    index('wallets_request_idx')
      .on(t.userId, t.requestKey)
      .where(sql`${t.requestKey} is not null`),
    // One wallet per role per deploy job: a step that runs again finds the wallet it made.
    uniqueIndex('wallets_job_role_uq')
      .on(t.jobId, t.role)
      .where(sql`${t.jobId} is not null`),
  ],
);

/**
 * One known value sealed under the master key at the first start (one row, id 1): an instance whose
 * keyring cannot open it refuses to start, instead of answering swaps with key errors and claiming
 * jobs it cannot sign. Re-wrapped with the wallets by a key rotation.
 */
export const custodyKeyCheck = pgTable('custody_key_check', {
  id: integer('id').primaryKey(),
  ciphertext: text('ciphertext').notNull(),
  nonce: text('nonce').notNull(),
  dataKeyWrapped: text('data_key_wrapped').notNull(),
  dataKeyNonce: text('data_key_nonce').notNull(),
  keyId: text('key_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
