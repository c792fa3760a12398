import { z } from 'zod';
import { classicAddressSchema } from './common';
import { REFERRAL_CODE_PATTERN } from '../referral-code';
import { claimPaymentResultSchema, feePaymentViewSchema, REWARD_MESSAGES } from './rewards';

// Referrals (issue 37): every user has a code; a visitor who signs up through `/?ref=<code>` is
// bound to that referrer at their first sign-in, pays nothing extra, and the referrer earns a share
// of the platform fee on that user's trades for a while (admin settings), claimed to one of the
// referrer's own wallets. docs/referrals.md.

/** Bounds of the admin settings (platform config keys `referral_share_percent`, `referral_months`). */
export const REFERRAL_SHARE_MAX_PERCENT = 50;
export const REFERRAL_MONTHS_MIN = 1;
export const REFERRAL_MONTHS_MAX = 60;

export const REFERRAL_MESSAGES = {
  // The same sentences as a creator's claim: one claim experience.
  nothingToClaim: REWARD_MESSAGES.nothingToClaim,
  claimFailed: REWARD_MESSAGES.claimFailed,
  selectWallet: REWARD_MESSAGES.selectWallet,
  currency: "currency must be 'XRP' or 'RLUSD'.",
  walletNotFound: 'Wallet not found. Referral earnings can be claimed only to one of your own wallets.',
  unavailable: 'Referral earnings cannot be claimed right now: the XRP Ledger is not connected.',
  stillProcessing: 'The claim is still being processed. Check your wallet in a minute.',
} as const;

/** A referral code as typed or linked: case-insensitive, compared in lower case. */
export const referralCodeSchema = z.string().trim().toLowerCase().regex(REFERRAL_CODE_PATTERN);

/** POST /api/referrals/claim: every unclaimed earning in one currency, to one of the caller's wallets. */
export const referralClaimSchema = z.object({
  wallet: z
    .string({ message: REFERRAL_MESSAGES.selectWallet })
    .trim()
    .min(1, REFERRAL_MESSAGES.selectWallet)
    .pipe(classicAddressSchema('wallet')),
  currency: z.enum(['XRP', 'RLUSD'], { message: REFERRAL_MESSAGES.currency }),
});
export type ReferralClaimRequest = z.input<typeof referralClaimSchema>;

// The answers, one schema per shape (issue 41): the routes declare them, GET /api/docs documents
// them, and the TypeScript types are inferred from them.

/** POST /api/referrals/claim: what was paid, to which wallet, by which transaction (as a creator's claim). */
export const referralClaimResultSchema = claimPaymentResultSchema;
export type ReferralClaimResult = z.infer<typeof referralClaimResultSchema>;

/** What a referrer earned in one currency: earned and claimed so far (pending claims count as claimed). */
export const referralBalanceViewSchema = z.object({
  currency: z.enum(['XRP', 'RLUSD']),
  earned: z.string(),
  claimed: z.string(),
  /** What a claim pays now: earned − claimed rounded down to 6 decimals. */
  claimable: z.string(),
});
export type ReferralBalanceView = z.infer<typeof referralBalanceViewSchema>;

/** GET /api/referrals/me: the caller's code and link, their referred users and earnings. */
export const referralSummarySchema = z.object({
  code: z.string(),
  /** The path of the link (`/?ref=<code>`); the page puts its own origin in front. */
  link_path: z.string(),
  /** Users who signed up through the link. */
  referred: z.number().int(),
  /** Of them, those whose trades still earn the referrer a share (inside their window). */
  active: z.number().int(),
  share_percent: z.string(),
  months: z.number().int(),
  balances: z.array(referralBalanceViewSchema),
});
export type ReferralSummary = z.infer<typeof referralSummarySchema>;

/** One claim of referral earnings (GET /api/referrals/claims), newest first. */
export const referralClaimViewSchema = feePaymentViewSchema;
export type ReferralClaimView = z.infer<typeof referralClaimViewSchema>;

/** One accrual: the referrer's share of one trade's fee (GET /api/referrals/earnings), newest first. */
export const referralEarningViewSchema = z.object({
  id: z.number().int(),
  currency: z.string(),
  /** The platform fee the trade paid. */
  fee: z.string(),
  /** The referrer's share of it. */
  amount: z.string(),
  share_bps: z.number().int(),
  created_at: z.string(),
});
export type ReferralEarningView = z.infer<typeof referralEarningViewSchema>;

/** GET /api/admin/referrals: the programme's totals and its referrers. */
export const referralsOverviewSchema = z.object({
  totals: z.array(z.object({ currency: z.string(), earned: z.string(), claimed: z.string() })),
  referred_users: z.number().int(),
  referrers: z.array(
    z.object({
      user_id: z.number().int(),
      username: z.string().nullable(),
      code: z.string().nullable(),
      referred: z.number().int(),
      earned_xrp: z.string(),
      claimed_xrp: z.string(),
      earned_rlusd: z.string(),
      claimed_rlusd: z.string(),
    }),
  ),
});
export type ReferralsOverview = z.infer<typeof referralsOverviewSchema>;
