import { and, eq, inArray, sql } from 'drizzle-orm';
import { AccountSetAsfFlags, ValidationError, type Client } from 'xrpl';
import {
  BLACKHOLE_ADDRESSES,
  RLUSD_CURRENCY_HEX,
  marginalPrice,
  soldFromHeld,
  Decimal,
  microsToUnits,
  unitsToMicros,
  type LedgerAmount,
} from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { ledgerSubmissions } from '../../ledger/schema';
import type { SubmissionOutcome, SubmissionService, TxRequest } from '../../ledger/submission-service';
import { PLATFORM_ROLES } from '../../platform/accounts';
import { platformWallet } from '../../platform/custody';
import { ledgerCursor } from '../../platform/indexer/schema';
import { JobFailure, jobs as jobsTable, type JobContext, type JobRunner } from '../../platform/jobs';
import { applyShare, type PlatformSettings } from '../../platform/settings';
import type { TokenRegistry } from '../tokens';
import { bondingCurves } from './schema';
import {
  FEE_SWEEP_JOB,
  GRADUATION_JOB,
  isWindowCurve,
  paramsOf,
  type BondingRegistry,
  type CurveRow,
} from './service';

// The two jobs of a curve: paying the fees its prices collected to the platform fee wallet (and
// the creator's share into the token's rewards), and graduation — ladder down, AMM pool up at the
// curve's final price with everything the curve raised, the leftover tokens burned, the creator's
// deposit back, and the curve account (holding the LP tokens) blackholed so they stay locked forever.
// Both are persisted jobs: every ledger write has an intent key, so kill -9 at any point resumes
// without signing anything twice.

const ASF_DISABLE_MASTER = AccountSetAsfFlags.asfDisableMaster;
/** rippled's ACCOUNT_ONE: no key signs for it. */
const BLACKHOLE = BLACKHOLE_ADDRESSES[1];
/** Network fees kept back for the curve account's last transactions (refund, burn, lock). */
const LAST_FEES_DROPS = 1_000n;
const POLL_MS = 250;

export interface BondingJobDeps {
  db: Db;
  client: Client;
  submissions: SubmissionService;
  settings: PlatformSettings;
  tokens: TokenRegistry;
  registry: BondingRegistry;
}

type Quote = LedgerAmount;

const quoteAmount = (c: CurveRow, micros: bigint): Quote =>
  c.quote === 'XRP'
    ? micros.toString()
    : {
        currency: RLUSD_CURRENCY_HEX,
        issuer: c.quoteIssuer!,
        value: microsToUnits(micros).toFixed(),
      };

async function submitStep(
  submissions: SubmissionService,
  req: { intentKey: string; account: string; tx: TxRequest; walletId: number },
  label: string,
): Promise<SubmissionOutcome> {
  const outcome = await submissions
    .submit({ ...req, purpose: `bonding:${label}`, userId: null })
    .catch((err: unknown) => {
      if (err instanceof ValidationError) throw new JobFailure(null, `${label}: the ledger would refuse it`);
      throw err;
    });
  if (outcome.status !== 'success') throw new JobFailure(null, `${label} failed: ${outcome.result}`);
  return outcome;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

async function until(ctx: JobContext, check: () => Promise<boolean>, what: string, ms = 120_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (ctx.signal.aborted) throw new Error('job lease lost');
    if (Date.now() > end) throw new Error(`still waiting: ${what}`);
    await sleep(POLL_MS, ctx.signal);
  }
}

/** The creator's share of swept fees, into the token's rewards (its own pair only, as trading does). */
async function accrueCreatorShare(deps: BondingJobDeps, c: CurveRow, micros: bigint): Promise<void> {
  const token = await deps.tokens.byId(c.tokenId);
  if (!token?.deployerUserId) return;
  const share = (await deps.settings.all()).creator_reward_share;
  const reward = microsToUnits(applyShare(micros.toString(), share).floor());
  if (reward.gt(0)) await deps.tokens.accrueReward(c.tokenId, reward.toFixed(), c.quote);
}

async function feeWallet(db: Db): Promise<string> {
  const w = await platformWallet(db, PLATFORM_ROLES.fee);
  if (!w) throw new Error('The platform fee wallet is not set up yet');
  return w.address;
}

export function registerBondingJobs(jobs: JobRunner, deps: BondingJobDeps): void {
  const { db, submissions } = deps;

  jobs.register<{ curveId: number; amount: string; n: number }, { hash: string }>(
    FEE_SWEEP_JOB,
    async (ctx) => {
      const c = await deps.registry.byId(ctx.payload.curveId);
      if (!c) throw new JobFailure(null, 'Curve not found');
      const amount = BigInt(ctx.payload.amount);
      const to = await feeWallet(db);
      const paid = await ctx.step(
        'pay',
        async () => {
          const outcome = await submissions.submit({
            intentKey: ctx.intentKey('pay'),
            account: c.curveAddress,
            tx: { TransactionType: 'Payment', Destination: to, Amount: quoteAmount(c, amount) },
            purpose: 'bonding:fees',
            userId: null,
            walletId: c.curveWalletId,
          });
          return { hash: outcome.hash, ok: outcome.status === 'success', result: outcome.result };
        },
        { txHash: (v) => v.hash },
      );
      if (!paid.ok) {
        // Not paid: the fees are owed again (the next sweep or the graduation takes them).
        await ctx.step('unsweep', async () => {
          await db
            .update(bondingCurves)
            .set({
              feesSwept: sql`(${bondingCurves.feesSwept} - ${amount.toString()}::numeric)`,
            })
            .where(eq(bondingCurves.id, c.id));
          return true;
        });
        throw new JobFailure(null, `Fee sweep failed: ${paid.result}`);
      }
      await ctx.step('reward', async () => {
        await accrueCreatorShare(deps, c, amount);
        return true;
      });
      return { hash: paid.hash };
    },
    { maxAttempts: 10, failureMessage: 'The curve fees could not be paid.' },
  );

  jobs.register<{ curveId: number }, { ammAccount: string | null }>(
    GRADUATION_JOB,
    (ctx) => graduate(ctx, deps),
    { maxAttempts: 20, failureMessage: 'The curve could not graduate.', completedLog: 'info' },
  );
}

async function accountLines(client: Client, account: string, ledger: 'validated' | 'current') {
  const r = await client.request({ command: 'account_lines', account, ledger_index: ledger });
  return r.result.lines;
}

async function graduate(
  ctx: JobContext<{ curveId: number }>,
  deps: BondingJobDeps,
): Promise<{ ammAccount: string | null }> {
  const { db, client, submissions } = deps;
  const load = async () => {
    const c = await deps.registry.byId(ctx.payload.curveId);
    if (!c) throw new JobFailure(null, 'Curve not found');
    return c;
  };
  const c0 = await load();
  const account = c0.curveAddress;
  const sign = { account, walletId: c0.curveWalletId };

  // No keeper round may be posting while the ladder comes down (its lease, then its transactions).
  await ctx.step('wait-for-ladder', async () => {
    await until(
      ctx,
      async () => {
        const c = await load();
        const leased = c.keeperOwner !== null && c.keeperUntil !== null && c.keeperUntil > new Date();
        if (leased) return false;
        const open = await db
          .select({ id: ledgerSubmissions.id })
          .from(ledgerSubmissions)
          .where(
            and(
              eq(ledgerSubmissions.account, account),
              eq(ledgerSubmissions.purpose, 'bonding:ladder'),
              inArray(ledgerSubmissions.status, ['pending', 'submitted']),
            ),
          )
          .limit(1);
        return open.length === 0;
      },
      'the keeper to finish its round',
    );
    return true;
  });

  const cleared = await ctx.step('clear-ladder', async () => {
    let cancelled = 0;
    for (let pass = 0; pass < 10; pass++) {
      const r = await client.request({
        command: 'account_offers',
        account,
        ledger_index: 'current',
        limit: 400,
      });
      const offers = r.result.offers ?? [];
      if (offers.length === 0) {
        const v = await client.request({
          command: 'account_offers',
          account,
          ledger_index: 'validated',
          limit: 400,
        });
        if ((v.result.offers ?? []).length === 0) return { cancelled, ledger: v.result.ledger_index ?? 0 };
      }
      const reqs = offers.map((o) => ({
        intentKey: ctx.intentKey('clear-ladder', `cancel-${o.seq}`),
        account,
        tx: { TransactionType: 'OfferCancel' as const, OfferSequence: o.seq },
        purpose: 'bonding:graduate',
        userId: null,
        walletId: c0.curveWalletId,
      }));
      const rows = await Promise.all(reqs.map((req) => submissions.prepare(req)));
      // A cancel that met a moved sequence (tefPAST_SEQ) is signed again (`follow`): its intent key
      // is fixed per offer, so without that the next pass would find only the failed record.
      await Promise.all(rows.map((row, i) => submissions.follow(reqs[i]!, row)));
      cancelled += rows.length;
    }
    throw new Error('the ladder is still on the ledger');
  });

  // Every crossing before the ladder came down is indexed (its fee counted), and every fee sweep
  // already enqueued has settled: the account's balances now say what the curve raised.
  const plan = await ctx.step('settle', async () => {
    await until(
      ctx,
      async () => {
        const [cursor] = await db.select().from(ledgerCursor).limit(1);
        return (cursor?.lastLedger ?? 0) >= cleared.ledger;
      },
      'the ledger follower',
    );
    await until(
      ctx,
      async () => {
        const open = await db
          .select({ id: jobsTable.id })
          .from(jobsTable)
          .where(
            and(
              eq(jobsTable.type, FEE_SWEEP_JOB),
              inArray(jobsTable.status, ['queued', 'running']),
              sql`(${jobsTable.payload}->>'curveId')::bigint = ${c0.id}`,
            ),
          )
          .limit(1);
        return open.length === 0;
      },
      'fee sweeps',
    );
    const c = await load();
    const info = await client.request({ command: 'account_info', account, ledger_index: 'validated' });
    const lines = await accountLines(client, account, 'validated');
    const held =
      lines.find((l) => l.currency === c.currency && l.account === c.issuerAddress)?.balance ?? '0';
    const rlusd = lines.find(
      (l) => l.currency === RLUSD_CURRENCY_HEX && l.account === c.quoteIssuer,
    )?.balance;
    const xrp = BigInt(info.result.account_data.Balance);
    const reserves = submissions.reserves;
    const ownerAfter = BigInt(info.result.account_data.OwnerCount) + 1n; // + the LP-token line
    const keep = reserves.reserveBase + reserves.reserveIncrement * ownerAfter;
    const ammCreateFee = reserves.reserveIncrement;
    const feesOwed = BigInt(c.feesAccrued) - BigInt(c.feesSwept);
    // What the curve raised: every quote unit traders paid in less what it paid out, less the fees.
    // A window launch's curve account also holds the pool's own XRP A (`realQuote`): it goes in too.
    const raised = BigInt(c.realQuote) + BigInt(c.quoteIn) - BigInt(c.quoteOut) - BigInt(c.feesAccrued);
    let poolQuote: bigint;
    let refund: bigint;
    if (c.quote === 'XRP') {
      const room = xrp - feesOwed - keep - ammCreateFee - LAST_FEES_DROPS;
      poolQuote = raised < room ? raised : room;
      refund = room - poolQuote;
    } else {
      const heldRlusd = unitsToMicros(rlusd ?? '0');
      poolQuote = heldRlusd - feesOwed;
      refund = xrp - keep - ammCreateFee - LAST_FEES_DROPS;
    }
    if (poolQuote <= 0n) throw new JobFailure(null, 'The curve raised nothing to put in a pool');
    const shape = paramsOf(c);
    const sold = soldFromHeld(held, shape);
    // The AMM opens at the curve's final (marginal) price: tokens = quote ÷ price, never more than held.
    // A window launch's pool takes every token the account holds: its curve is the pool's own
    // constant product (A + raised over B − sold), so that is the same price — above it by what the
    // surcharge added, which deepens the pool for every holder — and nothing is burned.
    const price = marginalPrice(shape, sold);
    let tokens = isWindowCurve(c)
      ? new Decimal(held)
      : new Decimal(poolQuote.toString()).div(price).toSignificantDigits(15, Decimal.ROUND_DOWN);
    if (tokens.gt(held)) tokens = new Decimal(held);
    const burn = new Decimal(held).minus(tokens);
    return {
      sold: sold.toFixed(),
      held,
      poolQuote: poolQuote.toString(),
      poolTokens: tokens.toFixed(),
      burn: burn.gt(0) ? burn.toFixed() : '0',
      refund: (refund > 0n ? refund : 0n).toString(),
      feesOwed: (feesOwed > 0n ? feesOwed : 0n).toString(),
    };
  });

  const c = await load();
  await ctx.step('fees', async () => {
    const owed = BigInt(plan.feesOwed);
    if (owed === 0n) return { hash: null as string | null };
    const outcome = await submitStep(
      submissions,
      {
        ...sign,
        intentKey: ctx.intentKey('fees'),
        tx: { TransactionType: 'Payment', Destination: await feeWallet(db), Amount: quoteAmount(c, owed) },
      },
      'Curve fees',
    );
    await db
      .update(bondingCurves)
      .set({ feesSwept: sql`(${bondingCurves.feesSwept} + ${owed.toString()}::numeric)` })
      .where(eq(bondingCurves.id, c.id));
    await accrueCreatorShare(deps, c, owed);
    return { hash: outcome.hash as string | null };
  });

  const token = { currency: c.currency, issuer: c.issuerAddress };
  const amm = await ctx.step(
    'create-amm',
    async () => {
      const outcome = await submitStep(
        submissions,
        {
          ...sign,
          intentKey: ctx.intentKey('create-amm'),
          tx: {
            TransactionType: 'AMMCreate',
            Amount: quoteAmount(c, BigInt(plan.poolQuote)),
            Amount2: { ...token, value: plan.poolTokens },
            TradingFee: c.ammTradingFee,
          },
        },
        'Create the AMM pool',
      );
      const info = await client
        .request({
          command: 'amm_info',
          asset:
            c.quote === 'XRP'
              ? { currency: 'XRP' }
              : { currency: RLUSD_CURRENCY_HEX, issuer: c.quoteIssuer! },
          asset2: token,
          ledger_index: 'validated',
        })
        .then((r) => (r.result as { amm?: { account?: string } }).amm?.account ?? null)
        .catch(() => null);
      return { hash: outcome.hash, ledger: outcome.ledgerIndex, account: info };
    },
    { txHash: (v) => v.hash },
  );

  await ctx.parallel([
    [
      'burn-leftover',
      async () => {
        if (!new Decimal(plan.burn).gt(0)) return { hash: null as string | null };
        const o = await submitStep(
          submissions,
          {
            ...sign,
            intentKey: ctx.intentKey('burn-leftover'),
            tx: {
              TransactionType: 'Payment',
              Destination: c.issuerAddress,
              Amount: { ...token, value: plan.burn },
            },
          },
          'Burn the leftover tokens',
        );
        return { hash: o.hash as string | null };
      },
    ],
    [
      'refund-deposit',
      async () => {
        if (BigInt(plan.refund) <= 0n) return { hash: null as string | null, result: 'none' };
        // A refund the ledger refuses (the creator's account gone) stays in the locked account.
        const o = await submissions.submit({
          ...sign,
          intentKey: ctx.intentKey('refund-deposit'),
          tx: { TransactionType: 'Payment', Destination: c.creatorAddress, Amount: plan.refund },
          purpose: 'bonding:refund',
          userId: c.creatorUserId,
        });
        return { hash: o.hash as string | null, result: o.result };
      },
    ],
  ]);
  await ctx.step('lock-regular-key', async () => {
    const o = await submitStep(
      submissions,
      {
        ...sign,
        intentKey: ctx.intentKey('lock-regular-key'),
        tx: { TransactionType: 'SetRegularKey', RegularKey: BLACKHOLE },
      },
      'Lock the LP tokens (regular key)',
    );
    return { hash: o.hash };
  });
  await ctx.step('lock-disable-master', async () => {
    const o = await submitStep(
      submissions,
      {
        ...sign,
        intentKey: ctx.intentKey('lock-disable-master'),
        tx: { TransactionType: 'AccountSet', SetFlag: ASF_DISABLE_MASTER },
      },
      'Lock the LP tokens (master key)',
    );
    return { hash: o.hash };
  });
  await ctx.step('record', async () => {
    await db
      .update(bondingCurves)
      .set({
        status: 'graduated',
        ammAccount: amm.account,
        poolQuote: plan.poolQuote,
        poolTokens: plan.poolTokens,
        graduatedLedger: amm.ledger,
        updatedAt: new Date(),
      })
      .where(eq(bondingCurves.id, c.id));
    await deps.tokens.update(c.tokenId, { bondingActive: false, graduatedAt: new Date() });
    deps.registry.changed();
    return true;
  });
  return { ammAccount: amm.account };
}
