import type { z } from 'zod';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { refundRequestSchema } from '@ledgerpad/shared';
import {
  ADMIN_MESSAGES,
  RLUSD_CURRENCY_HEX,
  isLpCurrency,
  type RefundMethod,
  type RefundResult,
  type StagedWalletBalance,
  type StagedWalletView,
  Decimal,
  dropsToXrp,
  ledgerResultMessage,
  missingAccountMessage,
} from '@ledgerpad/shared';
import type { AccountInfoResponse, Client } from 'xrpl';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { LSF } from '../../ledger/account-root';
import { accountMissing, ledgerFailure } from '../../ledger/errors';
import type { SubmissionOutcome, SubmissionService } from '../../ledger/submission-service';
import { badRequest, ledgerUnavailable, notFound } from '../../lib/errors';
import { rlusdIssuer } from '../../platform/accounts';
import { STAGED_ROLES } from '../../platform/custody';
import { wallets } from '../../platform/custody-schema';
import { jobs } from '../../platform/jobs/schema';
import { adminAudit } from './schema';

// Staged deploy wallets (the issuer and hot wallet a deploy job creates before any XRP moves) and
// the admin's refund of what a failed or abandoned deploy left in them. Every refund goes through
// the submission service under the caller's Idempotency-Key (a retried request is the same intent)
// and is written to the audit trail with its transaction.

const STAGED = [STAGED_ROLES.issuer, STAGED_ROLES.hot];
/** Deploy jobs still at work: their wallets are not the admin's to empty. */
const LIVE_JOB = ['queued', 'running'];
/**
 * rippled's DeleteAccount::preclaim refuses with tecTOO_SOON while `Sequence + 255 > ledger`: an
 * account can go only once its sequence is 256 ledgers behind (so old transactions of a deleted and
 * re-funded account can never replay).
 */
const DELETE_SEQUENCE_GAP = 255;

type AccountData = AccountInfoResponse['result']['account_data'];

interface AffectedRoot {
  LedgerEntryType?: string;
  FinalFields?: { Account?: string; Balance?: string };
  PreviousFields?: { Balance?: string };
}

/** The account's XRP balance just before the transaction, from its metadata (fee included). */
function xrpBefore(outcome: SubmissionOutcome, address: string): string | null {
  for (const node of (outcome.meta?.AffectedNodes ?? []) as unknown as Array<Record<string, AffectedRoot>>) {
    const n = node.ModifiedNode ?? node.DeletedNode;
    if (n?.LedgerEntryType !== 'AccountRoot' || n.FinalFields?.Account !== address) continue;
    const drops = n.PreviousFields?.Balance ?? n.FinalFields.Balance;
    return drops === undefined ? null : dropsToXrp(drops);
  }
  return null;
}

/** Ledgerpad signs staged wallets with their master key: disabled, it can never sign for them again. */
const canSign = (acct: Pick<AccountData, 'Flags'>): boolean =>
  (Number(acct.Flags ?? 0) & LSF.disableMaster) === 0;

/** What an XRP refund will send, and how. */
export interface XrpRefundPlan {
  method: RefundMethod;
  /** Drops the destination receives. */
  drops: bigint;
  /** Why AccountDelete was not used (for the log and the tests), when it was not. */
  reason?: string;
}

/**
 * The XRP refund of one account: AccountDelete when the ledger would accept it and it returns more
 * than a Payment (its fee is one owner reserve, and it also returns the base reserve and the owner
 * reserves), else a Payment of all but the reserves and two network fees.
 */
export function planXrpRefund(input: {
  account: Pick<AccountData, 'Balance' | 'OwnerCount' | 'Sequence'>;
  /** The validated ledger's index: the transaction applies in a later one, so this errs on the safe side. */
  validatedIndex: number;
  /** Objects in its owner directory that block deletion (account_objects deletion_blockers_only). */
  blockers: number;
  /** The destination's AccountRoot flags, or undefined when it has no account (AccountDelete cannot create one). */
  destinationFlags: number | undefined;
  reserves: { baseFee: bigint; reserveBase: bigint; reserveIncrement: bigint };
}): XrpRefundPlan {
  const { account, reserves } = input;
  const balance = BigInt(account.Balance);
  const payment =
    balance -
    reserves.reserveBase -
    reserves.reserveIncrement * BigInt(account.OwnerCount) -
    2n * reserves.baseFee;
  const viaDelete = balance - reserves.reserveIncrement;
  const reason =
    account.Sequence + DELETE_SEQUENCE_GAP > input.validatedIndex
      ? `its sequence ${account.Sequence} is less than 256 ledgers old`
      : input.blockers > 0
        ? 'it owns objects that block deletion (trust lines, escrows, checks, …)'
        : input.destinationFlags === undefined
          ? 'the destination has no account (AccountDelete cannot create one)'
          : (input.destinationFlags & (LSF.requireDestTag | LSF.depositAuth)) !== 0
            ? 'the destination requires a destination tag or deposit authorization'
            : viaDelete <= payment
              ? 'a payment returns more'
              : undefined;
  if (reason === undefined) return { method: 'account-delete', drops: viaDelete };
  return { method: 'payment', drops: payment, reason };
}

export interface RefundDeps {
  db: Db;
  client: Client | undefined;
  submissions: SubmissionService | undefined;
  network: Config['XRPL_NETWORK'];
}

export class StagedWalletRefunds {
  constructor(private readonly deps: RefundDeps) {}

  /** Orphaned staged wallets (their deploy failed or never finished), or all of them with `all`. */
  async list(all: boolean): Promise<StagedWalletView[]> {
    const rows = await this.deps.db
      .select({
        id: wallets.id,
        userId: wallets.userId,
        role: wallets.role,
        address: wallets.address,
        createdAt: wallets.createdAt,
        jobStatus: jobs.status,
      })
      .from(wallets)
      .leftJoin(jobs, eq(jobs.id, wallets.jobId))
      .where(and(inArray(wallets.role, STAGED), isNotNull(wallets.jobId)))
      .orderBy(asc(wallets.id));
    return rows
      .filter((r) => all || (r.jobStatus !== 'completed' && !LIVE_JOB.includes(r.jobStatus ?? '')))
      .map((r) => ({
        id: r.id,
        user_id: r.userId,
        type: r.role === STAGED_ROLES.issuer ? 'issuer' : 'hot',
        wallet_address: r.address,
        job_status: r.jobStatus ?? 'unknown',
        created_at: r.createdAt.toISOString(),
      }));
  }

  private async lines(address: string) {
    try {
      const r = await this.deps.client!.request({
        command: 'account_lines',
        account: address,
        ledger_index: 'validated',
      });
      return r.result.lines;
    } catch {
      return [];
    }
  }

  private async account(address: string) {
    return (await this.accountInfo(address))?.account_data;
  }

  private async accountInfo(address: string) {
    try {
      const r = await this.deps.client!.request({
        command: 'account_info',
        account: address,
        ledger_index: 'validated',
      });
      return r.result;
    } catch {
      return undefined;
    }
  }

  /** How many objects in the account's owner directory block an AccountDelete. */
  private async deletionBlockers(address: string): Promise<number> {
    const r = await this.deps.client!.request({
      command: 'account_objects',
      account: address,
      ledger_index: 'validated',
      deletion_blockers_only: true,
      limit: 10,
    });
    return r.result.account_objects.length;
  }

  /** Balances read from the ledger, keyed by wallet id. */
  async balances(): Promise<Record<number, StagedWalletBalance>> {
    const listed = await this.list(true);
    const rlusd = await rlusdIssuer(this.deps.db, this.deps.network);
    const out: Record<number, StagedWalletBalance> = {};
    await Promise.all(
      listed.map(async (w) => {
        const acct = await this.account(w.wallet_address);
        const lines = acct ? await this.lines(w.wallet_address) : [];
        const token = lines.find(
          (l) =>
            l.currency !== RLUSD_CURRENCY_HEX && !isLpCurrency(l.currency) && new Decimal(l.balance).gt(0),
        );
        const r = lines.find((l) => l.currency === RLUSD_CURRENCY_HEX && l.account === rlusd);
        const signs = !acct || canSign(acct);
        out[w.id] = {
          currency: token?.currency ?? null,
          xrp: acct ? dropsToXrp(acct.Balance) : '0',
          token: token?.balance ?? '0',
          rlusd: r?.balance ?? '0',
          active: acct !== undefined,
          can_sign: signs,
          ...(signs ? {} : { reason: ADMIN_MESSAGES.cannotSign }),
        };
      }),
    );
    return out;
  }

  /**
   * POST /api/admin/refund: XRP (all but what the ledger requires: the base reserve, the owner
   * reserves and the fee), the token or RLUSD, from a staged wallet whose deploy is not at work.
   */
  async refund(
    adminId: number,
    b: z.output<typeof refundRequestSchema>,
    idempotencyKey: string | undefined,
  ): Promise<RefundResult> {
    const { client, submissions } = this.deps;
    if (!client || !submissions) throw ledgerUnavailable();
    const [w] = await this.deps.db
      .select({
        id: wallets.id,
        address: wallets.address,
        role: wallets.role,
        userId: wallets.userId,
        jobStatus: jobs.status,
      })
      .from(wallets)
      .leftJoin(jobs, eq(jobs.id, wallets.jobId))
      .where(and(eq(wallets.id, b.wallet_id), inArray(wallets.role, STAGED), isNotNull(wallets.jobId)));
    if (!w) throw notFound('Staged wallet not found.');
    if (LIVE_JOB.includes(w.jobStatus ?? ''))
      throw badRequest('Its deploy is still running: refund it once the deploy has ended.');
    if (b.destination_address === w.address) throw badRequest('The destination is the wallet itself.');
    const intentKey = `admin-refund:${w.id}:${b.type}:${idempotencyKey ?? randomUUID()}`;
    // A retried request (same Idempotency-Key) answers with the transaction it already made.
    const earlier = idempotencyKey ? await submissions.existing(intentKey) : undefined;
    if (earlier) return this.finish(adminId, w.address, b, earlier);
    const info = await this.accountInfo(w.address);
    const acct = info?.account_data;
    if (!info || !acct) throw badRequest('This wallet has no account on the ledger (nothing to refund).');
    // Refused before signing: a transaction from it could only fail (tefMASTER_DISABLED).
    if (!canSign(acct)) throw badRequest(ADMIN_MESSAGES.cannotSign);
    let tx: Record<string, unknown>;
    if (b.type === 'xrp') {
      const dest = await this.account(b.destination_address);
      const plan = planXrpRefund({
        account: acct,
        validatedIndex: info.ledger_index ?? 0,
        blockers: await this.deletionBlockers(w.address),
        destinationFlags: dest?.Flags,
        reserves: submissions.reserves,
      });
      if (plan.drops <= 0n) throw badRequest('Nothing to refund: the XRP left is what the ledger requires.');
      // A destination with no account is created by a payment of at least the base reserve; less
      // could only fail on the ledger (tecNO_DST_INSUF_XRP): said before anything is signed.
      if (!dest && plan.drops < submissions.reserves.reserveBase)
        throw badRequest(
          `${missingAccountMessage('destination', b.destination_address)} A refund of ${dropsToXrp(plan.drops)} XRP is less than the ${dropsToXrp(submissions.reserves.reserveBase)} XRP that would create it.`,
          { field: 'destination_address' },
        );
      tx =
        plan.method === 'account-delete'
          ? { TransactionType: 'AccountDelete', Destination: b.destination_address }
          : { TransactionType: 'Payment', Destination: b.destination_address, Amount: plan.drops.toString() };
    } else {
      const lines = await this.lines(w.address);
      const rlusd = await rlusdIssuer(this.deps.db, this.deps.network);
      const line =
        b.type === 'rlusd'
          ? lines.find((l) => l.currency === RLUSD_CURRENCY_HEX && l.account === rlusd)
          : lines.find(
              (l) =>
                l.currency !== RLUSD_CURRENCY_HEX &&
                !isLpCurrency(l.currency) &&
                new Decimal(l.balance).gt(0),
            );
      if (!line || !new Decimal(line.balance).gt(0))
        throw badRequest(`Nothing to refund: the wallet holds no ${b.type === 'rlusd' ? 'RLUSD' : 'token'}.`);
      // Tokens go only to an account (tecNO_DST otherwise, after paying the fee).
      if (!(await this.account(b.destination_address)))
        throw accountMissing('destination', b.destination_address, 'destination_address');
      tx = {
        TransactionType: 'Payment',
        Destination: b.destination_address,
        Amount: { currency: line.currency, issuer: line.account, value: line.balance },
      };
    }
    const outcome = await submissions.submit({
      intentKey,
      account: w.address,
      tx: tx as never,
      purpose: 'admin-refund',
      userId: w.userId,
      walletId: w.id,
    });
    return this.finish(adminId, w.address, b, outcome);
  }

  /**
   * The answer, and the audit entry once per transaction: a retried request (after a crash, say)
   * finds the entry its first attempt wrote, or writes the one the crash prevented.
   */
  private async finish(
    adminId: number,
    address: string,
    b: { type: RefundResult['type']; destination_address: string },
    outcome: SubmissionOutcome,
  ): Promise<RefundResult> {
    if (outcome.status !== 'success')
      throw ledgerFailure(outcome, `${ADMIN_MESSAGES.refundFailed}: ${ledgerResultMessage(outcome.result)}`);
    const method: RefundMethod = outcome.txType === 'AccountDelete' ? 'account-delete' : 'payment';
    const sent = outcome.deliveredAmount;
    const shown = typeof sent === 'string' ? dropsToXrp(sent) : sent ? String(sent.value) : '0';
    // Read from the transaction itself, so a retry after a crash records the same as the first try:
    // the XRP balance before it, or the token balance (all of it is sent).
    const before = b.type === 'xrp' ? xrpBefore(outcome, address) : shown;
    await this.deps.db.transaction(async (t) => {
      // One entry per transaction even when two retries of one request finish at once.
      await t.execute(sql`select pg_advisory_xact_lock(hashtext(${outcome.hash}))`);
      const [seen] = await t
        .select({ id: adminAudit.id })
        .from(adminAudit)
        .where(eq(adminAudit.txHash, outcome.hash));
      if (seen) return;
      await t.insert(adminAudit).values({
        adminUserId: adminId,
        action: 'refund',
        target: `${address} (${b.type})`,
        before: { value: before },
        after: { value: shown, to: b.destination_address, method },
        txHash: outcome.hash,
      });
    });
    return {
      status: 'success',
      amount: shown,
      type: b.type,
      method,
      hash: outcome.hash,
      to: b.destination_address,
    };
  }
}
