import { and, eq, inArray, like, or, sql } from 'drizzle-orm';
import type { Client } from 'xrpl';
import {
  Decimal,
  devAllocationAmount,
  devLockText,
  escrowLockState,
  ledgerResultMessage,
  rippleTime,
  VESTING_AUTO_RELEASE_MESSAGES,
  VESTING_RELEASE_MESSAGES,
  serverSigns,
  SELF_CUSTODY_MESSAGES,
  type WalletKind,
  type DevLockView,
  type VestingAutoReleaseRequest,
  type VestingAutoReleaseResult,
  type VestingReleaseRequest,
  type VestingSettings,
  type VestingTranche,
  type VestingReleaseResult,
  type VestingScheduleView,
  type VestingTrancheView,
} from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import type { Funds } from '../../ledger/funds';
import { ledgerSubmissions } from '../../ledger/schema';
import type { SubmissionService } from '../../ledger/submission-service';
import { AppError, badRequest, ledgerUnavailable, notFound, serviceDisabled } from '../../lib/errors';
import { PLATFORM_ROLES } from '../../platform/accounts';
import { platformWallet } from '../../platform/custody';
import { jobs } from '../../platform/jobs';
import type { TokenRegistry, TokenRow } from '../tokens';
import type { WalletsApi } from '../wallets';
import {
  readEscrows,
  tokenEscrows,
  toEscrowView,
  validatedClose,
  type LedgerEscrow,
} from '../../ledger/escrows';
import { vestingAutoRelease, type AutoReleaseRow } from './schema';

// The dev allocation locked on the ledger (issue 28, docs/vesting.md): the dashboard's schedule and
// its 'Release' (EscrowFinish through the submission service), and the risk panel's lock line. The
// ledger's escrow objects are the truth; the deploy job's payload only says what was planned.

const pct = (part: Decimal, whole: Decimal) =>
  whole.gt(0) ? part.div(whole).mul(100).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed() : '0';
const day = (ripple: number) => rippleTime.toIso(ripple).slice(0, 10);

/**
 * The intent purpose of a self-funded deploy's dev allocation (claimed and locked by the creator's
 * wallet after the job, modules/deploy/self-custody.ts), and the key pattern of its records. Here,
 * not in deploy, for the same reason as `DeployPayload` below.
 */
export const ALLOCATION_INTENT = 'deploy-allocation';
export const allocationKeyPattern = (jobId: string): string => `${ALLOCATION_INTENT}:%:${jobId}:%`;
/** The submission purpose of that intent's CheckCash (its first step). */
export const ALLOCATION_CLAIM = 'deploy:claim-dev-allocation';

/**
 * The part of the deploy job's payload (modules/deploy/job.ts `DeployPayload`) vesting reads: a
 * row of the jobs table, read as JSON. Named here rather than imported so vesting does not depend
 * on deploy (deploy → bonding → market → vesting would close a cycle).
 */
interface DeployPayload {
  walletId: number;
  selfFunded?: boolean;
  userAddress: string;
  vesting?: { settings: VestingSettings; start: number; tranches: VestingTranche[] } | null;
}

async function deployPayloadOf(db: Db, token: TokenRow): Promise<DeployPayload | null> {
  if (token.source !== 'deploy' || !token.deployJobId) return null;
  const [row] = await db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.id, token.deployJobId));
  return (row?.payload as DeployPayload | undefined) ?? null;
}

/** The deployer's wallet of each deploy job (`payload.userAddress`), for the list's 'unlocked' mark. */
export async function deployWallets(db: Db, jobIds: string[]): Promise<Map<string, string>> {
  if (jobIds.length === 0) return new Map();
  const rows = await db
    .select({ id: jobs.id, address: sql<string | null>`${jobs.payload}->>'userAddress'` })
    .from(jobs)
    .where(inArray(jobs.id, jobIds));
  return new Map(rows.flatMap((r) => (r.address ? [[r.id, r.address] as const] : [])));
}

/**
 * The risk panel's dev lock (issues 28, 35): the deployer's escrows of the token (found in the
 * issuer's directory, so ones the deployer made outside Ledgerpad count too), each judged by what
 * the ledger guarantees at the validated close (`escrowLockState`: only a future FinishAfter and no
 * Condition locks), summed against the dev allocation — so a 1-token escrow reads 0.0…% of it
 * locked, amber, not a lock. 'not-locked' when there is no allocation to lock.
 */
export async function devLockOf(client: Client, db: Db, token: TokenRow): Promise<DevLockView | null> {
  const payload = await deployPayloadOf(db, token);
  if (!payload) return null;
  const [all, { closeTime }] = await Promise.all([
    tokenEscrows(client, token.issuerAddress, token.currency),
    validatedClose(client),
  ]);
  const judged = all.map((e) => ({ e, state: escrowLockState(e, closeTime) }));
  const mine = judged
    .filter(({ e }) => e.owner === payload.userAddress)
    .sort((a, b) => (a.e.finishAfter ?? 0) - (b.e.finishAfter ?? 0));
  const sum = (xs: typeof judged) => xs.reduce((s, x) => s.plus(x.e.amount), new Decimal(0));
  const locking = mine.filter((x) => x.state === 'locked');
  const allocation = devAllocationAmount(token.supply, token.devAllocation);
  const locked = sum(locking);
  const due = sum(mine.filter((x) => x.state === 'due'));
  const lockedShare = allocation.gt(0)
    ? Decimal.min(100, new Decimal(pct(locked, allocation)))
    : new Decimal(0);
  const last = locking.reduce<number | null>((m, x) => Math.max(m ?? 0, x.e.finishAfter!), null);
  const dev = new Decimal(token.devAllocation).toFixed();
  const status = !allocation.gt(0)
    ? 'not-locked'
    : locked.gte(allocation)
      ? 'locked'
      : locked.gt(0)
        ? 'partial'
        : 'unlocked';
  return {
    status,
    scheduled: Boolean(payload.vesting?.tranches.length),
    devSharePercent: dev,
    lockedPercent: lockedShare.toFixed(),
    lockedAmount: locked.toFixed(),
    dueAmount: due.toFixed(),
    until: last === null ? null : rippleTime.toIso(last),
    // A sliver (1 token of 100,000) reads '<0.01% of it', never '0% locked' next to a lock date.
    text: devLockText(
      dev,
      lockedShare.eq(0) && locked.gt(0) ? '<0.01' : lockedShare.toFixed(),
      last === null ? null : day(last),
      status,
      due.gt(0),
    ),
    escrows: mine.map(({ e, state }) => ({ ...toEscrowView(e), state })),
    allLockedPercent: pct(sum(judged.filter((x) => x.state === 'locked')), new Decimal(token.supply)),
  };
}

export interface VestingDeps {
  db: Db;
  client: Client | undefined;
  submissions: SubmissionService | undefined;
  funds: Funds | undefined;
  tokens: TokenRegistry;
  wallets: WalletsApi;
}

export class VestingService {
  constructor(private readonly deps: VestingDeps) {}

  private ledger(): { client: Client; submissions: SubmissionService } {
    const { client, submissions } = this.deps;
    if (!client || !submissions) throw ledgerUnavailable();
    return { client, submissions };
  }

  /** Whether a self-custody creator's wallet cashed the deploy's Check of its allocation here. */
  private async claimed(jobId: string): Promise<boolean> {
    const [row] = await this.deps.db
      .select({ id: ledgerSubmissions.intentKey })
      .from(ledgerSubmissions)
      .where(
        and(
          like(ledgerSubmissions.intentKey, allocationKeyPattern(jobId)),
          eq(ledgerSubmissions.purpose, ALLOCATION_CLAIM),
          eq(ledgerSubmissions.status, 'success'),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  /**
   * The created escrows of a deploy's schedule: step name → the EscrowCreate's sequence and hash.
   * The deploy job's own steps (custodial creator), or the steps of the allocation intent a
   * self-custody creator signed after the job (their purpose names the step).
   */
  private async created(jobId: string): Promise<Map<string, { sequence: number; hash: string }>> {
    const rows = await this.deps.db
      .select()
      .from(ledgerSubmissions)
      .where(
        and(
          or(
            like(ledgerSubmissions.intentKey, `deploy:${jobId}:lock-dev-%`),
            and(
              like(ledgerSubmissions.intentKey, allocationKeyPattern(jobId)),
              like(ledgerSubmissions.purpose, 'deploy:lock-dev-%'),
            ),
          ),
          eq(ledgerSubmissions.status, 'success'),
        ),
      );
    const out = new Map<string, { sequence: number; hash: string }>();
    for (const r of rows) {
      const step = r.intentKey.startsWith('deploy:')
        ? r.intentKey.split(':')[2]!
        : r.purpose.slice('deploy:'.length);
      out.set(step, { sequence: r.sequence, hash: r.hash });
    }
    return out;
  }

  /** GET /api/dashboard/vesting: each locked allocation of the user's deploys, status from the ledger. */
  async schedule(userId: number): Promise<VestingScheduleView> {
    const { client } = this.ledger();
    const { closeTime } = await validatedClose(client);
    const out: VestingScheduleView['tokens'] = [];
    const deployed = await this.deps.tokens.deployedBy(userId);
    const auto = await this.autoSettings(deployed.map((t) => t.id));
    for (const token of deployed) {
      const payload = await deployPayloadOf(this.deps.db, token);
      if (!payload?.vesting?.tranches.length) continue;
      const setting = auto.get(token.id);
      out.push({
        tokenId: token.id,
        ticker: token.ticker,
        issuer: token.issuerAddress,
        currency: token.currency,
        walletAddress: payload.userAddress,
        ledgerTime: rippleTime.toIso(closeTime),
        tranches: await this.tranches(client, token, payload, closeTime),
        autoRelease: setting?.enabled ?? false,
        autoReleaseError: setting?.enabled && setting.lastError ? setting.lastError : null,
        unclaimed:
          payload.selfFunded && !(await this.claimed(token.deployJobId!))
            ? { jobId: token.deployJobId!, text: SELF_CUSTODY_MESSAGES.allocationUnlocked }
            : null,
      });
    }
    return { tokens: out };
  }

  /** One deploy's tranches with their status on the ledger at `closeTime` (the validated close). */
  private async tranches(
    client: Client,
    token: TokenRow,
    payload: DeployPayload,
    closeTime: number,
  ): Promise<VestingTrancheView[]> {
    const created = await this.created(token.deployJobId!);
    const escrows = (await readEscrows(client, payload.userAddress)).filter(
      (e) => e.owner === payload.userAddress && e.issuer === token.issuerAddress,
    );
    return (payload.vesting?.tranches ?? []).map((t) => {
      const made = created.get(`lock-dev-${t.index}`);
      // Each tranche has its own FinishAfter and amount: that pair finds its escrow.
      const live = escrows.find(
        (e: LedgerEscrow) => e.finishAfter === t.unlockAt && new Decimal(e.amount).eq(t.amount),
      );
      // rippled's after(): finishable once a ledger closed after FinishAfter is the parent.
      const status = live ? (closeTime > t.unlockAt ? 'due' : 'locked') : made ? 'released' : 'missing';
      return {
        index: t.index,
        amount: t.amount,
        unlockAt: rippleTime.toIso(t.unlockAt),
        status,
        escrowSequence: made?.sequence ?? null,
        createHash: made?.hash ?? null,
      };
    });
  }

  private async autoSettings(tokenIds: number[]): Promise<Map<number, AutoReleaseRow>> {
    if (tokenIds.length === 0) return new Map();
    const rows = await this.deps.db
      .select()
      .from(vestingAutoRelease)
      .where(inArray(vestingAutoRelease.tokenId, tokenIds));
    return new Map(rows.map((r) => [r.tokenId, r]));
  }

  /** The token's deploy (payload with a schedule) and the paying wallet, if both are the user's; else 404. */
  private async ownSchedule(
    userId: number,
    tokenId: number,
    message: string,
  ): Promise<{
    token: TokenRow;
    payload: DeployPayload;
    wallet: { id: number; address: string; kind: string };
  }> {
    const token = await this.deps.tokens.byId(tokenId);
    const payload =
      token && token.deployerUserId === userId ? await deployPayloadOf(this.deps.db, token) : null;
    if (!token || !payload) throw notFound(message);
    // The paying wallet must still be the user's (404 as for any wallet that is not).
    const wallet = await this.deps.wallets.owned(userId, payload.walletId).catch(() => {
      throw notFound(message);
    });
    return { token, payload, wallet };
  }

  /**
   * PUT /api/dashboard/vesting/auto-release: 'Release automatically when due' on or off for one of
   * the user's schedules. On: the keeper looks at the token once the earliest tranche's unlock has
   * passed (it corrects `next_due_at` from the ledger on its first round).
   */
  async setAutoRelease(userId: number, b: VestingAutoReleaseRequest): Promise<VestingAutoReleaseResult> {
    const { token, payload } = await this.ownSchedule(
      userId,
      b.tokenId,
      VESTING_AUTO_RELEASE_MESSAGES.notFound,
    );
    const tranches = payload.vesting?.tranches ?? [];
    if (tranches.length === 0) throw notFound(VESTING_AUTO_RELEASE_MESSAGES.notFound);
    const nextDueAt = Math.min(...tranches.map((t) => t.unlockAt));
    const values = {
      enabled: b.enabled,
      nextDueAt,
      retryAfter: null,
      lastError: null,
      updatedAt: new Date(),
    };
    await this.deps.db
      .insert(vestingAutoRelease)
      .values({ tokenId: token.id, userId, ...values })
      .onConflictDoUpdate({ target: vestingAutoRelease.tokenId, set: { userId, ...values } });
    if (b.enabled) this.onOptIn?.();
    return { tokenId: token.id, enabled: b.enabled };
  }

  /** The platform's service wallet: the sender of a self-custody owner's EscrowFinish. */
  private async platformSender(): Promise<string> {
    const row = await platformWallet(this.deps.db, PLATFORM_ROLES.service);
    if (!row) throw serviceDisabled(VESTING_RELEASE_MESSAGES.noSender);
    return row.address;
  }

  /** Set by the keeper: an opt-in is looked at at once rather than at the next close. */
  onOptIn: (() => void) | undefined;

  /**
   * One keeper round for one opted-in token (`keeper.ts`): every due tranche released through the
   * dashboard's own `release` (same checks, same intent key per escrow, so a click, a retry or
   * another instance's round meets the one transaction). Returns the released tranches and when to
   * look again (the earliest unlock still locked; null when none is left), or the first failure.
   */
  async autoRelease(
    userId: number,
    tokenId: number,
  ): Promise<{ released: VestingReleaseResult[]; nextDueAt: number | null; error: string | null }> {
    const { client } = this.ledger();
    const { token, payload } = await this.ownSchedule(userId, tokenId, VESTING_RELEASE_MESSAGES.notFound);
    const { closeTime } = await validatedClose(client);
    const tranches = await this.tranches(client, token, payload, closeTime);
    const released: VestingReleaseResult[] = [];
    let error: string | null = null;
    for (const t of tranches) {
      if (t.status !== 'due' || t.escrowSequence === null) continue;
      try {
        released.push(await this.release(userId, { tokenId, escrowSequence: t.escrowSequence }));
      } catch (err) {
        error ??= err instanceof AppError ? err.message : VESTING_AUTO_RELEASE_MESSAGES.unexpected;
        if (!(err instanceof AppError)) throw err;
      }
    }
    const unlockAt = new Map(payload.vesting!.tranches.map((t) => [t.index, t.unlockAt]));
    const left = tranches
      .filter((t) => t.status === 'locked' || (t.status === 'due' && error !== null))
      .map((t) => unlockAt.get(t.index)!);
    return { released, nextDueAt: left.length ? Math.min(...left) : null, error };
  }

  /**
   * POST /api/dashboard/vesting/release: EscrowFinish of one due tranche by its owner's wallet. Only
   * the token's deployer, signing with the wallet that owns the escrow; one intent per escrow, so a
   * repeated click or a retry finds the same transaction instead of signing another.
   */
  async release(userId: number, b: VestingReleaseRequest): Promise<VestingReleaseResult> {
    const { client, submissions } = this.ledger();
    const { token, wallet } = await this.ownSchedule(userId, b.tokenId, VESTING_RELEASE_MESSAGES.notFound);
    const owner = wallet.address;
    const intentKey = `vesting-release:${owner}:${b.escrowSequence}`;
    const done = await submissions.existing(intentKey);
    if (done?.status === 'success')
      return { status: 'released', hash: done.hash, amount: releasedAmount(done) };

    const entry = await client
      .request({
        command: 'ledger_entry',
        escrow: { owner, seq: b.escrowSequence },
        ledger_index: 'validated',
      })
      .then((r) => r.result.node as unknown as { Amount: unknown; FinishAfter?: number })
      .catch(() => null);
    const amount = entry?.Amount as { currency: string; issuer: string; value: string } | undefined;
    if (!entry || typeof amount !== 'object' || amount.issuer !== token.issuerAddress)
      throw notFound(VESTING_RELEASE_MESSAGES.notFound);
    const { closeTime } = await validatedClose(client);
    if (entry.FinishAfter !== undefined && !(closeTime > entry.FinishAfter))
      throw badRequest(VESTING_RELEASE_MESSAGES.notDue(rippleTime.toIso(entry.FinishAfter)));

    // rippled lets any account finish an escrow with no Condition once FinishAfter has passed
    // (EscrowFinish: Owner + OfferSequence; the tokens go to the escrow's Destination, the owner's
    // own wallet). A self-custody owner's key is not here: the platform's service wallet sends it
    // and pays its network fee — it moves nothing of its own and nothing anywhere but to the owner.
    const byPlatform = !serverSigns(wallet.kind as WalletKind);
    const sender = byPlatform ? await this.platformSender() : owner;
    const req = {
      intentKey,
      account: sender,
      tx: { TransactionType: 'EscrowFinish', Owner: owner, OfferSequence: b.escrowSequence },
      purpose: 'vesting-release',
      userId,
      walletId: byPlatform ? null : wallet.id,
    };
    let row;
    if (this.deps.funds) {
      const funds = this.deps.funds;
      await funds.requireXrp(sender, { transactions: 1 });
      row = await funds.withAccount(sender, () => submissions.prepare(req));
    } else {
      row = await submissions.prepare(req);
    }
    const outcome = await submissions.follow(req, row);
    if (outcome.status !== 'success')
      throw badRequest(
        VESTING_RELEASE_MESSAGES.failed(`${ledgerResultMessage(outcome.result)} (${outcome.result})`),
      );
    return { status: 'released', hash: outcome.hash, amount: new Decimal(amount.value).toFixed() };
  }
}

/** The amount an earlier finish released, from its metadata's deleted Escrow. */
function releasedAmount(outcome: { meta?: unknown }): string {
  const nodes =
    (outcome.meta as { AffectedNodes?: Array<Record<string, unknown>> } | undefined)?.AffectedNodes ?? [];
  for (const n of nodes) {
    const d = n.DeletedNode as
      { LedgerEntryType?: string; FinalFields?: { Amount?: { value?: string } } } | undefined;
    if (d?.LedgerEntryType === 'Escrow' && d.FinalFields?.Amount?.value)
      return new Decimal(d.FinalFields.Amount.value).toFixed();
  }
  return '0';
}
