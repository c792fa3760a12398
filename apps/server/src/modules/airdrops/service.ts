import type { z } from 'zod';
import { randomInt, randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { claimAirdropSchema, createAirdropSchema } from '@ledgerpad/shared';
import {
  isOwnImageUrl,
  AIRDROP_MESSAGES,
  AIRDROPS_PAGE,
  isHexCurrency,
  isLpCurrency,
  sameCurrency,
  tickerToCurrency,
  type Airdrop,
  type AirdropAllocation,
  type AirdropStatus,
  type ClaimAirdropResult,
  type CreateAirdropResult,
  Decimal,
  dropsToXrp,
  xrpToDrops,
  currencyToTicker,
  insufficientTokenMessage,
  insufficientXrpMessage,
  ledgerResultMessage,
  serverSigns,
  SELF_CUSTODY_MESSAGES,
  TRUST_LINE_MAX_LIMIT,
  TRUSTLINE_MESSAGES,
  type IntentRequired,
  type WalletKind,
} from '@ledgerpad/shared';
import { batchedCall, batchedRead, isRowId } from '../../db/batched';
import type { Db } from '../../db/client';
import { accountMissing, ledgerFailure } from '../../ledger/errors';
import type { Funds } from '../../ledger/funds';
import { ledgerSubmissions } from '../../ledger/schema';
import { withinKeyLife } from '../../lib/idempotency';
import { rowsOf } from '../../db/results';
import {
  type AppError,
  badGateway,
  badRequest,
  fieldError,
  ledgerUnavailable,
  notFound,
} from '../../lib/errors';
import { PLATFORM_ROLES } from '../../platform/accounts';
import { platformWallet } from '../../platform/custody';
import { wallets as walletsTable } from '../../platform/custody-schema';
import type { IntentFinisher, IntentService } from '../../platform/intents';
import type { JobRunner } from '../../platform/jobs';
import type { PlatformSettings } from '../../platform/settings';
import type { WalletsApi } from '../wallets';
import { airdropClaims, airdrops, type AirdropClaimRow, type AirdropRow } from './schema';
import { AIRDROP_CREATE_JOB, recordAirdrop, type AirdropValues, type CreateJobPayload } from './record';
import { createIntentKey, type SelfCustodyCreation } from './self-custody-create';

// Airdrops (see docs/airdrops.md). Creation checks the form against the ledger, records the airdrop
// and its creation job in one database transaction; the job moves the whole allocation into a
// dedicated custodial wallet. A claim reserves its amount in one conditional statement, then the
// payer (payer.ts) pays reserved claims in batches from the airdrop wallet; a payment that finally
// fails releases the reservation. The sweep ends airdrops past their deadline or unable to pay one more allocation and
// hands their leftover back to the creator.

/** A claim's random share is drawn in millionths (a fraction, not money). */
const DRAW_STEPS = 1_000_000;
export const AIRDROP_CLAIM_JOB = 'airdrop-claim';
export const AIRDROP_CLOSE_JOB = 'airdrop-close';
export { AIRDROP_CREATE_JOB, AIRDROP_WALLET_ROLE, type CreateJobPayload } from './record';

/** Claim amounts are drawn and paid with this many decimals. */
const CLAIM_DECIMALS = 6;
/** XRP the airdrop wallet gets for its own transaction fees on top of its reserves (5,000 × 12 drops). */
const AIRDROP_WALLET_FEE_ALLOWANCE_DROPS = 60_000n;
/** Transaction fees the source wallet pays for the creation (fund, fee, deposit). */
const SOURCE_NETWORK_FEES_DROPS = 1_000n;
/** How long the claim route waits for the payment before it answers. */
const CLAIM_WAIT_MS = 60_000;

/** The intent purpose of a self-custody claimer's trust line (then the claim itself). */
export const AIRDROP_LINE_INTENT = 'airdrop-claim-line';

/** What the claim's trust-line intent keeps for its finisher. */
interface ClaimLineContext {
  airdropId: number;
  walletId: number;
  requestKey: string | null;
}

/** One claim's reservation request (batched per turn: `reserve`). */
interface Reservation {
  userId: number;
  airdropId: number;
  walletId: number;
  walletAddress: string;
  /** The claiming request's Idempotency-Key (its retry answers from this claim). */
  requestKey: string | null;
}

/** What the claim route needs of the payer (payer.ts): a nudge, and the claim once settled. */
export interface ClaimPayer {
  /**
   * A claim was reserved: a round soon. `hasLine` is whether the claimer's wallet had the token's
   * trust line when the route just read it (the payer then does not read it again per claim).
   */
  wake(claim?: { id: number; hasLine: boolean }): void;
  settled(claimId: number, timeoutMs: number): Promise<AirdropClaimRow | undefined>;
}

export interface AirdropsDeps {
  db: Db;
  jobs: JobRunner;
  /** Pays reserved claims; absent without a ledger connection (then claims are refused). */
  payer?: ClaimPayer;
  wallets: WalletsApi;
  settings: PlatformSettings;
  /** False without a ledger connection: creation and claims are refused before anything is recorded. */
  canPay: boolean;
  /** Self-custody wallets' signing intents: a claim into one signs its own trust line (docs/self-custody.md). */
  intents?: IntentService;
  /** A creation from a self-custody source: one intent the wallet signs (absent without a ledger). */
  selfCustody?: SelfCustodyCreation;
  /** Funds checks before anything is signed (absent without a ledger, like the payer). */
  funds?: Funds;
  /** The clock deadlines are compared with (ms); default Date.now. */
  now?: () => number;
  /** Whether a logo URL names an image our upload route stored (only those are kept and shown). */
  isStoredLogo?: (servedUrl: string) => Promise<boolean>;
  /**
   * Why an airdrop may not run under this token and these words (issue 35: RLUSD's code from
   * another issuer, a lookalike of XRP, RLUSD or a protected token, a project name naming one).
   */
  identity?: (check: {
    issuer: string;
    currency: string;
    projectName: string;
    tagline: string;
  }) => Promise<{ field: string; message: string } | null>;
}

/**
 * The amount of the next claim. Fixed: the fixed amount. Random: uniform in [min, upper] with
 * 6 decimals, where upper = min(max, remaining − min × (claims left − 1)) — whatever is drawn, the
 * rest still pays every later claim at least the minimum. Undefined when nothing can be paid.
 */
export function drawAmount(
  a: Pick<AirdropRow, 'fixedAmount' | 'minAmount' | 'maxAmount' | 'maxClaims' | 'claimedCount' | 'remaining'>,
  fraction: number,
): string | undefined {
  const remaining = new Decimal(a.remaining);
  const claimsLeft = a.maxClaims - a.claimedCount;
  if (claimsLeft < 1) return undefined;
  if (a.fixedAmount) return remaining.gte(a.fixedAmount) ? new Decimal(a.fixedAmount).toFixed() : undefined;
  const min = new Decimal(a.minAmount ?? '0');
  const upper = Decimal.min(a.maxAmount ?? '0', remaining.minus(min.mul(claimsLeft - 1)));
  if (upper.lt(min) || !min.gt(0)) return undefined;
  const f = Math.min(Math.max(fraction, 0), 1);
  return min.plus(upper.minus(min).mul(f)).toDecimalPlaces(CLAIM_DECIMALS, Decimal.ROUND_DOWN).toFixed();
}

/** The list's status: an active airdrop past its deadline reads 'expired' before the sweep ends it. */
function statusOf(row: AirdropRow, now: number): AirdropStatus {
  if (row.status === 'expired') return 'expired';
  if (row.status === 'closed') return 'closed';
  if (row.expiry.getTime() <= now) return 'expired';
  return 'active';
}

export class AirdropService {
  private readonly db: Db;
  private readonly now: () => number;

  constructor(private readonly deps: AirdropsDeps) {
    this.db = deps.db;
    this.now = deps.now ?? Date.now;
  }

  /** GET /api/airdrops: the airdrops whose tokens are in, newest first, one page; and how many in all. */
  async list(
    userId: number | undefined,
    page: { limit: number; offset: number } = { limit: AIRDROPS_PAGE.max, offset: 0 },
  ): Promise<{ items: Airdrop[]; total: number }> {
    const listed = inArray(airdrops.status, ['active', 'expired', 'closed']);
    const rows = await this.db
      .select()
      .from(airdrops)
      .where(listed)
      .orderBy(sql`${airdrops.id} desc`)
      .limit(page.limit)
      .offset(page.offset);
    // A first page with room left holds every airdrop: its length is the total, without a second
    // statement (the public list's usual case; issue 40, a public read's CPU). Otherwise counted.
    const counted =
      page.offset === 0 && rows.length < page.limit
        ? { n: rows.length }
        : (
            await this.db
              .select({ n: sql<number>`count(*)::int` })
              .from(airdrops)
              .where(listed)
          )[0];
    const claimed = new Set<number>();
    if (userId !== undefined && rows.length) {
      const mine = await this.db
        .select({ airdropId: airdropClaims.airdropId })
        .from(airdropClaims)
        .where(and(eq(airdropClaims.userId, userId), inArray(airdropClaims.status, ['pending', 'paid'])));
      for (const c of mine) claimed.add(c.airdropId);
    }
    const now = this.now();
    const items: Airdrop[] = rows.map((r) => ({
      id: r.id,
      project_name: r.projectName,
      tagline: r.tagline,
      // Images only from us: an external URL stored before the rule is never handed to browsers.
      logo_url: isOwnImageUrl(r.logoUrl) ? r.logoUrl : '',
      description: r.description,
      issuer_address: r.issuerAddress,
      token_code: r.currency,
      fixed_amount: r.fixedAmount,
      min_amount: r.minAmount,
      max_amount: r.maxAmount,
      max_claims: r.maxClaims,
      claimed_count: r.claimedCount,
      total_token_amount: r.totalAmount,
      expiry: r.expiry.toISOString(),
      has_claimed: claimed.has(r.id),
      is_creator: userId !== undefined && r.creatorUserId === userId,
      website_url: r.websiteUrl,
      twitter_url: r.twitterUrl,
      status: statusOf(r, now),
    }));
    return { items, total: Number(counted?.n ?? 0) };
  }

  async get(id: number): Promise<AirdropRow | undefined> {
    const row = isRowId(id) ? await this.byId(id) : undefined;
    return row && { ...row };
  }

  /** Airdrops by id: a burst of claims on one airdrop reads its row once per turn (db/batched.ts). */
  private readonly byId = batchedRead(async (ids: number[]) => {
    const rows = await this.db.select().from(airdrops).where(inArray(airdrops.id, ids));
    return new Map(rows.map((r) => [String(r.id), r]));
  });

  /**
   * POST /api/airdrops: validates against the source wallet's ledger state, then records the airdrop
   * and its creation job together (a crash leaves either nothing or an airdrop its job finishes).
   */
  async create(
    userId: number,
    b: z.output<typeof createAirdropSchema>,
    requestKey?: string,
  ): Promise<CreateAirdropResult | IntentRequired> {
    // A retry of a creation whose first attempt enqueued its job (then was cut: kill -9, a lost
    // answer) answers with that airdrop and job; the checks below would count its tokens twice.
    const jobKey = requestKey ? `${AIRDROP_CREATE_JOB}:request:${userId}:${requestKey}` : undefined;
    const earlier = jobKey ? await this.deps.jobs.byKey(jobKey) : undefined;
    if (earlier) {
      return { success: true, id: (earlier.payload as CreateJobPayload).airdropId, jobId: earlier.id };
    }
    // A self-custody source's retry answers its intent (signed or not: posting the blobs again
    // answers the first posting's outcome).
    const intentKey = requestKey ? createIntentKey(userId, requestKey) : undefined;
    const known = intentKey ? await this.deps.intents?.known(intentKey) : undefined;
    if (known) return { status: 'sign', intent: known };
    if (b.deadline.getTime() <= this.now()) {
      throw fieldError('deadline', AIRDROP_MESSAGES.deadline);
    }
    const wallet = await this.deps.wallets.owned(userId, b.sourceWalletId).catch(() => {
      throw notFound(AIRDROP_MESSAGES.walletNotFound);
    });
    // The creation job signs a custodial source's funding, fee and deposit; a self-custody source
    // signs them as one intent (self-custody-create.ts). Without intents (no ledger), refused here,
    // before anything is recorded — not a job that fails after a 202.
    const selfCustody = !serverSigns(wallet.kind as WalletKind);
    if (selfCustody && !this.deps.selfCustody) throw badRequest(SELF_CUSTODY_MESSAGES.notSupported);
    let currency: string;
    try {
      currency = isHexCurrency(b.tokenCode) ? b.tokenCode.toUpperCase() : tickerToCurrency(b.tokenCode);
    } catch {
      throw badRequest(AIRDROP_MESSAGES.token);
    }
    if (isLpCurrency(currency)) throw badRequest(AIRDROP_MESSAGES.lpToken);
    // Every door checks identity: the token code, the project name and the tagline (the links were
    // checked by the schema: https, no user:pw@, a 'Twitter' link on X/Twitter).
    const refusal = await this.deps.identity?.({
      issuer: b.issuerAddress,
      currency,
      projectName: b.projectName,
      tagline: b.tagline,
    });
    if (refusal) throw fieldError(refusal.field, refusal.message);
    if (b.logoUrl && !(await (this.deps.isStoredLogo?.(b.logoUrl) ?? Promise.resolve(false)))) {
      throw fieldError('logoUrl', AIRDROP_MESSAGES.logo);
    }
    if (!this.deps.canPay) throw ledgerUnavailable(AIRDROP_MESSAGES.unavailable);

    // Tokens: what the wallet holds, less airdrops from it whose tokens have not moved yet.
    const line = (await this.deps.wallets.lines(wallet.address, b.issuerAddress)).find((l) =>
      sameCurrency(l.currency, currency),
    );
    // No line with it: the issuer may not even be an account (a line proves it is one).
    if (!line && !(await this.deps.wallets.accountState(b.issuerAddress)).activated)
      throw accountMissing('issuer', b.issuerAddress, 'issuerAddress');
    const balance = new Decimal(line?.balance ?? '0');

    // XRP: the airdrop fee and the new wallet's funding, from what is above the wallet's reserve.
    const settings = await this.deps.settings.all();
    const feeDrops = xrpToDrops(new Decimal(settings.airdrop_fee_xrp).toDecimalPlaces(6).toFixed());
    const state = await this.deps.wallets.accountState(wallet.address);
    const reserve = await this.deps.wallets.reserveDrops(state.ownerCount);
    const fundDrops = reserve.base + reserve.increment + AIRDROP_WALLET_FEE_ALLOWANCE_DROPS;
    // The airdrop wallet's funding and the platform's airdrop fee, with the network fees of the
    // creation's transactions from this wallet: 'Insufficient balance: you have X XRP available,
    // this needs Y XRP.' (the funds check counts transactions in flight and fees owed too).
    if (this.deps.funds) {
      // A self-custody source's Check holds an owner reserve until the job cashes it.
      await this.deps.funds.requireXrp(wallet.address, {
        amount: fundDrops + SOURCE_NETWORK_FEES_DROPS,
        platformFee: feeDrops,
        ...(selfCustody ? { newObjects: 1 } : {}),
      });
    } else {
      const needed = feeDrops + fundDrops + SOURCE_NETWORK_FEES_DROPS;
      const available = state.activated ? state.balanceDrops - reserve.total : 0n;
      if (available < needed) throw badRequest(insufficientXrpMessage(available, needed));
    }
    const feeAddress =
      feeDrops > 0n ? ((await platformWallet(this.db, PLATFORM_ROLES.fee))?.address ?? null) : null;

    const total = new Decimal(b.totalTokenAmount);
    const values: AirdropValues = {
      creatorUserId: userId,
      sourceWalletId: wallet.id,
      sourceAddress: wallet.address,
      projectName: b.projectName,
      tagline: b.tagline,
      logoUrl: b.logoUrl,
      description: b.description,
      issuerAddress: b.issuerAddress,
      currency,
      perUserType: b.perUserType,
      fixedAmount: b.fixedAmount,
      minAmount: b.randomMin,
      maxAmount: b.randomMax,
      maxClaims: b.maxRecipients,
      totalAmount: total.toFixed(),
      remaining: total.toFixed(),
      expiry: b.deadline,
      websiteUrl: b.website ?? null,
      twitterUrl: b.twitter ?? null,
      trustlineMode: b.trustlineMode,
    };
    const payload: Omit<CreateJobPayload, 'airdropId'> = {
      userId,
      sourceWalletId: wallet.id,
      sourceAddress: wallet.address,
      currency,
      issuer: b.issuerAddress,
      total: total.toFixed(),
      fundDrops: fundDrops.toString(),
      feeDrops: feeAddress ? feeDrops.toString() : '0',
      feeAddress,
    };
    const refuseUnfree = (pendingSum: string | null | undefined) => {
      const free = balance.minus(pendingSum ?? '0');
      if (total.gt(free))
        throw badRequest(
          `${AIRDROP_MESSAGES.insufficientTokens(Decimal.max(free, 0).toFixed())} ${insufficientTokenMessage(free, total, currencyToTicker(currency))}`,
          { available: Decimal.max(free, 0).toFixed(), needed: total.toFixed() },
        );
    };
    const pendingOf = (db: Db) =>
      db
        .select({ sum: sql<string | null>`sum(${airdrops.totalAmount}::numeric)::text` })
        .from(airdrops)
        .where(
          and(
            eq(airdrops.sourceWalletId, wallet.id),
            eq(airdrops.currency, currency),
            eq(airdrops.issuerAddress, b.issuerAddress),
            eq(airdrops.status, 'pending'),
          ),
        );
    if (selfCustody) {
      // Nothing is recorded until the wallet's transactions applied (an intent never signed leaves
      // no airdrop): the tokens are checked now, and again right before the blobs are sent.
      refuseUnfree((await pendingOf(this.db))[0]?.sum);
      return this.deps.selfCustody!.prepare(
        wallet,
        values,
        payload,
        intentKey ?? createIntentKey(userId, randomUUID()),
      );
    }
    return this.db.transaction(async (tx) => {
      // One creation per wallet at a time: two forms can't both count the same tokens.
      await tx
        .select({ id: walletsTable.id })
        .from(walletsTable)
        .where(eq(walletsTable.id, wallet.id))
        .for('update');
      refuseUnfree((await pendingOf(tx as unknown as Db))[0]?.sum);
      return recordAirdrop(tx as unknown as Db, this.deps.jobs, values, payload, jobKey);
    });
  }

  /**
   * POST /api/airdrops/{id}/claim: checks, reserves the amount (the reservation is the payer's
   * work item), then waits for the payer to pay it.
   */
  async claim(
    userId: number,
    airdropId: number,
    b: z.output<typeof claimAirdropSchema>,
    requestKey?: string,
  ): Promise<ClaimAirdropResult | IntentRequired> {
    // A retry of a claim whose first attempt reserved (and maybe paid) before it was cut — a kill -9,
    // an answer lost to a timeout — answers with that claim's outcome. Checked before anything else:
    // the checks below would now see the first attempt's own effect (the allocation taken, "fully
    // claimed") and refuse the very claim that was paid.
    const mine = await this.claimOfRequest(userId, airdropId, requestKey);
    if (mine) {
      if (mine.status === 'pending') this.deps.payer?.wake();
      return this.claimOutcome(mine.status === 'pending' ? await this.settle(mine.id) : mine, mine.id);
    }
    const airdrop = await this.get(airdropId);
    if (!airdrop || airdrop.status === 'failed') throw notFound(AIRDROP_MESSAGES.notFound);
    const wallet = await this.deps.wallets.owned(userId, b.destinationWalletId).catch(() => {
      throw notFound(AIRDROP_MESSAGES.walletNotFound);
    });
    // The creator funded it: the allocations are for others.
    if (airdrop.creatorUserId === userId) throw badRequest(AIRDROP_MESSAGES.ownAirdrop);
    this.assertClaimable(airdrop);
    // A second claim by the same user is refused by the reservation itself (unique index).
    if (!this.deps.canPay || !this.deps.payer) throw ledgerUnavailable(AIRDROP_MESSAGES.unavailable);
    if (airdrop.trustlineMode === 'manual') {
      const line = (await this.deps.wallets.lines(wallet.address, airdrop.issuerAddress)).find((l) =>
        sameCurrency(l.currency, airdrop.currency),
      );
      if (!line) throw badRequest(AIRDROP_MESSAGES.trustlineMissing(airdrop.currency));
    }
    const hasLine = await this.assertCanReceive(wallet.address, airdrop);
    // A self-custody wallet's trust line is its own signature: the payer cannot open it. The claim
    // answers the TrustSet as an intent; once the wallet signed it and it applied, the intent's
    // finisher makes this very claim (the line there now), which the platform's payment pays.
    if (hasLine === false && !serverSigns(wallet.kind as WalletKind)) {
      const intents = this.deps.intents;
      if (!intents) throw badRequest(AIRDROP_MESSAGES.trustlineMissing(airdrop.currency));
      const intentKey = `${AIRDROP_LINE_INTENT}:${userId}:${airdropId}:${requestKey ?? randomUUID()}`;
      const known = await intents.known(intentKey);
      if (known) return { status: 'sign', intent: known };
      const context: ClaimLineContext = { airdropId, walletId: wallet.id, requestKey: requestKey ?? null };
      const intent = await intents.prepare({
        userId,
        wallet,
        purpose: AIRDROP_LINE_INTENT,
        intentKey,
        txs: [
          {
            tx: {
              TransactionType: 'TrustSet',
              LimitAmount: {
                currency: airdrop.currency,
                issuer: airdrop.issuerAddress,
                value: TRUST_LINE_MAX_LIMIT,
              },
            },
            purpose: AIRDROP_LINE_INTENT,
          },
        ],
        context: context as unknown as Record<string, unknown>,
      });
      return { status: 'sign', intent };
    }

    const claimId = await this.reserve(userId, airdrop.id, wallet.id, wallet.address, requestKey);
    this.deps.payer!.wake(hasLine === undefined ? undefined : { id: claimId, hasLine });
    return this.claimOutcome(await this.settle(claimId), claimId);
  }

  /**
   * The finisher of a claim into a self-custody wallet that had to open its trust line: the line's
   * TrustSet applied, the claim is made as any other (keyed by the request's Idempotency-Key, or the
   * intent's id: finished twice, after a restart, it finds its own claim and answers its outcome).
   */
  claimLineFinisher(): IntentFinisher {
    return {
      recheck: async (intent) => {
        await this.deps.funds?.requireXrp(intent.account, { transactions: 1, newObjects: 1 });
      },
      finish: async (intent, [outcome]) => {
        if (outcome!.status !== 'success')
          throw ledgerFailure(
            outcome!,
            `${TRUSTLINE_MESSAGES.failed}: ${ledgerResultMessage(outcome!.result)}`,
          );
        const ctx = intent.context as unknown as ClaimLineContext;
        const claimed = await this.claim(
          intent.userId,
          ctx.airdropId,
          { destinationWalletId: ctx.walletId },
          ctx.requestKey ?? intent.id,
        );
        return claimed;
      },
    };
  }

  private settle(claimId: number): Promise<AirdropClaimRow | undefined> {
    if (!this.deps.payer) throw ledgerUnavailable(AIRDROP_MESSAGES.unavailable);
    return this.deps.payer.settled(claimId, CLAIM_WAIT_MS);
  }

  /** Paid: its amount and hash; released: 'Claim failed.' with the ledger's word; still paying: 502. */
  private async claimOutcome(
    claim: AirdropClaimRow | undefined,
    claimId: number,
  ): Promise<ClaimAirdropResult> {
    if (!claim) throw badGateway(AIRDROP_MESSAGES.processing, { claimId });
    if (claim.status === 'paid' && claim.hash) return { amount: claim.amount, hash: claim.hash };
    throw await this.claimFailure(claim.hash);
  }

  /** The claim the request with this Idempotency-Key reserved, within the key's life. */
  private async claimOfRequest(
    userId: number,
    airdropId: number,
    requestKey: string | undefined,
  ): Promise<AirdropClaimRow | undefined> {
    if (!requestKey) return undefined;
    const [row] = await this.db
      .select()
      .from(airdropClaims)
      .where(
        and(
          eq(airdropClaims.userId, userId),
          eq(airdropClaims.airdropId, airdropId),
          eq(airdropClaims.requestKey, requestKey),
          withinKeyLife(airdropClaims.createdAt),
        ),
      )
      .orderBy(desc(airdropClaims.id))
      .limit(1);
    return row;
  }

  /** 'Claim failed.' with what the ledger said about the payment (its sentence and code), if anything. */
  private async claimFailure(hash: string | null): Promise<AppError> {
    const [sub] = hash
      ? await this.db
          .select({ result: ledgerSubmissions.result })
          .from(ledgerSubmissions)
          .where(eq(ledgerSubmissions.hash, hash))
      : [];
    if (!sub?.result) return badRequest(AIRDROP_MESSAGES.claimFailed, hash ? { hash } : undefined);
    return ledgerFailure(
      { result: sub.result, hash: hash! },
      `${AIRDROP_MESSAGES.claimFailed} ${ledgerResultMessage(sub.result)}`,
    );
  }

  /**
   * The claimer's wallet must exist on the ledger, and (auto mode) afford the trust line the payer
   * opens for it: its reserve and network fee. Said before anything is reserved or signed.
   * Resolves with whether the wallet has the token's trust line, when it was read (auto mode).
   */
  private async assertCanReceive(address: string, airdrop: AirdropRow): Promise<boolean | undefined> {
    const state = await this.deps.wallets.accountState(address);
    if (!state.activated) {
      const base = (await this.deps.wallets.reserveDrops(0)).base;
      throw badRequest(AIRDROP_MESSAGES.walletNotActivated(dropsToXrp(base)));
    }
    if (airdrop.trustlineMode === 'manual' || !this.deps.funds) return undefined;
    const lines = await this.deps.wallets.lines(address, airdrop.issuerAddress);
    if (lines.some((l) => sameCurrency(l.currency, airdrop.currency))) return true;
    await this.deps.funds.requireXrp(address, { transactions: 1, newObjects: 1 });
    return false;
  }

  private assertClaimable(a: AirdropRow, now = this.now()): void {
    if (a.status === 'pending') throw badRequest(AIRDROP_MESSAGES.notActive);
    if (a.status === 'expired' || a.expiry.getTime() <= now) throw badRequest(AIRDROP_MESSAGES.expired);
    if (a.status === 'closed' || a.claimedCount >= a.maxClaims) throw badRequest(AIRDROP_MESSAGES.exhausted);
  }

  /**
   * The reservation. The claims of one turn on one airdrop are reserved together (a burst of 500
   * becomes a handful of statements instead of 500 contending updates of one row): in one database
   * transaction the airdrop's row is locked (`for update`: another instance's reservations wait),
   * each claim's amount is drawn in turn from what the claims before it left — so every draw still
   * leaves the minimum for every later claim — the claims are inserted (unique per airdrop and
   * user: a user's second claim is refused, in this batch or after an earlier one) and the row's
   * count and remaining amount move by exactly what was inserted. Nothing can be taken twice or
   * beyond the total: the lock orders every batch of every instance, and each batch checks against
   * the row as the last one committed it.
   */
  private reserve(
    userId: number,
    airdropId: number,
    walletId: number,
    walletAddress: string,
    requestKey: string | undefined,
  ): Promise<number> {
    return this.reservations({ userId, airdropId, walletId, walletAddress, requestKey: requestKey ?? null });
  }

  private readonly reservations = batchedCall(async (asks: Reservation[]) => {
    const out = new Map<Reservation, number | Error>();
    const byAirdrop = new Map<number, Reservation[]>();
    for (const r of asks) byAirdrop.set(r.airdropId, [...(byAirdrop.get(r.airdropId) ?? []), r]);
    for (const [airdropId, group] of byAirdrop) {
      try {
        for (const [r, v] of await this.reserveOn(airdropId, group)) out.set(r, v);
      } catch (err) {
        for (const r of group) out.set(r, err instanceof Error ? err : new Error(String(err)));
      }
    }
    return asks.map((r) => out.get(r)!);
  });

  private async reserveOn(airdropId: number, asks: Reservation[]): Promise<Map<Reservation, number | Error>> {
    const out = new Map<Reservation, number | Error>();
    await this.db.transaction(async (tx) => {
      const [a] = await tx.select().from(airdrops).where(eq(airdrops.id, airdropId)).for('update');
      if (!a) {
        for (const r of asks) out.set(r, notFound(AIRDROP_MESSAGES.notFound));
        return;
      }
      const now = this.now();
      const state = { ...a };
      const drawn: Array<{ ask: Reservation; amount: string }> = [];
      const seen = new Set<number>();
      for (const ask of asks) {
        if (seen.has(ask.userId)) {
          out.set(ask, badRequest(AIRDROP_MESSAGES.alreadyClaimed));
          continue;
        }
        try {
          if (state.status === 'failed') throw notFound(AIRDROP_MESSAGES.notFound);
          this.assertClaimable(state, now);
          if (state.status !== 'active') throw badRequest(AIRDROP_MESSAGES.notActive);
          const amount = drawAmount(state, randomInt(0, DRAW_STEPS + 1) / DRAW_STEPS);
          // Whatever is drawn, the rest must still pay every later claim its minimum.
          const later = new Decimal(state.fixedAmount ?? state.minAmount ?? '0').mul(
            state.maxClaims - state.claimedCount - 1,
          );
          if (!amount || new Decimal(state.remaining).minus(amount).lt(later))
            throw badRequest(AIRDROP_MESSAGES.exhausted);
          seen.add(ask.userId);
          state.claimedCount += 1;
          state.remaining = new Decimal(state.remaining).minus(amount).toFixed();
          drawn.push({ ask, amount });
        } catch (err) {
          out.set(ask, err as Error);
        }
      }
      if (drawn.length === 0) return;
      const inserted = await tx
        .insert(airdropClaims)
        .values(
          drawn.map((d) => ({
            airdropId,
            userId: d.ask.userId,
            walletId: d.ask.walletId,
            walletAddress: d.ask.walletAddress,
            amount: d.amount,
            requestKey: d.ask.requestKey,
            status: 'pending' as const,
          })),
        )
        .onConflictDoNothing()
        .returning({ id: airdropClaims.id, userId: airdropClaims.userId });
      const ids = new Map(inserted.map((r) => [r.userId, r.id]));
      let taken = new Decimal(0);
      for (const d of drawn) {
        const id = ids.get(d.ask.userId);
        if (id === undefined) out.set(d.ask, badRequest(AIRDROP_MESSAGES.alreadyClaimed));
        else {
          out.set(d.ask, id);
          taken = taken.plus(d.amount);
        }
      }
      if (ids.size === 0) return;
      await tx
        .update(airdrops)
        .set({
          claimedCount: sql`${airdrops.claimedCount} + ${ids.size}`,
          remaining: sql`(${airdrops.remaining}::numeric - ${taken.toFixed()}::numeric)`,
        })
        .where(eq(airdrops.id, airdropId));
    });
    return out;
  }

  /**
   * GET /api/airdrops/allocations/{walletId}/{tokenCode}/{issuer}: what the caller's live airdrops
   * from this wallet still owe (pending creations count in full; active ones their unpaid part:
   * what is unreserved plus what pending claims reserved).
   */
  async allocated(
    userId: number,
    walletId: number,
    tokenCode: string,
    issuer: string,
  ): Promise<AirdropAllocation> {
    const wallet = await this.deps.wallets.owned(userId, walletId).catch(() => {
      throw notFound(AIRDROP_MESSAGES.walletNotFound);
    });
    let currency: string;
    try {
      currency = isHexCurrency(tokenCode) ? tokenCode.toUpperCase() : tickerToCurrency(tokenCode);
    } catch {
      throw badRequest(AIRDROP_MESSAGES.token);
    }
    const res = await this.db.execute<{ allocated: string | null }>(sql`
      select (coalesce(sum(a.remaining::numeric), 0) + coalesce(sum(p.pending), 0))::text as allocated
        from ${airdrops} a
        left join (
          select airdrop_id, sum(amount::numeric) as pending
            from ${airdropClaims} where status = 'pending' group by airdrop_id
        ) p on p.airdrop_id = a.id
       where a.creator_user_id = ${userId}
         and a.source_wallet_id = ${wallet.id}
         and a.currency = ${currency}
         and a.issuer_address = ${issuer}
         and a.status in ('pending', 'active')`);
    const value = rowsOf<{ allocated: string | null }>(res)[0]?.allocated ?? '0';
    return { allocated: new Decimal(value).toFixed() };
  }

  /**
   * Ends every active airdrop past its deadline (at `now`) or unable to pay one more allocation:
   * enqueues its close job (one per airdrop, by key). Returns the job ids.
   */
  async sweep(now: Date = new Date(this.now())): Promise<string[]> {
    const due = await this.db
      .select()
      .from(airdrops)
      .where(
        and(
          eq(airdrops.status, 'active'),
          sql`(${lte(airdrops.expiry, now)}
               or ${airdrops.claimedCount} >= ${airdrops.maxClaims}
               or ${airdrops.remaining}::numeric < coalesce(${airdrops.fixedAmount}, ${airdrops.minAmount})::numeric)`,
        ),
      )
      .orderBy(asc(airdrops.id));
    const ids: string[] = [];
    for (const a of due) {
      const status = a.expiry.getTime() <= now.getTime() ? 'expired' : 'closed';
      const job = await this.deps.jobs.enqueue({
        type: AIRDROP_CLOSE_JOB,
        userId: a.creatorUserId,
        payload: { airdropId: a.id, status },
        key: `${AIRDROP_CLOSE_JOB}:${a.id}`,
      });
      ids.push(job.id);
    }
    return ids;
  }
}

/**
 * Releases a claim whose payment finally failed (or was never signed), in one statement: the claim
 * turns 'failed' and its amount and count go back to the airdrop only if it was still pending (a
 * second call does nothing). With `leaseOwner`, only while that payer's lease on it runs.
 */
export async function releaseClaim(
  db: Db,
  claimId: number,
  hash: string | null,
  leaseOwner?: string,
): Promise<boolean> {
  const fence = leaseOwner ? sql`and lease_owner = ${leaseOwner} and lease_until > now()` : sql``;
  const res = await db.execute<{ id: number | string }>(sql`
    with failed as (
      update ${airdropClaims}
         set status = 'failed', hash = coalesce(${hash}, hash), updated_at = now()
       where id = ${claimId} and status = 'pending' ${fence}
      returning airdrop_id, amount
    )
    update ${airdrops}
       set remaining = ${airdrops.remaining} + failed.amount,
           claimed_count = ${airdrops.claimedCount} - 1
      from failed
     where ${airdrops.id} = failed.airdrop_id
    returning ${airdrops.id}`);
  return rowsOf(res).length > 0;
}
