import { eq } from 'drizzle-orm';
import { REFERRAL_MESSAGES } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { JobFailure, type JobRunner } from '../../platform/jobs';
import type { FeeWalletPayments } from '../rewards';
import { referralClaims } from './schema';
import { REFERRAL_CLAIM_JOB, markReferralClaimPaid, releaseReferralClaim } from './service';

// The payment of one referral claim, from the fee wallet to the referrer's chosen wallet: a persisted
// job keyed by the claim (survives a crash, runs once across instances) whose one transaction has an
// intent key made from the claim id, so at most one payment is ever signed for a claim. A final
// failure gives the amount back to what the referrer can claim.

const MAX_ATTEMPTS = 8;

export const referralIntentKey = (claimId: number) => `${REFERRAL_CLAIM_JOB}:claim-${claimId}:pay`;

export function registerReferralClaimJob(deps: {
  db: Db;
  jobs: JobRunner;
  payments: FeeWalletPayments;
}): void {
  const { db, payments } = deps;
  deps.jobs.register<{ claimId: number }, { status: string; hash?: string | null }>(
    REFERRAL_CLAIM_JOB,
    async (ctx) => {
      const [claim] = await db
        .select()
        .from(referralClaims)
        .where(eq(referralClaims.id, ctx.payload.claimId));
      if (!claim) throw new JobFailure(null, REFERRAL_MESSAGES.claimFailed);
      if (claim.status === 'paid') return { status: 'paid', hash: claim.hash };
      if (claim.status === 'failed') throw new JobFailure(null, REFERRAL_MESSAGES.claimFailed);
      const intentKey = referralIntentKey(claim.id);
      if (ctx.attempt >= MAX_ATTEMPTS && !(await payments.signed(intentKey))) {
        // Nothing was ever signed for this claim and the runner is about to give up: release it.
        await releaseReferralClaim(db, claim.id, null);
        throw new JobFailure(null, REFERRAL_MESSAGES.claimFailed);
      }
      // Throws (the job is retried) only when the ledger is unreachable; the retry finds the recorded
      // transaction by its intent key and waits for it instead of signing again.
      const outcome = await payments.pay({
        intentKey,
        to: claim.walletAddress,
        amount: claim.amount,
        currency: claim.currency,
        purpose: 'referral-claim',
        userId: claim.userId,
      });
      if (outcome.status === 'success') {
        await markReferralClaimPaid(db, claim.id, outcome.hash);
        return { status: 'paid', hash: outcome.hash };
      }
      await releaseReferralClaim(db, claim.id, outcome.hash);
      throw new JobFailure(null, REFERRAL_MESSAGES.claimFailed);
    },
    { maxAttempts: MAX_ATTEMPTS, failureMessage: REFERRAL_MESSAGES.claimFailed },
  );
}
