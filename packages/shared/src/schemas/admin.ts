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

export interface FeeConfigView {
  fee_percentage: string;
  fee_receiver_wallet: string | null;
}

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

export interface PlatformConfigEntry {
  key: PlatformConfigKey;
  value: string;
}

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

export interface AdminView {
  user_id: number;
  username: string | null;
  email: string | null;
  created_at: string;
}

export interface FeeOverrideView {
  id: number;
  username: string | null;
  email: string | null;
  telegram_id: number | null;
  custom_fee_percentage: string | null;
}

/** POST /api/admin/fee-overrides/update: null = the platform's fee. */
export const feeOverrideUpdateSchema = z.object({
  userId: adminUserSchema.shape.userId,
  custom_fee_percentage: feePercentSchema.nullable(),
});

export interface RewardsOverviewRow {
  token_id: number;
  ticker: string;
  issuer_address: string;
  total_reward: string;
  total_claimed: string;
  reward_currency: string;
}

export interface WalletOverview {
  fee_wallet: {
    address: string | null;
    balance: string;
    unclaimed_reserves: string;
    rlusd_balance: string;
    unclaimed_rlusd: string;
  };
  service_wallet: { address: string | null; balance: string };
}

export interface AdminWalletRow {
  id: number;
  user_id: number | null;
  role: string;
  address: string;
  name: string | null;
  created_at: string;
}

export interface AuditEntryView {
  id: number;
  admin_user_id: number;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
  tx_hash: string | null;
  created_at: string;
}

export interface AuditPage {
  entries: AuditEntryView[];
  page: number;
  pageCount: number;
}

export const AUDIT_PAGE_SIZE = 50;

/** A staged deploy wallet (GET /api/admin/staged-wallets). */
export interface StagedWalletView {
  id: number;
  user_id: number | null;
  type: 'issuer' | 'hot';
  wallet_address: string;
  /** The deploy job's status: failed, completed, … ('unknown' when the job is gone). */
  job_status: string;
  created_at: string;
}

/** GET /api/admin/staged-wallets/balances, keyed by wallet id; amounts as decimal strings. */
export interface StagedWalletBalance {
  currency: string | null;
  xrp: string;
  token: string;
  rlusd: string;
  /** Beyond the spec's shape: false when the account is not on the ledger (never funded, or deleted). */
  active: boolean;
  /**
   * False when Ledgerpad can no longer sign for it (its master key is disabled: blackholed), so no
   * refund is offered; `reason` says why.
   */
  can_sign?: boolean;
  reason?: string;
}

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

export interface RefundResult {
  status: 'success';
  amount: string;
  type: (typeof REFUND_TYPES)[number];
  method: RefundMethod;
  hash: string;
  to: string;
}
