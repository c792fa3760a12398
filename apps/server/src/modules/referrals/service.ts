import { randomInt } from 'node:crypto';
import type { z } from 'zod';
import { and, asc, count, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import {
  Decimal,
  REFERRAL_CODE_ALPHABET,
  REFERRAL_CODE_LENGTH,
  REFERRAL_MESSAGES,
  REFERRAL_QUERY_PARAM,
  REWARD_MESSAGES,
  claimAmount,
  decimalToDrops,
  dropsToDecimal,
  dropsToXrp,
  ledgerResultMessage,
  type ReferralBalanceView,
  type referralClaimSchema,
  type ReferralClaimResult,
  type ReferralClaimView,
  type ReferralEarningView,
  type ReferralsOverview,
  type ReferralSummary,
} from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/results';
import { ledgerSubmissions } from '../../ledger/schema';
import { badGateway, badRequest, ledgerUnavailable, notFound } from '../../lib/errors';
import type { JobRunner } from '../../platform/jobs';
import type { PlatformSettings } from '../../platform/settings';
import { claimOfRequest, type FeeWalletPayments, type RewardCurrency } from '../rewards';
import type { FeePaidListener } from '../trading';
import { users } from '../users/schema';
import type { WalletsApi } from '../wallets';
import {
  referralAccruals,
  referralBalances,
  referralClaims,
  referralCodes,
  referrals,
  type ReferralClaimRow,
} from './schema';

// Referrals (docs/referrals.md): codes, the binding at a new user's first sign-in, the referrer's
// share of every paid fee of the referred user's trades (accrued in the transaction that records the
// fee paid, once per trade), and the claim that pays the earnings from the fee wallet.

export const REFERRAL_CLAIM_JOB = 'referral-claim';
const CLAIM_WAIT_MS = 60_000;
const CURRENCIES: RewardCurrency[] = ['XRP', 'RLUSD'];

/** A new code: 8 characters of an alphabet without look-alikes, from the system's CSPRNG. */
function newCode(): string {
  let code = '';
  for (let i = 0; i < REFERRAL_CODE_LENGTH; i++)
    code += REFERRAL_CODE_ALPHABET[randomInt(REFERRAL_CODE_ALPHABET.length)];
  return code;
}

/** The referral share setting ('20', '12.5') in basis points of the fee (2000, 1250); 0 when malformed. */
export function shareBps(percent: string): number {
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(percent.trim())) return 0;
  const bps = new Decimal(percent.trim()).mul(100).toNumber();
  return bps >= 0 && bps <= 10_000 ? bps : 0;
}

/**
 * The referrer's share of one fee, exactly: XRP in whole drops, floor(fee drops × bps / 10,000);
 * RLUSD fee × bps / 10,000 rounded down to 15 significant digits (what an issued amount carries).
 */
export function referralShare(fee: string, currency: string, bps: number): Decimal {
  if (currency === 'XRP') return dropsToDecimal((decimalToDrops(fee) * BigInt(bps)) / 10_000n);
  return new Decimal(fee).mul(bps).div(10_000).toSignificantDigits(15, Decimal.ROUND_DOWN);
}

/** The binding of a referral at a new user's first sign-in (the auth routes call it). */
export class ReferralBinding {
  constructor(private readonly settings: PlatformSettings) {}

  /**
   * At a user's first sign-in (the sign-in that created the user; `tx` is that sign-in's
   * transaction): binds them to the owner of `code`, for `referral_months` from now. Nothing when the
   * code is unknown, when it is the user's own, or when the browser signing up is the referrer's
   * (its session, or the demo device the referrer signed up with): a bad code never blocks a sign-in.
   */
  async bindFirstSignIn(
    tx: Db,
    input: { userId: number; code: string | undefined; sessionUserId?: number; deviceHash?: string },
  ): Promise<boolean> {
    if (!input.code) return false;
    const [owner] = await tx
      .select({ userId: referralCodes.userId, device: users.demoDeviceHash })
      .from(referralCodes)
      .innerJoin(users, eq(users.id, referralCodes.userId))
      .where(eq(referralCodes.code, input.code));
    if (!owner || owner.userId === input.userId || owner.userId === input.sessionUserId) return false;
    if (input.deviceHash && owner.device === input.deviceHash) return false;
    const months = Number((await this.settings.all(tx)).referral_months) || 12;
    const rows = await tx
      .insert(referrals)
      .values({
        referredUserId: input.userId,
        referrerUserId: owner.userId,
        code: input.code,
        expiresAt: sql`now() + make_interval(months => ${months}::int)`,
      })
      .onConflictDoNothing()
      .returning({ id: referrals.referredUserId });
    return rows.length > 0;
  }
}

/** One referrer as the admin's overview reads it (numbers as PostgreSQL sends them). */
type ReferrerRow = {
  user_id: number;
  username: string | null;
  code: string | null;
  referred: string | number;
  earned_xrp: string;
  claimed_xrp: string;
  earned_rlusd: string;
  claimed_rlusd: string;
};

export interface ReferralsDeps {
  db: Db;
  jobs: JobRunner;
  settings: PlatformSettings;
  wallets: WalletsApi;
  payments: FeeWalletPayments;
}

export class ReferralsService {
  constructor(private readonly deps: ReferralsDeps) {}

  /** The user's code, made on first ask (a unique code; a collision draws again). */
  async codeOf(userId: number): Promise<string> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const [existing] = await this.deps.db
        .select({ code: referralCodes.code })
        .from(referralCodes)
        .where(eq(referralCodes.userId, userId));
      if (existing) return existing.code;
      await this.deps.db.insert(referralCodes).values({ userId, code: newCode() }).onConflictDoNothing();
    }
    throw new Error('could not make a referral code');
  }

  /**
   * The accrual, run by trading's FeeSettlement in the transaction that records trades' fees paid:
   * the referrer's share of each fee when the trader was referred and the trade falls in the
   * referral's window. Keyed by the trade: a second call for the same trade adds nothing. The
   * trades of one call (a validated ledger's, issue 40) are looked up, accrued and added to the
   * referrers' balances with one statement each, not three per trade.
   */
  readonly accrue: FeePaidListener = async (tx, trades) => {
    const refs = await tx
      .select()
      .from(referrals)
      .where(inArray(referrals.referredUserId, [...new Set(trades.map((t) => t.userId))]));
    const refOf = new Map<number, (typeof refs)[number]>();
    for (const r of refs) if (!refOf.has(r.referredUserId)) refOf.set(r.referredUserId, r);
    const due = trades.flatMap((trade) => {
      const ref = refOf.get(trade.userId);
      if (!ref || trade.createdAt.getTime() >= ref.expiresAt.getTime()) return [];
      if (trade.quote !== 'XRP' && trade.quote !== 'RLUSD') return [];
      return [{ trade, ref, quote: trade.quote }];
    });
    if (due.length === 0) return;
    const bps = shareBps((await this.deps.settings.all(tx)).referral_share_percent);
    const values = due.flatMap(({ trade, ref, quote }) => {
      const amount = referralShare(trade.fee, quote, bps);
      if (!amount.gt(0)) return [];
      return [
        {
          tradeId: trade.id,
          referrerUserId: ref.referrerUserId,
          referredUserId: trade.userId,
          currency: quote,
          fee: trade.fee,
          shareBps: bps,
          amount: amount.toFixed(),
        },
      ];
    });
    if (values.length === 0) return;
    const inserted = await tx
      .insert(referralAccruals)
      .values(values)
      .onConflictDoNothing({ target: referralAccruals.tradeId })
      .returning({
        referrerUserId: referralAccruals.referrerUserId,
        currency: referralAccruals.currency,
        amount: referralAccruals.amount,
      });
    // One row per referrer and currency: an upsert may not touch a row twice in one statement.
    const earned = new Map<string, { userId: number; currency: string; earned: Decimal }>();
    for (const a of inserted) {
      const key = `${a.referrerUserId}|${a.currency}`;
      const sum = earned.get(key);
      earned.set(key, {
        userId: a.referrerUserId,
        currency: a.currency,
        earned: new Decimal(a.amount).plus(sum?.earned ?? 0),
      });
    }
    if (earned.size === 0) return;
    await tx
      .insert(referralBalances)
      .values([...earned.values()].map((e) => ({ ...e, earned: e.earned.toFixed() })))
      .onConflictDoUpdate({
        target: [referralBalances.userId, referralBalances.currency],
        set: { earned: sql`${referralBalances.earned} + excluded.earned` },
      });
  };

  /** GET /api/referrals/me. */
  async summary(userId: number): Promise<ReferralSummary> {
    const code = await this.codeOf(userId);
    const settings = await this.deps.settings.all();
    const [all] = await this.deps.db
      .select({ n: count() })
      .from(referrals)
      .where(eq(referrals.referrerUserId, userId));
    const [active] = await this.deps.db
      .select({ n: count() })
      .from(referrals)
      .where(and(eq(referrals.referrerUserId, userId), gt(referrals.expiresAt, sql`now()`)));
    return {
      code,
      link_path: `/?${REFERRAL_QUERY_PARAM}=${code}`,
      referred: all?.n ?? 0,
      active: active?.n ?? 0,
      share_percent: settings.referral_share_percent,
      months: Number(settings.referral_months),
      balances: await this.balances(userId),
    };
  }

  private async balances(userId: number): Promise<ReferralBalanceView[]> {
    const rows = await this.deps.db
      .select()
      .from(referralBalances)
      .where(eq(referralBalances.userId, userId));
    return CURRENCIES.map((currency) => {
      const row = rows.find((r) => r.currency === currency);
      const earned = row?.earned ?? '0';
      const claimed = row?.claimed ?? '0';
      return { currency, earned, claimed, claimable: claimAmount(earned, claimed, 100) };
    });
  }

  /** GET /api/referrals/claims: the caller's claims, newest first. */
  async claims(userId: number): Promise<ReferralClaimView[]> {
    const rows = await this.deps.db
      .select()
      .from(referralClaims)
      .where(eq(referralClaims.userId, userId))
      .orderBy(desc(referralClaims.id))
      .limit(500);
    return rows.map(claimView);
  }

  /** GET /api/referrals/earnings: the caller's accruals, newest first (no trade or user named). */
  async earnings(userId: number): Promise<ReferralEarningView[]> {
    const rows = await this.deps.db
      .select()
      .from(referralAccruals)
      .where(eq(referralAccruals.referrerUserId, userId))
      .orderBy(desc(referralAccruals.id))
      .limit(500);
    return rows.map((r) => ({
      id: r.id,
      currency: r.currency,
      fee: r.fee,
      amount: r.amount,
      share_bps: r.shareBps,
      created_at: r.createdAt.toISOString(),
    }));
  }

  /**
   * POST /api/referrals/claim: everything claimable in one currency (earned − claimed, rounded down
   * to 6 decimals; the rest stays for later) to one of the caller's wallets. Reserved and recorded
   * with its payment job in one transaction, then paid by the job, as creator rewards are. A retry
   * of a claim whose first attempt reserved it (then was cut: kill -9, a lost answer; the same
   * Idempotency-Key) answers with that claim: checked again, the amount it took would read as
   * "nothing to claim" (docs/money.md "Done once").
   */
  async claim(
    userId: number,
    b: z.output<typeof referralClaimSchema>,
    requestKey?: string,
  ): Promise<ReferralClaimResult> {
    const reserved =
      (await claimOfRequest(this.deps, referralClaims, REFERRAL_CLAIM_JOB, {
        userId,
        requestKey,
        scope: eq(referralClaims.currency, b.currency),
      })) ?? (await this.newClaim(userId, b, requestKey));
    const job = await this.deps.jobs
      .waitFor(reserved.jobId, { timeoutMs: CLAIM_WAIT_MS })
      .catch(() => undefined);
    const [claim] = await this.deps.db
      .select()
      .from(referralClaims)
      .where(eq(referralClaims.id, reserved.claimId));
    if (claim?.status === 'paid' && claim.hash)
      return { claimed: claim.amount, to: claim.walletAddress, currency: claim.currency, hash: claim.hash };
    if (!job) throw badGateway(REFERRAL_MESSAGES.stillProcessing, { claimId: reserved.claimId });
    const [sub] = claim?.hash
      ? await this.deps.db
          .select({ result: ledgerSubmissions.result })
          .from(ledgerSubmissions)
          .where(eq(ledgerSubmissions.hash, claim.hash))
      : [];
    throw badRequest(REFERRAL_MESSAGES.claimFailed, {
      ...(claim?.hash ? { hash: claim.hash } : {}),
      ...(sub?.result ? { result: sub.result, reason: ledgerResultMessage(sub.result) } : {}),
    });
  }

  /** A new claim: the wallet and the payment checked, then the reservation with its job. */
  private async newClaim(
    userId: number,
    b: z.output<typeof referralClaimSchema>,
    requestKey: string | undefined,
  ): Promise<{ claimId: number; jobId: string }> {
    const wallet = (await this.deps.wallets.list(userId)).find((w) => w.address === b.wallet);
    if (!wallet) throw notFound(REFERRAL_MESSAGES.walletNotFound);
    if (!this.deps.payments.canPay) throw ledgerUnavailable(REFERRAL_MESSAGES.unavailable);
    const [balance] = await this.deps.db
      .select()
      .from(referralBalances)
      .where(and(eq(referralBalances.userId, userId), eq(referralBalances.currency, b.currency)));
    const amount = claimAmount(balance?.earned ?? '0', balance?.claimed ?? '0', 100);
    if (!new Decimal(amount).gt(0)) throw badRequest(REFERRAL_MESSAGES.nothingToClaim);
    const check = await this.deps.payments.receiveCheck(wallet.address, b.currency, { amount });
    if (check.problem?.reason === 'no-rlusd-line') throw badRequest(REWARD_MESSAGES.noRlusdLine);
    if (check.problem?.reason === 'below-reserve') {
      const base = (await this.deps.wallets.reserveDrops(0)).base;
      throw badRequest(REWARD_MESSAGES.notActivated(amount, dropsToXrp(base)));
    }
    if (check.problem)
      throw badRequest(REWARD_MESSAGES.recipientCannotReceive(wallet.address, check.problem.sentence));
    await this.deps.payments.requireFeeWalletCanPay(b.currency, amount, 1, REWARD_MESSAGES.platformCannotPay);

    const reserved = await this.deps.db.transaction(async (tx) => {
      const rows = await tx.execute<{ id: number | string }>(sql`
        with reserved as (
          update ${referralBalances}
             set claimed = claimed + ${amount}::numeric
           where user_id = ${userId} and currency = ${b.currency}
             and earned - claimed >= ${amount}::numeric
          returning user_id
        )
        insert into ${referralClaims} (user_id, wallet_address, amount, currency, status, request_key)
        select user_id, ${wallet.address}, ${amount}, ${b.currency}, 'pending', ${requestKey ?? null}
          from reserved
        returning id`);
      const row = rowsOf<{ id: number | string }>(rows)[0];
      if (!row) return undefined;
      const claimId = Number(row.id);
      const job = await this.deps.jobs.enqueue(
        { type: REFERRAL_CLAIM_JOB, userId, payload: { claimId }, key: `${REFERRAL_CLAIM_JOB}:${claimId}` },
        tx as unknown as Db,
      );
      return { claimId, jobId: job.id };
    });
    // A concurrent claim took it first: what is left is claimed by the next click.
    if (!reserved) throw badRequest(REFERRAL_MESSAGES.nothingToClaim);
    return reserved;
  }

  /** GET /api/admin/referrals: the programme's totals and every referrer, biggest earners first. */
  async overview(): Promise<ReferralsOverview> {
    const db = this.deps.db;
    const totals = await db
      .select({
        currency: referralBalances.currency,
        earned: sql<string>`coalesce(sum(${referralBalances.earned}), 0)::text`,
        claimed: sql<string>`coalesce(sum(${referralBalances.claimed}), 0)::text`,
      })
      .from(referralBalances)
      .groupBy(referralBalances.currency)
      .orderBy(asc(referralBalances.currency));
    const [referred] = await db.select({ n: count() }).from(referrals);
    const rows = await db.execute<ReferrerRow>(sql`
      with referrers as (
        select referrer_user_id as user_id, count(*) as referred from ${referrals} group by referrer_user_id
      )
      select r.user_id, coalesce(u.username, u.demo_username) as username, c.code, r.referred,
             coalesce(x.earned, 0)::text as earned_xrp, coalesce(x.claimed, 0)::text as claimed_xrp,
             coalesce(d.earned, 0)::text as earned_rlusd, coalesce(d.claimed, 0)::text as claimed_rlusd
        from referrers r
        join ${users} u on u.id = r.user_id
        left join ${referralCodes} c on c.user_id = r.user_id
        left join ${referralBalances} x on x.user_id = r.user_id and x.currency = 'XRP'
        left join ${referralBalances} d on d.user_id = r.user_id and d.currency = 'RLUSD'
       order by coalesce(x.earned, 0) desc, coalesce(d.earned, 0) desc, r.user_id
       limit 500`);
    return {
      totals: totals.map((t) => ({
        currency: t.currency,
        earned: new Decimal(t.earned).toFixed(),
        claimed: new Decimal(t.claimed).toFixed(),
      })),
      referred_users: referred?.n ?? 0,
      referrers: rowsOf<ReferrerRow>(rows).map((r) => ({
        user_id: Number(r.user_id),
        username: r.username,
        code: r.code,
        referred: Number(r.referred),
        earned_xrp: new Decimal(r.earned_xrp).toFixed(),
        claimed_xrp: new Decimal(r.claimed_xrp).toFixed(),
        earned_rlusd: new Decimal(r.earned_rlusd).toFixed(),
        claimed_rlusd: new Decimal(r.claimed_rlusd).toFixed(),
      })),
    };
  }
}

export function claimView(c: ReferralClaimRow): ReferralClaimView {
  return {
    id: c.id,
    address: c.walletAddress,
    amount: c.amount,
    currency: c.currency,
    status: c.status as ReferralClaimView['status'],
    hash: c.hash,
    created_at: c.createdAt.toISOString(),
  };
}

/** A claim whose payment finally failed: 'failed', and its amount back to claimable (once). */
export async function releaseReferralClaim(db: Db, claimId: number, hash: string | null): Promise<boolean> {
  const res = await db.execute<{ user_id: number }>(sql`
    with failed as (
      update ${referralClaims}
         set status = 'failed', hash = coalesce(${hash}, hash), updated_at = now()
       where id = ${claimId} and status = 'pending'
      returning user_id, currency, amount
    )
    update ${referralBalances}
       set claimed = ${referralBalances.claimed} - failed.amount
      from failed
     where ${referralBalances.userId} = failed.user_id and ${referralBalances.currency} = failed.currency
    returning ${referralBalances.userId}`);
  return rowsOf(res).length > 0;
}

/** Marks a pending referral claim paid (once). */
export async function markReferralClaimPaid(db: Db, claimId: number, hash: string): Promise<void> {
  await db
    .update(referralClaims)
    .set({ status: 'paid', hash, updatedAt: new Date() })
    .where(and(eq(referralClaims.id, claimId), eq(referralClaims.status, 'pending')));
}
