import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like, sql } from 'drizzle-orm';
import {
  VESTING_AUTO_RELEASE_MESSAGES,
  type DeployResult,
  type JobStatusView,
  type RiskReport,
  type VestingScheduleView,
} from '@ledgerpad/shared';
import { jobs } from '../../src/platform/jobs';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { validatedClose } from '../../src/ledger/escrows';
import { AutoReleaseKeeper } from '../../src/modules/vesting';
import { vestingAutoRelease } from '../../src/modules/vesting/schema';
import type { DeployPayload } from '../../src/modules/deploy';
import type { SignedIn } from '../helpers/test-app';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { testLogo } from '../helpers/test-logo';
import { until } from '../helpers/wait';

// Issue 28, 'Release automatically when due': the deployer opts a schedule in on the dashboard and
// the server's keeper finishes each due tranche after a validated ledger, with no request, once —
// a second keeper instance (another server on the same database) does not sign it again. Opted
// out, a due tranche stays due. Figures: supply 1,000,000, dev 10% = 100,000; 25% = 25,000 after
// 0.01 h (36 s), the other 75,000 one calendar month after the cliff.

let t: WalletTestApp;
let alice: SignedIn;
let bob: SignedIn;
let wallet: { id: number; address: string };
let result: DeployResult;
let payload: DeployPayload;

const call = (who: SignedIn, method: 'GET' | 'PUT', url: string, body?: object) =>
  t.app.inject({ method, url, headers: who.headers, payload: body });
const toggle = (who: SignedIn, enabled: boolean) =>
  call(who, 'PUT', '/api/dashboard/vesting/auto-release', { tokenId: result.token_id, enabled });
const schedule = async () =>
  ((await call(alice, 'GET', '/api/dashboard/vesting')).json() as VestingScheduleView).tokens[0]!;
const client = () => t.connection.client;

async function devLine(): Promise<string | undefined> {
  const r = await client().request({
    command: 'account_lines',
    account: wallet.address,
    peer: result.issuer_address,
    ledger_index: 'validated',
  });
  return r.result.lines.find((l) => l.currency === result.currency)?.balance;
}

/** Every EscrowFinish ever recorded for this wallet (each intent, and any re-signing of one). */
async function releases() {
  return t.database.db
    .select()
    .from(ledgerSubmissions)
    .where(like(ledgerSubmissions.intentKey, `vesting-release:${wallet.address}:%`));
}

/** A keeper as another server instance runs it: same database and ledger, its own lease identity. */
function otherInstance(owner: string) {
  return new AutoReleaseKeeper({
    db: t.database.db,
    service: t.app.vesting.service,
    closeTime: async () => (await validatedClose(client())).closeTime,
    log: { info: () => {}, warn: () => {} },
    owner,
  });
}

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 1000 });
  await t.app.platform.accounts.bootstrapped();
  alice = await t.signIn('alice_autorelease');
  bob = await t.signIn('bob_autorelease');
  const w = (
    await t.app.inject({ method: 'POST', url: '/api/wallets', headers: alice.headers, payload: {} })
  ).json() as {
    id: number;
    wallet_address: string;
  };
  wallet = { id: w.id, address: w.wallet_address };
  const fund = await t.app.inject({
    method: 'POST',
    url: `/api/wallets/${w.id}/fund`,
    headers: alice.headers,
  });
  expect(fund.statusCode).toBe(200);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/deploy-token',
    headers: alice.headers,
    payload: {
      name: 'Auto Token',
      ticker: 'AUTO',
      description: '',
      supply: '1000000',
      devAllocation: '10',
      liquidityAmount: '100',
      ammFee: '0.5',
      logoUrl: await testLogo(t.database.db),
      blackholeIssuer: true,
      requireAuth: false,
      liquidityPairType: 'XRP',
      walletId: w.id,
      vesting: { enabled: true, cliffPercent: '25', cliffHours: '0.01', months: 1 },
    },
  });
  expect(res.statusCode, res.body).toBe(202);
  const { jobId } = res.json() as { jobId: string };
  await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 60_000 });
  const status = (await call(alice, 'GET', `/api/job-status/${jobId}`)).json() as JobStatusView<DeployResult>;
  expect(status.status, JSON.stringify(status)).toBe('completed');
  result = status.result!;
  const [row] = await t.database.db.select().from(jobs).where(eq(jobs.id, jobId));
  payload = row!.payload as DeployPayload;
  expect(payload.vesting!.tranches.map((x) => x.amount)).toEqual(['25000', '75000']);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the toggle', () => {
  it('is the deployer’s only, needs the CSRF token, and is off until turned on', async () => {
    expect((await schedule()).autoRelease).toBe(false);
    const foreign = await toggle(bob, true);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(VESTING_AUTO_RELEASE_MESSAGES.notFound);
    const { 'x-csrf-token': _csrf, ...noCsrf } = alice.headers;
    const forged = await t.app.inject({
      method: 'PUT',
      url: '/api/dashboard/vesting/auto-release',
      headers: noCsrf,
      payload: { tokenId: result.token_id, enabled: true },
    });
    expect(forged.statusCode).toBe(403);
    expect(await t.database.db.select().from(vestingAutoRelease)).toEqual([]);
    const off = await toggle(alice, false);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ tokenId: result.token_id, enabled: false });
  });
});

describe('opted out', () => {
  it('leaves a due tranche due: no keeper round releases it', async () => {
    const cliff = payload.vesting!.tranches[0]!.unlockAt;
    // Each close is at least a second after its parent: closing fast moves ledger time past the cliff.
    while ((await validatedClose(client())).closeTime <= cliff)
      await client().request({ command: 'ledger_accept' } as never);
    // The app's own keeper sees this ledger too; a round run here on purpose claims nothing either.
    expect(await t.app.vesting.keeper!.runOnce()).toEqual([]);
    await client().request({ command: 'ledger_accept' } as never);
    await t.app.vesting.keeper!.idle();
    const view = await schedule();
    expect(view.tranches.map((x) => x.status)).toEqual(['due', 'locked']);
    expect(view.autoRelease).toBe(false);
    expect(await releases()).toEqual([]);
    expect(await devLine()).toBe('0');
  });
});

describe('opted in', () => {
  it('releases the due tranche without a request, once, and waits for the next one', async () => {
    const on = await toggle(alice, true);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toEqual({ tokenId: result.token_id, enabled: true });
    // No release request: the app's keeper, poked by the opt-in and by each validated ledger.
    await until('the released tranche on the dev line', async () => (await devLine()) === '25000', {
      timeoutMs: 30_000,
      everyMs: 200,
    });
    expect(await devLine()).toBe('25000');
    await t.app.vesting.keeper!.idle();
    const rows = await releases();
    expect(rows.map((r) => [r.status, r.purpose])).toEqual([['success', 'vesting-release']]);
    // Every round so far ran clean (the ones after each validated ledger included).
    expect(t.logs.join('\n')).not.toMatch(/vesting auto-release (round )?failed/);
    const view = await schedule();
    expect(view.tranches.map((x) => x.status)).toEqual(['released', 'locked']);
    expect(view).toMatchObject({ autoRelease: true, autoReleaseError: null });
    // The keeper now looks again only when the second tranche unlocks, a month on.
    const [setting] = await t.database.db.select().from(vestingAutoRelease);
    expect(setting).toMatchObject({
      enabled: true,
      nextDueAt: payload.vesting!.tranches[1]!.unlockAt,
      keeperOwner: null,
      lastError: null,
    });
    // The risk panel: 75,000 of 1,000,000 = 7.5% still locked.
    const report = (
      await t.app.inject({ url: `/api/tokens/${result.issuer_address}/risk` })
    ).json() as RiskReport;
    // 75,000 of the 100,000 allocation still locked: 75% of it, amber (issue 35: a share of the allocation).
    expect(report.devLock).toMatchObject({ status: 'partial', lockedPercent: '75', lockedAmount: '75000' });
  });

  it('a second instance, and a round run again after a lost write, sign nothing more', async () => {
    // As if the first round had died after its release but before recording it: the row says the
    // cliff tranche is still to do. Two instances look at once; the lease lets one claim it, and
    // the release's intent key finds the transaction already made.
    // The app's own keeper stops here, so the two below are the only ones looking.
    await t.app.vesting.keeper!.stop();
    const cliff = payload.vesting!.tranches[0]!.unlockAt;
    await t.database.db.update(vestingAutoRelease).set({ nextDueAt: cliff });
    const a = otherInstance('test-instance-a');
    const b = otherInstance('test-instance-b');
    const [ra, rb] = await Promise.all([a.runOnce(), b.runOnce()]);
    const rounds = [...ra, ...rb];
    expect(rounds).toHaveLength(1);
    expect(rounds[0]).toMatchObject({ tokenId: result.token_id, released: [], error: null });
    expect(await releases()).toHaveLength(1);
    expect(await devLine()).toBe('25000');
    const [setting] = await t.database.db.select().from(vestingAutoRelease);
    expect(setting!.nextDueAt).toBe(payload.vesting!.tranches[1]!.unlockAt);
  });

  it('waits for a killed instance’s lease to expire, then takes the token over', async () => {
    const cliff = payload.vesting!.tranches[0]!.unlockAt;
    const b = otherInstance('test-instance-b');
    await t.database.db.update(vestingAutoRelease).set({
      nextDueAt: cliff,
      keeperOwner: 'killed-instance',
      keeperUntil: sql`now() + interval '1 hour'`,
    });
    expect(await b.runOnce()).toEqual([]);
    await t.database.db.update(vestingAutoRelease).set({ keeperUntil: sql`now() - interval '1 second'` });
    expect(await b.runOnce()).toEqual([{ tokenId: result.token_id, released: [], error: null }]);
    expect(await releases()).toHaveLength(1);
    const [setting] = await t.database.db.select().from(vestingAutoRelease);
    expect(setting).toMatchObject({ keeperOwner: null, nextDueAt: payload.vesting!.tranches[1]!.unlockAt });
  });

  it('turned off again: the row stays, disabled, and no round claims it', async () => {
    expect((await toggle(alice, false)).statusCode).toBe(200);
    await t.database.db.update(vestingAutoRelease).set({ nextDueAt: payload.vesting!.tranches[0]!.unlockAt });
    expect(await otherInstance('test-instance-c').runOnce()).toEqual([]);
    expect((await schedule()).autoRelease).toBe(false);
  });
});

describe('a round killed after recording its EscrowFinish', () => {
  let crash: DeployResult;
  let crashPayload: DeployPayload;

  beforeAll(async () => {
    // Another deploy of alice's: 100% at the cliff, 100,000 in one escrow after 36 s.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/deploy-token',
      headers: alice.headers,
      payload: {
        name: 'Crash Token',
        ticker: 'CRSH',
        description: '',
        supply: '1000000',
        devAllocation: '10',
        liquidityAmount: '100',
        ammFee: '0.5',
        logoUrl: await testLogo(t.database.db),
        blackholeIssuer: true,
        requireAuth: false,
        liquidityPairType: 'XRP',
        walletId: wallet.id,
        vesting: { enabled: true, cliffPercent: '100', cliffHours: '0.01', months: 1 },
      },
    });
    expect(res.statusCode, res.body).toBe(202);
    const { jobId } = res.json() as { jobId: string };
    await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 60_000 });
    const status = (
      await call(alice, 'GET', `/api/job-status/${jobId}`)
    ).json() as JobStatusView<DeployResult>;
    expect(status.status, JSON.stringify(status)).toBe('completed');
    crash = status.result!;
    const [row] = await t.database.db.select().from(jobs).where(eq(jobs.id, jobId));
    crashPayload = row!.payload as DeployPayload;
    const cliff = crashPayload.vesting!.tranches[0]!.unlockAt;
    while ((await validatedClose(client())).closeTime <= cliff)
      await client().request({ command: 'ledger_accept' } as never);
  }, 120_000);

  it('the instance taking over waits for the recorded transaction and signs no other', async () => {
    const view = (
      (await call(alice, 'GET', '/api/dashboard/vesting')).json() as VestingScheduleView
    ).tokens.find((x) => x.tokenId === crash.token_id)!;
    expect(view.tranches.map((x) => [x.amount, x.status])).toEqual([['100000', 'due']]);
    const seq = view.tranches[0]!.escrowSequence!;
    // The dead instance had claimed the token and recorded (then submitted) the finish as `release`
    // does — same intent key, same transaction — and was killed before it could wait for it.
    await t.database.db.insert(vestingAutoRelease).values({
      tokenId: crash.token_id,
      userId: alice.user.id,
      enabled: true,
      nextDueAt: crashPayload.vesting!.tranches[0]!.unlockAt,
      keeperOwner: 'killed-instance',
      keeperUntil: sql`now() + interval '1 hour'`,
    });
    const recorded = await t.app.platform.submissions!.prepare({
      intentKey: `vesting-release:${wallet.address}:${seq}`,
      account: wallet.address,
      tx: { TransactionType: 'EscrowFinish', Owner: wallet.address, OfferSequence: seq },
      purpose: 'vesting-release',
      userId: alice.user.id,
      walletId: wallet.id,
    });
    const b = otherInstance('test-instance-b');
    // Its lease still holds: nobody touches the token.
    expect(await b.runOnce()).toEqual([]);
    await t.database.db
      .update(vestingAutoRelease)
      .set({ keeperUntil: sql`now() - interval '1 second'` })
      .where(eq(vestingAutoRelease.tokenId, crash.token_id));
    const [round] = await b.runOnce();
    expect(round).toMatchObject({ tokenId: crash.token_id, error: null });
    // Either it found the finish still in flight and waited for it (that very hash), or it was
    // already validated and the tranche read as released: never a second transaction.
    expect(round!.released.map((r) => r.hash)).toEqual(round!.released.length ? [recorded.hash] : []);
    const mine = (await releases()).filter((r) => r.intentKey.endsWith(`:${seq}`));
    expect(mine.map((r) => [r.hash, r.status])).toEqual([[recorded.hash, 'success']]);
    const line = await client().request({
      command: 'account_lines',
      account: wallet.address,
      peer: crash.issuer_address,
      ledger_index: 'validated',
    });
    expect(line.result.lines.find((l) => l.currency === crash.currency)?.balance).toBe('100000');
    const [setting] = await t.database.db
      .select()
      .from(vestingAutoRelease)
      .where(eq(vestingAutoRelease.tokenId, crash.token_id));
    expect(setting).toMatchObject({ keeperOwner: null, nextDueAt: null, lastError: null });
  });
});
