import { eq } from 'drizzle-orm';
import { RLUSD_CURRENCY_HEX } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import type { SubmissionService } from '../../ledger/submission-service';
import { PLATFORM_ROLES } from '../../platform/accounts';
import { platformWallet } from '../../platform/custody';
import type { JobRunner } from '../../platform/jobs';
import type { FeeSettlement } from './fee-paid';
import { ledgerAmount, type Asset } from './plan';
import { tradingTrades } from './schema';
import { TRADING_FEE_JOB } from './trade-records';

// The platform fee of one validated trade: a Payment from the trader's wallet to the fee wallet,
// then the fee recorded as paid, with the creator's and the referrer's shares (fee-paid.ts). A
// persisted job, so it survives a crash and runs once across instances. A failed payment is retried
// with a new intent, but only after every earlier intent is known not to have paid: the fee is never
// charged twice.

const MAX_ATTEMPTS = 5;

export function registerTradingFeeJob(deps: {
  db: Db;
  jobs: JobRunner;
  submissions: SubmissionService;
  settlement: FeeSettlement;
  rlusdIssuer: () => Promise<string | undefined>;
}): void {
  const { db, submissions } = deps;
  deps.jobs.register<{ tradeId: number }, { status?: string; hash?: string }>(
    TRADING_FEE_JOB,
    async (ctx) => {
      const [trade] = await db.select().from(tradingTrades).where(eq(tradingTrades.id, ctx.payload.tradeId));
      if (!trade || trade.feeStatus === 'paid' || trade.feeStatus === 'none')
        return { status: trade?.feeStatus };
      const feeWallet = (await platformWallet(db, PLATFORM_ROLES.fee))?.address;
      if (!feeWallet) throw new Error('The platform fee wallet is not set up yet');
      let quote: Asset = { kind: 'xrp' };
      if (trade.quote === 'RLUSD') {
        const issuer = await deps.rlusdIssuer();
        if (!issuer) throw new Error('RLUSD issuer unknown');
        quote = { kind: 'iou', currency: RLUSD_CURRENCY_HEX, issuer };
      }
      // An earlier attempt that paid (its step lost to a crash) must not be paid again.
      let paid: { hash: string } | undefined;
      for (let k = 1; k < ctx.attempt && !paid; k++) {
        const earlier = await submissions.existing(ctx.intentKey('pay', k));
        if (earlier?.status === 'success') paid = { hash: earlier.hash };
      }
      if (!paid) {
        const outcome = await submissions.submit({
          intentKey: ctx.intentKey('pay', ctx.attempt),
          account: trade.walletAddress,
          tx: { TransactionType: 'Payment', Destination: feeWallet, Amount: ledgerAmount(quote, trade.fee) },
          purpose: 'trading-fee',
          userId: trade.userId,
          walletId: trade.walletId,
        });
        if (outcome.status !== 'success') {
          await db
            .update(tradingTrades)
            .set({ feeStatus: ctx.attempt >= MAX_ATTEMPTS ? 'failed' : 'pending', feeHash: outcome.hash })
            .where(eq(tradingTrades.id, trade.id));
          throw new Error(`trading fee payment ${outcome.result}`);
        }
        paid = { hash: outcome.hash };
      }
      // The fee is recorded as paid and its shares accrued in one transaction, once (fee-paid.ts).
      await ctx.step('record', async () => {
        await deps.settlement.markPaid(trade.id, paid.hash);
        return true;
      });
      return { status: 'paid', hash: paid.hash };
    },
    { maxAttempts: MAX_ATTEMPTS, failureMessage: 'The trading fee could not be paid.' },
  );
}
