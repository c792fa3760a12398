import { asc, eq } from 'drizzle-orm';
import { REWARD_MESSAGES } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { JobFailure, type JobRunner } from '../../platform/jobs';
import type { FeeWalletPayments } from './fee-wallet-payment';
import { rewardClaims, rewardPayouts, type RewardPayoutRow } from './schema';
import { REWARD_CLAIM_JOB, markPayoutPaid, releasePayout, settleClaim } from './service';

// The payments of one reward claim: a Payment from the platform fee wallet to each of the claim's
// payouts (the creator's chosen wallet, or every recipient of the token's split) in the reward
// currency. A persisted job keyed by the claim, so it survives a crash and runs once across
// instances; each payout's transaction has an intent key made from the claim id and the payout's
// position, so however often the job runs, at most one payment is ever signed per payout. A payment
// with a final failure (validated tec…, rejected, or expired past its LastLedgerSequence) can never
// pay later: that payout's amount is released back to the unclaimed reward.

const MAX_ATTEMPTS = 8;

/**
 * Position 0 keeps the key claims had before splits existed, so a claim signed then and resumed
 * after the upgrade finds its transaction; the other recipients of a split are `:pay-<position>`.
 */
export const payoutIntentKey = (claimId: number, position: number) =>
  position === 0
    ? `${REWARD_CLAIM_JOB}:claim-${claimId}:pay`
    : `${REWARD_CLAIM_JOB}:claim-${claimId}:pay-${position}`;

export function registerRewardClaimJob(deps: { db: Db; jobs: JobRunner; payments: FeeWalletPayments }): void {
  const { db, payments } = deps;
  deps.jobs.register<{ claimId: number }, { status: string; hash?: string | null }>(
    REWARD_CLAIM_JOB,
    async (ctx) => {
      const [claim] = await db.select().from(rewardClaims).where(eq(rewardClaims.id, ctx.payload.claimId));
      if (!claim) throw new JobFailure(null, REWARD_MESSAGES.claimFailed);
      const payouts = await db
        .select()
        .from(rewardPayouts)
        .where(eq(rewardPayouts.claimId, claim.id))
        .orderBy(asc(rewardPayouts.position));
      const lastAttempt = ctx.attempt >= MAX_ATTEMPTS;
      // The recipients are paid together (the submission service puts one account's transactions
      // in consecutive sequences, so they share a ledger); each settles on its own.
      const results = await Promise.allSettled(
        payouts.filter((p) => p.status === 'pending').map((p) => payOne(db, payments, p, lastAttempt)),
      );
      const status = await settleClaim(db, claim.id);
      // Only the ledger being unreachable throws: the next attempt resumes the payouts still pending.
      const thrown = results.find((r) => r.status === 'rejected');
      if (!status) throw thrown?.reason ?? new Error('reward payouts still pending');
      if (status === 'paid') return { status, hash: payouts[0]?.hash ?? null };
      throw new JobFailure(null, REWARD_MESSAGES.claimFailed);
    },
    { maxAttempts: MAX_ATTEMPTS, failureMessage: REWARD_MESSAGES.claimFailed },
  );
}

/** One payout: paid once (success), released (final failure), or left pending (ledger unreachable). */
async function payOne(db: Db, payments: FeeWalletPayments, p: RewardPayoutRow, lastAttempt: boolean) {
  const intentKey = payoutIntentKey(p.claimId, p.position);
  if (lastAttempt && !(await payments.signed(intentKey))) {
    // Nothing was ever signed for this payout and the runner is about to give up: release it.
    await releasePayout(db, p.id, null);
    return;
  }
  // Throws (and the job is retried) only when the ledger is unreachable; the retry finds the
  // recorded transaction by its intent key and waits for it instead of signing again.
  const outcome = await payments.pay({
    intentKey,
    to: p.address,
    amount: p.amount,
    currency: p.currency,
    purpose: 'reward-claim',
    userId: p.userId,
  });
  if (outcome.status === 'success') await markPayoutPaid(db, p.id, outcome.hash);
  else await releasePayout(db, p.id, outcome.hash);
}
