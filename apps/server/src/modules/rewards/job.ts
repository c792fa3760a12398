import { eq } from 'drizzle-orm';
import { REWARD_MESSAGES, RLUSD_CURRENCY_HEX, Decimal, decimalToDrops } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import type { SubmissionService } from '../../ledger/submission-service';
import { PLATFORM_ROLES } from '../../platform/accounts';
import { platformWallet } from '../../platform/custody';
import { JobFailure, type JobRunner } from '../../platform/jobs';
import { rewardClaims } from './schema';
import { REWARD_CLAIM_JOB, markPaid, releaseClaim } from './service';

// The payment of one reward claim: a Payment from the platform fee wallet to the creator's wallet in
// the reward currency. A persisted job keyed by the claim, so it survives a crash and runs once
// across instances; its one transaction has an intent key made from the claim id, so however often
// the job runs, at most one payment is ever signed for a claim. A payment with a final failure
// (validated tec…, rejected, or expired past its LastLedgerSequence) can never pay later: the
// reservation is released.

const MAX_ATTEMPTS = 8;

const claimIntentKey = (claimId: number) => `${REWARD_CLAIM_JOB}:claim-${claimId}:pay`;

export function registerRewardClaimJob(deps: {
  db: Db;
  jobs: JobRunner;
  submissions: SubmissionService;
  rlusdIssuer: () => Promise<string | undefined>;
}): void {
  const { db, submissions } = deps;
  deps.jobs.register<{ claimId: number }, { status: string; hash?: string | null }>(
    REWARD_CLAIM_JOB,
    async (ctx) => {
      const [claim] = await db.select().from(rewardClaims).where(eq(rewardClaims.id, ctx.payload.claimId));
      if (!claim) throw new JobFailure(null, REWARD_MESSAGES.claimFailed);
      if (claim.status === 'paid') return { status: 'paid', hash: claim.hash };
      if (claim.status === 'failed') throw new JobFailure(null, REWARD_MESSAGES.claimFailed);
      const intentKey = claimIntentKey(claim.id);
      const earlier = await submissions.existing(intentKey);
      if (!earlier && ctx.attempt >= MAX_ATTEMPTS) {
        // Nothing was ever signed for this claim and the runner is about to give up: release it.
        await releaseClaim(db, claim.id, null);
        throw new JobFailure(null, REWARD_MESSAGES.claimFailed);
      }

      const feeWallet = (await platformWallet(db, PLATFORM_ROLES.fee))?.address;
      if (!feeWallet) throw new Error('The platform fee wallet is not set up yet');
      let amount: string | { currency: string; issuer: string; value: string };
      if (claim.currency === 'RLUSD') {
        const issuer = await deps.rlusdIssuer();
        if (!issuer) throw new Error('RLUSD issuer unknown');
        amount = { currency: RLUSD_CURRENCY_HEX, issuer, value: new Decimal(claim.amount).toFixed() };
      } else {
        amount = decimalToDrops(claim.amount).toString();
      }
      // Throws (and the job is retried) only when the ledger is unreachable; the retry finds the
      // recorded transaction by its intent key and waits for it instead of signing again.
      const outcome = await submissions.submit({
        intentKey,
        account: feeWallet,
        tx: { TransactionType: 'Payment', Destination: claim.walletAddress, Amount: amount },
        purpose: 'reward-claim',
        userId: claim.userId,
      });
      if (outcome.status === 'success') {
        await markPaid(db, claim.id, outcome.hash);
        return { status: 'paid', hash: outcome.hash };
      }
      await releaseClaim(db, claim.id, outcome.hash);
      throw new JobFailure(null, REWARD_MESSAGES.claimFailed);
    },
    { maxAttempts: MAX_ATTEMPTS, failureMessage: REWARD_MESSAGES.claimFailed },
  );
}
