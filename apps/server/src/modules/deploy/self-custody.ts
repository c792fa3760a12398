import { randomUUID } from 'node:crypto';
import { DEPLOY_STEP_LABELS, ledgerResultMessage, type IntentRequired } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import type { Keyring } from '../../keys/envelope';
import { ledgerFailure } from '../../ledger/errors';
import type { Funds } from '../../ledger/funds';
import type { SubmissionOutcome } from '../../ledger/submission-service';
import { stageDeployWallets } from '../../platform/custody';
import type { IntentFinisher, IntentRow, IntentService } from '../../platform/intents';
import type { JobRunner } from '../../platform/jobs';
import { DEPLOY_JOB, deployStepNames, type DeployPayload } from './job';

// A deploy funded from a self-custody wallet (docs/self-custody.md "Deploy"). A deploy's issuer and
// hot wallet (or curve account) are fresh accounts the platform makes and holds for every deploy,
// custodial or not; what the creator's own wallet signs is their funding. So the wallet signs one
// intent — the issuer's and the hot wallet's funding Payments (the hot wallet's carries the service
// fee, which it pays once the pool exists, as the creator's wallet does in a custodial deploy) —
// and once both applied, the finisher starts the very deploy job, its funding steps already done.

/** The intent purpose (and finisher) of a self-custody deploy's funding. */
export const DEPLOY_INTENT = 'deploy-fund';

/** The intent key of a deploy request: a retry answers the same intent. */
export const deployIntentKey = (userId: number, requestKey: string): string =>
  `${DEPLOY_INTENT}:${userId}:${requestKey}`;

/** What the intent keeps: the job's payload, fixed now, and the job's id its staged wallets carry. */
interface FundContext {
  payload: DeployPayload;
  jobId: string;
}

export interface SelfCustodyDeployDeps {
  db: Db;
  keyring: Keyring;
  jobs: JobRunner;
  intents: IntentService;
  funds?: Funds;
}

export class SelfCustodyDeploy {
  constructor(private readonly deps: SelfCustodyDeployDeps) {}

  /**
   * Stages the deploy's accounts (under the job id the job will have: the admin refund tool finds
   * them by it, should the deploy fail) and answers the funding the wallet signs.
   */
  async prepare(
    wallet: { id: number; address: string },
    payload: DeployPayload,
    intentKey: string,
  ): Promise<IntentRequired> {
    const jobId = randomUUID();
    const staged = await stageDeployWallets(
      this.deps.db,
      this.deps.keyring,
      jobId,
      payload.userId,
      payload.form.ticker,
    );
    const second = payload.launchType === 'bonding' ? 'fund-curve' : 'fund-hot-wallet';
    const context: FundContext = { payload, jobId };
    const intent = await this.deps.intents.prepare({
      userId: payload.userId,
      wallet,
      purpose: DEPLOY_INTENT,
      intentKey,
      txs: [
        {
          tx: {
            TransactionType: 'Payment',
            Destination: staged.issuer.address,
            Amount: payload.issuerFundDrops,
          },
          purpose: 'deploy:fund-issuer',
        },
        {
          tx: { TransactionType: 'Payment', Destination: staged.hot.address, Amount: payload.hotFundDrops },
          purpose: `deploy:${second}`,
        },
      ],
      context: context as unknown as Record<string, unknown>,
    });
    return { status: 'sign', intent };
  }

  finisher(): IntentFinisher {
    return {
      // Right before the blobs go out: both fundings, the service fee inside the second.
      recheck: async (intent) => {
        const { payload } = intent.context as unknown as FundContext;
        const fee = BigInt(payload.serviceFeeDrops);
        await this.deps.funds?.requireXrp(intent.account, {
          amount: BigInt(payload.issuerFundDrops) + BigInt(payload.hotFundDrops) - fee,
          platformFee: fee,
          transactions: 2,
        });
      },
      finish: (intent, outcomes) => this.finish(intent, outcomes),
    };
  }

  /**
   * Both fundings applied: the deploy job, once (its key is the intent's; a second run finds it).
   * A funding that failed answers the ledger's word; a first one that applied left its XRP in the
   * staged issuer, which the admin refund tool returns (as for any failed deploy).
   */
  private async finish(
    intent: IntentRow,
    outcomes: Array<SubmissionOutcome | undefined>,
  ): Promise<{ jobId: string }> {
    const failed = outcomes.find((o) => o && o.status !== 'success');
    const { payload, jobId } = intent.context as unknown as FundContext;
    if (failed) {
      const second = payload.launchType === 'bonding' ? 'fund-curve' : 'fund-hot-wallet';
      const step = failed === outcomes[0] ? 'fund-issuer' : second;
      throw ledgerFailure(
        failed,
        `${DEPLOY_STEP_LABELS[step] ?? step} failed: ${ledgerResultMessage(failed.result)} (${failed.result})`,
      );
    }
    const job = await this.deps.jobs.enqueue({
      id: jobId,
      type: DEPLOY_JOB,
      userId: payload.userId,
      payload,
      steps: deployStepNames(payload),
      key: `${DEPLOY_JOB}:intent:${intent.id}`,
    });
    return { jobId: job.id };
  }
}
