import type { z } from 'zod';
import type { claimRewardsSchema } from '@ledgerpad/shared';
import {
  BPS_TOTAL,
  Decimal,
  REWARD_MESSAGES,
  claimAmount,
  dropsToXrp,
  ledgerResultMessage,
  splitAmounts,
  type ClaimRewardsResult,
  type RewardClaimTotal,
  type RewardPayoutView,
  type RewardSummaryRow,
} from '@ledgerpad/shared';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ledgerSubmissions } from '../../ledger/schema';
import { rowsOf } from '../../db/results';
import { badGateway, badRequest, conflict, forbidden, ledgerUnavailable, notFound } from '../../lib/errors';
import type { JobRunner } from '../../platform/jobs';
import type { TokenRegistry, TokenRow } from '../tokens';
import { tokens } from '../tokens/schema';
import type { WalletsApi } from '../wallets';
import { claimOfRequest, type FeeWalletPayments, type RewardCurrency } from './fee-wallet-payment';
import { rewardClaims, rewardPayouts, type RewardClaimRow, type RewardPayoutRow } from './schema';
import { isCreator, rewardCurrencyOf, splitOf } from './splits';

// Creator rewards: what a creator earned (accrued when a trade's fee is recorded paid) and the claim.
// A claim reserves its amount against the token's unclaimed reward in one conditional statement and
// writes its payouts (one wallet, or each recipient of the token's split), then a persisted job pays
// them from the fee wallet; a payout that finally fails gives its amount back. See docs/rewards.md.

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
  /** The fee wallet's payments: who can receive, whether it can pay (claims are refused without a ledger). */
  payments: FeeWalletPayments;
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
      reward_currency: rewardCurrencyOf(t),
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
   * GET /api/rewards/payouts?token_id=: every payment of the token's claims, newest first — the
   * creator's payout history (recipient, amount, transaction, time). Only the creator (404 for anyone
   * else, as the dashboard answers).
   */
  async payouts(userId: number, tokenId: number): Promise<RewardPayoutView[]> {
    const token = await this.deps.tokens.byId(tokenId);
    if (!token || !isCreator(token, userId)) throw notFound(REWARD_MESSAGES.tokenNotFound);
    const rows = await this.deps.db
      .select()
      .from(rewardPayouts)
      .where(eq(rewardPayouts.tokenId, tokenId))
      .orderBy(desc(rewardPayouts.id))
      .limit(500);
    return rows.map(payoutView);
  }

  /**
   * POST /api/claim-rewards: reserves `percent` of the unclaimed reward and records its payouts and
   * the payment job in one database transaction (a crash leaves either nothing or a claim its job
   * will pay), then waits for the payments. Without a split the claim pays the chosen wallet of the
   * creator; with one, every recipient its share (docs/rewards.md "Splits").
   */
  async claim(
    userId: number,
    b: z.output<typeof claimRewardsSchema>,
    requestKey?: string,
  ): Promise<ClaimRewardsResult> {
    const token = await this.deps.tokens.byIssuer(b.issuer, b.token);
    if (!token) throw notFound(REWARD_MESSAGES.tokenNotFound);
    if (!isCreator(token, userId)) throw forbidden(REWARD_MESSAGES.notCreator);
    const split = await splitOf(this.deps.db, token.id);
    // A retry of a claim whose first attempt reserved it (then was cut: kill -9, a lost answer)
    // answers with that claim and its payouts: checked again, the reward it took would read as
    // "nothing to claim", or as a second claim of the same percent of what is left.
    const reserved =
      (await claimOfRequest(this.deps, rewardClaims, REWARD_CLAIM_JOB, {
        userId,
        requestKey,
        scope: eq(rewardClaims.tokenId, token.id),
      })) ?? (await this.newClaim(userId, token, split, b, requestKey));
    const job = await this.deps.jobs
      .waitFor(reserved.jobId, { timeoutMs: CLAIM_WAIT_MS })
      .catch(() => undefined);
    const [claim] = await this.deps.db
      .select()
      .from(rewardClaims)
      .where(eq(rewardClaims.id, reserved.claimId));
    const payouts = await this.deps.db
      .select()
      .from(rewardPayouts)
      .where(eq(rewardPayouts.claimId, reserved.claimId))
      .orderBy(asc(rewardPayouts.position));
    const first = payouts[0];
    if (claim?.status === 'paid' && first?.hash) {
      return {
        claimed: claim.amount,
        to: first.address,
        currency: claim.currency,
        hash: first.hash,
        ...(payouts.length > 1 || split.length > 0
          ? {
              payouts: payouts.map((p) => ({
                address: p.address,
                amount: p.amount,
                hash: p.hash,
                status: p.status as RewardPayoutView['status'],
              })),
            }
          : {}),
      };
    }
    if (!job) {
      // Still being paid: the job finishes it (or releases it) without the request.
      throw badGateway('The claim is still being processed. Check your wallet in a minute.', {
        claimId: reserved.claimId,
      });
    }
    // The spec's text stays the message; what the ledger said is in `result` and `reason`, and a split
    // claim that paid some recipients lists every payout (a failed one's share went back).
    const failed = payouts.find((p) => p.status === 'failed' && p.hash) ?? payouts.find((p) => p.hash);
    const [sub] = failed?.hash
      ? await this.deps.db
          .select({ result: ledgerSubmissions.result })
          .from(ledgerSubmissions)
          .where(eq(ledgerSubmissions.hash, failed.hash))
      : [];
    throw badRequest(REWARD_MESSAGES.claimFailed, {
      ...(failed?.hash ? { hash: failed.hash } : {}),
      ...(sub?.result ? { result: sub.result, reason: ledgerResultMessage(sub.result) } : {}),
      ...(payouts.length > 1 ? { payouts: payouts.map(payoutView) } : {}),
    });
  }

  /**
   * A new claim: the one wallet (without a split, one of the creator's own) or the split's recipients
   * checked, then the reservation with its payouts and job.
   */
  private async newClaim(
    userId: number,
    token: TokenRow,
    split: ReadonlyArray<{ address: string; bps: number }>,
    b: z.output<typeof claimRewardsSchema>,
    requestKey: string | undefined,
  ): Promise<{ claimId: number; jobId: string }> {
    let wallet: string | undefined;
    if (split.length > 0) {
      if (b.wallet) throw badRequest(REWARD_MESSAGES.splitClaimNoWallet);
    } else {
      if (!b.wallet) throw badRequest(REWARD_MESSAGES.selectWallet);
      // The same answer whether the address is another user's wallet or nobody's.
      wallet = (await this.deps.wallets.list(userId)).find((w) => w.address === b.wallet)?.address;
      if (!wallet) throw notFound(REWARD_MESSAGES.walletNotFound);
    }
    if (!this.deps.payments.canPay) throw ledgerUnavailable(REWARD_MESSAGES.unavailable);
    const currency = rewardCurrencyOf(token);
    const amount = claimAmount(token.totalReward, token.totalClaimed, b.percent);
    if (!new Decimal(amount).gt(0)) throw badRequest(REWARD_MESSAGES.nothingToClaim);
    await this.assertPayable(currency, amount, wallet ? [{ address: wallet, bps: BPS_TOTAL }] : split);
    return this.reserve(userId, token.id, wallet, b.percent, requestKey);
  }

  /**
   * Before anything is reserved: each recipient can receive its part (an RLUSD trust line for RLUSD;
   * an XRP part to an account not activated yet must reach the base reserve) and the fee wallet can
   * pay them all with their network fees. The one-wallet claim answers with the spec's sentences.
   */
  private async assertPayable(
    currency: RewardCurrency,
    amount: string,
    recipients: ReadonlyArray<{ address: string; bps: number }>,
  ): Promise<void> {
    const parts = splitAmounts(amount, recipients);
    const single = recipients.length === 1 && recipients[0]!.bps === BPS_TOTAL;
    let payments = 0;
    for (const [i, r] of recipients.entries()) {
      if (!new Decimal(parts[i]!).gt(0)) continue;
      payments += 1;
      const check = await this.deps.payments.receiveCheck(r.address, currency, { amount: parts[i] });
      if (!check.problem) continue;
      if (single && check.problem.reason === 'no-rlusd-line') throw badRequest(REWARD_MESSAGES.noRlusdLine);
      if (single && check.problem.reason === 'below-reserve') {
        const base = (await this.deps.wallets.reserveDrops(0)).base;
        throw badRequest(REWARD_MESSAGES.notActivated(new Decimal(amount).toFixed(), dropsToXrp(base)));
      }
      throw badRequest(REWARD_MESSAGES.recipientCannotReceive(r.address, check.problem.sentence), {
        address: r.address,
      });
    }
    await this.deps.payments.requireFeeWalletCanPay(
      currency,
      amount,
      payments,
      REWARD_MESSAGES.platformCannotPay,
    );
  }

  /**
   * The reservation: one statement adds the amount to total_claimed only where the unclaimed reward
   * still covers it, and inserts the claim from the row it updated; the payouts follow in the same
   * transaction, from the split as it is while the token's row is held (a split changes under the
   * same lock). Two concurrent claims can never together reserve more than is unclaimed: the second
   * one's condition is re-checked against the first one's committed row. A claim that lost the race
   * re-reads and claims its percent of the rest.
   */
  private async reserve(
    userId: number,
    tokenId: number,
    wallet: string | undefined,
    percent: number,
    requestKey: string | undefined,
  ): Promise<{ claimId: number; jobId: string }> {
    for (let attempt = 1; ; attempt++) {
      const token = await this.deps.tokens.byId(tokenId);
      if (!token) throw notFound(REWARD_MESSAGES.tokenNotFound);
      const amount = claimAmount(token.totalReward, token.totalClaimed, percent);
      if (!new Decimal(amount).gt(0)) throw badRequest(REWARD_MESSAGES.nothingToClaim);
      const result = await this.deps.db.transaction(async (tx) => {
        const rows = await tx.execute<{ id: number | string; reward_currency: string }>(sql`
          with reserved as (
            update ${tokens}
               set total_claimed = total_claimed + ${amount}::numeric
             where id = ${tokenId}
               and deployer_user_id = ${userId}
               and total_reward - total_claimed >= ${amount}::numeric
            returning id, reward_currency
          )
          insert into ${rewardClaims} (user_id, token_id, wallet_address, amount, currency, status, request_key)
          select ${userId}, id, ${wallet ?? ''}, ${amount}, reward_currency, 'pending', ${requestKey ?? null}
            from reserved
          returning id, currency as reward_currency`);
        const row = rowsOf<{ id: number | string; reward_currency: string }>(rows)[0];
        if (!row) return undefined;
        const claimId = Number(row.id);
        const split = await splitOf(tx as unknown as Db, tokenId);
        // The split changed since the claim was checked (between the two reads): check again.
        if (wallet === undefined && split.length === 0) throw splitChanged();
        if (wallet !== undefined && split.length > 0) throw splitChanged();
        const recipients = wallet ? [{ address: wallet, bps: BPS_TOTAL }] : split;
        const parts = splitAmounts(amount, recipients);
        const payouts = recipients
          .map((r, position) => ({
            claimId,
            tokenId,
            userId,
            position,
            address: r.address,
            amount: parts[position]!,
            currency: row.reward_currency,
            status: 'pending',
          }))
          // A share that rounds to nothing is not a payment (the remainder went to position 0).
          .filter((p) => new Decimal(p.amount).gt(0));
        await tx.insert(rewardPayouts).values(payouts);
        // The claim names where its first payment goes (the chosen wallet, or the split's first).
        if (!wallet)
          await tx
            .update(rewardClaims)
            .set({ walletAddress: payouts[0]!.address })
            .where(eq(rewardClaims.id, claimId));
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

/** The split was set or removed while a claim was being made: the claim is refused, nothing reserved. */
const splitChanged = () =>
  conflict('The reward split changed while you were claiming. Please check it and claim again.');

export function payoutView(p: RewardPayoutRow): RewardPayoutView {
  return {
    id: p.id,
    claim_id: p.claimId,
    token_id: p.tokenId,
    address: p.address,
    amount: p.amount,
    currency: p.currency,
    status: p.status as RewardPayoutView['status'],
    hash: p.hash,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

/**
 * A payout whose payment finally failed, in one statement: it turns 'failed' and its amount goes
 * back to the token's unclaimed reward, only if it was still pending (a second call does nothing).
 */
export async function releasePayout(db: Db, payoutId: number, hash: string | null): Promise<boolean> {
  const res = await db.execute<{ id: number | string }>(sql`
    with failed as (
      update ${rewardPayouts}
         set status = 'failed', hash = coalesce(${hash}, hash), updated_at = now()
       where id = ${payoutId} and status = 'pending'
      returning token_id, amount
    )
    update ${tokens}
       set total_claimed = ${tokens.totalClaimed} - failed.amount
      from failed
     where ${tokens.id} = failed.token_id
    returning ${tokens.id}`);
  return rowsOf(res).length > 0;
}

/** Marks a pending payout paid (once). */
export async function markPayoutPaid(db: Db, payoutId: number, hash: string): Promise<void> {
  await db
    .update(rewardPayouts)
    .set({ status: 'paid', hash, updatedAt: new Date() })
    .where(and(eq(rewardPayouts.id, payoutId), eq(rewardPayouts.status, 'pending')));
}

/**
 * Once every payout of a claim is final, the claim's own status: 'paid' when all were paid, 'failed'
 * when none was, 'partial' otherwise; its hash is its first payout's. Nothing while one is pending.
 */
export async function settleClaim(db: Db, claimId: number): Promise<string | undefined> {
  const payouts = await db
    .select()
    .from(rewardPayouts)
    .where(eq(rewardPayouts.claimId, claimId))
    .orderBy(asc(rewardPayouts.position));
  if (payouts.some((p) => p.status === 'pending')) return undefined;
  const paid = payouts.filter((p) => p.status === 'paid').length;
  const status = paid === payouts.length ? 'paid' : paid === 0 ? 'failed' : 'partial';
  await db
    .update(rewardClaims)
    .set({ status, hash: payouts[0]?.hash ?? null, updatedAt: new Date() })
    .where(and(eq(rewardClaims.id, claimId), eq(rewardClaims.status, 'pending')));
  return status;
}
