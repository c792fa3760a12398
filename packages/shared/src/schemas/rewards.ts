import { z } from 'zod';
import { AMOUNT_DECIMALS } from '../constants';
import { tokenCodeSchema } from './token-code';
import { classicAddressSchema } from './common';
import { BPS_TOTAL } from '../basis-points';
import { Decimal, microsToUnits, unitsToMicros } from '../money';

// Creator rewards (spec 001 §2 "claim rewards modal", §6 "Claim rewards", §7 "Dashboard and
// rewards", §8): a token's creator earns a share of the platform fee on every trade of it, and claims
// a percentage of what is unclaimed to one of their own wallets. The modal and the route share the
// request schema and the amount rule below.

export const REWARD_PERCENT_MIN = 10;
export const REWARD_PERCENT_MAX = 100;
export const REWARD_PERCENT_STEP = 10;

export const REWARD_MESSAGES = {
  // Spec §8, exact.
  claimFailed: 'Claim failed. Please try again.',
  // Ours (the spec has no text for these).
  nothingToClaim: 'Nothing to claim.',
  percent: 'percent must be a whole number from 10 to 100 in steps of 10.',
  selectWallet: 'Please select a wallet.',
  token: 'Please select a token.',
  tokenNotFound: 'Token not found',
  notCreator: 'Only the creator of this token can claim its rewards.',
  walletNotFound: 'Wallet not found. Rewards can be claimed only to one of your own wallets.',
  unavailable: 'Rewards cannot be claimed right now: the XRP Ledger is not connected.',
  noRlusdLine:
    'This wallet has no RLUSD trust line, so it cannot receive RLUSD rewards: add the RLUSD trust line first (Swap → XRP ⇄ RLUSD), or claim into another wallet.',
  notActivated: (amount: string, reserve: string) =>
    `This wallet is not activated on the XRP Ledger yet: a reward of ${amount} XRP is less than the ${reserve} XRP that activates it. Send it at least ${reserve} XRP first, or claim into another wallet.`,
  platformCannotPay: 'The platform cannot pay rewards right now. Please try again later.',
  // Reward splits (issue 37): a claim pays each recipient of the token's split its share.
  splitClaimNoWallet:
    "This token's rewards are split: a claim pays every recipient its share, so no wallet is chosen. Reload the page to see the split.",
  recipientCannotReceive: (address: string, why: string) => `${address} cannot receive this reward: ${why}`,
} as const;

/** The most recipients a creator's reward split may have. */
export const REWARD_SPLIT_MAX = 5;
// A split's shares are basis points of the claim and add up to exactly BPS_TOTAL.

export const REWARD_SPLIT_MESSAGES = {
  tooMany: `A split has at most ${REWARD_SPLIT_MAX} recipients.`,
  share: 'Each share must be a percent from 0.01 to 100, with at most 2 decimals.',
  sum: 'The shares must add up to exactly 100%.',
  duplicate: 'Each address may appear only once in the split.',
  notCreator: 'Only the creator of this token can change its reward split.',
  unknownAccount: (address: string) =>
    `${address} is not an account on the XRP Ledger. Use an activated account or one of your own wallets.`,
  cannotReceive: (address: string, why: string) => `${address} cannot receive this token's rewards: ${why}`,
  saved: 'Reward split saved.',
  removed: 'Reward split removed: claims pay the wallet you choose.',
} as const;

/** One recipient of a split: an XRP Ledger address and its share in basis points (1 = 0.01%). */
export const rewardSplitRecipientSchema = z.object({
  address: classicAddressSchema('address'),
  bps: z
    .number({ message: REWARD_SPLIT_MESSAGES.share })
    .int(REWARD_SPLIT_MESSAGES.share)
    .min(1, REWARD_SPLIT_MESSAGES.share)
    .max(BPS_TOTAL, REWARD_SPLIT_MESSAGES.share),
});
export type RewardSplitRecipient = z.output<typeof rewardSplitRecipientSchema>;

/**
 * POST /api/rewards/splits/:tokenId: the whole split at once (an empty list removes it: claims pay
 * the wallet the creator chooses). At most 5 recipients, each address once, shares adding up to
 * exactly 10,000 basis points. The dashboard's editor checks its rows with this same schema.
 */
export const rewardSplitUpdateSchema = z.object({
  recipients: z
    .array(rewardSplitRecipientSchema)
    .max(REWARD_SPLIT_MAX, REWARD_SPLIT_MESSAGES.tooMany)
    .superRefine((rows, ctx) => {
      const seen = new Set<string>();
      rows.forEach((r, i) => {
        if (seen.has(r.address))
          ctx.addIssue({ code: 'custom', path: [i, 'address'], message: REWARD_SPLIT_MESSAGES.duplicate });
        seen.add(r.address);
      });
      if (rows.length > 0 && rows.reduce((t, r) => t + r.bps, 0) !== BPS_TOTAL)
        ctx.addIssue({ code: 'custom', message: REWARD_SPLIT_MESSAGES.sum });
    }),
});
export type RewardSplitUpdate = z.input<typeof rewardSplitUpdateSchema>;

/**
 * How a claim of `amount` (6 decimals, as `claimAmount` gives it) is divided among a split's
 * recipients, exactly, in whole micro-units (XRP drops; millionths of RLUSD): each recipient gets
 * floor(amount × bps / 10,000); what those floors leave (fewer micro-units than there are
 * recipients) goes to the first recipient. The parts always add up to the amount.
 */
export function splitAmounts(amount: string, recipients: ReadonlyArray<{ bps: number }>): string[] {
  const total = unitsToMicros(amount);
  if (recipients.length === 0) return [];
  const parts = recipients.map((r) => (total * BigInt(r.bps)) / BigInt(BPS_TOTAL));
  const rest = total - parts.reduce((t, p) => t + p, 0n);
  parts[0] = parts[0]! + rest;
  return parts.map((p) => microsToUnits(p).toFixed(6));
}

// The answers, one schema per shape (issue 41): the routes declare them, GET /api/docs documents
// them, and the TypeScript types are inferred from them.

/** One change of a split, as the token's public history shows it (newest first). */
export const rewardSplitChangeSchema = z.object({
  at: z.string(),
  before: z.array(rewardSplitRecipientSchema),
  after: z.array(rewardSplitRecipientSchema),
});
export type RewardSplitChange = z.infer<typeof rewardSplitChangeSchema>;

/** GET /api/rewards/splits/:tokenId (public): the token's split and every change to it. */
export const rewardSplitViewSchema = z.object({
  token_id: z.number().int(),
  /** Empty: no split (the creator's claims pay one wallet of theirs). */
  recipients: z.array(rewardSplitRecipientSchema),
  history: z.array(rewardSplitChangeSchema),
});
export type RewardSplitView = z.infer<typeof rewardSplitViewSchema>;

/**
 * One payment of the fee wallet as its history lists it (a referrer's claim, a creator's payout):
 * 'pending' while it is being paid, 'paid' (with its hash), 'failed' (its amount went back).
 */
export const feePaymentViewSchema = z.object({
  id: z.number().int(),
  address: z.string(),
  amount: z.string(),
  currency: z.string(),
  status: z.enum(['pending', 'paid', 'failed']),
  hash: z.string().nullable(),
  created_at: z.string(),
});

/** One payment of a claim to one recipient (GET /api/rewards/payouts). */
export const rewardPayoutViewSchema = feePaymentViewSchema.extend({
  claim_id: z.number().int(),
  token_id: z.number().int(),
  updated_at: z.string(),
});
export type RewardPayoutView = z.infer<typeof rewardPayoutViewSchema>;

/**
 * POST /api/claim-rewards: `percent` of the token's unclaimed reward to one of the caller's wallets,
 * or, when the token has a reward split, to every recipient of the split (then without `wallet`).
 */
export const claimRewardsSchema = z.object({
  wallet: z
    .string({ message: REWARD_MESSAGES.selectWallet })
    .trim()
    .min(1, REWARD_MESSAGES.selectWallet)
    .pipe(classicAddressSchema('wallet'))
    .optional(),
  /** The token's ticker or its 40-hex currency code. */
  token: tokenCodeSchema('token', { message: REWARD_MESSAGES.token }),
  issuer: classicAddressSchema('issuer'),
  percent: z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{1,3}$/)
          .transform(Number),
      ],
      {
        message: REWARD_MESSAGES.percent,
      },
    )
    .pipe(
      z
        .number()
        .int(REWARD_MESSAGES.percent)
        .min(REWARD_PERCENT_MIN, REWARD_MESSAGES.percent)
        .max(REWARD_PERCENT_MAX, REWARD_MESSAGES.percent)
        .multipleOf(REWARD_PERCENT_STEP, REWARD_MESSAGES.percent),
    ),
});
export type ClaimRewardsRequest = z.input<typeof claimRewardsSchema>;

/**
 * POST /api/claim-rewards answer: the amount paid (6 decimals) and the wallet it went to. A split
 * claim names its first recipient in `to`/`hash` and every payment in `payouts`.
 */
/** What a claim paid (a creator's reward or a referrer's earnings): how much, to whom, by which transaction. */
export const claimPaymentResultSchema = z.object({
  claimed: z.string(),
  to: z.string(),
  currency: z.string(),
  hash: z.string(),
});

export const claimRewardsResultSchema = claimPaymentResultSchema.extend({
  /** One payment per recipient when the token has a reward split. */
  payouts: z
    .array(
      z.object({
        address: z.string(),
        amount: z.string(),
        hash: z.string().nullable(),
        status: rewardPayoutViewSchema.shape.status,
      }),
    )
    .optional(),
});
export type ClaimRewardsResult = z.infer<typeof claimRewardsResultSchema>;

/** GET /api/rewards/summary: one row per token the caller created. */
export const rewardSummaryRowSchema = z.object({
  id: z.number().int(),
  total_reward: z.string(),
  reward_currency: z.string(),
});
export type RewardSummaryRow = z.infer<typeof rewardSummaryRowSchema>;

/** GET /api/rewards/claim-totals: what the caller has claimed of each of their tokens. */
export const rewardClaimTotalSchema = z.object({ token_id: z.number().int(), total_claimed: z.string() });
export type RewardClaimTotal = z.infer<typeof rewardClaimTotalSchema>;

// Sums of issued amounts need more than the default 20 digits.

const asDecimal = (v: string | number): Decimal => {
  try {
    const d = new Decimal(v);
    return d.isFinite() ? d : new Decimal(0);
  } catch {
    return new Decimal(0);
  }
};

/** Earned minus already claimed, never below zero. */
export function unclaimedReward(totalReward: string | number, totalClaimed: string | number): string {
  return Decimal.max(asDecimal(totalReward).minus(asDecimal(totalClaimed)), 0).toFixed();
}

/**
 * The amount a claim of `percent` pays: that percent of the unclaimed reward, rounded down to 6
 * decimals (XRP's drops; RLUSD the same, so the modal shows exactly what arrives).
 */
export function claimAmount(
  totalReward: string | number,
  totalClaimed: string | number,
  percent: number,
): string {
  const unclaimed = new Decimal(unclaimedReward(totalReward, totalClaimed));
  return unclaimed
    .mul(percent)
    .div(100)
    .toDecimalPlaces(AMOUNT_DECIMALS, Decimal.ROUND_DOWN)
    .toFixed(AMOUNT_DECIMALS);
}
