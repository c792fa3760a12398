import { and, count, eq } from 'drizzle-orm';
import { Wallet, ValidationError } from 'xrpl';
import { AIRDROP_MESSAGES, sameCurrency, Decimal } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import type { Keyring } from '../../keys/envelope';
import type { SubmissionOutcome, SubmissionService, TxRequest } from '../../ledger/submission-service';
import { sealWallet } from '../../platform/custody';
import { wallets as walletsTable } from '../../platform/custody-schema';
import { JobFailure, type JobContext, type JobRunner } from '../../platform/jobs';
import type { WalletsApi } from '../wallets';
import { airdropClaims, airdrops } from './schema';
import { AIRDROP_CREATE_JOB, AIRDROP_WALLET_ROLE, type CreateJobPayload } from './record';
import { AIRDROP_CLOSE_JOB } from './service';

// The airdrop jobs (creation, close), persisted so each survives kill -9 and runs once across
// instances. Every ledger write has an intent key made from the job, so however often a job runs,
// each transaction is signed at most once. Claims are paid by the payer (payer.ts).

export interface AirdropJobDeps {
  db: Db;
  keyring: Keyring;
  jobs: JobRunner;
  submissions: SubmissionService;
  wallets: WalletsApi;
}

const token = (currency: string, issuer: string, value: string) => ({
  currency,
  issuer,
  value: new Decimal(value).toFixed(),
});

/** Submits one step's transaction; a ledger refusal or a final failure is final for the job. */
async function submitStep(
  submissions: SubmissionService,
  step: string,
  req: { intentKey: string; account: string; tx: TxRequest; userId: number | null; walletId?: number | null },
  message: string,
): Promise<SubmissionOutcome> {
  const outcome = await submissions.submit({ ...req, purpose: `airdrop:${step}` }).catch((err: unknown) => {
    if (err instanceof ValidationError) throw new JobFailure(step, message);
    throw err;
  });
  if (outcome.status !== 'success') throw new JobFailure(step, `${message} (${step}: ${outcome.result})`);
  return outcome;
}

export function registerAirdropJobs(deps: AirdropJobDeps): void {
  const { db, submissions } = deps;

  // Creation: a new custodial wallet, funded by the source wallet (base reserve + one line + a fee
  // allowance), the airdrop fee to the platform fee wallet, the airdrop wallet's trust line, then
  // the whole allocation from the source wallet. The airdrop turns 'active' when the tokens are in.
  deps.jobs.register<CreateJobPayload, { airdropId: number; airdropAddress: string }>(
    AIRDROP_CREATE_JOB,
    async (ctx) => {
      const p = ctx.payload;
      try {
        return await runCreate(ctx, deps);
      } catch (err) {
        if (err instanceof JobFailure) {
          await db
            .update(airdrops)
            .set({ status: 'failed' })
            .where(and(eq(airdrops.id, p.airdropId), eq(airdrops.status, 'pending')));
        }
        throw err;
      }
    },
    { failureMessage: AIRDROP_MESSAGES.createFailed, completedLog: 'info' },
  );

  // The end of an airdrop: no more claims (status), then, once every reserved claim is settled,
  // whatever the airdrop wallet still holds of the token goes back to the creator's source wallet.
  deps.jobs.register<
    { airdropId: number; status: 'expired' | 'closed' },
    { returned: string; hash: string | null }
  >(
    AIRDROP_CLOSE_JOB,
    async (ctx) => {
      const { airdropId, status } = ctx.payload;
      await ctx.step('end', async () => {
        await db
          .update(airdrops)
          .set({ status, closedAt: new Date() })
          .where(and(eq(airdrops.id, airdropId), eq(airdrops.status, 'active')));
        return true;
      });
      const [airdrop] = await db.select().from(airdrops).where(eq(airdrops.id, airdropId));
      if (!airdrop?.airdropAddress) throw new JobFailure(null, 'Airdrop wallet missing');
      const [pending] = await db
        .select({ n: count() })
        .from(airdropClaims)
        .where(and(eq(airdropClaims.airdropId, airdropId), eq(airdropClaims.status, 'pending')));
      // Reserved claims are paid from the same wallet: the leftover is known once they settle.
      if ((pending?.n ?? 0) > 0) throw new Error('claims still being paid');
      const returned = await ctx.step('return', async () => {
        const intentKey = ctx.intentKey('return');
        const earlier = await submissions.existing(intentKey);
        let outcome = earlier;
        let amount = '0';
        if (!outcome) {
          const line = (await deps.wallets.lines(airdrop.airdropAddress!, airdrop.issuerAddress)).find((l) =>
            sameCurrency(l.currency, airdrop.currency),
          );
          amount = new Decimal(line?.balance ?? '0').toFixed();
          if (!new Decimal(amount).gt(0)) return { returned: '0', hash: null as string | null };
          outcome = await submitStep(
            submissions,
            'return',
            {
              intentKey,
              account: airdrop.airdropAddress!,
              tx: {
                TransactionType: 'Payment',
                Destination: airdrop.sourceAddress,
                Amount: token(airdrop.currency, airdrop.issuerAddress, amount),
              },
              userId: airdrop.creatorUserId,
            },
            'The airdrop leftover could not be returned',
          );
        } else if (outcome.status !== 'success') {
          throw new JobFailure('return', `The airdrop leftover could not be returned (${outcome.result})`);
        } else {
          const delivered = outcome.deliveredAmount;
          amount = typeof delivered === 'object' && 'value' in delivered ? delivered.value : '0';
        }
        return { returned: amount, hash: outcome.hash as string | null };
      });
      await ctx.step('record', async () => {
        await db
          .update(airdrops)
          .set({ returnedAmount: returned.returned, remaining: '0' })
          .where(eq(airdrops.id, airdropId));
        return true;
      });
      return returned;
    },
    { maxAttempts: 30, failureMessage: 'The airdrop could not be closed.', completedLog: 'info' },
  );
}

async function runCreate(
  ctx: JobContext<CreateJobPayload>,
  deps: AirdropJobDeps,
): Promise<{ airdropId: number; airdropAddress: string }> {
  const { db, submissions } = deps;
  const p = ctx.payload;
  const fail = AIRDROP_MESSAGES.createFailed;
  const w = await ctx.step('create-wallet', async () => {
    // A self-custody source funded the wallet made for its intent (recorded with the airdrop).
    if (p.selfCustody) {
      const [made] = await db
        .select()
        .from(walletsTable)
        .where(eq(walletsTable.id, p.selfCustody.airdropWalletId));
      if (!made) throw new Error(`Airdrop wallet of job ${ctx.jobId} is missing`);
      return { id: made.id, address: made.address };
    }
    // One wallet per job and role (unique index): a step run again after a crash finds it.
    const wallet = Wallet.generate();
    await db
      .insert(walletsTable)
      .values({
        userId: p.userId,
        role: AIRDROP_WALLET_ROLE,
        name: `Airdrop ${p.airdropId}`,
        jobId: ctx.jobId,
        address: wallet.classicAddress,
        ...sealWallet(deps.keyring, wallet),
      })
      .onConflictDoNothing();
    const [row] = await db
      .select()
      .from(walletsTable)
      .where(and(eq(walletsTable.jobId, ctx.jobId), eq(walletsTable.role, AIRDROP_WALLET_ROLE)));
    if (!row) throw new Error(`Airdrop wallet of job ${ctx.jobId} is missing`);
    await db
      .update(airdrops)
      .set({ airdropWalletId: row.id, airdropAddress: row.address })
      .where(eq(airdrops.id, p.airdropId));
    return { id: row.id, address: row.address };
  });
  const fromSource = (step: string, tx: TxRequest) =>
    ctx.step(
      step,
      async () =>
        (
          await submitStep(
            submissions,
            step,
            {
              intentKey: ctx.intentKey(step),
              account: p.sourceAddress,
              tx,
              userId: p.userId,
              walletId: p.sourceWalletId,
            },
            fail,
          )
        ).hash,
      { txHash: (h) => h },
    );
  // A self-custody source's funding and fee were its signed intent's (self-custody-create.ts).
  if (!p.selfCustody)
    await fromSource('fund', { TransactionType: 'Payment', Destination: w.address, Amount: p.fundDrops });
  if (!p.selfCustody && p.feeAddress && BigInt(p.feeDrops) > 0n) {
    await fromSource('fee', { TransactionType: 'Payment', Destination: p.feeAddress, Amount: p.feeDrops });
  }
  await ctx.step(
    'trust',
    async () =>
      (
        await submitStep(
          submissions,
          'trust',
          {
            intentKey: ctx.intentKey('trust'),
            account: w.address,
            tx: { TransactionType: 'TrustSet', LimitAmount: token(p.currency, p.issuer, p.total) },
            userId: p.userId,
          },
          fail,
        )
      ).hash,
    { txHash: (h) => h },
  );
  if (p.selfCustody) {
    // The source's Check, cashed by the airdrop wallet for exactly the allocation: tecPATH_PARTIAL
    // (the source spent the tokens since) fails the creation as an unpaid deposit would.
    const checkId = p.selfCustody.checkId;
    await ctx.step(
      'deposit',
      async () =>
        (
          await submitStep(
            submissions,
            'deposit',
            {
              intentKey: ctx.intentKey('deposit'),
              account: w.address,
              tx: {
                TransactionType: 'CheckCash',
                CheckID: checkId,
                Amount: token(p.currency, p.issuer, p.total),
              },
              userId: p.userId,
            },
            fail,
          )
        ).hash,
      { txHash: (h) => h },
    );
  } else {
    await fromSource('deposit', {
      TransactionType: 'Payment',
      Destination: w.address,
      Amount: token(p.currency, p.issuer, p.total),
    });
  }
  await ctx.step('activate', async () => {
    await db
      .update(airdrops)
      .set({ status: 'active' })
      .where(and(eq(airdrops.id, p.airdropId), eq(airdrops.status, 'pending')));
    return true;
  });
  return { airdropId: p.airdropId, airdropAddress: w.address };
}
