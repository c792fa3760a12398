import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import {
  ADMIN_MESSAGES,
  RLUSD_CURRENCY_HEX,
  isLpCurrency,
  refundRequestSchema,
  type RefundResult,
  type StagedWalletBalance,
  type StagedWalletView,
} from '@ledgerpad/shared';
import Decimal from 'decimal.js';
import type { Client } from 'xrpl';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { SubmissionOutcome, SubmissionService } from '../../ledger/submission-service';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { parseInput } from '../../lib/validation';
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
    try {
      const r = await this.deps.client!.request({
        command: 'account_info',
        account: address,
        ledger_index: 'validated',
      });
      return r.result.account_data;
    } catch {
      return undefined;
    }
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
          (l) => l.currency !== RLUSD_CURRENCY_HEX && !isLpCurrency(l.currency) && Number(l.balance) > 0,
        );
        const r = lines.find((l) => l.currency === RLUSD_CURRENCY_HEX && l.account === rlusd);
        out[w.id] = {
          currency: token?.currency ?? null,
          xrp: acct ? new Decimal(acct.Balance).div(1_000_000).toFixed() : '0',
          token: token?.balance ?? '0',
          rlusd: r?.balance ?? '0',
        };
      }),
    );
    return out;
  }

  /**
   * POST /api/admin/refund: XRP (all but what the ledger requires: the base reserve, the owner
   * reserves and the fee), the token or RLUSD, from a staged wallet whose deploy is not at work.
   */
  async refund(adminId: number, body: unknown, idempotencyKey: string | undefined): Promise<RefundResult> {
    const b = parseInput(refundRequestSchema, body);
    const { client, submissions } = this.deps;
    if (!client || !submissions)
      throw new AppError('LEDGER_UNAVAILABLE', 'The XRP Ledger is not reachable right now.');
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
    if (earlier) return this.finish(adminId, w.address, b, earlier, undefined);
    const acct = await this.account(w.address);
    if (!acct) throw badRequest('This wallet has no account on the ledger (nothing to refund).');
    let amount: string | { currency: string; issuer: string; value: string };
    let shown: string;
    if (b.type === 'xrp') {
      const { baseFee, reserveIncrement } = submissions.reserves;
      const info = await client.request({ command: 'server_info' });
      const base = BigInt(
        Math.round(Number(info.result.info.validated_ledger?.reserve_base_xrp ?? 1) * 1_000_000),
      );
      const spendable =
        BigInt(acct.Balance) - base - reserveIncrement * BigInt(acct.OwnerCount) - baseFee * 2n;
      if (spendable <= 0n) throw badRequest('Nothing to refund: the XRP left is what the ledger requires.');
      amount = spendable.toString();
      shown = new Decimal(spendable.toString()).div(1_000_000).toFixed();
    } else {
      const lines = await this.lines(w.address);
      const rlusd = await rlusdIssuer(this.deps.db, this.deps.network);
      const line =
        b.type === 'rlusd'
          ? lines.find((l) => l.currency === RLUSD_CURRENCY_HEX && l.account === rlusd)
          : lines.find(
              (l) => l.currency !== RLUSD_CURRENCY_HEX && !isLpCurrency(l.currency) && Number(l.balance) > 0,
            );
      if (!line || !(Number(line.balance) > 0))
        throw badRequest(`Nothing to refund: the wallet holds no ${b.type === 'rlusd' ? 'RLUSD' : 'token'}.`);
      amount = { currency: line.currency, issuer: line.account, value: line.balance };
      shown = line.balance;
    }
    const outcome = await submissions.submit({
      intentKey,
      account: w.address,
      tx: { TransactionType: 'Payment', Destination: b.destination_address, Amount: amount },
      purpose: 'admin-refund',
      userId: w.userId,
      walletId: w.id,
    });
    return this.finish(
      adminId,
      w.address,
      b,
      outcome,
      b.type === 'xrp' ? new Decimal(acct.Balance).div(1_000_000).toFixed() : shown,
    );
  }

  /** The answer, and the audit entry once per transaction (a retry finds it written). */
  private async finish(
    adminId: number,
    address: string,
    b: { type: RefundResult['type']; destination_address: string },
    outcome: SubmissionOutcome,
    before: string | undefined,
  ): Promise<RefundResult> {
    if (outcome.status !== 'success')
      throw badRequest(`${ADMIN_MESSAGES.refundFailed}: ${outcome.result}`, { hash: outcome.hash });
    const sent = outcome.deliveredAmount;
    const shown =
      typeof sent === 'string' ? new Decimal(sent).div(1_000_000).toFixed() : sent ? String(sent.value) : '0';
    const [seen] = await this.deps.db
      .select({ id: adminAudit.id })
      .from(adminAudit)
      .where(eq(adminAudit.txHash, outcome.hash));
    if (!seen) {
      await this.deps.db.insert(adminAudit).values({
        adminUserId: adminId,
        action: 'refund',
        target: `${address} (${b.type})`,
        before: { value: before ?? null },
        after: { value: shown, to: b.destination_address },
        txHash: outcome.hash,
      });
    }
    return { status: 'success', amount: shown, type: b.type, hash: outcome.hash, to: b.destination_address };
  }
}
