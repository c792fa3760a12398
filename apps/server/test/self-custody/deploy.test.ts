import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import {
  deployCost,
  SELF_CUSTODY_MESSAGES,
  xrpToDrops,
  type DeployResult,
  type JobStatusView,
} from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { platformWallet, STAGED_ROLES } from '../../src/platform/custody';
import { wallets as walletsTable } from '../../src/platform/custody-schema';
import { signingIntents } from '../../src/platform/intents/schema';
import { jobs } from '../../src/platform/jobs';
import type { SignedIn } from '../helpers/test-app';
import { testLogo } from '../helpers/test-logo';
import { ammLaunchBody, seed, type TradingWorld } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { addSelfCustody, call as callApp, intentOf, signIntent } from './helpers';

// A deploy funded from a browser wallet (docs/self-custody.md "Deploy"): the wallet signs one
// intent — the issuer's and the hot wallet's funding — and the platform's deploy job, with the
// fresh accounts it holds for every deploy, does the rest on the real ledger.

let t: WalletTestApp;
let world: TradingWorld;
let creator: SignedIn;
const browser = Wallet.generate();
let walletId: number;

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on', FAUCET_XRP: '1000' });
  await t.app.platform.accounts.bootstrapped();
  world = seed(t);
  creator = await t.signIn('creator');
  walletId = (await addSelfCustody(t.app, creator, browser)).id;
  expect((await callApp(t.app, creator, 'POST', `/api/wallets/${walletId}/fund`)).statusCode).toBe(200);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const call = (...args: Parameters<typeof callApp> extends [unknown, ...infer R] ? R : never) =>
  callApp(t.app, ...args);

async function stepsOf(intentId: string) {
  const [row] = await t.database.db.select().from(signingIntents).where(eq(signingIntents.id, intentId));
  return t.database.db
    .select()
    .from(ledgerSubmissions)
    .where(like(ledgerSubmissions.intentKey, `${row!.intentKey}:step-%`));
}

describe('a deploy funded from a browser wallet', () => {
  it('is one intent (the two fundings); signed, the job launches the token and the hot wallet pays the fee', async () => {
    const body = ammLaunchBody(
      walletId,
      { name: 'Self Launch', ticker: 'SLF' },
      await testLogo(t.database.db),
    );
    const headers = { 'idempotency-key': 'deploy-self-0001' };
    const intent = intentOf(await call(creator, 'POST', '/api/deploy-token', body, headers));
    // The amounts, from the deploy's own cost formula.
    const { reserveBase, reserveIncrement, baseFee } = t.app.platform.submissions!.reserves;
    const fees = await t.app.platform.settings.fees(reserveIncrement, reserveBase);
    const cost = deployCost(body as never, fees, creator.user.id);
    const serviceFee = xrpToDrops(cost.serviceFee);
    const issuerFund = xrpToDrops(cost.issuerReserve);
    // The hot wallet: its reserve, the pool's 100 XRP, and the service fee with that payment's fee.
    const hotFund = xrpToDrops(cost.hotWalletReserve) + xrpToDrops('100') + serviceFee + baseFee;
    expect(serviceFee).toBeGreaterThan(0n);
    expect(intent.txs).toHaveLength(2);
    // The fresh accounts, staged (custodial, the platform's) under the job id the job will have.
    const [issuerRow] = await t.database.db
      .select()
      .from(walletsTable)
      .where(eq(walletsTable.address, intent.txs[0]!.Destination as string));
    expect(issuerRow).toMatchObject({ role: STAGED_ROLES.issuer, kind: 'custodial' });
    const jobId = issuerRow!.jobId!;
    const hotRow = (
      await t.database.db.select().from(walletsTable).where(eq(walletsTable.jobId, jobId))
    ).find((w) => w.role === STAGED_ROLES.hot)!;
    expect(intent.txs[0]).toMatchObject({
      TransactionType: 'Payment',
      Account: browser.classicAddress,
      Amount: issuerFund.toString(),
    });
    expect(intent.txs[1]).toMatchObject({
      TransactionType: 'Payment',
      Destination: hotRow.address,
      Amount: hotFund.toString(),
    });
    // No job until the wallet's payments applied; a retry answers the same intent.
    expect(await t.app.platform.jobs.get(jobId)).toBeUndefined();
    expect(intentOf(await call(creator, 'POST', '/api/deploy-token', body, headers)).id).toBe(intent.id);

    // Changed on the way (re-signed with the right key): refused by name, nothing sent.
    for (const [change, field] of [
      [(tx: Record<string, unknown>, i: number) => (i === 1 ? { ...tx, Amount: '1000000' } : tx), 'Amount'],
      [
        (tx: Record<string, unknown>, i: number) =>
          i === 0 ? { ...tx, Destination: Wallet.generate().classicAddress } : tx,
        'Destination',
      ],
      [(tx: Record<string, unknown>, i: number) => (i === 0 ? { ...tx, Fee: '5000' } : tx), 'Fee'],
    ] as const) {
      const refused = await call(creator, 'POST', `/api/intents/${intent.id}/submit`, {
        blobs: signIntent(browser, intent, change),
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(SELF_CUSTODY_MESSAGES.mismatch(field));
    }
    expect(await stepsOf(intent.id)).toHaveLength(0);

    const feeWallet = (await platformWallet(t.database.db, PLATFORM_ROLES.fee))!.address;
    const xrpBefore = await world.xrp(browser.classicAddress);
    const feeBefore = await world.xrp(feeWallet);
    const ok = await call(creator, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ jobId });
    const job = await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 90_000 });
    expect(job.status, job.error ?? '').toBe('completed');
    const result = (job as unknown as JobStatusView<DeployResult>).result!;
    expect(result).toMatchObject({
      success: true,
      issuer_address: intent.txs[0]!.Destination,
      hot_wallet_address: hotRow.address,
    });
    expect(result.amm_account).toBeTruthy();
    // The wallet paid exactly its two payments and their two network fees; the fee wallet got the
    // service fee, from the hot wallet.
    expect(await world.xrp(browser.classicAddress)).toBe(xrpBefore - issuerFund - hotFund - 2n * baseFee);
    expect(await world.xrp(feeWallet)).toBe(feeBefore + serviceFee);
    const [fee] = await t.database.db
      .select()
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.intentKey, `deploy:${jobId}:service-fee`));
    expect(fee).toMatchObject({ account: hotRow.address, status: 'success' });
    // The pool holds the whole supply less nothing (no dev allocation) and the 100 XRP.
    const amm = await t.connection.client.request({
      command: 'amm_info',
      asset: { currency: 'XRP' },
      asset2: { currency: result.currency, issuer: result.issuer_address },
      ledger_index: 'validated',
    });
    expect(amm.result.amm.amount).toBe(xrpToDrops('100').toString());
    expect(amm.result.amm.amount2).toMatchObject({ value: '1000000' });
    // Posted again: the same answer, one job.
    const twice = await call(creator, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(twice.json()).toEqual({ jobId });
    // A crash after the finisher enqueued the job but before the intent was marked done: the start
    // sweep runs the finisher again, which finds the job by its key (one deploy, one job).
    await t.database.db
      .update(signingIntents)
      .set({ status: 'submitted', result: null })
      .where(eq(signingIntents.id, intent.id));
    expect(await t.app.platform.intents!.resume()).toBe(1);
    const [resumed] = await t.database.db
      .select()
      .from(signingIntents)
      .where(eq(signingIntents.id, intent.id));
    expect(resumed).toMatchObject({ status: 'done', result: { jobId } });
    const deployJobs = await t.database.db.select().from(jobs).where(eq(jobs.type, 'deploy'));
    expect(deployJobs.map((j) => j.id)).toEqual([jobId]);
  });

  it('refuses what would need more signatures of the wallet (a dev allocation) with the sentence, before anything', async () => {
    const before = (await t.database.db.select().from(signingIntents)).length;
    const res = await call(creator, 'POST', '/api/deploy-token', {
      ...ammLaunchBody(walletId, { name: 'Dev Launch', ticker: 'DEVL' }, await testLogo(t.database.db)),
      devAllocation: '10',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(SELF_CUSTODY_MESSAGES.deployLimits);
    expect(await t.database.db.select().from(signingIntents)).toHaveLength(before);
  });
});
