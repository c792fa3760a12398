import Decimal from 'decimal.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'xrpl';
import {
  AIRDROP_MESSAGES,
  type Airdrop,
  type ClaimAirdropResult,
  type CreateAirdropResult,
  type DeployResult,
} from '@ledgerpad/shared';
import { AIRDROP_CLOSE_JOB, drawAmount } from '../../src/modules/airdrops';
import { jobs } from '../../src/platform/jobs';
import { airdrops as airdropsTable } from '../../src/modules/airdrops/schema';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { platformWallet } from '../../src/platform/custody';
import type { SignedIn } from '../helpers/test-app';
import { deployToken, fundedWallet } from '../helpers/trading-world';
import { tokenBalance } from '../helpers/ledger-reads';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// Airdrops on the embedded ledger, checked through xrpl.js: creation moves exactly the total into a
// dedicated airdrop wallet (and the fee to the fee wallet); claims pay exactly their amount; one
// claim per user, only to one's own wallet; 20 claims at once on 15 allocations pay exactly 15;
// random draws stay in range and always leave the minimum for every later claim; the expiry sweep
// (run with a clock two hours ahead) returns the leftover to the creator.

let t: WalletTestApp;
let client: Client;
let owner: SignedIn;
let alice: SignedIn;
let aliceWallet: { id: number; address: string };
let bob: SignedIn;
let bobWallet: { id: number; address: string };
let token: DeployResult;
let currency: string;
const claimers: Array<{ who: SignedIn; wallet: { id: number; address: string } }> = [];

const post = (url: string, who: SignedIn | undefined, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers: who?.headers ?? {}, payload });
const get = (url: string, who?: SignedIn) =>
  t.app.inject({ method: 'GET', url, headers: who ? { cookie: who.cookie } : {} });

const lineBalance = async (address: string): Promise<Decimal> =>
  new Decimal(await tokenBalance(client, address, token.issuer_address, currency));

const hourFromNow = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

const form = (over: Record<string, unknown> = {}) => ({
  sourceWalletId: aliceWallet.id,
  tokenCode: 'AIR',
  issuerAddress: token.issuer_address,
  projectName: 'Air Project',
  tagline: 'Free AIR',
  logoUrl: '',
  description: 'An airdrop',
  perUserType: 'fixed',
  totalTokenAmount: '1500',
  fixedAmount: '100',
  deadline: hourFromNow(1),
  website: 'https://air.example',
  twitter: '',
  trustlineMode: 'auto',
  ...over,
});

async function createAirdrop(over: Record<string, unknown>) {
  const res = await post('/api/airdrops', alice, form(over));
  expect(res.statusCode, res.body).toBe(202);
  const body = res.json() as CreateAirdropResult;
  const job = await t.app.platform.jobs.waitFor(body.jobId, { timeoutMs: 30_000 });
  expect(job.status, job.error ?? '').toBe('completed');
  const [row] = await t.database.db.select().from(airdropsTable).where(eq(airdropsTable.id, body.id));
  return row!;
}

async function airdropRow(id: number) {
  const [row] = await t.database.db.select().from(airdropsTable).where(eq(airdropsTable.id, id));
  return row!;
}

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 150 });
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  owner = await t.signInOwner();
  const ownerWallet = await fundedWallet(t, owner);
  token = await deployToken(t, owner, ownerWallet.id, { name: 'Air Token', ticker: 'AIR' });
  currency = 'AIR';
  alice = await t.signIn('alice_airdrop');
  aliceWallet = await fundedWallet(t, alice);
  const swap = await post('/api/swap', alice, {
    walletAddress: aliceWallet.address,
    issuer: token.issuer_address,
    token: 'AIR',
    amount: '10',
    type: 'BUY',
    slippage: '1',
    baseAsset: 'XRP',
  });
  expect(swap.statusCode, swap.body).toBe(200);
  bob = await t.signIn('bob_airdrop');
  bobWallet = await fundedWallet(t, bob, 1);
  const people = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const who = await t.signIn(`claimer_${i}`);
      return { who, wallet: await fundedWallet(t, who, 1) };
    }),
  );
  claimers.push(...people);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('airdrops', () => {
  let fixed: Awaited<ReturnType<typeof createAirdrop>>;

  it('refuses bad forms: past deadline, LP tokens, more than the balance, another user’s wallet', async () => {
    const past = await post('/api/airdrops', alice, form({ deadline: hourFromNow(-1) }));
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe(AIRDROP_MESSAGES.deadline);
    const lp = await post('/api/airdrops', alice, form({ tokenCode: `03${'A'.repeat(38)}` }));
    expect(lp.statusCode).toBe(400);
    expect(JSON.stringify(lp.json())).toContain(AIRDROP_MESSAGES.lpToken);
    const tooMuch = await post('/api/airdrops', alice, form({ totalTokenAmount: '100000000' }));
    expect(tooMuch.statusCode, tooMuch.body).toBe(400);
    expect(tooMuch.json().message).toMatch(/exceeds this wallet's balance/);
    const notMine = await post('/api/airdrops', bob, form());
    expect(notMine.statusCode).toBe(404);
    const random = await post(
      '/api/airdrops',
      alice,
      form({ perUserType: 'random', randomMin: '5', randomMax: '5' }),
    );
    expect(random.statusCode).toBe(400);
    expect(JSON.stringify(random.json())).toContain(AIRDROP_MESSAGES.randomRange);
    const digits = await post('/api/airdrops', alice, form({ totalTokenAmount: '1234567890.123456' }));
    expect(digits.statusCode).toBe(400);
    expect(JSON.stringify(digits.json())).toContain(AIRDROP_MESSAGES.digits('totalTokenAmount'));
    const anon = await post('/api/airdrops', undefined, form());
    expect([401, 403]).toContain(anon.statusCode);
  });

  it('moves exactly the total into a dedicated airdrop wallet and the fee to the fee wallet', async () => {
    const before = await lineBalance(aliceWallet.address);
    const feeWallet = (await platformWallet(t.database.db, PLATFORM_ROLES.fee))!.address;
    const feeBefore = await xrpOf(feeWallet);
    fixed = await createAirdrop({});
    expect(fixed.status).toBe('active');
    expect(fixed.maxClaims).toBe(15);
    expect(fixed.airdropAddress).toMatch(/^r/);
    expect((await lineBalance(fixed.airdropAddress!)).eq(1500)).toBe(true);
    expect(before.minus(await lineBalance(aliceWallet.address)).eq(1500)).toBe(true);
    expect(await xrpOf(feeWallet)).toBe(feeBefore + 2_000_000n);

    const alloc = await get(`/api/airdrops/allocations/${aliceWallet.id}/AIR/${token.issuer_address}`, alice);
    expect(alloc.statusCode, alloc.body).toBe(200);
    expect(alloc.json()).toEqual({ allocated: '1500' });
    const foreign = await get(`/api/airdrops/allocations/${aliceWallet.id}/AIR/${token.issuer_address}`, bob);
    expect(foreign.statusCode).toBe(404);

    const list = await get('/api/airdrops');
    expect(list.statusCode).toBe(200);
    const row = (list.json() as Airdrop[]).find((a) => a.id === fixed.id)!;
    expect(row).toMatchObject({
      project_name: 'Air Project',
      token_code: 'AIR',
      fixed_amount: '100',
      min_amount: null,
      max_claims: 15,
      claimed_count: 0,
      total_token_amount: '1500',
      has_claimed: false,
      status: 'active',
      website_url: 'https://air.example',
    });
  });

  it('pays a fixed claim exactly, once per user, only to the claimer’s own wallet', async () => {
    const foreign = await post(`/api/airdrops/${fixed.id}/claim`, bob, {
      destinationWalletId: aliceWallet.id,
    });
    expect(foreign.statusCode).toBe(404);
    const res = await post(`/api/airdrops/${fixed.id}/claim`, bob, { destinationWalletId: bobWallet.id });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as ClaimAirdropResult).amount).toBe('100');
    expect((await lineBalance(bobWallet.address)).eq(100)).toBe(true);
    expect((await lineBalance(fixed.airdropAddress!)).eq(1400)).toBe(true);

    const again = await post(`/api/airdrops/${fixed.id}/claim`, bob, { destinationWalletId: bobWallet.id });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(AIRDROP_MESSAGES.alreadyClaimed);

    const mine = (await get('/api/airdrops', bob)).json() as Airdrop[];
    expect(mine.find((a) => a.id === fixed.id)).toMatchObject({ has_claimed: true, claimed_count: 1 });
    const anon = (await get('/api/airdrops')).json() as Airdrop[];
    expect(anon.find((a) => a.id === fixed.id)?.has_claimed).toBe(false);
    // Only its creator is told it is theirs: the screen offers them no Claim (issue 39).
    const own = (await get('/api/airdrops', alice)).json() as Airdrop[];
    expect(own.find((a) => a.id === fixed.id)?.is_creator).toBe(true);
    expect(mine.find((a) => a.id === fixed.id)?.is_creator).toBe(false);
    expect(anon.find((a) => a.id === fixed.id)?.is_creator).toBe(false);
  });

  it('pays a double click once: two claims of one user sent together are one payment and one refusal', async () => {
    // One allocation: a second payment could only come from the same user's second claim.
    const a = await createAirdrop({ totalTokenAmount: '10', fixedAmount: '10' });
    const who = await t.signIn('double_click_claimer');
    const c = { who, wallet: await fundedWallet(t, who, 1) };
    const before = await lineBalance(c.wallet.address);
    // Sent in the same turn, so they are reserved in the same batch (db/batched.ts).
    const both = await Promise.all(
      [1, 2].map(() => post(`/api/airdrops/${a.id}/claim`, c.who, { destinationWalletId: c.wallet.id })),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(both.find((r) => r.statusCode === 400)!.json().message).toBe(AIRDROP_MESSAGES.alreadyClaimed);
    expect((await lineBalance(c.wallet.address)).minus(before).eq(10)).toBe(true);
    const row = await airdropRow(a.id);
    expect(row.claimedCount).toBe(1);
    expect(new Decimal(row.remaining).eq(0)).toBe(true);
  });

  it('pays exactly 15 of 20 concurrent claims on an airdrop covering 15', async () => {
    // 155 at 10 each: 15 allocations, 5 left over.
    const a = await createAirdrop({ totalTokenAmount: '155', fixedAmount: '10' });
    expect(a.maxClaims).toBe(15);
    const results = await Promise.all(
      claimers.map((c) => post(`/api/airdrops/${a.id}/claim`, c.who, { destinationWalletId: c.wallet.id })),
    );
    const paid = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode === 400);
    expect(paid.length, results.map((r) => r.body).join('\n')).toBe(15);
    expect(refused.length).toBe(5);
    for (const r of refused) expect(r.json().message).toBe(AIRDROP_MESSAGES.exhausted);
    const balances = await Promise.all(claimers.map((c) => lineBalance(c.wallet.address)));
    expect(balances.filter((b) => b.eq(10)).length).toBe(15);
    expect(balances.filter((b) => b.eq(0)).length).toBe(5);
    const row = await airdropRow(a.id);
    expect(row.claimedCount).toBe(15);
    // The owned loop may already be closing it (no allocation left): unpaid + returned = 5.
    expect(new Decimal(row.remaining).plus(row.returnedAmount ?? '0').eq(5)).toBe(true);

    // Closed because fully claimed: the 5 left over go back to the creator.
    const creatorBefore = new Decimal(row.returnedAmount ? '0' : '5');
    const aliceBefore = await lineBalance(aliceWallet.address);
    await t.app.airdrops.sweep();
    await closed(a.id);
    const after = await airdropRow(a.id);
    expect(after).toMatchObject({ status: 'closed', returnedAmount: '5', remaining: '0' });
    expect((await lineBalance(a.airdropAddress!)).eq(0)).toBe(true);
    const back = (await lineBalance(aliceWallet.address)).minus(aliceBefore);
    expect(back.eq(creatorBefore) || back.eq(0)).toBe(true);
  }, 60_000);

  it('draws random claims within [min, max] and always leaves the minimum for every later claim', async () => {
    // The draw rule on its own: near the end the upper bound shrinks to what the rest can spare.
    const end = { fixedAmount: null, minAmount: '5', maxAmount: '20', maxClaims: 10, claimedCount: 8 };
    expect(drawAmount({ ...end, remaining: '12' }, 1)).toBe('7');
    expect(drawAmount({ ...end, remaining: '12' }, 0)).toBe('5');
    expect(drawAmount({ ...end, remaining: '9' }, 1)).toBeUndefined();

    // 100 at 5..20: 20 claims at most. Manual trust lines: the claimers hold AIR lines already.
    const a = await createAirdrop({
      perUserType: 'random',
      totalTokenAmount: '100',
      fixedAmount: '',
      randomMin: '5',
      randomMax: '20',
      trustlineMode: 'manual',
      deadline: hourFromNow(24),
    });
    expect(a.maxClaims).toBe(20);
    const stranger = await t.signIn('no_line_airdrop');
    const strangerWallet = await fundedWallet(t, stranger, 1);
    const noLine = await post(`/api/airdrops/${a.id}/claim`, stranger, {
      destinationWalletId: strangerWallet.id,
    });
    expect(noLine.statusCode).toBe(400);
    expect(noLine.json().message).toBe(AIRDROP_MESSAGES.trustlineMissing('AIR'));

    // The 15 paid by the previous test hold an AIR line (which 15 won that race varies).
    const balances = await Promise.all(claimers.map((c) => lineBalance(c.wallet.address)));
    const holders = claimers
      .map((c, i) => ({ ...c, before: balances[i]! }))
      .filter((c) => c.before.gt(0))
      .slice(0, 8);
    expect(holders).toHaveLength(8);
    // 8 claims never exhaust it (each leaves at least 5 for each of the 12 others): no sweep ends it.
    const results = await Promise.all(
      holders.map((c) => post(`/api/airdrops/${a.id}/claim`, c.who, { destinationWalletId: c.wallet.id })),
    );
    let paid = new Decimal(0);
    for (const [i, r] of results.entries()) {
      expect(r.statusCode, r.body).toBe(200);
      const amount = new Decimal((r.json() as ClaimAirdropResult).amount);
      expect(amount.gte(5) && amount.lte(20), amount.toFixed()).toBe(true);
      expect(amount.decimalPlaces()).toBeLessThanOrEqual(6);
      expect((await lineBalance(holders[i]!.wallet.address)).minus(holders[i]!.before).eq(amount)).toBe(true);
      paid = paid.plus(amount);
    }
    const row = await airdropRow(a.id);
    const remaining = new Decimal(row.remaining);
    expect(remaining.plus(paid).eq(100)).toBe(true);
    expect(remaining.gte(new Decimal(5).mul(row.maxClaims - row.claimedCount))).toBe(true);
    expect((await lineBalance(a.airdropAddress!)).eq(remaining)).toBe(true);
  }, 60_000);

  it('returns the leftover to the creator once the deadline passed, and refuses later claims', async () => {
    const before = await lineBalance(aliceWallet.address);
    // The sweep compares deadlines with the server clock; run it two hours ahead.
    const jobIds = await t.app.airdrops.sweep(new Date(Date.now() + 2 * 3600_000));
    expect(jobIds).toHaveLength(1); // the fixed airdrop; the random one runs for 24 hours
    await closed(fixed.id);
    const row = await airdropRow(fixed.id);
    expect(row.status).toBe('expired');
    expect(row.returnedAmount).toBe('1400');
    expect((await lineBalance(fixed.airdropAddress!)).eq(0)).toBe(true);
    expect((await lineBalance(aliceWallet.address)).minus(before).eq(1400)).toBe(true);
    const list = (await get('/api/airdrops')).json() as Airdrop[];
    expect(list.find((a) => a.id === fixed.id)?.status).toBe('expired');
    const late = await post(`/api/airdrops/${fixed.id}/claim`, claimers[19]!.who, {
      destinationWalletId: claimers[19]!.wallet.id,
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(AIRDROP_MESSAGES.expired);
  }, 60_000);
});

/** Waits for the close job of an airdrop (enqueued by the test's sweep or by the owned loop). */
async function closed(airdropId: number): Promise<void> {
  const [job] = await t.database.db
    .select()
    .from(jobs)
    .where(eq(jobs.key, `${AIRDROP_CLOSE_JOB}:${airdropId}`));
  expect(job, `close job of airdrop ${airdropId}`).toBeDefined();
  const done = await t.app.platform.jobs.waitFor(job!.id, { timeoutMs: 30_000 });
  expect(done.status, done.error ?? '').toBe('completed');
}

async function xrpOf(address: string): Promise<bigint> {
  const r = await client.request({ command: 'account_info', account: address, ledger_index: 'validated' });
  return BigInt(r.result.account_data.Balance);
}
