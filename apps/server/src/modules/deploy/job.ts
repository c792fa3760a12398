import {
  DEPLOY_STEP_LABELS,
  type DeployResult,
  type LaunchType,
  type DeployFormCore,
  type VestingSettings,
  type VestingTranche,
  ledgerResultMessage,
  type AntiSniperParams,
  Decimal,
} from '@ledgerpad/shared';
import { ValidationError, type Client } from 'xrpl';
import type { Db } from '../../db/client';
import type { Keyring } from '../../keys/envelope';
import type { SubmissionService } from '../../ledger/submission-service';
import { adoptStagedWallet, stageDeployWallets } from '../../platform/custody';
import { JobFailure, JobLeaseLost, type JobContext, type JobRunner } from '../../platform/jobs';
import type { BondingRegistry } from '../bonding';
import type { TokenRegistry } from '../tokens';
import {
  planCurveLaunch,
  planDeploy,
  type DeployAccount,
  type FirstBuyPlan,
  type PlannedStep,
  type PlanInput,
} from './plan';

/** Final results of a transaction that never applied: safe to sign the step again. */
const NEVER_APPLIED = new Set(['tefPAST_SEQ', 'expired']);
/** How often a deploy step is signed again after such a result. */
const STEP_RESIGNS = 3;

export const DEPLOY_JOB = 'deploy';
/** The step that delivers the dev allocation (a Check of it, in a self-funded deploy). */
export const DEV_ALLOCATION_STEP = 'dev-allocation';

/** Everything the job needs, fixed at enqueue: code between steps must not read the clock or the ledger. */
export interface DeployPayload extends Pick<
  PlanInput,
  | 'userAddress'
  | 'feeAddress'
  | 'currency'
  | 'devAmount'
  | 'hotAmount'
  | 'liquidity'
  | 'rlusd'
  | 'issuerFundDrops'
  | 'hotFundDrops'
  | 'serviceFeeDrops'
  | 'tradingFee'
> {
  userId: number;
  walletId: number;
  form: DeployFormCore & {
    telegramFileId: string | null;
    twitterLink: string | null;
    telegramLink: string | null;
    websiteLink: string | null;
  };
  /** Absent (older jobs) means 'amm'. */
  launchType?: LaunchType;
  /**
   * The dev allocation locked on the ledger (docs/vesting.md): the settings, the start (Ripple time)
   * and the tranches with their FinishAfter, fixed at enqueue so a re-run signs the same escrows.
   */
  vesting?: { settings: VestingSettings; start: number; tranches: VestingTranche[] } | null;
  /** The creator's first buy, fixed at enqueue — with whether the ledger had Batch then. */
  firstBuy?: FirstBuyPlan | null;
  /**
   * Funded from a self-custody wallet (self-custody.ts): its signed intent made the issuer and the
   * hot wallet (curve account); the hot wallet's funding carries the service fee, which it pays.
   */
  selfFunded?: boolean;
  /**
   * A self-funded RLUSD pair: the ledger id of the wallet's Check of the pool's RLUSD to the hot
   * wallet (its funding intent's third transaction), which the hot wallet cashes (`send-rlusd`).
   */
  rlusdCheck?: string;
  /** A curve launch's parameters, fixed at enqueue (docs/bonding-curve.md). */
  bonding?: {
    virtualQuote: string;
    steps: number;
    fineSteps: number;
    snipeLedgers: number;
    snipeTokens: string;
    feePpm: number;
    /** The anti-sniper window (docs/launch-protection.md); absent (older jobs) or null: none. */
    antiSniper?: AntiSniperParams | null;
    /**
     * An instant launch's anti-sniper window (launchType 'amm'): the hot wallet is the window's
     * curve account, x0 = the pool's XRP (drops, `virtualQuote`), y0 = its tokens; absent: a curve
     * launch's curve.
     */
    window?: {
      virtualTokens: string;
      curveTokens: string;
      /** The pool's tokens B, issued to the curve account. */
      startHeld: string;
      /** The curve account's deposit (reserves, ladder, AMMCreate fee), drops. */
      depositDrops: string;
      graduateAfterSeconds: number;
    };
  };
}

export interface DeployJobDeps {
  db: Db;
  keyring: Keyring;
  submissions: SubmissionService;
  client: Client;
  tokens: TokenRegistry;
  /** Curve launches register their curve when the token is listed. */
  bonding?: Pick<BondingRegistry, 'registerCurve' | 'changed'>;
}

interface StepValue {
  hash: string;
  ledgerIndex: number | null;
  /** A Batch step's inner transactions' hashes, in order. */
  inner?: string[];
}

/** A step not started because a step it depends on failed; it stays pending. */
class DependencyFailed extends Error {}

export function deployStepNames(payload: DeployPayload): string[] {
  return ['create-wallets', ...planOf(payload, 'r', 'r').map((s) => s.name), 'list-token'];
}

function planOf(p: DeployPayload, issuerAddress: string, hotAddress: string): PlannedStep[] {
  const plan = planFor(p, issuerAddress, hotAddress);
  return p.selfFunded ? withoutCreatorSteps(plan) : plan;
}

/**
 * A self-funded deploy's plan: the creator's funding steps are done (the wallet's signed intent,
 * validated before the job was enqueued), and the one other step of the creator's wallet a
 * self-funded plan has — the service fee — is the hot wallet's (or the curve account's), before the
 * LP burn blackholes it. What would need the wallet mid-job is planned without it (`selfFunded` in
 * `planDeploy`): the dev allocation and the first buy's tokens wait in Checks to the wallet, which
 * its claim cashes after the job (self-custody.ts `prepareAllocation`), on a line the issuer
 * pre-authorized under RequireAuth. Any other creator step cannot be signed here.
 */
function withoutCreatorSteps(plan: PlannedStep[]): PlannedStep[] {
  const funded = new Set(plan.filter((s) => s.account === 'user' && s.validateFirst).map((s) => s.name));
  const fee = plan.some((s) => s.name === 'service-fee');
  return plan
    .filter((s) => !funded.has(s.name))
    .map((s) => {
      const after = s.after.filter((d) => !funded.has(d));
      if (s.name === 'burn-lp-regular-key' && fee) after.push('service-fee');
      if (s.account !== 'user') return { ...s, after };
      if (s.name === 'service-fee') return { ...s, after, account: 'hot' as const };
      throw new Error(`Deploy step ${s.name} needs the creator's own signature`);
    });
}

function planFor(p: DeployPayload, issuerAddress: string, hotAddress: string): PlannedStep[] {
  if (p.launchType === 'bonding') {
    return planCurveLaunch({
      userAddress: p.userAddress,
      issuerAddress,
      curveAddress: hotAddress,
      feeAddress: p.feeAddress,
      currency: p.currency,
      supply: p.form.supply,
      rlusd: p.rlusd,
      issuerFundDrops: p.issuerFundDrops,
      curveFundDrops: p.hotFundDrops,
      serviceFeeDrops: p.serviceFeeDrops,
    });
  }
  return planDeploy({
    userAddress: p.userAddress,
    issuerAddress,
    hotAddress,
    feeAddress: p.feeAddress,
    currency: p.currency,
    supply: p.form.supply,
    devAmount: p.devAmount,
    hotAmount: p.hotAmount,
    pair: p.form.liquidityPairType,
    liquidity: p.liquidity,
    rlusd: p.rlusd,
    issuerFundDrops: p.issuerFundDrops,
    hotFundDrops: p.hotFundDrops,
    serviceFeeDrops: p.serviceFeeDrops,
    tradingFee: p.tradingFee,
    requireAuth: p.form.requireAuth,
    blackhole: p.form.blackholeIssuer,
    burnLp: p.form.burnLp === true,
    vesting: p.vesting?.tranches ?? null,
    firstBuy: p.firstBuy ?? null,
    selfFunded: p.selfFunded === true,
    rlusdCheck: p.rlusdCheck ?? null,
    window: p.bonding?.window !== undefined,
  });
}

const label = (step: string) => DEPLOY_STEP_LABELS[step] ?? step;

export function registerDeployJob(jobs: JobRunner, deps: DeployJobDeps): void {
  jobs.register<DeployPayload, DeployResult>(DEPLOY_JOB, (ctx) => runDeploy(ctx, deps), {
    failureMessage: 'Something went wrong while deploying. Please try again.',
    completedLog: 'info',
  });
}

async function runDeploy(ctx: JobContext<DeployPayload>, deps: DeployJobDeps): Promise<DeployResult> {
  const p = ctx.payload;
  const staged = await ctx.step('create-wallets', async () => {
    const w = await stageDeployWallets(deps.db, deps.keyring, ctx.jobId, p.userId, p.form.ticker);
    return {
      issuerAddress: w.issuer.address,
      issuerId: w.issuer.id,
      hotAddress: w.hot.address,
      hotId: w.hot.id,
    };
  });
  const accounts: Record<DeployAccount, string> = {
    user: p.userAddress,
    issuer: staged.issuerAddress,
    hot: staged.hotAddress,
  };
  const plan = planOf(p, staged.issuerAddress, staged.hotAddress);

  // "Applied" = in the open ledger (engine tesSUCCESS) or validated: dependents may go out then.
  const applied = new Map<
    string,
    { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void }
  >();
  for (const step of plan) {
    let resolve!: () => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => {}); // observed by dependents; never an unhandled rejection
    applied.set(step.name, { promise, resolve, reject });
  }

  // A Batch step (the pool and the creator's first buy): one intent of the submission service, so a
  // re-run after kill -9 follows the recorded Batch (its intent key) instead of signing another.
  // Dependents wait for its validation, not its engine result: under tfAllOrNothing the outer
  // applies (tesSUCCESS) even when its inner transactions were rolled back.
  const runBatchStep = async (step: PlannedStep): Promise<StepValue> => {
    const key = ctx.intentKey(step.name);
    const req = {
      intentKey: key,
      account: accounts[step.account],
      mode: 'allOrNothing' as const,
      inner: step.inner!.map((i) => ({
        intentKey: `${key}:${i.name}`,
        tx: i.tx,
        purpose: `deploy:${i.name}`,
      })),
      purpose: `deploy:${step.name}`,
      userId: p.userId,
      walletId: null,
    };
    const row = await deps.submissions.prepareBatch(req).catch((err: unknown) => {
      if (err instanceof ValidationError) {
        throw new JobFailure(step.name, `${label(step.name)} failed: the ledger would refuse it (malformed)`);
      }
      throw err;
    });
    await ctx.setTxHash(step.name, row.hash);
    const outcome = await deps.submissions.followBatch(req, row);
    const failed = outcome.inner.find((o) => o.status !== 'success');
    if (outcome.batch.status !== 'success' || failed) {
      const result = outcome.batch.status !== 'success' ? outcome.batch.result : failed!.result;
      throw new JobFailure(
        step.name,
        `${label(step.name)} failed: ${ledgerResultMessage(result)} (${result})`,
      );
    }
    return {
      hash: outcome.batch.hash,
      ledgerIndex: outcome.batch.ledgerIndex,
      inner: outcome.inner.map((o) => o.hash),
    };
  };

  const runStep = async (step: PlannedStep): Promise<StepValue> => {
    const gate = applied.get(step.name)!;
    try {
      await Promise.all(step.after.map((d) => applied.get(d)!.promise));
    } catch (err) {
      gate.reject(err);
      throw new DependencyFailed(step.name);
    }
    try {
      if (step.inner) {
        const value = await ctx.step(step.name, () => runBatchStep(step), { txHash: (v) => v.hash });
        gate.resolve();
        return value;
      }
      const value = await ctx.step(
        step.name,
        async (): Promise<StepValue> => {
          // A transaction that provably never applied (its sequence fell behind the account's —
          // e.g. the embedded ledger lost its open ledger in a crash and the new account was
          // created a ledger later — or it expired unseen) is signed again under the next intent
          // key: each attempt's key is fixed, so a re-run after a crash finds the same attempts.
          for (let attempt = 0; ; attempt++) {
            const intentKey =
              attempt === 0 ? ctx.intentKey(step.name) : `${ctx.intentKey(step.name)}:again-${attempt}`;
            const row = await deps.submissions
              .prepare({
                intentKey,
                account: accounts[step.account],
                tx: step.tx,
                purpose: `deploy:${step.name}`,
                userId: p.userId,
                walletId: step.account === 'user' ? p.walletId : null,
              })
              .catch((err: unknown) => {
                // Refused before signing (malformed for the ledger): final, retrying changes nothing.
                if (err instanceof ValidationError) {
                  throw new JobFailure(
                    step.name,
                    `${label(step.name)} failed: the ledger would refuse it (malformed)`,
                  );
                }
                throw err;
              });
            await ctx.setTxHash(step.name, row.hash);
            const engine = await deps.submissions.engineResult(row.hash);
            if (engine === 'tesSUCCESS' && !step.validateFirst) gate.resolve();
            const outcome = await deps.submissions.wait(row.hash);
            if (outcome.status === 'success') return { hash: outcome.hash, ledgerIndex: outcome.ledgerIndex };
            if (NEVER_APPLIED.has(outcome.result) && attempt < STEP_RESIGNS) continue;
            // What the result means, and the code itself (a job's error is one text).
            throw new JobFailure(
              step.name,
              `${label(step.name)} failed: ${ledgerResultMessage(outcome.result)} (${outcome.result})`,
            );
          }
        },
        { txHash: (v) => v.hash },
      );
      gate.resolve();
      return value;
    } catch (err) {
      gate.reject(err);
      throw err;
    }
  };

  const settled = await Promise.allSettled(plan.map(runStep));
  const errors = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  if (errors.length) {
    // Plan order is dependency order, so the first final failure is the step that broke the chain.
    throw (
      errors.find((e) => e instanceof JobLeaseLost) ??
      errors.find((e) => e instanceof JobFailure) ??
      errors.find((e) => !(e instanceof DependencyFailed)) ??
      errors[0]
    );
  }
  const values = new Map(
    plan.map((s, i) => [s.name, (settled[i] as PromiseFulfilledResult<StepValue>).value]),
  );

  const window = p.bonding?.window;
  // A window launch lists as a curve until its pool opens (the bonding module prices and trades it).
  const bonding = p.launchType === 'bonding' || window !== undefined;
  const listed = await ctx.step('list-token', async () => {
    const amm = bonding
      ? null
      : await deps.client
          .request({
            command: 'amm_info',
            asset: p.rlusd ? { currency: p.rlusd.currency, issuer: p.rlusd.issuer } : { currency: 'XRP' },
            asset2: { currency: p.currency, issuer: staged.issuerAddress },
            ledger_index: 'validated',
          })
          .then((r) => (r.result as { amm?: { account?: string } }).amm?.account ?? null)
          .catch(() => null);
    const tokenId = await deps.db.transaction(async (tx) => {
      // An instant launch's hot wallet becomes the user's (it holds their LP tokens), unless the LP
      // was burned: then no key can sign for it and it stays hidden like the blackholed issuer. A
      // curve account stays the platform's.
      if (!bonding && p.form.burnLp !== true)
        await adoptStagedWallet(tx, staged.hotId, `${p.form.ticker} liquidity`);
      const row =
        (await deps.tokens.insert(
          {
            name: p.form.name,
            ticker: p.form.ticker,
            currency: p.currency,
            issuerAddress: staged.issuerAddress,
            supply: p.form.supply,
            devAllocation: p.form.devAllocation,
            liquidityAmount: p.form.liquidityAmount,
            ammFee: p.form.ammFee,
            liquidityPair: p.form.liquidityPairType,
            description: p.form.description,
            logoUrl: p.form.logoUrl,
            telegramFileId: p.form.telegramFileId,
            twitterLink: p.form.twitterLink,
            telegramLink: p.form.telegramLink,
            websiteLink: p.form.websiteLink,
            isBlackholed: p.form.blackholeIssuer,
            requireAuth: p.form.requireAuth,
            source: 'deploy',
            deployerUserId: p.userId,
            issuerWalletId: staged.issuerId,
            hotWalletId: bonding ? null : staged.hotId,
            deployJobId: ctx.jobId,
            launchType: bonding ? 'bonding' : null,
            bondingActive: bonding,
          },
          tx,
        )) ?? (await deps.tokens.byDeployJob(ctx.jobId, tx));
      if (!row) throw new Error(`Token of job ${ctx.jobId} was not written`);
      if (bonding) {
        if (!deps.bonding || !p.bonding) throw new Error('Curve launches need the bonding module');
        await deps.bonding.registerCurve(tx, {
          tokenId: row.id,
          issuerAddress: staged.issuerAddress,
          currency: p.currency,
          quote: p.rlusd ? 'RLUSD' : 'XRP',
          quoteIssuer: p.rlusd?.issuer ?? null,
          curveWalletId: staged.hotId,
          curveAddress: staged.hotAddress,
          creatorUserId: p.userId,
          creatorAddress: p.userAddress,
          depositDrops: p.hotFundDrops,
          virtualQuote: p.bonding.virtualQuote,
          steps: p.bonding.steps,
          fineSteps: p.bonding.fineSteps,
          snipeLedgers: p.bonding.snipeLedgers,
          snipeTokens: p.bonding.snipeTokens,
          ammTradingFee: p.tradingFee,
          feePpm: p.bonding.feePpm,
          ...(window
            ? {
                depositDrops: window.depositDrops,
                window: {
                  virtualTokens: window.virtualTokens,
                  curveTokens: window.curveTokens,
                  startHeld: window.startHeld,
                  totalSupply: p.form.supply,
                  realQuote: p.bonding.virtualQuote,
                  graduateAfterSeconds: window.graduateAfterSeconds,
                  // The creator's first buy left the account before any offer: sold, and paid in.
                  held: p.firstBuy
                    ? new Decimal(window.startHeld).minus(p.firstBuy.deliverMin).toFixed()
                    : window.startHeld,
                  quoteIn: p.firstBuy?.drops ?? '0',
                },
              }
            : {}),
        });
      }
      return row.id;
    });
    deps.tokens.changed(); // committed: the public list shows it now
    if (bonding) deps.bonding?.changed(); // the keeper posts the first ladder
    return { tokenId, ammAccount: amm };
  });

  return {
    success: true,
    token_id: listed.tokenId,
    issuer_address: staged.issuerAddress,
    hot_wallet_address: staged.hotAddress,
    currency: p.currency,
    ticker: p.form.ticker,
    amm_account: listed.ammAccount,
    // The ledger index each transaction validated in (the bench counts closes from these).
    ledgers: Object.fromEntries([...values].map(([k, v]) => [k, v.ledgerIndex])),
  };
}
