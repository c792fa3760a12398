import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// One schema for both drivers (PGlite and PostgreSQL). Feature tables live beside their feature
// in later modules but are re-exported here so drizzle-kit sees one schema.

/** Platform configuration keys (service_fee, service_fee_destination, ...), edited by admins. */
export const platformSettings = pgTable('platform_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

// Server core (issue 5): users, sessions, admins, large event payloads of the event bus.
export * from '../modules/users/schema';
export * from '../modules/auth/schema';
export * from '../modules/admin/schema';
export * from '../realtime/schema';

// Custodial wallets (platform custody) and the submission service's records (issue 6); faucet limits.
export * from '../platform/custody-schema';
export * from '../modules/wallets/schema';
export * from '../ledger/schema';
export * from '../platform/jobs/schema';

// Listed tokens (issue 11); proof of control of their issuers (issue 24).
export * from '../modules/tokens/schema';
export * from '../modules/listing/schema';

// Market data (issue 12): the ledger follower's cursor and what the market indexer derives.
export * from '../platform/indexer/schema';
export * from '../modules/market/schema';

// Trading (issue 13): trades made here and their platform fee.
export * from '../modules/trading/schema';

// Creator-reward claims (issue 13); reward splits and their payouts, referrals (issue 37).
export * from '../modules/rewards/schema';
export * from '../modules/referrals/schema';
export * from '../modules/airdrops/schema';

// Bonding-curve launches (issue 16).
export * from '../modules/bonding/schema';

// Running it for real (issue 26): sliding-window quotas of what visitors and users make the server keep.
export * from '../platform/quotas/schema';

// Money you can trust (issue 23): idempotent request answers, deploy attempts, positions' own fills.
export * from '../lib/idempotency-schema';
export * from '../modules/deploy/schema';
export * from '../modules/positions/schema';

// Uploaded logos in the database, so several instances need no shared volume (issue 26).
export * from '../modules/uploads/schema';

// The dev allocation's automatic release (issue 28): who opted in, and the keeper's lease.
export * from '../modules/vesting/schema';

// One request budget across instances (issue 34): the rate limits' counters on PostgreSQL.
export * from '../plugins/rate-limit-schema';

// Self-custody (issue 38): what a browser key or a wallet app is asked to sign, recorded first.
export * from '../platform/intents/schema';
