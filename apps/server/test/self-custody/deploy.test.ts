import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerEntry, Wallet } from 'xrpl';
import {
  Decimal,
  deployCost,
  RLUSD_CURRENCY_HEX,
  FIRST_BUY_NETWORK_XRP,
  SELF_CUSTODY_MESSAGES,
  xrpToDrops,
  type DecimalValue,
  type DeployResult,
  type DeployClaimView,
  devAllocationResultSchema,
  type JobStatusView,
  type VestingScheduleView,
} from '@ledgerpad/shared';
import { readEscrows } from '../../src/ledger/escrows';
import type { DeployPayload } from '../../src/modules/deploy';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { platformWallet, STAGED_ROLES } from '../../src/platform/custody';
import { wallets as walletsTable } from '../../src/platform/custody-schema';
import { signingIntents } from '../../src/platform/intents/schema';
import { jobs } from '../../src/platform/jobs';
import { tokens as tokensTable } from '../../src/modules/tokens/schema';
import type { SignedIn } from '../helpers/test-app';
import { tokenBalance } from '../helpers/ledger-reads';
import { testLogo } from '../helpers/test-logo';
import { ammLaunchBody, type TradingWorld } from '../helpers/trading-world';
import type { WalletTestApp } from '../wallets/wallet-app';
import { curveLaunchBody } from '../bonding/bonding-world';
import { intentOf, signIntent } from './helpers';
import { selfCustodyWorld, type SelfCustodyWorld } from './world';

// A deploy funded from a browser wallet (docs/self-custody.md "Deploy"): the wallet signs one
// intent — the issuer's and the hot wallet's funding — and the platform's deploy job, with the
// fresh accounts it holds for every deploy, does the rest on the real ledger.

let t: WalletTestApp;
let world: TradingWorld;
let call: SelfCustodyWorld['call'];
let stepsOf: SelfCustodyWorld['stepsOf'];
let creator: SignedIn;
const browser = Wallet.generate();
let walletId: number;
let fundedSelfCustody: SelfCustodyWorld['fundedSelfCustody'];
/** The first test's token (its issuer not blackholed): the issuer dashboard's test uses it. */
let launched: DeployResult | undefined;

beforeAll(async () => {
  const w = await selfCustodyWorld();
  ({ t, world, call, stepsOf } = w);
  creator = await t.signIn('creator');
  walletId = await w.fundedSelfCustody(creator, browser);
  fundedSelfCustody = w.fundedSelfCustody;
}, 180_000);
afterAll(async () => {
  await t?.close();
});

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
    launched = result;
  });

  it("the issuer dashboard's actions work for a browser-wallet creator: the issuer signs, nothing is asked of the wallet", async () => {
    const token = launched!;
    const [row] = await t.database.db
      .select()
      .from(tokensTable)
      .where(eq(tokensTable.issuerAddress, token.issuer_address));
    // A holder: another user's custodial wallet with a line to the token.
    const holderUser = await t.signIn('dash_holder');
    const holder = await world.wallet(holderUser, 1);
    const line = await call(holderUser, 'POST', '/api/add-trustline', {
      wallet: holder.address,
      issuer: token.issuer_address,
      token: token.currency,
    });
    expect(line.statusCode, line.body).toBe(200);
    const xrpBefore = await world.xrp(browser.classicAddress);
    const intentsBefore = await t.database.db
      .select()
      .from(signingIntents)
      .where(eq(signingIntents.walletId, walletId));
    const peerFrozen = async () => {
      const lines = await t.connection.client.request({
        command: 'account_lines',
        account: holder.address,
        peer: token.issuer_address,
        ledger_index: 'validated',
      });
      return lines.result.lines[0]!.freeze_peer === true;
    };

    const url = `/api/dashboard/trust-lines/${row!.id}/freeze`;
    const frozen = await call(creator, 'POST', url, { accountAddress: holder.address, freeze: true });
    expect(frozen.statusCode, frozen.body).toBe(200);
    expect(frozen.json()).toMatchObject({ success: true, hash: expect.any(String) });
    expect(await peerFrozen()).toBe(true);
    const thawed = await call(creator, 'POST', url, { accountAddress: holder.address, freeze: false });
    expect(thawed.statusCode, thawed.body).toBe(200);
    expect(await peerFrozen()).toBe(false);
    const synced = await call(creator, 'POST', `/api/dashboard/sync-trust-lines/${row!.id}`, {});
    expect(synced.statusCode, synced.body).toBe(200);
    expect(
      (synced.json() as { trustLines: Array<{ account_address: string }> }).trustLines.map(
        (l) => l.account_address,
      ),
    ).toContain(holder.address);
    const blackholed = await call(creator, 'POST', `/api/dashboard/blackhole-issuer/${row!.id}`);
    expect(blackholed.statusCode, blackholed.body).toBe(200);
    const issuer = await t.connection.client.request({
      command: 'account_info',
      account: token.issuer_address,
      ledger_index: 'validated',
    });
    expect(issuer.result.account_data.Flags & LSF_DISABLE_MASTER).toBe(LSF_DISABLE_MASTER);

    // Nothing asked of the creator's wallet: no intent, not a drop spent; another user: 404.
    expect(
      await t.database.db.select().from(signingIntents).where(eq(signingIntents.walletId, walletId)),
    ).toHaveLength(intentsBefore.length);
    expect(await world.xrp(browser.classicAddress)).toBe(xrpBefore);
    const foreign = await call(holderUser, 'POST', url, { accountAddress: holder.address, freeze: true });
    expect(foreign.statusCode).toBe(404);
  });

  it('with a dev allocation: the issuer writes a Check of it; the wallet claims and locks it with one intent; the platform releases a due tranche', async () => {
    const body = {
      ...ammLaunchBody(walletId, { name: 'Self Vest', ticker: 'SVST' }, await testLogo(t.database.db)),
      devAllocation: '10',
      // 50% after 0.04 h (144 s), the rest a month after the cliff.
      vesting: { enabled: true, cliffPercent: '50', cliffHours: '0.04', months: 1 },
    };
    const intent = intentOf(
      await call(creator, 'POST', '/api/deploy-token', body, { 'idempotency-key': 'deploy-self-dev-1' }),
    );
    const { reserveBase, reserveIncrement, baseFee } = t.app.platform.submissions!.reserves;
    const fees = await t.app.platform.settings.fees(reserveIncrement, reserveBase);
    const cost = deployCost(body as never, fees, creator.user.id);
    // The issuer's funding carries one owner reserve more: the Check it writes.
    expect(intent.txs[0]!.Amount).toBe((xrpToDrops(cost.issuerReserve) + reserveIncrement).toString());
    const funded = await call(creator, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(funded.statusCode, funded.body).toBe(200);
    const { jobId } = funded.json() as { jobId: string };
    const job = await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 90_000 });
    expect(job.status, job.error ?? '').toBe('completed');
    const result = (job as unknown as JobStatusView<DeployResult>).result!;
    const [row] = await t.database.db.select().from(jobs).where(eq(jobs.id, jobId));
    const tranches = (row!.payload as DeployPayload).vesting!.tranches;
    // 10% of 1,000,000 = 100,000: 50,000 at the cliff, 50,000 a month later.
    expect(tranches.map((x) => x.amount)).toEqual(['50000', '50000']);
    const token = (address: string) =>
      tokenBalance(t.connection.client, address, result.issuer_address, result.currency);

    // The allocation waits in the issuer's Check; nothing in the wallet, and the dashboard says so.
    const checks = await t.connection.client.request({
      command: 'account_objects',
      account: browser.classicAddress,
      type: 'check',
      ledger_index: 'validated',
    });
    expect(checks.result.account_objects).toHaveLength(1);
    expect(checks.result.account_objects[0]).toMatchObject({
      Account: result.issuer_address,
      Destination: browser.classicAddress,
      SendMax: { currency: result.currency, issuer: result.issuer_address, value: '100000' },
    });
    expect(await token(browser.classicAddress)).toBe('0');
    const schedule = async () =>
      ((await call(creator, 'GET', '/api/dashboard/vesting')).json() as VestingScheduleView).tokens.find(
        (x) => x.tokenId === result.token_id,
      )!;
    let view = await schedule();
    expect(view.unclaimed).toEqual({ jobId, text: SELF_CUSTODY_MESSAGES.allocationUnlocked });
    expect(view.tranches.map((x) => x.status)).toEqual(['missing', 'missing']);
    // Not someone else's: 404.
    const stranger = await t.signIn('stranger_dev');
    expect((await call(stranger, 'POST', `/api/deploy-token/${jobId}/allocation`)).statusCode).toBe(404);
    // The dashboard's own claim stays empty: the schedule's "Claim and lock" offers this one.
    expect((await call(creator, 'GET', `/api/dashboard/deploy-claim/${result.token_id}`)).json()).toEqual({
      claim: null,
    });

    // The claim and locks: the wallet's line (the supply as its limit), CheckCash of the whole
    // allocation, then the custodial job's escrows.
    const headers = { 'idempotency-key': 'claim-dev-1' };
    const claim = intentOf(await call(creator, 'POST', `/api/deploy-token/${jobId}/allocation`, {}, headers));
    expect(claim.txs.map((x) => x.TransactionType)).toEqual([
      'TrustSet',
      'CheckCash',
      'EscrowCreate',
      'EscrowCreate',
    ]);
    expect(claim.txs[0]).toMatchObject({
      LimitAmount: { currency: result.currency, issuer: result.issuer_address, value: '1000000' },
    });
    expect(claim.txs[1]).toMatchObject({
      CheckID: checks.result.account_objects[0]!.index,
      Amount: { currency: result.currency, issuer: result.issuer_address, value: '100000' },
    });
    tranches.forEach((tr, i) =>
      expect(claim.txs[i + 2]).toMatchObject({
        Account: browser.classicAddress,
        Destination: browser.classicAddress,
        Amount: { currency: result.currency, issuer: result.issuer_address, value: tr.amount },
        FinishAfter: tr.unlockAt,
      }),
    );
    expect(claim.txs[2]).not.toHaveProperty('CancelAfter');
    expect(
      intentOf(await call(creator, 'POST', `/api/deploy-token/${jobId}/allocation`, {}, headers)).id,
    ).toBe(claim.id);
    // An earlier unlock, or a cancel that would hand the tokens back: refused by name, nothing sent.
    for (const [change, message] of [
      [
        (tx: Record<string, unknown>, i: number) =>
          i === 3 ? { ...tx, FinishAfter: (tx.FinishAfter as number) - 86_400 } : tx,
        SELF_CUSTODY_MESSAGES.mismatch('FinishAfter'),
      ],
      [
        (tx: Record<string, unknown>, i: number) =>
          i === 2 ? { ...tx, CancelAfter: (tx.FinishAfter as number) + 10 } : tx,
        SELF_CUSTODY_MESSAGES.extraField('CancelAfter'),
      ],
    ] as const) {
      const refused = await call(creator, 'POST', `/api/intents/${claim.id}/submit`, {
        blobs: signIntent(browser, claim, change),
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(message);
    }
    expect(await stepsOf(claim.id)).toHaveLength(0);

    const xrpBefore = await world.xrp(browser.classicAddress);
    const claimed = await call(creator, 'POST', `/api/intents/${claim.id}/submit`, {
      blobs: signIntent(browser, claim),
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const answer = devAllocationResultSchema.parse(claimed.json());
    expect(answer).toMatchObject({ status: 'claimed', amount: '100000' });
    expect(answer.locks.map((l) => l.escrowSequence)).toEqual([
      claim.txs[2]!.Sequence,
      claim.txs[3]!.Sequence,
    ]);
    // All of it in the wallet's two escrows; the wallet paid four network fees (reserves stay its own).
    expect(await token(browser.classicAddress)).toBe('0');
    expect(await world.xrp(browser.classicAddress)).toBe(xrpBefore - 4n * baseFee);
    const escrows = await readEscrows(t.connection.client, browser.classicAddress);
    expect(escrows.map((e) => [e.amount, e.finishAfter]).sort()).toEqual(
      tranches.map((tr) => [tr.amount, tr.unlockAt]).sort(),
    );
    view = await schedule();
    expect(view.unclaimed).toBeNull();
    expect(view.tranches.map((x) => [x.status, x.escrowSequence])).toEqual([
      ['locked', claim.txs[2]!.Sequence],
      ['locked', claim.txs[3]!.Sequence],
    ]);
    // The Check is gone: asked again, the claim is refused with its sentence.
    const again = await call(creator, 'POST', `/api/deploy-token/${jobId}/allocation`);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(SELF_CUSTODY_MESSAGES.allocationClaimed);

    // Release: the cliff falls due; the platform's service wallet sends the EscrowFinish (any account
    // may finish a time-released escrow), so nothing is signed by the wallet and it pays nothing.
    const cliff = tranches[0]!.unlockAt;
    const closeTime = async () =>
      (await t.connection.client.request({ command: 'ledger', ledger_index: 'validated' })).result.ledger
        .close_time;
    while ((await closeTime()) <= cliff)
      await t.connection.client.request({ command: 'ledger_accept' } as never);
    const service = (await platformWallet(t.database.db, PLATFORM_ROLES.service))!.address;
    const [walletXrp, serviceXrp] = [await world.xrp(browser.classicAddress), await world.xrp(service)];
    const release = { tokenId: result.token_id, escrowSequence: claim.txs[2]!.Sequence };
    const released = await call(creator, 'POST', '/api/dashboard/vesting/release', release);
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json()).toMatchObject({ status: 'released', amount: '50000' });
    expect(await token(browser.classicAddress)).toBe('50000');
    expect(await world.xrp(browser.classicAddress)).toBe(walletXrp);
    expect(await world.xrp(service)).toBe(serviceXrp - baseFee);
    const [finish] = await t.database.db
      .select()
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.hash, released.json().hash as string));
    expect(finish).toMatchObject({ account: service, purpose: 'vesting-release', status: 'success' });
    // Clicked again: the same transaction.
    const twice = await call(creator, 'POST', '/api/dashboard/vesting/release', release);
    expect(twice.json().hash).toBe(released.json().hash);
    expect(await token(browser.classicAddress)).toBe('50000');
    view = await schedule();
    expect(view.tranches.map((x) => x.status)).toEqual(['released', 'locked']);
  }, 240_000);

  for (const pair of ['XRP', 'RLUSD'] as const) {
    it(`launches a curve paired with ${pair}: the two fundings signed, the curve account holds the supply and pays the fee`, async () => {
      // A creator of its own: deploy attempts are limited per user.
      const who = await t.signIn(`curve_${pair.toLowerCase()}`);
      const wallet = Wallet.generate();
      const id = await fundedSelfCustody(who, wallet);
      const ticker = `CV${pair[0]}`;
      const body = {
        ...curveLaunchBody(id, { name: `Self Curve ${pair}`, ticker, pair }),
        logoUrl: await testLogo(t.database.db),
      };
      const intent = intentOf(await call(who, 'POST', '/api/deploy-token', body));
      const { reserveBase, reserveIncrement, baseFee } = t.app.platform.submissions!.reserves;
      const fees = await t.app.platform.settings.fees(reserveIncrement, reserveBase);
      const cost = deployCost(body as never, fees, who.user.id, { selfCustody: true });
      const serviceFee = xrpToDrops(cost.serviceFee);
      // A curve needs none of the creator's RLUSD (it raises it): two payments, no Check.
      expect(intent.txs.map((x) => x.TransactionType)).toEqual(['Payment', 'Payment']);
      const issuerFund = xrpToDrops(cost.issuerReserve) + xrpToDrops(cost.selfCustodyIssuer);
      // The curve account: its deposit, the service fee it pays on, and that payment's network fee.
      const curveFund = xrpToDrops(cost.hotWalletReserve) + serviceFee + xrpToDrops(cost.selfCustodyHot);
      expect(intent.txs[0]!.Amount).toBe(issuerFund.toString());
      expect(intent.txs[1]!.Amount).toBe(curveFund.toString());
      const curve = intent.txs[1]!.Destination as string;

      const feeWallet = (await platformWallet(t.database.db, PLATFORM_ROLES.fee))!.address;
      const xrpBefore = await world.xrp(wallet.classicAddress);
      const feeBefore = await world.xrp(feeWallet);
      const ok = await call(who, 'POST', `/api/intents/${intent.id}/submit`, {
        blobs: signIntent(wallet, intent),
      });
      expect(ok.statusCode, ok.body).toBe(200);
      const { jobId } = ok.json() as { jobId: string };
      const job = await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 90_000 });
      expect(job.status, job.error ?? '').toBe('completed');
      const result = (job as unknown as JobStatusView<DeployResult>).result!;
      const issuer = result.issuer_address;
      // The wallet paid its two fundings and their network fees, nothing more; the fee wallet got
      // the service fee (from the curve account, the wallet's key being elsewhere).
      expect(await world.xrp(wallet.classicAddress)).toBe(xrpBefore - issuerFund - curveFund - 2n * baseFee);
      expect(await world.xrp(feeWallet)).toBe(feeBefore + serviceFee);
      // The curve account holds the whole supply (and, paired with RLUSD, an RLUSD line to raise it
      // in); the issuer can never sign.
      const lines = (
        await t.connection.client.request({
          command: 'account_lines',
          account: curve,
          ledger_index: 'validated',
        })
      ).result.lines;
      expect(lines.find((l) => l.account === issuer)?.balance).toBe('1000000000');
      const rlusd = (await platformWallet(t.database.db, PLATFORM_ROLES.rlusdIssuer))!.address;
      expect(lines.some((l) => l.account === rlusd && l.currency === RLUSD_CURRENCY_HEX)).toBe(
        pair === 'RLUSD',
      );
      const info = await t.connection.client.request({
        command: 'account_info',
        account: issuer,
        ledger_index: 'validated',
      });
      expect(info.result.account_data.Flags & LSF_DISABLE_MASTER).toBe(LSF_DISABLE_MASTER);
      // Listed as a live curve, its quote asset the pair's.
      const token = await call(who, 'GET', `/api/tokens/issuer/${issuer}`);
      expect(token.statusCode, token.body).toBe(200);
      expect(token.json()).toMatchObject({ launch_type: 'bonding', bonding_active: true });
    }, 180_000);
  }
});

describe("a browser wallet's deploy with an RLUSD pair", () => {
  it('writes a Check of the RLUSD to the freshly funded hot wallet in the same intent; the job cashes it after the line and opens the pool', async () => {
    // A creator of its own: deploy attempts are limited per user.
    const creator = await t.signIn('dollar_dev');
    const dollar = Wallet.generate();
    const id = await fundedSelfCustody(creator, dollar);
    const rlusd = (await platformWallet(t.database.db, PLATFORM_ROLES.rlusdIssuer))!.address;
    // The wallet's own RLUSD line (its key, here), then the faucet's RLUSD into it.
    await t.connection.client.submitAndWait(
      {
        TransactionType: 'TrustSet',
        Account: dollar.classicAddress,
        LimitAmount: { currency: RLUSD_CURRENCY_HEX, issuer: rlusd, value: '1000000' },
      },
      { wallet: dollar, autofill: true },
    );
    const funded = await call(creator, 'POST', `/api/wallets/${id}/fund-rlusd`);
    expect(funded.statusCode, funded.body).toBe(200);
    const faucet = new Decimal(t.app.platform.config.FAUCET_RLUSD);
    const rlusdOf = (account: string) =>
      tokenBalance(t.connection.client, account, rlusd, RLUSD_CURRENCY_HEX);
    expect(new Decimal(await rlusdOf(dollar.classicAddress)).eq(faucet)).toBe(true);

    const body = {
      ...ammLaunchBody(id, { name: 'Self Dollar', ticker: 'SUSD' }, await testLogo(t.database.db)),
      liquidityPairType: 'RLUSD',
      liquidityAmount: '250',
    };
    const { reserveBase, reserveIncrement, baseFee } = t.app.platform.submissions!.reserves;
    const fees = await t.app.platform.settings.fees(reserveIncrement, reserveBase);
    const cost = deployCost(body as never, fees, creator.user.id);
    const intent = intentOf(
      await call(creator, 'POST', '/api/deploy-token', body, { 'idempotency-key': 'deploy-self-rlusd-1' }),
    );
    // The issuer's reserve; the hot wallet's (RLUSD pair), the service fee, its fee and the
    // CheckCash's fee; then the Check of exactly the pool's RLUSD to that hot wallet.
    const serviceFee = xrpToDrops(cost.serviceFee);
    const hotFund = xrpToDrops(cost.hotWalletReserve) + serviceFee + baseFee + baseFee;
    expect(intent.txs.map((x) => x.TransactionType)).toEqual(['Payment', 'Payment', 'CheckCreate']);
    expect(intent.txs[0]!.Amount).toBe(xrpToDrops(cost.issuerReserve).toString());
    expect(intent.txs[1]!.Amount).toBe(hotFund.toString());
    const hot = intent.txs[1]!.Destination as string;
    expect(intent.txs[2]).toMatchObject({
      Destination: hot,
      SendMax: { currency: RLUSD_CURRENCY_HEX, issuer: rlusd, value: '250' },
    });
    // A Check for more RLUSD is refused by name, nothing sent.
    const changed = await call(creator, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(dollar, intent, (tx, i) =>
        i === 2 ? { ...tx, SendMax: { currency: RLUSD_CURRENCY_HEX, issuer: rlusd, value: '251' } } : tx,
      ),
    });
    expect(changed.statusCode).toBe(400);
    expect(changed.json().message).toBe(SELF_CUSTODY_MESSAGES.mismatch('SendMax'));

    const xrpBefore = await world.xrp(dollar.classicAddress);
    const signed = await call(creator, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(dollar, intent),
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const { jobId } = signed.json() as { jobId: string };
    const job = await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 120_000 });
    expect(job.status, job.error ?? '').toBe('completed');
    const result = (job as unknown as JobStatusView<DeployResult>).result!;
    expect(result.hot_wallet_address).toBe(hot);

    // The pool: 250 RLUSD and the whole supply; the wallet's RLUSD down by exactly 250, its XRP by
    // its two payments and three network fees (the Check's reserve came back when it was cashed).
    const amm = await t.connection.client.request({
      command: 'amm_info',
      asset: { currency: RLUSD_CURRENCY_HEX, issuer: rlusd },
      asset2: { currency: result.currency, issuer: result.issuer_address },
      ledger_index: 'validated',
    });
    expect(amm.result.amm.amount).toMatchObject({ value: '250' });
    expect(amm.result.amm.amount2).toMatchObject({ value: '1000000' });
    expect(new Decimal(await rlusdOf(dollar.classicAddress)).eq(faucet.minus(250))).toBe(true);
    expect(await world.xrp(dollar.classicAddress)).toBe(
      xrpBefore - xrpToDrops(cost.issuerReserve) - hotFund - 3n * baseFee,
    );
    // The Check was the hot wallet's to cash: CheckCash of exactly 250, signed by the hot wallet,
    // and no Check is left.
    const [row] = await t.database.db.select().from(jobs).where(eq(jobs.id, jobId));
    const payload = row!.payload as DeployPayload;
    const cashes = await ledgerTxs(result.ledgers!['send-rlusd']!);
    expect(cashes.find((x) => x.TransactionType === 'CheckCash')).toMatchObject({
      Account: hot,
      CheckID: payload.rlusdCheck,
      Amount: { currency: RLUSD_CURRENCY_HEX, issuer: rlusd, value: '250' },
      meta: { TransactionResult: 'tesSUCCESS' },
    });
    const left = await t.connection.client.request({
      command: 'account_objects',
      account: dollar.classicAddress,
      type: 'check',
      ledger_index: 'validated',
    });
    expect(left.result.account_objects).toHaveLength(0);
  }, 240_000);
});

/**
 * XLS-30's swap-out, worked out here (not the shared function the server uses):
 * out = B × (1 − A / (A + a(1 − f))), A and B the pool's XRP (drops) and tokens, f in 1/100,000 —
 * the auction slot's fee (TradingFee / 10): AMMCreate gives the hot wallet, which buys, the slot.
 */
function xls30Out(poolDrops: DecimalValue, poolTokens: DecimalValue, inDrops: DecimalValue, fee: number) {
  const a = new Decimal(inDrops).mul(new Decimal(1).minus(new Decimal(fee).div(100_000)));
  const A = new Decimal(poolDrops);
  return new Decimal(poolTokens)
    .mul(new Decimal(1).minus(A.div(A.plus(a))))
    .toSignificantDigits(15, Decimal.ROUND_DOWN);
}

interface LedgerTx {
  hash: string;
  TransactionType: string;
  Account: string;
  Destination?: string;
  meta: {
    TransactionIndex: number;
    TransactionResult: string;
    ParentBatchID?: string;
    delivered_amount?: unknown;
  };
}

/** The transactions of ledger `index`, in their order. */
async function ledgerTxs(index: number): Promise<LedgerTx[]> {
  const ledger = await t.connection.client.request({
    command: 'ledger',
    ledger_index: index,
    transactions: true,
    expand: true,
  });
  const raw = ledger.result.ledger.transactions as unknown as Array<{
    hash: string;
    tx_json: Omit<LedgerTx, 'hash' | 'meta'>;
    meta: LedgerTx['meta'];
  }>;
  return raw
    .map((x) => ({ ...x.tx_json, hash: x.hash, meta: x.meta }))
    .sort((a, b) => a.meta.TransactionIndex - b.meta.TransactionIndex);
}

const LSF_DISABLE_MASTER = LedgerEntry.AccountRootFlags.lsfDisableMaster;
const LSF_REQUIRE_AUTH = LedgerEntry.AccountRootFlags.lsfRequireAuth;

describe("a browser wallet's deploy with a first buy, and under RequireAuth", () => {
  /** Funds the deploy from the browser wallet (its one intent, signed) and runs the job. */
  async function launch(body: Record<string, unknown>, key: string) {
    const intent = intentOf(
      await call(creator, 'POST', '/api/deploy-token', body, { 'idempotency-key': key }),
    );
    const xrpBefore = await world.xrp(browser.classicAddress);
    const funded = await call(creator, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(funded.statusCode, funded.body).toBe(200);
    const { jobId } = funded.json() as { jobId: string };
    const job = await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 120_000 });
    expect(job.status, job.error ?? '').toBe('completed');
    const [row] = await t.database.db.select().from(jobs).where(eq(jobs.id, jobId));
    return {
      intent,
      jobId,
      xrpBefore,
      result: (job as unknown as JobStatusView<DeployResult>).result!,
      payload: row!.payload as DeployPayload,
    };
  }

  /** The dashboard's read of what the deploy still leaves in Checks for the wallet. */
  const dashboardClaim = async (tokenId: number, who: SignedIn = creator) => {
    const res = await call(who, 'GET', `/api/dashboard/deploy-claim/${tokenId}`);
    return { status: res.statusCode, body: res.json() as DeployClaimView };
  };

  it('buys first in the pool’s own Batch (into the hot wallet), then a Check the wallet cashes after the LP burn: the swap-out exactly, the fee to the drop', async () => {
    expect(await t.app.platform.submissions!.batchEnabled()).toBe(true);
    const body = {
      ...ammLaunchBody(walletId, { name: 'Self First', ticker: 'SFB' }, await testLogo(t.database.db)),
      blackholeIssuer: true,
      burnLp: true,
      firstBuyXrp: '10',
    };
    const { reserveBase, reserveIncrement, baseFee } = t.app.platform.submissions!.reserves;
    const fees = await t.app.platform.settings.fees(reserveIncrement, reserveBase);
    const cost = deployCost(body as never, fees, creator.user.id);
    const feeWallet = (await platformWallet(t.database.db, PLATFORM_ROLES.fee))!.address;
    const feeBefore = await world.xrp(feeWallet);
    const { intent, jobId, xrpBefore, result, payload } = await launch(body, 'deploy-self-buy-1');
    // 0.75% of the 10 XRP, rounded down to the drop.
    const BUY = 10_000_000n;
    const buyFee = BigInt(
      new Decimal(BUY.toString()).mul(fees.trading_fee_percent!).div(100).floor().toFixed(),
    );
    expect(buyFee).toBe(75_000n);
    const serviceFee = xrpToDrops(cost.serviceFee);
    // The hot wallet's funding: its reserve, the pool, the buy, its fee and the Batch's network
    // fees, the Check's owner reserve and fee, the service fee and its fee.
    const hotFund =
      xrpToDrops(cost.hotWalletReserve) +
      xrpToDrops('100') +
      BUY +
      buyFee +
      xrpToDrops(FIRST_BUY_NETWORK_XRP) +
      reserveIncrement +
      baseFee +
      serviceFee +
      baseFee;
    expect(intent.txs[1]!.Amount).toBe(hotFund.toString());
    expect(intent.txs[0]!.Amount).toBe(xrpToDrops(cost.issuerReserve).toString());
    expect(await world.xrp(browser.classicAddress)).toBe(
      xrpBefore - hotFund - xrpToDrops(cost.issuerReserve) - 2n * baseFee,
    );
    // The platform: the service fee and the buy's fee, to the drop.
    expect(await world.xrp(feeWallet)).toBe(feeBefore + serviceFee + buyFee);

    // AMMCreate and the buy (hot wallet → hot wallet) share one ParentBatchID, consecutive.
    const hot = result.hot_wallet_address;
    const txs = await ledgerTxs(result.ledgers!['create-amm']!);
    const create = txs.find((x) => x.TransactionType === 'AMMCreate')!;
    const buy = txs.find(
      (x) => x.TransactionType === 'Payment' && x.Account === hot && x.Destination === hot,
    )!;
    const fee = txs.find((x) => x.TransactionType === 'Payment' && x.Destination === feeWallet)!;
    expect(create.meta.ParentBatchID).toBeDefined();
    expect(buy.meta.ParentBatchID).toBe(create.meta.ParentBatchID);
    expect(fee.meta.ParentBatchID).toBe(create.meta.ParentBatchID);
    expect(buy.meta.TransactionResult).toBe('tesSUCCESS');
    expect(buy.meta.TransactionIndex).toBe(create.meta.TransactionIndex + 1);
    expect(String(fee.meta.delivered_amount)).toBe(buyFee.toString());
    const amm = await t.connection.client.request({
      command: 'amm_info',
      asset: { currency: 'XRP' },
      asset2: { currency: result.currency, issuer: result.issuer_address },
      ledger_index: 'validated',
    });
    expect(amm.result.amm.amount).toBe((100_000_000n + BUY).toString());

    // The swap-out of the pool's opening reserves at the slot's 0.03%: the hot wallet's Check of
    // it to the wallet, written before the LP burn; the hot wallet now has no key.
    const out = xls30Out(100_000_000, 1_000_000, BUY.toString(), Math.floor(300 / 10));
    expect(payload.firstBuy!.deliverMin).toBe(out.toFixed());
    expect(result.ledgers!['first-buy-check']!).toBeLessThanOrEqual(result.ledgers!['burn-lp-regular-key']!);
    const hotInfo = await t.connection.client.request({
      command: 'account_info',
      account: hot,
      ledger_index: 'validated',
    });
    expect(hotInfo.result.account_data.Flags & LSF_DISABLE_MASTER).toBe(LSF_DISABLE_MASTER);
    const checks = await t.connection.client.request({
      command: 'account_objects',
      account: browser.classicAddress,
      type: 'check',
      ledger_index: 'validated',
    });
    const check = checks.result.account_objects.find((o) => (o as { Account: string }).Account === hot);
    expect(check).toMatchObject({
      Destination: browser.classicAddress,
      SendMax: { currency: result.currency, issuer: result.issuer_address, value: out.toFixed() },
    });
    const token = () =>
      tokenBalance(t.connection.client, browser.classicAddress, result.issuer_address, result.currency);
    expect(await token()).toBe('0');

    // The modal closed unclaimed: the token's dashboard finds the Check on the ledger and offers
    // the same claim; to another user the token is not theirs (404).
    expect(await dashboardClaim(result.token_id)).toEqual({
      status: 200,
      body: {
        claim: {
          jobId,
          walletAddress: browser.classicAddress,
          allocation: null,
          firstBuy: out.toFixed(),
          text: SELF_CUSTODY_MESSAGES.firstBuyWaiting,
        },
      },
    });
    const other = await t.signIn('other_buyer');
    expect((await dashboardClaim(result.token_id, other)).status).toBe(404);

    // The claim: the wallet's line, then the CheckCash of exactly the swap-out (no dev allocation).
    const claim = intentOf(
      await call(
        creator,
        'POST',
        `/api/deploy-token/${jobId}/allocation`,
        {},
        { 'idempotency-key': 'claim-buy-1' },
      ),
    );
    expect(claim.txs.map((x) => x.TransactionType)).toEqual(['TrustSet', 'CheckCash']);
    expect(claim.txs[1]).toMatchObject({
      CheckID: (check as { index: string }).index,
      Amount: { currency: result.currency, issuer: result.issuer_address, value: out.toFixed() },
    });
    const before = await world.xrp(browser.classicAddress);
    const claimed = await call(creator, 'POST', `/api/intents/${claim.id}/submit`, {
      blobs: signIntent(browser, claim),
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json()).toMatchObject({
      status: 'claimed',
      amount: '0',
      firstBuy: out.toFixed(),
      locks: [],
    });
    expect(new Decimal(await token()).eq(out)).toBe(true);
    expect(await world.xrp(browser.classicAddress)).toBe(before - 2n * baseFee);
    // Cashed: the dashboard offers nothing more.
    expect((await dashboardClaim(result.token_id)).body).toEqual({ claim: null });
    const again = await call(creator, 'POST', `/api/deploy-token/${jobId}/allocation`);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(SELF_CUSTODY_MESSAGES.allocationClaimed);
  }, 240_000);

  it('under RequireAuth the issuer pre-authorizes the wallet’s line before its blackhole: the dev allocation and the first buy cashed into it', async () => {
    const body = {
      ...ammLaunchBody(walletId, { name: 'Self Auth', ticker: 'SAUTH' }, await testLogo(t.database.db)),
      devAllocation: '10',
      requireAuth: true,
      blackholeIssuer: true,
      firstBuyXrp: '5',
    };
    const { reserveBase, reserveIncrement, baseFee } = t.app.platform.submissions!.reserves;
    const fees = await t.app.platform.settings.fees(reserveIncrement, reserveBase);
    const cost = deployCost(body as never, fees, creator.user.id);
    const { intent, jobId, result } = await launch(body, 'deploy-self-auth-1');
    // The issuer's funding: its reserve, the dev Check's owner reserve, the pre-authorized line's
    // owner reserve and its TrustSet's fee.
    expect(intent.txs[0]!.Amount).toBe(
      (xrpToDrops(cost.issuerReserve) + 2n * reserveIncrement + baseFee).toString(),
    );
    const issuer = await t.connection.client.request({
      command: 'account_info',
      account: result.issuer_address,
      ledger_index: 'validated',
    });
    expect(issuer.result.account_data.Flags & LSF_REQUIRE_AUTH).toBe(LSF_REQUIRE_AUTH);
    expect(issuer.result.account_data.Flags & LSF_DISABLE_MASTER).toBe(LSF_DISABLE_MASTER);
    // The line exists, authorized by the issuer, with no limit of the wallet yet.
    const lines = async () =>
      (
        await t.connection.client.request({
          command: 'account_lines',
          account: browser.classicAddress,
          peer: result.issuer_address,
          ledger_index: 'validated',
        })
      ).result.lines.find((l) => l.currency === result.currency)!;
    expect(await lines()).toMatchObject({ balance: '0', limit: '0', peer_authorized: true });

    const out = xls30Out(100_000_000, 900_000, 5_000_000, Math.floor(300 / 10));
    // No vesting schedule: the dashboard's claim offers both Checks, with both sentences.
    expect((await dashboardClaim(result.token_id)).body).toEqual({
      claim: {
        jobId,
        walletAddress: browser.classicAddress,
        allocation: '100000',
        firstBuy: out.toFixed(),
        text: `${SELF_CUSTODY_MESSAGES.allocationWaiting} ${SELF_CUSTODY_MESSAGES.firstBuyWaiting}`,
      },
    });
    const claim = intentOf(
      await call(
        creator,
        'POST',
        `/api/deploy-token/${jobId}/allocation`,
        {},
        { 'idempotency-key': 'claim-auth-1' },
      ),
    );
    expect(claim.txs.map((x) => x.TransactionType)).toEqual(['TrustSet', 'CheckCash', 'CheckCash']);
    expect(claim.txs[1]).toMatchObject({ Amount: { value: '100000' } });
    expect(claim.txs[2]).toMatchObject({ Amount: { value: out.toFixed() } });
    const claimed = await call(creator, 'POST', `/api/intents/${claim.id}/submit`, {
      blobs: signIntent(browser, claim),
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json()).toMatchObject({ status: 'claimed', amount: '100000', firstBuy: out.toFixed() });
    const line = await lines();
    expect(line).toMatchObject({ limit: '1000000', peer_authorized: true });
    expect(new Decimal(line.balance).eq(out.plus(100_000))).toBe(true);
    expect((await dashboardClaim(result.token_id)).body).toEqual({ claim: null });
  }, 240_000);
});
