import {
  BLACKHOLE_ADDRESSES,
  Decimal,
  RLUSD_CURRENCY_HEX,
  decimalToDrops,
  dropsToXrp,
  type DecimalValue,
  DEFAULT_RESERVE_BASE_DROPS,
  type LedgerAmount,
} from '@ledgerpad/shared';
import { and, eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { RippledError, type Client } from 'xrpl';
import type { Db } from '../../db/client';
import { LSF } from '../../ledger/account-root';
import type { Funds } from '../../ledger/funds';
import type { SubmissionOutcome, SubmissionService } from '../../ledger/submission-service';
import { AppError, serviceDisabled } from '../../lib/errors';
import { withinKeyLife } from '../../lib/idempotency';
import { PLATFORM_ROLES } from '../../platform/accounts';
import { platformWallet } from '../../platform/custody';
import type { JobRunner } from '../../platform/jobs';

// Payments the platform fee wallet makes to people: creator rewards (one wallet, or every recipient of
// a split) and referral earnings. One way to check a destination can receive, one way to check the
// fee wallet can pay, one way to pay — each payment with its own intent key, so however often a job
// runs, each is signed at most once (the submission service records it before it is sent).

/** A claims table whose rows record the claiming request's Idempotency-Key. */
export type RequestKeyedClaims = PgTable & {
  id: AnyPgColumn;
  userId: AnyPgColumn;
  requestKey: AnyPgColumn;
  createdAt: AnyPgColumn;
};

/**
 * The claim (and its payment job, `<jobType>:<claim id>`) that the request with this Idempotency-Key
 * reserved, within the key's life; `scope` narrows it (the token, the currency). A retried claim
 * answers from it (docs/money.md "Done once"): checked again, the amount its first attempt reserved
 * would read as "Nothing to claim.", or a second claim would be made.
 */
export async function claimOfRequest(
  deps: { db: Db; jobs: JobRunner },
  claims: RequestKeyedClaims,
  jobType: string,
  request: { userId: number; requestKey: string | undefined; scope: SQL },
): Promise<{ claimId: number; jobId: string } | undefined> {
  if (!request.requestKey) return undefined;
  const [claim] = await deps.db
    .select({ id: claims.id })
    .from(claims)
    .where(
      and(
        eq(claims.userId, request.userId),
        eq(claims.requestKey, request.requestKey),
        withinKeyLife(claims.createdAt),
        request.scope,
      ),
    );
  if (!claim) return undefined;
  const claimId = Number(claim.id);
  const job = await deps.jobs.byKey(`${jobType}:${claimId}`);
  return job ? { claimId, jobId: job.id } : undefined;
}

export interface FeeWalletPaymentDeps {
  db: Db;
  client?: Client;
  submissions?: SubmissionService;
  funds?: Funds;
  rlusdIssuer: () => Promise<string | undefined>;
}

/** What a reward is paid in. */
export type RewardCurrency = 'XRP' | 'RLUSD';

/** Why an address cannot receive a payment, as a reason and a sentence; none when it can. */
export interface ReceiveCheck {
  /** The account exists on the validated ledger. */
  activated: boolean;
  problem: null | {
    reason:
      'blackhole' | 'fee-wallet' | 'below-reserve' | 'no-rlusd-line' | 'amm' | 'dest-tag' | 'deposit-auth';
    /** Ends the sentence '<address> cannot receive this reward: …'. */
    sentence: string;
  };
}

export class FeeWalletPayments {
  constructor(private readonly deps: FeeWalletPaymentDeps) {}

  get canPay(): boolean {
    return this.deps.submissions !== undefined;
  }

  async feeWallet(): Promise<string | undefined> {
    return (await platformWallet(this.deps.db, PLATFORM_ROLES.fee))?.address;
  }

  /**
   * Whether `address` can receive a payment from the fee wallet in `currency`, from the validated
   * ledger: the payment would not be thrown away (a black-hole address, the fee wallet itself), an
   * RLUSD payment finds a trust line, and an XRP payment to an account that does not exist yet
   * reaches the base reserve that creates it (`amount`, when known). With `accountFlags`, also what
   * the account's own settings make fail (a destination tag required, DepositAuth, an AMM pool's
   * account) — checked when a split is saved; at claim time a change since shows as a failed payout
   * whose share goes back (docs/rewards.md).
   */
  async receiveCheck(
    address: string,
    currency: RewardCurrency,
    opts: { amount?: DecimalValue; accountFlags?: boolean } = {},
  ): Promise<ReceiveCheck> {
    const refuse = (
      activated: boolean,
      reason: NonNullable<ReceiveCheck['problem']>['reason'],
      sentence: string,
    ) => ({
      activated,
      problem: { reason, sentence },
    });
    if ((BLACKHOLE_ADDRESSES as readonly string[]).includes(address))
      return refuse(true, 'blackhole', 'it is a black-hole address: whatever is paid to it is lost forever.');
    if (address === (await this.feeWallet()))
      return refuse(true, 'fee-wallet', "it is the platform's fee wallet, which pays rewards.");
    const client = this.deps.client;
    if (!client) return { activated: false, problem: null };
    let data: { Flags?: number; AMMID?: string } | undefined;
    try {
      const r = await client.request({
        command: 'account_info',
        account: address,
        ledger_index: 'validated',
      });
      data = r.result.account_data as { Flags?: number; AMMID?: string };
    } catch (err) {
      const name =
        err instanceof RippledError ? (err.data as { error?: string } | undefined)?.error : undefined;
      if (name !== 'actNotFound') throw err;
    }
    if (!data) {
      if (currency === 'RLUSD')
        return refuse(
          false,
          'no-rlusd-line',
          'it is not activated on the XRP Ledger, so it has no RLUSD trust line.',
        );
      const base = BigInt(this.deps.submissions?.reserves.reserveBase ?? DEFAULT_RESERVE_BASE_DROPS);
      if (opts.amount !== undefined && decimalToDrops(opts.amount) < base)
        return refuse(
          false,
          'below-reserve',
          `it is not activated on the XRP Ledger yet, and ${new Decimal(opts.amount).toFixed()} XRP is less than the ${dropsToXrp(base)} XRP that activates it.`,
        );
      return { activated: false, problem: null };
    }
    const flags = Number(data.Flags ?? 0) >>> 0;
    if (opts.accountFlags) {
      if (data.AMMID !== undefined) return refuse(true, 'amm', "it is an AMM pool's account.");
      if ((flags & LSF.requireDestTag) !== 0)
        return refuse(
          true,
          'dest-tag',
          'it requires a destination tag, which a reward payment does not carry.',
        );
      if ((flags & LSF.depositAuth) !== 0)
        return refuse(
          true,
          'deposit-auth',
          'it accepts payments only from accounts it authorized (DepositAuth).',
        );
    }
    if (currency === 'RLUSD') {
      const issuer = await this.deps.rlusdIssuer();
      const lines = issuer
        ? await client.request({
            command: 'account_lines',
            account: address,
            peer: issuer,
            ledger_index: 'validated',
          })
        : undefined;
      if (!lines?.result.lines.some((l) => l.currency === RLUSD_CURRENCY_HEX))
        return refuse(true, 'no-rlusd-line', 'it has no RLUSD trust line.');
    }
    return { activated: true, problem: null };
  }

  /**
   * Before anything is reserved: the fee wallet holds `total` of `currency` and the network fees of
   * `payments` transactions, beyond what it keeps in reserve (503 'The platform cannot pay…' if not).
   */
  async requireFeeWalletCanPay(
    currency: RewardCurrency,
    total: DecimalValue,
    payments: number,
    message: string,
  ) {
    const funds = this.deps.funds;
    const feeWallet = await this.feeWallet();
    if (!funds || !feeWallet) return;
    try {
      if (currency === 'RLUSD') {
        const issuer = await this.deps.rlusdIssuer();
        if (issuer)
          await funds.requireToken(feeWallet, { currency: RLUSD_CURRENCY_HEX, issuer }, total, 'RLUSD');
      }
      await funds.requireXrp(feeWallet, {
        amount: currency === 'RLUSD' ? 0n : decimalToDrops(total),
        transactions: payments,
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'BAD_REQUEST') throw serviceDisabled(message);
      throw err;
    }
  }

  /**
   * Pays `amount` of `currency` from the fee wallet to `to`, as the intent `intentKey`: a repeated
   * call (a retried or resumed job) finds the recorded transaction and waits for it instead of
   * signing another. Resolves with the final outcome; throws only when the ledger is unreachable.
   */
  async pay(req: {
    intentKey: string;
    to: string;
    amount: string;
    currency: string;
    purpose: string;
    userId: number;
  }): Promise<SubmissionOutcome> {
    const submissions = this.deps.submissions;
    if (!submissions) throw new Error('No ledger connection');
    const feeWallet = await this.feeWallet();
    if (!feeWallet) throw new Error('The platform fee wallet is not set up yet');
    let amount: LedgerAmount;
    if (req.currency === 'RLUSD') {
      const issuer = await this.deps.rlusdIssuer();
      if (!issuer) throw new Error('RLUSD issuer unknown');
      amount = { currency: RLUSD_CURRENCY_HEX, issuer, value: new Decimal(req.amount).toFixed() };
    } else {
      amount = decimalToDrops(req.amount).toString();
    }
    return submissions.submit({
      intentKey: req.intentKey,
      account: feeWallet,
      tx: { TransactionType: 'Payment', Destination: req.to, Amount: amount },
      purpose: req.purpose,
      userId: req.userId,
    });
  }

  /** Whether anything was ever signed for an intent (a job about to give up releases only if not). */
  async signed(intentKey: string): Promise<boolean> {
    return (await this.deps.submissions?.existing(intentKey)) !== undefined;
  }
}
