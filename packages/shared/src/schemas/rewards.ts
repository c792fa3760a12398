import { z } from 'zod';
import { AMOUNT_DECIMALS } from '../constants';
import { tokenCodeSchema } from '../currency';
import { classicAddressSchema } from './common';
import { Decimal } from '../money';

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
} as const;

/** POST /api/claim-rewards: `percent` of the token's unclaimed reward to one of the caller's wallets. */
export const claimRewardsSchema = z.object({
  wallet: z
    .string({ message: REWARD_MESSAGES.selectWallet })
    .trim()
    .min(1, REWARD_MESSAGES.selectWallet)
    .pipe(classicAddressSchema('wallet')),
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

/** POST /api/claim-rewards answer: the amount paid (6 decimals) and the wallet it went to. */
export interface ClaimRewardsResult {
  claimed: string;
  to: string;
  currency: string;
  hash: string;
}

/** GET /api/rewards/summary: one row per token the caller created. */
export interface RewardSummaryRow {
  id: number;
  total_reward: string;
  reward_currency: string;
}

/** GET /api/rewards/claim-totals: what the caller has claimed of each of their tokens. */
export interface RewardClaimTotal {
  token_id: number;
  total_claimed: string;
}

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
