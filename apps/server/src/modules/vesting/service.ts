import { and, eq, like } from 'drizzle-orm';
import type { Client } from 'xrpl';
import {
  Decimal,
  devLockText,
  ledgerResultMessage,
  rippleTime,
  VESTING_RELEASE_MESSAGES,
  type DevLockView,
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
import { badRequest, ledgerUnavailable, notFound } from '../../lib/errors';
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

// The dev allocation locked on the ledger (issue 28, docs/vesting.md): the dashboard's schedule and
// its 'Release' (EscrowFinish through the submission service), and the risk panel's lock line. The
// ledger's escrow objects are the truth; the deploy job's payload only says what was planned.

const pct = (part: Decimal, whole: Decimal) =>
  whole.gt(0) ? part.div(whole).mul(100).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed() : '0';
const day = (ripple: number) => rippleTime.toIso(ripple).slice(0, 10);

/** The deploy's payload of a token Ledgerpad deployed (wallet, schedule); null otherwise. */
/**
 * The part of the deploy job's payload (modules/deploy/job.ts `DeployPayload`) vesting reads: a
 * row of the jobs table, read as JSON. Named here rather than imported so vesting does not depend
 * on deploy (deploy → bonding → market → vesting would close a cycle).
 */
interface DeployPayload {
  walletId: number;
  userAddress: string;
  vesting?: { settings: VestingSettings; start: number; tranches: VestingTranche[] } | null;
}

async function deployPayloadOf(db: Db, token: TokenRow): Promise<DeployPayload | null> {
  if (token.source !== 'deploy' || !token.deployJobId) return null;
  const [row] = await db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.id, token.deployJobId));
  return (row?.payload as DeployPayload | undefined) ?? null;
}

/**
 * The risk panel's dev lock: the deployer's escrows of the token (found in the issuer's directory, so
 * ones the deployer made outside Ledgerpad count too), as a share of the supply, until the last
 * FinishAfter; 'unlocked' once a schedule's escrows are all gone.
 */
export async function devLockOf(client: Client, db: Db, token: TokenRow): Promise<DevLockView | null> {
  const payload = await deployPayloadOf(db, token);
  if (!payload) return null;
  const all = await tokenEscrows(client, token.issuerAddress, token.currency);
  const mine = all
    .filter((e) => e.owner === payload.userAddress)
    .sort((a, b) => (a.finishAfter ?? 0) - (b.finishAfter ?? 0));
  const supply = new Decimal(token.supply);
  const locked = mine.reduce((s, e) => s.plus(e.amount), new Decimal(0));
  const anyLocked = all.reduce((s, e) => s.plus(e.amount), new Decimal(0));
  const last = mine.reduce<number | null>(
    (m, e) => Math.max(m ?? 0, e.finishAfter ?? e.cancelAfter ?? 0),
    null,
  );
  const dev = new Decimal(token.devAllocation).toFixed();
  const status = mine.length > 0 ? 'locked' : payload.vesting?.tranches.length ? 'unlocked' : 'not-locked';
  const lockedPercent = pct(locked, supply);
  return {
    status,
    devSharePercent: dev,
    lockedPercent,
    lockedAmount: locked.toFixed(),
    until: last === null ? null : rippleTime.toIso(last),
    text: devLockText(dev, lockedPercent, last === null ? null : day(last), status === 'unlocked'),
    escrows: mine.map(toEscrowView),
    allLockedPercent: pct(anyLocked, supply),
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

  /** The created escrows of a deploy's schedule: step name → the EscrowCreate's sequence and hash. */
  private async created(jobId: string): Promise<Map<string, { sequence: number; hash: string }>> {
    const rows = await this.deps.db
      .select()
      .from(ledgerSubmissions)
      .where(
        and(
          like(ledgerSubmissions.intentKey, `deploy:${jobId}:lock-dev-%`),
          eq(ledgerSubmissions.status, 'success'),
        ),
      );
    const out = new Map<string, { sequence: number; hash: string }>();
    for (const r of rows) {
      const step = r.intentKey.split(':')[2]!;
      out.set(step, { sequence: r.sequence, hash: r.hash });
    }
    return out;
  }

  /** GET /api/dashboard/vesting: each locked allocation of the user's deploys, status from the ledger. */
  async schedule(userId: number): Promise<VestingScheduleView> {
    const { client } = this.ledger();
    const { closeTime } = await validatedClose(client);
    const out: VestingScheduleView['tokens'] = [];
    for (const token of await this.deps.tokens.deployedBy(userId)) {
      const payload = await deployPayloadOf(this.deps.db, token);
      if (!payload?.vesting?.tranches.length) continue;
      const created = await this.created(token.deployJobId!);
      const escrows = (await readEscrows(client, payload.userAddress)).filter(
        (e) => e.owner === payload.userAddress && e.issuer === token.issuerAddress,
      );
      const tranches: VestingTrancheView[] = payload.vesting.tranches.map((t) => {
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
      out.push({
        tokenId: token.id,
        ticker: token.ticker,
        issuer: token.issuerAddress,
        currency: token.currency,
        walletAddress: payload.userAddress,
        ledgerTime: rippleTime.toIso(closeTime),
        tranches,
      });
    }
    return { tokens: out };
  }

  /**
   * POST /api/dashboard/vesting/release: EscrowFinish of one due tranche by its owner's wallet. Only
   * the token's deployer, signing with the wallet that owns the escrow; one intent per escrow, so a
   * repeated click or a retry finds the same transaction instead of signing another.
   */
  async release(userId: number, b: VestingReleaseRequest): Promise<VestingReleaseResult> {
    const { client, submissions } = this.ledger();
    const token = await this.deps.tokens.byId(b.tokenId);
    const payload =
      token && token.deployerUserId === userId ? await deployPayloadOf(this.deps.db, token) : null;
    if (!token || !payload) throw notFound(VESTING_RELEASE_MESSAGES.notFound);
    // The paying wallet must still be the user's (404 as for any wallet that is not).
    const wallet = await this.deps.wallets.owned(userId, payload.walletId).catch(() => {
      throw notFound(VESTING_RELEASE_MESSAGES.notFound);
    });
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

    const req = {
      intentKey,
      account: owner,
      tx: { TransactionType: 'EscrowFinish', Owner: owner, OfferSequence: b.escrowSequence },
      purpose: 'vesting-release',
      userId,
      walletId: wallet.id,
    };
    let row;
    if (this.deps.funds) {
      const funds = this.deps.funds;
      await funds.requireXrp(owner, { transactions: 1 });
      row = await funds.withAccount(owner, () => submissions.prepare(req));
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
