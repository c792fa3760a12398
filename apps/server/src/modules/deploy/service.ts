import { randomUUID } from 'node:crypto';
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import {
  DEPLOY_LOCK_MS,
  DEPLOY_MAX_ATTEMPTS,
  DEPLOY_MESSAGES,
  IDENTITY_MESSAGES,
  LISTING_MESSAGES,
  RLUSD_CURRENCY_HEX,
  ammFeeToTradingFee,
  ammSwapOut,
  firstBuyTradingFee,
  FIRST_BUY_NETWORK_XRP,
  deployCost,
  instantWindow,
  windowCurveParams,
  curveTokensFor,
  curveTokenDecimals,
  feePercentToPpm,
  type DeployRequest,
  tickerToCurrency,
  Decimal,
  insufficientTokenMessage,
  insufficientXrpMessage,
  rippleTime,
  SELF_CUSTODY_MESSAGES,
  serverSigns,
  vestingTranches,
  xrpToDrops,
  type DeployStarted,
  type IntentRequired,
  type WalletKind,
} from '@ledgerpad/shared';
import type { Client } from 'xrpl';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Funds } from '../../ledger/funds';
import {
  AppError,
  badRequest,
  conflict,
  fieldError,
  ledgerUnavailable,
  notFound,
  rateLimited,
} from '../../lib/errors';
import { PLATFORM_ROLES, rlusdIssuer } from '../../platform/accounts';
import { platformWallet } from '../../platform/custody';
import { jobs as jobsTable, type JobRunner } from '../../platform/jobs';
import type { PlatformSettings } from '../../platform/settings';
import { users } from '../users/schema';
import type { TokenRegistry } from '../tokens';
import { isStoredUpload } from '../uploads';
import type { WalletsApi } from '../wallets';
import { deployAttempts } from './schema';
import { DEPLOY_JOB, deployStepNames, type DeployPayload } from './job';
import { splitSupply } from './plan';
import { deployIntentKey, type SelfCustodyDeploy } from './self-custody';

/**
 * Per-user deploy attempts (spec 001 §5): the 5 attempts of a 60 s window pass; the next one locks
 * the user out for 60 s. Kept in the database (`deploy_attempts`), so neither a reload nor a restart
 * nor another instance lifts the lock; the user's row lock orders concurrent attempts.
 */
class AttemptLock {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts an attempt; returns the seconds left when the user is locked out. */
  async hit(userId: number): Promise<number | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      const t = new Date(this.now());
      const windowStart = new Date(t.getTime() - DEPLOY_LOCK_MS);
      // Rows older than any window or lock are no longer needed.
      await tx
        .delete(deployAttempts)
        .where(
          and(
            eq(deployAttempts.userId, userId),
            lt(deployAttempts.at, new Date(t.getTime() - 2 * DEPLOY_LOCK_MS)),
          ),
        );
      const rows = await tx
        .select()
        .from(deployAttempts)
        .where(and(eq(deployAttempts.userId, userId), gt(deployAttempts.at, windowStart)));
      const lockedUntil = rows.reduce<number>((m, r) => Math.max(m, r.lockedUntil?.getTime() ?? 0), 0);
      if (lockedUntil > t.getTime()) return Math.ceil((lockedUntil - t.getTime()) / 1000);
      // Attempts since the last lock ended count toward the next one.
      const counted = rows.filter((r) => !r.lockedUntil && r.at.getTime() > lockedUntil).length;
      if (counted >= DEPLOY_MAX_ATTEMPTS) {
        await tx
          .insert(deployAttempts)
          .values({ userId, at: t, lockedUntil: new Date(t.getTime() + DEPLOY_LOCK_MS) });
        return Math.ceil(DEPLOY_LOCK_MS / 1000);
      }
      await tx.insert(deployAttempts).values({ userId, at: t });
      return undefined;
    });
  }
}

/** Logos must be ones our upload route stored (never an arbitrary external URL). */
const OWN_LOGO = /^\/(?:images|cdn\/logos)\/[A-Za-z0-9._-]{1,200}$/;

export interface DeployServiceDeps {
  db: Db;
  config: Config;
  client: Client | undefined;
  jobs: JobRunner;
  settings: PlatformSettings;
  wallets: WalletsApi;
  /** The identity rules every door applies, and who shows which logo. */
  tokens: Pick<TokenRegistry, 'identityRefusal' | 'logoTakenBy'>;
  bootstrapped: () => Promise<unknown>;
  reserves: () => { owner: bigint; base: bigint };
  /** Funds checks before anything is signed (absent without a ledger). */
  funds?: Funds;
  /** Whether the ledger applies Batch: the first buy then shares the pool's Batch. */
  batchEnabled?: () => Promise<boolean>;
  /** A deploy funded from a self-custody wallet: one intent, then the job (absent without a ledger). */
  selfCustody?: SelfCustodyDeploy;
  /** The ledger's base fee in drops (the hot wallet's one more transaction when it pays the fee). */
  baseFee?: () => bigint;
}

export class DeployService {
  private readonly attempts: AttemptLock;
  constructor(private readonly deps: DeployServiceDeps) {
    this.attempts = new AttemptLock(deps.db);
  }

  /**
   * Counts a user's deploy attempt (spec 001 §5: an invalid form is an attempt too, so the route
   * calls this before it parses the body); 429 while the user is locked out.
   */
  async attempt(userId: number): Promise<void> {
    const locked = await this.attempts.hit(userId);
    if (locked !== undefined) {
      throw rateLimited(DEPLOY_MESSAGES.tooManyAttempts, { retryAfter: locked });
    }
  }

  /** The deploy a request with this job key started (deployJobKey), if any. */
  async startedBy(jobKey: string): Promise<DeployStarted | undefined> {
    const job = await this.deps.jobs.byKey(jobKey);
    return job ? { jobId: job.id } : undefined;
  }

  /**
   * Checks everything a deploy needs before any transaction, then enqueues its job. A user's deploy
   * passes `attempt` first; the platform's own launches (demo) are not attempts.
   */
  async start(
    userId: number,
    form: DeployRequest,
    /**
     * `jobKey`: enqueue once per key. `platform`: the platform's own launches (demo); they may
     * also give a curve launch its own virtual XRP reserve (`virtualXrp`).
     */
    opts: { jobKey?: string; platform?: boolean; virtualXrp?: string; requestKey?: string } = {},
  ): Promise<DeployStarted | IntentRequired> {
    if (form.honeypot) throw badRequest(DEPLOY_MESSAGES.formErrors);
    if (!OWN_LOGO.test(form.logoUrl)) throw badRequest(DEPLOY_MESSAGES.logo);
    if (form.launchType === 'bonding' && !form.blackholeIssuer)
      throw badRequest(DEPLOY_MESSAGES.bondingBlackhole);
    if (form.launchType === 'bonding' && form.requireAuth)
      throw badRequest(DEPLOY_MESSAGES.bondingRequireAuth);
    const rlusdPair = form.liquidityPairType === 'RLUSD';
    if (!rlusdPair && !/^\d+(\.\d{1,6})?$/.test(form.liquidityAmount)) {
      throw badRequest('XRP liquidity can have at most 6 decimals.');
    }
    if (rlusdPair && new Decimal(form.liquidityAmount).precision(true) > 15) {
      throw badRequest('RLUSD liquidity can have at most 15 significant digits.');
    }
    const client = this.deps.client;
    if (!client) throw ledgerUnavailable();

    const wallet = await this.deps.wallets.owned(userId, form.walletId).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'NOT_FOUND') {
        throw notFound(DEPLOY_MESSAGES.noWallet);
      }
      throw err;
    });
    // A self-custody wallet funds the deploy's fresh accounts with one signed intent, and claims
    // (and locks) a dev allocation and a first buy's tokens with one more after the job (Checks; its
    // line pre-authorized by the issuer under RequireAuth). An RLUSD pool's RLUSD is a Check the
    // funding intent writes to the hot wallet, which cashes it once its RLUSD line exists. A curve
    // launch needs none of the creator's RLUSD (the curve account raises it), whatever the pair.
    const selfFunded = !serverSigns(wallet.kind as WalletKind);
    if (selfFunded && !this.deps.selfCustody) throw badRequest(SELF_CUSTODY_MESSAGES.notSupported);
    await this.refuseConcurrent(wallet.id);
    // Issue 35: the logo is an upload of ours that exists, and no other token's; the ticker and name
    // pass the identity rules every door applies (XRP's and RLUSD's, a protected token's refused).
    if (!(await isStoredUpload(this.deps.db, form.logoUrl)))
      throw fieldError('logoUrl', LISTING_MESSAGES.logoUrl);
    if ((await this.deps.tokens.logoTakenBy(form.logoUrl)) !== undefined)
      throw fieldError('logoUrl', IDENTITY_MESSAGES.logoInUse);
    const refusal = await this.deps.tokens.identityRefusal({
      door: 'deploy',
      ticker: form.ticker,
      name: form.name,
    });
    if (refusal) throw fieldError(refusal.field, refusal.message);

    const network = this.deps.config.XRPL_NETWORK;
    if (network === 'standalone') await this.deps.bootstrapped();
    const settings = await this.deps.settings.all();
    const reserves = this.deps.reserves();
    const fees = await this.deps.settings.fees(reserves.owner, reserves.base, this.deps.baseFee?.());
    // A self-custody deploy's fundings carry its Checks and pre-authorized line (the same rule the
    // deploy page's preview uses).
    const cost = deployCost(form, fees, userId, { selfCustody: selfFunded });
    const bonding = form.launchType === 'bonding';
    // An instant launch with an anti-sniper window: its pre-pool ladder, then the pool with the LP
    // burned (docs/launch-protection.md). What it cannot be is refused before anything is signed.
    const windowLaunch = !bonding && instantWindow(form, fees);
    if (!bonding && form.antiSniper === true && rlusdPair) throw badRequest(DEPLOY_MESSAGES.windowPair);
    if (windowLaunch) {
      if (selfFunded) throw badRequest(DEPLOY_MESSAGES.windowSelfCustody);
      if (form.burnLp !== true) throw badRequest(DEPLOY_MESSAGES.windowKeepLp);
      if (!form.blackholeIssuer) throw badRequest(DEPLOY_MESSAGES.windowBlackhole);
      if (form.requireAuth) throw badRequest(DEPLOY_MESSAGES.windowRequireAuth);
    }
    const serviceFeeDrops = xrpToDrops(cost.serviceFee);
    const buyDrops = xrpToDrops(cost.firstBuy);
    const buyFeeDrops = xrpToDrops(cost.firstBuyFee);
    const feeAddress =
      serviceFeeDrops > 0n || buyFeeDrops > 0n
        ? settings.service_fee_destination ||
          (await platformWallet(this.deps.db, PLATFORM_ROLES.fee))?.address
        : null;
    if ((serviceFeeDrops > 0n || buyFeeDrops > 0n) && !feeAddress) {
      throw ledgerUnavailable('The platform fee wallet is not set up yet. Please try again later.');
    }
    const rlusd = rlusdPair ? await rlusdIssuer(this.deps.db, network) : undefined;
    if (rlusdPair && !rlusd) throw badRequest('RLUSD is not available on this network yet.');

    // Balances from the validated ledger; available = balance − the account's reserve.
    const neededDrops = xrpToDrops(cost.xrp);
    // The deploy's cost (liquidity, reserves, network fees — all in cost.xrp) and the service fee,
    // against what is left after the reserve, transactions in flight and fees owed:
    // 'Insufficient balance: you have X XRP available, this needs Y XRP.'
    if (this.deps.funds) {
      await this.deps.funds.requireXrp(wallet.address, {
        amount: neededDrops - serviceFeeDrops - buyFeeDrops,
        platformFee: serviceFeeDrops + buyFeeDrops,
      });
    } else {
      const state = await this.deps.wallets.accountState(wallet.address);
      const reserve = state.activated ? (await this.deps.wallets.reserveDrops(state.ownerCount)).total : 0n;
      const available = state.balanceDrops - reserve;
      if (available < neededDrops) throw badRequest(insufficientXrpMessage(available, neededDrops));
    }
    if (rlusdPair && rlusd && !bonding) {
      const held = await this.rlusdBalance(client, wallet.address, rlusd);
      if (held.lt(cost.rlusd)) {
        throw badRequest(insufficientTokenMessage(held, cost.rlusd, 'RLUSD'), {
          asset: 'RLUSD',
          available: held.toFixed(),
          needed: new Decimal(cost.rlusd).toFixed(),
        });
      }
    }

    const { dev, hot } = splitSupply(form.supply, form.devAllocation);
    const vesting =
      !bonding && form.vesting?.enabled && new Decimal(dev).gt(0)
        ? await this.vestingPlan(client, dev, form.vesting)
        : null;
    const link = (v: string | undefined) => (v && v !== 'N/A' ? v : null);
    const tradingFee = ammFeeToTradingFee(form.ammFee);
    // The first buy's tokens, worked out as the web preview does (shared `ammSwapOut`), are its
    // DeliverMin: the ledger delivers at least what the creator was shown, or nothing at all.
    const windowShape = windowLaunch
      ? windowCurveParams({
          poolDrops: xrpToDrops(form.liquidityAmount),
          poolTokens: hot,
          steps: Number(settings.bonding_steps),
          fineSteps: Number(settings.bonding_fine_steps),
        })
      : null;
    if (windowLaunch && !windowShape) {
      const least = (2 * Number(settings.bonding_steps)).toLocaleString('en-US');
      throw badRequest(DEPLOY_MESSAGES.windowTooFewTokens(least));
    }
    // A window launch's first buy: the tokens its XRP buys on the window's curve at the plain price
    // (no surcharge), paid by the curve account before its first offer (the plan's `first-buy`).
    const windowBuyTokens =
      windowShape && buyDrops > 0n ? curveTokensFor(windowShape, 0, buyDrops, curveTokenDecimals(hot)) : null;
    if (windowShape && buyDrops > 0n && !windowBuyTokens) throw badRequest(DEPLOY_MESSAGES.windowFirstBuy);
    const firstBuy = windowBuyTokens
      ? {
          drops: buyDrops.toString(),
          feeDrops: buyFeeDrops.toString(),
          deliverMin: windowBuyTokens.toFixed(),
          batch: false,
        }
      : buyDrops > 0n
        ? {
            drops: buyDrops.toString(),
            feeDrops: buyFeeDrops.toString(),
            deliverMin: ammSwapOut(
              xrpToDrops(form.liquidityAmount).toString(),
              hot,
              buyDrops.toString(),
              firstBuyTradingFee(tradingFee),
            ).toFixed(),
            batch: (await this.deps.batchEnabled?.()) ?? false,
          }
        : null;
    const payload: DeployPayload = {
      userId,
      walletId: wallet.id,
      userAddress: wallet.address,
      feeAddress: feeAddress ?? null,
      form: {
        name: form.name,
        ticker: form.ticker,
        description: form.description,
        supply: form.supply,
        devAllocation: form.devAllocation,
        liquidityAmount: form.liquidityAmount,
        ammFee: form.ammFee,
        logoUrl: form.logoUrl,
        telegramFileId: form.telegramFileId ?? null,
        twitterLink: link(form.twitterLink),
        telegramLink: link(form.telegramLink),
        websiteLink: link(form.websiteLink),
        blackholeIssuer: form.blackholeIssuer,
        requireAuth: form.requireAuth,
        liquidityPairType: form.liquidityPairType,
        // Fixed in the payload (no new column): the job plans the burn from it and the list reads
        // the burn from the ledger. A curve's graduation burns its pool's LP whatever the form says.
        burnLp: !bonding && form.burnLp === true,
        antiSniper: (bonding || windowLaunch) && form.antiSniper === true,
        ...(firstBuy ? { firstBuyXrp: cost.firstBuy } : {}),
      },
      currency: tickerToCurrency(form.ticker),
      devAmount: dev,
      hotAmount: hot,
      liquidity: bonding
        ? '0'
        : rlusdPair
          ? form.liquidityAmount
          : xrpToDrops(form.liquidityAmount).toString(),
      rlusd: rlusdPair && rlusd ? { currency: RLUSD_CURRENCY_HEX, issuer: rlusd } : null,
      // A self-funded dev allocation is a Check the issuer writes: one owner reserve more, held
      // until the creator's wallet cashes it; under RequireAuth the issuer's pre-authorization of
      // the creator's line (its side of a line it created) one more, and that TrustSet's fee.
      issuerFundDrops: (xrpToDrops(cost.issuerReserve) + xrpToDrops(cost.selfCustodyIssuer)).toString(),
      // With a first buy the hot wallet also carries its XRP, its fee and the Batch's network fees;
      // funded from a self-custody wallet, the service fee and that payment's network fee, and with
      // a first buy the Check of its tokens to the wallet (an owner reserve and a network fee).
      hotFundDrops: (
        xrpToDrops(cost.hotWalletReserve) +
        xrpToDrops(cost.liquidityXrp) +
        (firstBuy ? buyDrops + buyFeeDrops + xrpToDrops(FIRST_BUY_NETWORK_XRP) : 0n) +
        (selfFunded && serviceFeeDrops > 0n && feeAddress ? serviceFeeDrops : 0n) +
        xrpToDrops(cost.selfCustodyHot)
      ).toString(),
      ...(selfFunded ? { selfFunded: true } : {}),
      serviceFeeDrops: serviceFeeDrops.toString(),
      tradingFee,
      launchType: form.launchType,
      vesting,
      firstBuy,
      ...(windowShape
        ? {
            bonding: {
              // x0 is the pool's real XRP A; the window's curve is fixed now like a curve launch's.
              virtualQuote: windowShape.virtualQuote.toString(),
              steps: windowShape.steps,
              fineSteps: windowShape.fineSteps,
              // No per-ledger cap: the surcharge is the window's protection.
              snipeLedgers: 0,
              snipeTokens: '0',
              feePpm: Number(feePercentToPpm(settings.trading_fee_percent)),
              antiSniper: {
                startPpm: Number(feePercentToPpm(settings.anti_sniper_start_percent)),
                windowSeconds: Number(settings.anti_sniper_window_seconds),
              },
              window: {
                virtualTokens: windowShape.virtualTokens!.toString(),
                curveTokens: windowShape.curveSupply!.toString(),
                startHeld: hot,
                depositDrops: xrpToDrops(cost.hotWalletReserve).toString(),
                graduateAfterSeconds: Number(settings.anti_sniper_window_seconds),
              },
            },
          }
        : {}),
      ...(bonding
        ? {
            bonding: {
              // Fixed into the curve now: a later settings change never moves a live curve.
              virtualQuote: xrpToDrops(
                rlusdPair
                  ? settings.bonding_virtual_rlusd
                  : ((opts.platform ? opts.virtualXrp : undefined) ?? settings.bonding_virtual_xrp),
              ).toString(),
              steps: Number(settings.bonding_steps),
              fineSteps: Number(settings.bonding_fine_steps),
              snipeLedgers: Number(settings.bonding_snipe_ledgers),
              snipeTokens: settings.bonding_snipe_tokens,
              feePpm: Number(feePercentToPpm(settings.trading_fee_percent)),
              // The anti-sniper window (docs/launch-protection.md), fixed now like the rest: the
              // keeper prices the curve's sell offers with it; no column, the job's payload keeps it.
              antiSniper:
                form.antiSniper === true
                  ? {
                      startPpm: Number(feePercentToPpm(settings.anti_sniper_start_percent)),
                      windowSeconds: Number(settings.anti_sniper_window_seconds),
                    }
                  : null,
            },
          }
        : {}),
    };
    if (selfFunded)
      return this.deps.selfCustody!.prepare(
        wallet,
        payload,
        deployIntentKey(userId, opts.requestKey ?? randomUUID()),
      );
    const job = await this.deps.jobs.enqueue({
      type: DEPLOY_JOB,
      userId,
      payload,
      steps: deployStepNames(payload),
      key: opts.jobKey,
    });
    return { jobId: job.id };
  }

  /** A deploy the platform signs for (its own wallets: the demo's launches): the job it started. */
  async startJob(
    userId: number,
    form: DeployRequest,
    opts: { jobKey?: string; platform?: boolean; virtualXrp?: string } = {},
  ): Promise<DeployStarted> {
    const started = await this.start(userId, form, opts);
    if ('status' in started) throw new Error('A platform launch must be from a custodial wallet');
    return started;
  }

  /**
   * The tranches from now: the later of the wall clock and the validated ledger's close time (a
   * ledger whose clock runs ahead, as a stand-alone one closed faster than once a second does, must
   * still see every FinishAfter in the future).
   */
  private async vestingPlan(
    client: Client,
    dev: string,
    settings: NonNullable<DeployRequest['vesting']>,
  ): Promise<NonNullable<DeployPayload['vesting']>> {
    const ledger = await client.request({ command: 'ledger', ledger_index: 'validated' });
    const start = Math.max(rippleTime.fromUnixMs(Date.now()), ledger.result.ledger.close_time);
    return { settings, start, tranches: vestingTranches(dev, settings, start) };
  }

  /** One deploy at a time per paying wallet: two at once could each pass the balance check. */
  private async refuseConcurrent(walletId: number): Promise<void> {
    const [running] = await this.deps.db
      .select({ id: jobsTable.id })
      .from(jobsTable)
      .where(
        and(
          eq(jobsTable.type, DEPLOY_JOB),
          inArray(jobsTable.status, ['queued', 'running']),
          sql`(${jobsTable.payload}->>'walletId')::bigint = ${walletId}`,
        ),
      )
      .limit(1);
    if (running) {
      throw conflict('A deploy from this wallet is already in progress. Please wait for it to finish.');
    }
  }

  private async rlusdBalance(client: Client, account: string, issuer: string): Promise<Decimal> {
    const res = await client.request({
      command: 'account_lines',
      account,
      peer: issuer,
      ledger_index: 'validated',
    });
    const line = res.result.lines.find((l) => l.currency === RLUSD_CURRENCY_HEX);
    return new Decimal(line?.balance ?? '0');
  }
}

/** The job key of a user's deploy request with an Idempotency-Key: one job per request. */
export function deployJobKey(userId: number, requestKey: string | undefined): string | undefined {
  return requestKey ? `${DEPLOY_JOB}:request:${userId}:${requestKey}` : undefined;
}
