import { z } from 'zod';
import { classicAddressSchema } from './common';
import { REFERRAL_CODE_PATTERN } from '../referral-code';
import { REWARD_MESSAGES } from './rewards';

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

export interface ReferralClaimResult {
  claimed: string;
  to: string;
  currency: string;
  hash: string;
}

/** What a referrer earned in one currency: earned and claimed so far (pending claims count as claimed). */
export interface ReferralBalanceView {
  currency: 'XRP' | 'RLUSD';
  earned: string;
  claimed: string;
  /** What a claim pays now: earned − claimed rounded down to 6 decimals. */
  claimable: string;
}

/** GET /api/referrals/me: the caller's code and link, their referred users and earnings. */
export interface ReferralSummary {
  code: string;
  /** The path of the link (`/?ref=<code>`); the page puts its own origin in front. */
  link_path: string;
  /** Users who signed up through the link. */
  referred: number;
  /** Of them, those whose trades still earn the referrer a share (inside their window). */
  active: number;
  share_percent: string;
  months: number;
  balances: ReferralBalanceView[];
}

/** One claim of referral earnings (GET /api/referrals/claims), newest first. */
export interface ReferralClaimView {
  id: number;
  address: string;
  amount: string;
  currency: string;
  status: 'pending' | 'paid' | 'failed';
  hash: string | null;
  created_at: string;
}

/** One accrual: the referrer's share of one trade's fee (GET /api/referrals/earnings), newest first. */
export interface ReferralEarningView {
  id: number;
  currency: string;
  /** The platform fee the trade paid. */
  fee: string;
  /** The referrer's share of it. */
  amount: string;
  share_bps: number;
  created_at: string;
}

/** GET /api/admin/referrals: the programme's totals and its referrers. */
export interface ReferralsOverview {
  totals: Array<{ currency: string; earned: string; claimed: string }>;
  referred_users: number;
  referrers: Array<{
    user_id: number;
    username: string | null;
    code: string | null;
    referred: number;
    earned_xrp: string;
    claimed_xrp: string;
    earned_rlusd: string;
    claimed_rlusd: string;
  }>;
}
