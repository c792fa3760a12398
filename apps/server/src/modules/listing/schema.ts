import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../users/schema';

// Proof of control of a listed token's issuer (docs/token-identity.md): the one-time claim codes
// the server issues, and the append-only history of who listed, claimed and rewrote a listing.

/**
 * A claim code: random, bound to one listing and one user, valid until `expires_at`. The issuer
 * proves control by sending a transaction that carries it as a memo; only transactions validated
 * from `ledger_index` on count (an older one cannot have seen the code).
 */
export const listingChallenges = pgTable(
  'listing_challenges',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    issuerAddress: text('issuer_address').notNull(),
    code: text('code').notNull(),
    /**
     * What the issuer signs ('Ledgerpad: make alice (user #7) controller of ZETA listing #12. Code
     * …'), fixed when the code is issued; null for codes issued before issue 35 (never accepted).
     */
    claimText: text('claim_text'),
    /** The validated ledger when the code was issued. */
    ledgerIndex: integer('ledger_index').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** The transaction that carried the code. */
    txHash: text('tx_hash'),
  },
  (t) => [
    uniqueIndex('listing_challenges_code_uq').on(t.code),
    index('listing_challenges_token_user_idx').on(t.tokenId, t.userId),
  ],
);

export type ListingChallengeRow = typeof listingChallenges.$inferSelect;

/**
 * What happened to a listing's identity, newest last: listed, claimed (with the proof), metadata
 * replaced. Before and after hold the fields that changed. Admin changes are also in admin_audit.
 */
export const tokenIdentityEvents = pgTable(
  'token_identity_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenId: bigint('token_id', { mode: 'number' }).notNull(),
    userId: integer('user_id'),
    /** 'list' | 'claim' | 'toml' | 'metadata' | 'admin.update' | 'admin.verify' | 'admin.hide'. */
    action: text('action').notNull(),
    /** The proof of a claim ('wallet' | 'challenge' | 'toml'), the transaction hash or TOML URL in `after`. */
    method: text('method'),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('token_identity_events_token_idx').on(t.tokenId)],
);
