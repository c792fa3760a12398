import type { z } from 'zod';
import type { claimRewardsSchema } from '@ledgerpad/shared';
import {
  Decimal,
  REWARD_MESSAGES,
  RLUSD_CURRENCY_HEX,
  claimAmount,
  decimalToDrops,
  dropsToXrp,
  ledgerResultMessage,
  type ClaimRewardsResult,
  type RewardClaimTotal,
  type RewardSummaryRow,
} from '@ledgerpad/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Funds } from '../../ledger/funds';
import { ledgerSubmissions } from '../../ledger/schema';
import { withinKeyLife } from '../../lib/idempotency';
import { rowsOf } from '../../db/results';
import {
  AppError,
  badGateway,
  badRequest,
  forbidden,
  ledgerUnavailable,
  notFound,
  serviceDisabled,
} from '../../lib/errors';
import type { JobRunner } from '../../platform/jobs';
import type { TokenRegistry } from '../tokens';
import { tokens } from '../tokens/schema';
import type { WalletsApi } from '../wallets';
import { rewardClaims, type RewardClaimRow } from './schema';

// Creator rewards: what a creator earned (accrued by the trading-fee job) and the claim. A claim
// reserves its amount against the token's unclaimed reward in one conditional statement, then a
// persisted job pays it from the fee wallet; a payment that finally fails releases the reservation.
// See docs/rewards.md.

export const REWARD_CLAIM_JOB = 'reward-claim';
/** How long the route waits for the payment to validate before it answers. */
const CLAIM_WAIT_MS = 60_000;
/** Reservations lost to a concurrent claim before the route gives up (each retry re-reads). */
const RESERVE_TRIES = 3;

export interface RewardsDeps {
  db: Db;
  jobs: JobRunner;
  tokens: TokenRegistry;
  wallets: WalletsApi;
  /** False without a ledger connection: claims are refused before anything is reserved. */
  canPay: boolean;
  /** Checks that the claim can be paid and received, before anything is reserved. */
  funds?: Funds;
  /** The platform fee wallet (it pays rewards). */
  feeWallet?: () => Promise<string | undefined>;
  rlusdIssuer?: () => Promise<string | undefined>;
}

export class RewardsService {
  constructor(private readonly deps: RewardsDeps) {}

  /** GET /api/rewards/summary: the caller's own tokens (the ones they created here). */
  async summary(userId: number): Promise<RewardSummaryRow[]> {
    const rows = await this.deps.tokens.deployedBy(userId);
    return rows.map((t) => ({
      id: t.id,
      total_reward: t.totalReward,
      // Before the first accrual the row holds the column's default: the pair's quote asset is what it will be.
      reward_currency: new Decimal(t.totalReward).gt(0)
        ? t.rewardCurrency
        : t.liquidityPair === 'RLUSD'
          ? 'RLUSD'
          : 'XRP',
    }));
  }

  /** GET /api/rewards/claim-totals: reserved or paid so far, per token of the caller. */
  async claimTotals(userId: number): Promise<RewardClaimTotal[]> {
    const rows = await this.deps.tokens.deployedBy(userId);
    return rows.map((t) => ({ token_id: t.id, total_claimed: t.totalClaimed }));
  }

  /** The caller's claims, newest first (for the record; not in the spec's API). */
  async claims(userId: number, limit = 50): Promise<RewardClaimRow[]> {
    return this.deps.db
      .select()
      .from(rewardClaims)
      .where(eq(rewardClaims.userId, userId))
      .orderBy(desc(rewardClaims.id))
      .limit(limit);
  }

  /**
   * POST /api/claim-rewards: reserves `percent` of the unclaimed reward and records the payment job
   * in one database transaction (a crash leaves either nothing or a claim its job will pay), then
   * waits for the payment.
   */
  async claim(
    userId: number,
    b: z.output<typeof claimRewardsSchema>,
    requestKey?: string,
  ): Promise<ClaimRewardsResult> {
    const token = await this.deps.tokens.byIssuer(b.issuer, b.token);
    if (!token) throw notFound(REWARD_MESSAGES.tokenNotFound);
    if (token.deployerUserId !== userId) throw forbidden(REWARD_MESSAGES.notCreator);
    // A retry of a claim whose first attempt reserved it (then was cut: kill -9, a lost answer)
    // answers with that claim: checked again, the reward it took would read as "nothing to claim",
    // or as a second claim of the same percent of what is left.
    const earlier = await this.claimOfRequest(userId, token.id, requestKey);
    const reserved =
      earlier ??
      (await (async () => {
        const wallet = (await this.deps.wallets.list(userId)).find((w) => w.address === b.wallet);
        // The same answer whether the address is another user's wallet or nobody's.
        if (!wallet) throw notFound(REWARD_MESSAGES.walletNotFound);
        if (!this.deps.canPay) throw ledgerUnavailable(REWARD_MESSAGES.unavailable);
        await this.assertPayable(
          wallet.address,
          token.rewardCurrency,
          claimAmount(token.totalReward, token.totalClaimed, b.percent),
        );
        return this.reserve(userId, token.id, wallet.address, b.percent, requestKey);
      })());
    const job = await this.deps.jobs
      .waitFor(reserved.jobId, { timeoutMs: CLAIM_WAIT_MS })
      .catch(() => undefined);
    const [claim] = await this.deps.db
      .select()
      .from(rewardClaims)
      .where(eq(rewardClaims.id, reserved.claimId));
    if (claim?.status === 'paid' && claim.hash) {
      return { claimed: claim.amount, to: claim.walletAddress, currency: claim.currency, hash: claim.hash };
    }
    if (!job) {
      // Still being paid: the job finishes it (or releases it) without the request.
      throw badGateway('The claim is still being processed. Check your wallet in a minute.', {
        claimId: reserved.claimId,
      });
    }
    // The spec's text stays the message; what the ledger said is in `result` and `reason`.
    const [sub] = claim?.hash
      ? await this.deps.db
          .select({ result: ledgerSubmissions.result })
          .from(ledgerSubmissions)
          .where(eq(ledgerSubmissions.hash, claim.hash))
      : [];
    throw badRequest(REWARD_MESSAGES.claimFailed, {
      ...(claim?.hash ? { hash: claim.hash } : {}),
      ...(sub?.result ? { result: sub.result, reason: ledgerResultMessage(sub.result) } : {}),
    });
  }

  /**
   * Before anything is reserved: the wallet can receive the reward (an RLUSD trust line for RLUSD; an
   * XRP reward into a wallet not activated yet must reach the base reserve) and the fee wallet can
   * pay it with its network fee.
   */
  private async assertPayable(address: string, currency: string, amount: string): Promise<void> {
    if (!new Decimal(amount).gt(0)) throw badRequest(REWARD_MESSAGES.nothingToClaim);
    const { funds, wallets } = this.deps;
    if (!funds) return;
    const rlusd = currency === 'RLUSD' ? await this.deps.rlusdIssuer?.() : undefined;
    if (currency === 'RLUSD') {
      const lines = rlusd ? await wallets.lines(address, rlusd) : [];
      if (!lines.some((l) => l.currency === RLUSD_CURRENCY_HEX))
        throw badRequest(REWARD_MESSAGES.noRlusdLine);
    } else {
      const state = await wallets.accountState(address);
      const base = (await wallets.reserveDrops(0)).base;
      if (!state.activated && decimalToDrops(amount) < base)
        throw badRequest(REWARD_MESSAGES.notActivated(new Decimal(amount).toFixed(), dropsToXrp(base)));
    }
    const feeWallet = await this.deps.feeWallet?.();
    if (!feeWallet) return;
    try {
      if (currency === 'RLUSD' && rlusd)
        await funds.requireToken(feeWallet, { currency: RLUSD_CURRENCY_HEX, issuer: rlusd }, amount, 'RLUSD');
      await funds.requireXrp(feeWallet, {
        amount: currency === 'RLUSD' ? 0n : decimalToDrops(amount),
        transactions: 1,
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'BAD_REQUEST')
        throw serviceDisabled(REWARD_MESSAGES.platformCannotPay);
      throw err;
    }
  }

  /**
   * The reservation: one statement adds the amount to total_claimed only where the unclaimed reward
   * still covers it, and inserts the claim from the row it updated. Two concurrent claims can never
   * together reserve more than is unclaimed: the second one's condition is re-checked against the
   * first one's committed row. A claim that lost the race re-reads and claims its percent of the rest.
   */
  /** The claim (and its payment job) the request with this Idempotency-Key reserved, within the key's life. */
  private async claimOfRequest(
    userId: number,
    tokenId: number,
    requestKey: string | undefined,
  ): Promise<{ claimId: number; jobId: string } | undefined> {
    if (!requestKey) return undefined;
    const [claim] = await this.deps.db
      .select({ id: rewardClaims.id })
      .from(rewardClaims)
      .where(
        and(
          eq(rewardClaims.userId, userId),
          eq(rewardClaims.tokenId, tokenId),
          eq(rewardClaims.requestKey, requestKey),
          withinKeyLife(rewardClaims.createdAt),
        ),
      );
    if (!claim) return undefined;
    const job = await this.deps.jobs.byKey(`${REWARD_CLAIM_JOB}:${claim.id}`);
    return job ? { claimId: claim.id, jobId: job.id } : undefined;
  }

  private async reserve(
    userId: number,
    tokenId: number,
    walletAddress: string,
    percent: number,
    requestKey: string | undefined,
  ): Promise<{ claimId: number; jobId: string }> {
    for (let attempt = 1; ; attempt++) {
      const token = await this.deps.tokens.byId(tokenId);
      if (!token) throw notFound(REWARD_MESSAGES.tokenNotFound);
      const amount = claimAmount(token.totalReward, token.totalClaimed, percent);
      if (!new Decimal(amount).gt(0)) throw badRequest(REWARD_MESSAGES.nothingToClaim);
      const result = await this.deps.db.transaction(async (tx) => {
        const rows = await tx.execute<{ id: number | string }>(sql`
          with reserved as (
            update ${tokens}
               set total_claimed = total_claimed + ${amount}::numeric
             where id = ${tokenId}
               and deployer_user_id = ${userId}
               and total_reward - total_claimed >= ${amount}::numeric
            returning id, reward_currency
          )
          insert into ${rewardClaims} (user_id, token_id, wallet_address, amount, currency, status, request_key)
          select ${userId}, id, ${walletAddress}, ${amount}, reward_currency, 'pending', ${requestKey ?? null}
            from reserved
          returning id`);
        const row = rowsOf<{ id: number | string }>(rows)[0];
        if (!row) return undefined;
        const claimId = Number(row.id);
        const job = await this.deps.jobs.enqueue(
          { type: REWARD_CLAIM_JOB, userId, payload: { claimId }, key: `${REWARD_CLAIM_JOB}:${claimId}` },
          tx as unknown as Db,
        );
        return { claimId, jobId: job.id };
      });
      if (result) {
        this.deps.tokens.changed();
        return result;
      }
      if (attempt >= RESERVE_TRIES) throw badRequest(REWARD_MESSAGES.claimFailed);
    }
  }
}

/**
 * Releases a claim whose payment finally failed, in one statement: the claim turns 'failed' and its
 * amount goes back to the unclaimed reward only if it was still pending (a second call does nothing).
 */
export async function releaseClaim(db: Db, claimId: number, hash: string | null): Promise<boolean> {
  const res = await db.execute<{ id: number | string }>(sql`
    with failed as (
      update ${rewardClaims}
         set status = 'failed', hash = coalesce(${hash}, hash), updated_at = now()
       where id = ${claimId} and status = 'pending'
      returning token_id, amount
    )
    update ${tokens}
       set total_claimed = ${tokens.totalClaimed} - failed.amount
      from failed
     where ${tokens.id} = failed.token_id
    returning ${tokens.id}`);
  return rowsOf(res).length > 0;
}

/** Marks a pending claim paid (once). */
export async function markPaid(db: Db, claimId: number, hash: string): Promise<void> {
  await db
    .update(rewardClaims)
    .set({ status: 'paid', hash, updatedAt: new Date() })
    .where(and(eq(rewardClaims.id, claimId), eq(rewardClaims.status, 'pending')));
}
