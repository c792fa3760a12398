import { isValidClassicAddress } from 'ripple-address-codec';
import { z } from 'zod';
import { Decimal } from '../money';
import { idSchema } from './common';

// The admin panel's calls (spec 001 §3, §7, §8): fees, platform settings, admins, fee overrides,
// rewards and wallet overviews, and the audit trail.

export const ADMIN_MESSAGES = {
  refundFailed: '❌ Refund failed',
  saveSettingsFailed: '❌ Failed to save settings',
  addAdminFailed: '❌ Failed to add admin',
  removeAdminFailed: '❌ Failed to remove admin',
  addTokenFailed: '❌ Failed to add token',
  saveFailed: '❌ Failed to save',
  fetchRewardsFailed: 'Failed to fetch rewards.',
  validUserId: 'Enter valid user ID',
  chooseDestination: 'Choose or enter destination wallet',
  cannotSign:
    'This wallet can no longer sign: its master key is disabled (it was blackholed), so nothing can be refunded from it.',
  ownerLocked: 'The owner (user id 1) cannot be removed.',
  feeRange: 'The fee must be a percentage from 0 to 10 with at most 4 decimals.',
  feeReceiverFixed:
    "The fee receiver is the platform's own fee wallet (creator rewards are paid from it); it cannot be changed here.",
} as const;

/** The highest trading fee an admin may set, in percent. */
const MAX_FEE_PERCENT = '10';

const isDecimal = (v: string) => /^\d+(\.\d+)?$/.test(v);
const decimals = (v: string) => (v.split('.')[1] ?? '').length;

/** A fee in percent: 0–10, at most 4 decimals (0.0001% steps). */
const feePercentSchema = z
  .union([z.string(), z.number()], { message: ADMIN_MESSAGES.feeRange })
  .transform((v) => String(v).trim())
  .refine(
    (v) => isDecimal(v) && decimals(v) <= 4 && new Decimal(v).lte(MAX_FEE_PERCENT),
    ADMIN_MESSAGES.feeRange,
  );

// The answers, one schema per shape (issue 41): the routes declare them, GET /api/docs documents
// them, and the TypeScript types are inferred from them.

/** GET /api/admin/check: 200 only for admins; whether the caller is the owner (user 1). */
export const adminCheckSchema = z.object({ isAdmin: z.literal(true), isOwner: z.boolean() });
export type AdminCheck = z.infer<typeof adminCheckSchema>;

/** GET /api/admin/fee-config (and its update's answer). */
export const feeConfigViewSchema = z.object({
  fee_percentage: z.string(),
  fee_receiver_wallet: z.string().nullable(),
});
export type FeeConfigView = z.infer<typeof feeConfigViewSchema>;

/** POST /api/admin/fee-config/update: the platform trading fee; the receiver is shown, not edited. */
export const feeConfigUpdateSchema = z.object({
  fee_percentage: feePercentSchema,
  fee_receiver_wallet: z.string().optional(),
});

/** The platform-config keys an admin edits (spec 001 §3) plus the creator reward share and the curve's. */
export const PLATFORM_CONFIG_KEYS = [
  'service_fee',
  'service_fee_destination',
  'issuer_reserve',
  'hot_wallet_reserve',
  'airdrop_fee_xrp',
  'creator_reward_share',
  // Referrals (docs/referrals.md): the referrer's share of a referred user's trading fees, and for how long.
  'referral_share_percent',
  'referral_months',
  // Curve launches (docs/bonding-curve.md): fixed into each curve when it launches.
  'bonding_virtual_xrp',
  'bonding_virtual_rlusd',
  'bonding_steps',
  'bonding_fine_steps',
  'bonding_snipe_ledgers',
  'bonding_snipe_tokens',
  // The anti-sniper window of curve launches (docs/launch-protection.md): fixed into each at deploy.
  'anti_sniper_start_percent',
  'anti_sniper_window_seconds',
] as const;
export type PlatformConfigKey = (typeof PLATFORM_CONFIG_KEYS)[number];

/** One platform setting (GET /api/admin/platform-config lists them all, in PLATFORM_CONFIG_KEYS order). */
export const platformConfigEntrySchema = z.object({ key: z.enum(PLATFORM_CONFIG_KEYS), value: z.string() });
export type PlatformConfigEntry = z.infer<typeof platformConfigEntrySchema>;

/** POST /api/admin/platform-config/update: one `{ key, value }` or several `{ settings: { key: value } }`. */
export const platformConfigUpdateSchema = z.union([
  z.object({ key: z.enum(PLATFORM_CONFIG_KEYS, { message: 'Unknown setting.' }), value: z.string() }),
  z.object({
    settings: z.partialRecord(z.enum(PLATFORM_CONFIG_KEYS, { message: 'Unknown setting.' }), z.string()),
  }),
]);

/** POST /api/admin/admins/add and /remove. */
export const adminUserSchema = z.object({
  // Never coerced: '0x10', '1e0', true or '' are not user 16 or 1 (spec 001 §5 'Enter valid user ID').
  userId: idSchema('userId', ADMIN_MESSAGES.validUserId),
});

/** One admin (GET /api/admin/admins, and the answer of adding or removing one). */
export const adminViewSchema = z.object({
  user_id: z.number().int(),
  username: z.string().nullable(),
  email: z.string().nullable(),
  created_at: z.string(),
});
export type AdminView = z.infer<typeof adminViewSchema>;

/** A user with their fee override (GET /api/admin/fee-overrides; null = the platform's fee). */
export const feeOverrideViewSchema = z.object({
  id: z.number().int(),
  username: z.string().nullable(),
  email: z.string().nullable(),
  telegram_id: z.number().int().nullable(),
  custom_fee_percentage: z.string().nullable(),
});
export type FeeOverrideView = z.infer<typeof feeOverrideViewSchema>;

/** POST /api/admin/fee-overrides/update: null = the platform's fee. */
export const feeOverrideUpdateSchema = z.object({
  userId: adminUserSchema.shape.userId,
  custom_fee_percentage: feePercentSchema.nullable(),
});

/** One token's creator rewards (GET /api/admin/rewards-overview), largest reward first. */
export const rewardsOverviewRowSchema = z.object({
  token_id: z.number().int(),
  ticker: z.string(),
  issuer_address: z.string(),
  total_reward: z.string(),
  total_claimed: z.string(),
  reward_currency: z.string(),
});
export type RewardsOverviewRow = z.infer<typeof rewardsOverviewRowSchema>;

/** GET /api/admin/wallet-overview: the fee and service wallets' balances (XRP and RLUSD as decimal text). */
export const walletOverviewSchema = z.object({
  fee_wallet: z.object({
    address: z.string().nullable(),
    balance: z.string(),
    unclaimed_reserves: z.string(),
    rlusd_balance: z.string(),
    unclaimed_rlusd: z.string(),
  }),
  service_wallet: z.object({ address: z.string().nullable(), balance: z.string() }),
});
export type WalletOverview = z.infer<typeof walletOverviewSchema>;

/** One custodial wallet, never its secret (GET /api/admin/all-wallets). */
export const adminWalletRowSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  role: z.string(),
  address: z.string(),
  name: z.string().nullable(),
  created_at: z.string(),
});
export type AdminWalletRow = z.infer<typeof adminWalletRowSchema>;

/** GET /api/admin/all-wallets: one page of users' wallets (total in X-Total-Count) and all the platform's. */
export const adminWalletsSchema = z.object({
  user_wallets: z.array(adminWalletRowSchema),
  platform_wallets: z.array(adminWalletRowSchema),
});
export type AdminWallets = z.infer<typeof adminWalletsSchema>;

/** One admin action with what it changed (before and after are the action's own JSON). */
export const auditEntryViewSchema = z.object({
  id: z.number().int(),
  admin_user_id: z.number().int(),
  action: z.string(),
  target: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  tx_hash: z.string().nullable(),
  created_at: z.string(),
});
export type AuditEntryView = z.infer<typeof auditEntryViewSchema>;

/** GET /api/admin/audit?page=: one page of the audit trail, newest first. */
export const auditPageSchema = z.object({
  entries: z.array(auditEntryViewSchema),
  page: z.number().int(),
  pageCount: z.number().int(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

export const AUDIT_PAGE_SIZE = 50;

/** A staged deploy wallet (GET /api/admin/staged-wallets). */
export const stagedWalletViewSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  type: z.enum(['issuer', 'hot']),
  wallet_address: z.string(),
  /** The deploy job's status: failed, completed, … ('unknown' when the job is gone). */
  job_status: z.string(),
  created_at: z.string(),
});
export type StagedWalletView = z.infer<typeof stagedWalletViewSchema>;

/** One staged wallet's balances; amounts as decimal strings. */
export const stagedWalletBalanceSchema = z.object({
  currency: z.string().nullable(),
  xrp: z.string(),
  token: z.string(),
  rlusd: z.string(),
  /** Beyond the spec's shape: false when the account is not on the ledger (never funded, or deleted). */
  active: z.boolean(),
  /**
   * False when Ledgerpad can no longer sign for it (its master key is disabled: blackholed), so no
   * refund is offered; `reason` says why.
   */
  can_sign: z.boolean().optional(),
  reason: z.string().optional(),
});
export type StagedWalletBalance = z.infer<typeof stagedWalletBalanceSchema>;

/** GET /api/admin/staged-wallets/balances, keyed by wallet id. */
export const stagedWalletBalancesSchema = z.record(z.string().regex(/^\d+$/), stagedWalletBalanceSchema);

export const REFUND_TYPES = ['xrp', 'token', 'rlusd'] as const;

/** POST /api/admin/refund. */
export const refundRequestSchema = z.object({
  wallet_id: idSchema('wallet_id'),
  destination_address: z
    .string({ message: ADMIN_MESSAGES.chooseDestination })
    .trim()
    .refine((v) => isValidClassicAddress(v), ADMIN_MESSAGES.chooseDestination),
  type: z.enum(REFUND_TYPES, { message: 'type must be xrp, token or rlusd.' }),
});

/**
 * How an XRP refund was made: a Payment of everything above the reserves, or an AccountDelete
 * (which also returns the reserves, less its one-owner-reserve fee) when the ledger allows it.
 */
export const REFUND_METHODS = ['payment', 'account-delete'] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];

/** POST /api/admin/refund: what was returned, how, by which transaction. */
export const refundResultSchema = z.object({
  status: z.literal('success'),
  amount: z.string(),
  type: z.enum(REFUND_TYPES),
  method: z.enum(REFUND_METHODS),
  hash: z.string(),
  to: z.string(),
});
export type RefundResult = z.infer<typeof refundResultSchema>;
