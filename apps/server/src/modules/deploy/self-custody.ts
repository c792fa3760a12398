import { createHash, randomUUID } from 'node:crypto';
import {
  Decimal,
  DEPLOY_STEP_LABELS,
  ledgerResultMessage,
  SELF_CUSTODY_MESSAGES,
  type DeployClaimView,
  type DevAllocationResult,
  type IntentRequired,
} from '@ledgerpad/shared';
import { eq } from 'drizzle-orm';
import { decodeAccountID, type Client } from 'xrpl';
import type { Db } from '../../db/client';
import type { Keyring } from '../../keys/envelope';
import { validatedClose } from '../../ledger/escrows';
import { ledgerFailure } from '../../ledger/errors';
import { badRequest, ledgerUnavailable, notFound } from '../../lib/errors';
import type { Funds } from '../../ledger/funds';
import type { SubmissionOutcome, TxRequest } from '../../ledger/submission-service';
import { stageDeployWallets } from '../../platform/custody';
import type { IntentFinisher, IntentRow, IntentService } from '../../platform/intents';
import { jobs, type JobRunner } from '../../platform/jobs';
import { DEPLOY_JOB, deployStepNames, type DeployPayload } from './job';
import { devLockTx, lockStepName } from './plan';
import { ALLOCATION_CLAIM, ALLOCATION_INTENT } from '../vesting';

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

/**
 * The allocation intent's key (purpose `ALLOCATION_INTENT`, vesting's): the deploy's job in it
 * (vesting finds the escrows it created by it, `allocationKeyPattern`), the request's key last (a
 * retry answers the same intent; after one expired unsigned, a new request builds a new one).
 */
export const allocationIntentKey = (userId: number, jobId: string, requestKey: string): string =>
  `${ALLOCATION_INTENT}:${userId}:${jobId}:${requestKey}`;

/**
 * A tranche whose unlock is this close (seconds) is not escrowed by the allocation intent: rippled
 * refuses an EscrowCreate whose FinishAfter has passed (tecNO_PERMISSION), and the wallet signs a
 * while after the intent is built; the tranche would be due at once anyway. A wallet that signs
 * later still (an intent lives 60 ledgers) meets that refusal on the tranche, which the answer
 * names; the claim before it applied, so those tokens are the wallet's, unlocked.
 */
const LOCK_MARGIN_SECONDS = 60;

interface AllocationContext {
  jobId: string;
  /** The dev allocation cashed ('0': none, or its Check was gone). */
  amount: string;
  /** The first buy's tokens cashed (the hot wallet's Check); absent: none. */
  firstBuy?: string;
  /** The CheckCash transactions after the line (1 or 2), then one EscrowCreate per tranche. */
  checks?: number;
  tranches: number[];
}

/** The purpose of the CheckCash of a self-funded deploy's first buy (the hot wallet's Check). */
export const FIRST_BUY_CLAIM = 'deploy:claim-first-buy';

/** The purpose of a self-funded RLUSD pair's Check of the pool's RLUSD (the funding's third tx). */
export const RLUSD_CHECK = 'deploy:rlusd-check';

/** The RLUSD a self-funded AMM launch's funding writes its Check of; null without an RLUSD pool. */
const rlusdCheck = (p: DeployPayload) =>
  p.rlusd && p.launchType !== 'bonding'
    ? { currency: p.rlusd.currency, issuer: p.rlusd.issuer, value: p.liquidity }
    : null;

/** A Check's ledger id: SHA-512Half of the space key 'C', its writer's AccountID and its Sequence. */
export function checkId(account: string, sequence: number): string {
  const key = Buffer.concat([
    Buffer.from([0x00, 0x43]),
    Buffer.from(decodeAccountID(account)),
    Buffer.from(sequence.toString(16).padStart(8, '0'), 'hex'),
  ]);
  return createHash('sha512').update(key).digest('hex').slice(0, 64).toUpperCase();
}

/** What the intent keeps: the job's payload, fixed now, and the job's id its staged wallets carry. */
interface FundContext {
  payload: DeployPayload;
  jobId: string;
}

export interface SelfCustodyDeployDeps {
  db: Db;
  client: () => Client | undefined;
  keyring: Keyring;
  jobs: JobRunner;
  intents: IntentService;
  funds?: Funds;
}

/** The first buy's tokens a self-funded deploy's hot wallet writes its Check of; null: no first buy. */
const firstBuyTokens = (payload: DeployPayload): string | null =>
  payload.firstBuy && BigInt(payload.firstBuy.drops) > 0n ? payload.firstBuy.deliverMin : null;

/**
 * The Checks of the deploy's token to the creator's wallet on the validated ledger, by writer (the
 * issuer's: the dev allocation; the hot wallet's: the first buy).
 */
async function walletChecks(
  client: Client,
  owner: string,
  currency: string,
  issuer: string,
): Promise<Map<string, string>> {
  const r = await client.request({
    command: 'account_objects',
    account: owner,
    type: 'check',
    ledger_index: 'validated',
  });
  const found = new Map<string, string>();
  for (const o of r.result.account_objects as unknown as Array<Record<string, unknown>>) {
    const max = o.SendMax as { currency?: string; issuer?: string } | undefined;
    if (o.Destination === owner && max?.currency === currency && max.issuer === issuer)
      found.set(o.Account as string, o.index as string);
  }
  return found;
}

/**
 * The dashboard's claim of a self-funded deploy (GET /api/dashboard/deploy-claim/{tokenId},
 * docs/self-custody.md "Claiming later, from the dashboard"): what the completed job left for the
 * creator's wallet in Checks still on the validated ledger — the same read as the claim's
 * (`prepareAllocation`), so the Claim button appears exactly when that claim has something to cash.
 * Null when nothing waits, and when the allocation has a vesting schedule: the schedule's "Claim
 * and lock" offers it (with the first buy, which that claim cashes too).
 */
export async function waitingClaim(db: Db, client: Client, jobId: string): Promise<DeployClaimView['claim']> {
  const [job] = await db.select().from(jobs).where(eq(jobs.id, jobId));
  const payload = job?.payload as DeployPayload | undefined;
  if (!job || job.type !== DEPLOY_JOB || job.status !== 'completed' || !payload?.selfFunded) return null;
  const buyTokens = firstBuyTokens(payload);
  const dev = new Decimal(payload.devAmount).gt(0);
  if (!dev && !buyTokens) return null;
  const { issuer_address: issuer, hot_wallet_address: hot } = job.result as {
    issuer_address: string;
    hot_wallet_address: string;
  };
  const checks = await walletChecks(client, payload.userAddress, payload.currency, issuer);
  const allocation = dev && checks.has(issuer) ? payload.devAmount : null;
  const firstBuy = buyTokens && checks.has(hot) ? buyTokens : null;
  if (!allocation && !firstBuy) return null;
  if (allocation && payload.vesting?.tranches.length) return null;
  return {
    jobId,
    walletAddress: payload.userAddress,
    allocation,
    firstBuy,
    text: [
      ...(allocation ? [SELF_CUSTODY_MESSAGES.allocationWaiting] : []),
      ...(firstBuy ? [SELF_CUSTODY_MESSAGES.firstBuyWaiting] : []),
    ].join(' '),
  };
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
        // An RLUSD pool: the wallet's RLUSD in a Check to the hot wallet — after its funding (a
        // Check's destination must exist: tecNO_DST), cashed by the hot wallet after its line.
        ...(rlusdCheck(payload)
          ? [
              {
                tx: {
                  TransactionType: 'CheckCreate',
                  Destination: staged.hot.address,
                  SendMax: rlusdCheck(payload)!,
                },
                purpose: RLUSD_CHECK,
              },
            ]
          : []),
      ],
      context: context as unknown as Record<string, unknown>,
    });
    return { status: 'sign', intent };
  }

  /**
   * POST /api/deploy-token/{jobId}/allocation: what a finished self-funded deploy left for the
   * creator's wallet in Checks — the dev allocation (the issuer's) and the first buy's tokens (the
   * hot wallet's) — claimed (and the allocation locked) by one intent the wallet signs: its trust
   * line, the `CheckCash` of each Check still there, then one `EscrowCreate` per tranche still ahead
   * (the custodial job's very transactions, `devLockTx`). The Checks are read from the validated
   * ledger: none left (cashed, here or elsewhere) → refused; the allocation's gone → no locks.
   */
  async prepareAllocation(userId: number, jobId: string, requestKey: string): Promise<IntentRequired> {
    const job = await this.deps.jobs.get(jobId);
    const payload = job?.payload as DeployPayload | undefined;
    const buyTokens = payload ? firstBuyTokens(payload) : null;
    if (
      !job ||
      job.type !== DEPLOY_JOB ||
      job.userId !== userId ||
      !payload?.selfFunded ||
      (!new Decimal(payload.devAmount).gt(0) && !buyTokens)
    )
      throw notFound(SELF_CUSTODY_MESSAGES.allocationNotFound);
    const intentKey = allocationIntentKey(userId, jobId, requestKey);
    const known = await this.deps.intents.known(intentKey);
    if (known) return { status: 'sign', intent: known };
    if (job.status !== 'completed') throw badRequest(SELF_CUSTODY_MESSAGES.allocationNotReady);
    const client = this.deps.client();
    if (!client) throw ledgerUnavailable();
    const { issuer_address: issuer, hot_wallet_address: hot } = job.result as {
      issuer_address: string;
      hot_wallet_address: string;
    };
    const checks = await walletChecks(client, payload.userAddress, payload.currency, issuer);
    const devCheck = new Decimal(payload.devAmount).gt(0) ? checks.get(issuer) : undefined;
    const buyCheck = buyTokens ? checks.get(hot) : undefined;
    if (!devCheck && !buyCheck) throw badRequest(SELF_CUSTODY_MESSAGES.allocationClaimed);
    const { closeTime } = await validatedClose(client);
    const ahead = devCheck
      ? (payload.vesting?.tranches ?? []).filter((t) => t.unlockAt > closeTime + LOCK_MARGIN_SECONDS)
      : [];
    const token = (value: string) => ({ currency: payload.currency, issuer, value });
    const cashes = [
      ...(devCheck
        ? [
            {
              tx: { TransactionType: 'CheckCash', CheckID: devCheck, Amount: token(payload.devAmount) },
              purpose: ALLOCATION_CLAIM,
            },
          ]
        : []),
      ...(buyCheck && buyTokens
        ? [
            {
              tx: { TransactionType: 'CheckCash', CheckID: buyCheck, Amount: token(buyTokens) },
              purpose: FIRST_BUY_CLAIM,
            },
          ]
        : []),
    ] as Array<{ tx: TxRequest; purpose: string }>;
    const context: AllocationContext = {
      jobId,
      amount: devCheck ? payload.devAmount : '0',
      ...(buyCheck && buyTokens ? { firstBuy: buyTokens } : {}),
      checks: cashes.length,
      tranches: ahead.map((t) => t.index),
    };
    const intent = await this.deps.intents.prepare({
      userId,
      wallet: { id: payload.walletId, address: payload.userAddress },
      purpose: ALLOCATION_INTENT,
      intentKey,
      txs: [
        // The wallet's line first, with the supply as its limit as in a custodial deploy: a line
        // CheckCash would open has no limit, and emptied into the escrows it would be deleted —
        // then only the wallet itself could finish them (rippled creates a line on EscrowFinish
        // only for a destination that sends it), not the platform (vesting's release). Under
        // RequireAuth the issuer pre-authorized it during the job (`authorize-dev-line`).
        {
          tx: { TransactionType: 'TrustSet', LimitAmount: token(payload.form.supply) },
          purpose: 'deploy:dev-trust-line',
        },
        ...cashes,
        ...ahead.map((t) => ({
          tx: devLockTx(payload.userAddress, issuer, payload.currency, t),
          purpose: `deploy:${lockStepName(t.index)}`,
        })),
      ],
      context: context as unknown as Record<string, unknown>,
    });
    return { status: 'sign', intent };
  }

  allocationFinisher(): IntentFinisher {
    return {
      // A line and one escrow per tranche: an owner reserve each, and their network fees.
      recheck: async (intent) => {
        const ctx = intent.context as unknown as AllocationContext;
        const n = ctx.tranches.length;
        await this.deps.funds?.requireXrp(intent.account, {
          newObjects: 1 + n,
          transactions: 1 + (ctx.checks ?? 1) + n,
        });
      },
      finish: (intent, outcomes): Promise<DevAllocationResult> => {
        const ctx = intent.context as unknown as AllocationContext;
        const checks = ctx.checks ?? 1;
        const failed = outcomes.find((o) => o && o.status !== 'success');
        if (failed) {
          const i = outcomes.indexOf(failed);
          const what =
            i === 0
              ? 'Opening the trust line'
              : i <= checks
                ? // The dev allocation's CheckCash comes first, when there is one.
                  ctx.firstBuy && i === checks
                  ? 'Claiming your first buy'
                  : 'Claiming the dev allocation'
                : 'Locking a tranche';
          throw ledgerFailure(
            failed,
            `${what} failed: ${ledgerResultMessage(failed.result)} (${failed.result})`,
          );
        }
        return Promise.resolve({
          status: 'claimed',
          amount: ctx.amount,
          ...(ctx.firstBuy ? { firstBuy: ctx.firstBuy } : {}),
          claimHash: outcomes[1]!.hash,
          locks: ctx.tranches.map((index, i) => ({
            index,
            escrowSequence: (intent.txs as Array<{ Sequence: number }>)[i + 1 + checks]!.Sequence,
            hash: outcomes[i + 1 + checks]!.hash,
          })),
        });
      },
    };
  }

  finisher(): IntentFinisher {
    return {
      // Right before the blobs go out: both fundings, the service fee inside the second.
      recheck: async (intent) => {
        const { payload } = intent.context as unknown as FundContext;
        const fee = BigInt(payload.serviceFeeDrops);
        // An RLUSD pool's Check is the wallet's object until the hot wallet cashes it: one reserve.
        const check = rlusdCheck(payload) ? 1 : 0;
        await this.deps.funds?.requireXrp(intent.account, {
          amount: BigInt(payload.issuerFundDrops) + BigInt(payload.hotFundDrops) - fee,
          platformFee: fee,
          newObjects: check,
          transactions: 2 + check,
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
      const step = failed === outcomes[0] ? 'fund-issuer' : failed === outcomes[1] ? second : null;
      const what = step ? (DEPLOY_STEP_LABELS[step] ?? step) : 'Writing the Check of your RLUSD';
      throw ledgerFailure(failed, `${what} failed: ${ledgerResultMessage(failed.result)} (${failed.result})`);
    }
    // The RLUSD Check's id, from its writer and Sequence as signed: the job's `send-rlusd` cashes it.
    const txs = intent.txs as Array<{ Sequence: number }>;
    const job = await this.deps.jobs.enqueue({
      id: jobId,
      type: DEPLOY_JOB,
      userId: payload.userId,
      payload: rlusdCheck(payload)
        ? { ...payload, rlusdCheck: checkId(intent.account, txs[2]!.Sequence) }
        : payload,
      steps: deployStepNames(payload),
      key: `${DEPLOY_JOB}:intent:${intent.id}`,
    });
    return { jobId: job.id };
  }
}
