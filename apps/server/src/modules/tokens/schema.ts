import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../users/schema';

/**
 * Listed tokens: deployed here (source 'deploy', with the custody wallets that made them) or listed
 * from the ledger by issuer address (source 'listing'). One row per issuer and currency code; supply
 * and issuer flags are what the ledger said when the row was written (refreshed by the dashboard).
 */
export const tokens = pgTable(
  'tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    ticker: text('ticker').notNull(),
    /** The ledger's currency code: the 3-character ticker or its 40-hex form. */
    currency: text('currency').notNull(),
    issuerAddress: text('issuer_address').notNull(),
    /** Decimal string (issued-currency precision), never a float. */
    supply: numeric('supply').notNull(),
    devAllocation: numeric('dev_allocation').notNull().default('0'),
    liquidityAmount: numeric('liquidity_amount').notNull().default('0'),
    ammFee: numeric('amm_fee').notNull().default('0'),
    liquidityPair: text('liquidity_pair').notNull().default('XRP'),
    description: text('description').notNull().default(''),
    /** The served logo URL (/images/…); `local_image_path` in the API is its last segment. */
    logoUrl: text('logo_url'),
    telegramFileId: text('telegram_file_id'),
    twitterLink: text('twitter_link'),
    telegramLink: text('telegram_link'),
    websiteLink: text('website_link'),
    isBlackholed: boolean('is_blackholed').notNull().default(false),
    requireAuth: boolean('require_auth').notNull().default(false),
    isNew: boolean('is_new').notNull().default(true),
    isMarketListed: boolean('is_market_listed').notNull().default(true),
    isMarketReady: boolean('is_market_ready').notNull().default(true),
    isActive: boolean('is_active').notNull().default(true),
    source: text('source').notNull(),
    /** 'bonding' for a curve launch (docs/bonding-curve.md); null for an instant AMM launch or a listing. */
    launchType: text('launch_type'),
    /** A curve launch still trading on its curve (false once it graduated into its AMM pool). */
    bondingActive: boolean('bonding_active').notNull().default(false),
    graduatedAt: timestamp('graduated_at', { withTimezone: true }),
    /** Who deployed it here (dashboard owner); null for a token listed from the ledger. */
    deployerUserId: integer('deployer_user_id').references(() => users.id),
    /** Who listed it (listing), for the record. */
    listedByUserId: integer('listed_by_user_id').references(() => users.id),
    issuerWalletId: bigint('issuer_wallet_id', { mode: 'number' }),
    hotWalletId: bigint('hot_wallet_id', { mode: 'number' }),
    deployJobId: uuid('deploy_job_id'),
    totalReward: numeric('total_reward').notNull().default('0'),
    rewardCurrency: text('reward_currency').notNull().default('XRP'),
    totalClaimed: numeric('total_claimed').notNull().default('0'),
    /**
     * When the token came to be, from the ledger: the issuer's first trust line for the currency
     * (listing), the deploy time (deploy), or an admin's date. Never a user's form.
     */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // --- Identity (docs/token-identity.md) ---
    /** Control of the issuer proven (or deployed here, or vouched for by an admin) and not a lookalike. */
    verified: boolean('verified').notNull().default(false),
    /** How: 'deploy' | 'wallet' | 'challenge' | 'toml' | 'admin' | 'platform'; null while unproven. */
    verifiedBy: text('verified_by'),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** The user who proved control of the issuer (may edit the metadata at any time). */
    controllerUserId: integer('controller_user_id').references(() => users.id),
    /**
     * What this token reads as: a reserved identity ('XRP', 'RLUSD'), or the ticker of the token it
     * gives way to (`same_as`). Recomputed from ledger facts (`refreshLookalikes`), never from listing order.
     */
    lookalikeOf: text('lookalike_of'),
    /**
     * The token with more ledger history sharing this one's ticker or name after the lookalike fold
     * (`SameAsRef`: match, ticker, name, issuer, currency, id), or null.
     */
    sameAs: jsonb('same_as'),
    /** The issuer's Domain whose xrp-ledger.toml lists this token (the TOML proof), or null. */
    verifiedDomain: text('verified_domain'),
    /** Who wrote name, description, logo and links: 'issuer' | 'lister' | 'admin'. */
    metadataBy: text('metadata_by').notNull().default('lister'),
    listedAt: timestamp('listed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tokens_issuer_currency_uq').on(t.issuerAddress, t.currency),
    // A deploy job writes its token once, however often its last step runs.
    uniqueIndex('tokens_deploy_job_uq')
      .on(t.deployJobId)
      .where(sql`${t.deployJobId} is not null`),
    index('tokens_deployer_idx').on(t.deployerUserId),
  ],
);
