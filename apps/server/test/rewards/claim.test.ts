import Decimal from 'decimal.js';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'xrpl';
import {
  REWARD_MESSAGES,
  type ClaimRewardsResult,
  type DeployResult,
  type RewardClaimTotal,
  type RewardSummaryRow,
  type SwapResult,
} from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { platformWallet } from '../../src/platform/custody';
import { jobs } from '../../src/platform/jobs';
import { rewardClaims } from '../../src/modules/rewards/schema';
import { tokens as tokensTable } from '../../src/modules/tokens/schema';
import { TRADING_FEE_JOB } from '../../src/modules/trading';
import type { SignedIn } from '../helpers/test-app';
import { deployToken, fundedWallet } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// Creator rewards on the embedded ledger: real swaps accrue the creator's third of the 0.75% fee,
// a claim pays exactly its amount from the fee wallet, concurrent claims never exceed what is
// unclaimed, only the creator may claim and only to their own wallet, and a payment that fails
// gives the reservation back.

let t: WalletTestApp;
let client: Client;
let owner: SignedIn;
let ownerWallet: { id: number; address: string };
let alice: SignedIn;
let aliceWallet: { id: number; address: string };
let token: DeployResult;
let feeWallet: string;

const post = (url: string, who: SignedIn, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload });
const get = (url: string, who: SignedIn) =>
  t.app.inject({ method: 'GET', url, headers: { cookie: who.cookie } });

const walletOf = (who: SignedIn) => fundedWallet(t, who);

async function xrpOf(address: string): Promise<bigint> {
  const r = await client.request({ command: 'account_info', account: address, ledger_index: 'validated' });
  return BigInt(r.result.account_data.Balance);
}

async function txFee(hash: string): Promise<bigint> {
  const r = await client.request({ command: 'tx', transaction: hash });
  const result = r.result as unknown as { tx_json?: { Fee?: string }; Fee?: string };
  return BigInt(result.tx_json?.Fee ?? result.Fee ?? 'x');
}

async function tokenRow() {
  const [row] = await t.database.db
    .select()
    .from(tokensTable)
    .where(eq(tokensTable.issuerAddress, token.issuer_address));
  return row!;
}

async function buy(amount: string): Promise<SwapResult> {
  const res = await post('/api/swap', alice, {
    walletAddress: aliceWallet.address,
    issuer: token.issuer_address,
    token: 'RWD',
    amount,
    type: 'BUY',
    slippage: '1',
    baseAsset: 'XRP',
  });
  expect(res.statusCode, res.body).toBe(200);
  const s = res.json() as SwapResult;
  const [job] = await t.database.db
    .select()
    .from(jobs)
    .where(eq(jobs.key, `${TRADING_FEE_JOB}:${s.hash}`));
  const done = await t.app.platform.jobs.waitFor(job!.id, { timeoutMs: 30_000 });
  expect(done.status, done.error ?? '').toBe('completed');
  return s;
}

const claim = (who: SignedIn, body: Record<string, unknown>) =>
  post('/api/claim-rewards', who, {
    wallet: ownerWallet.address,
    token: 'RWD',
    issuer: token.issuer_address,
    percent: 100,
    ...body,
  });

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  feeWallet = (await platformWallet(t.database.db, PLATFORM_ROLES.fee))!.address;
  owner = await t.signInOwner();
  ownerWallet = await walletOf(owner);
  token = await deployToken(t, owner, ownerWallet.id, { name: 'Reward Token', ticker: 'RWD' });
  alice = await t.signIn('alice_rewards');
  aliceWallet = await walletOf(alice);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('creator rewards', () => {
  it('accrues a third of the 0.75% fee of real swaps to the creator', async () => {
    await buy('10');
    await buy('7');
    // Fees: 10 × 0.75% = 0.075 and 7 × 0.75% = 0.0525 XRP; the creator's third: 0.025 + 0.0175.
    const row = await tokenRow();
    expect(new Decimal(row.totalReward).eq('0.0425')).toBe(true);
    expect(row.rewardCurrency).toBe('XRP');

    const summary = await get('/api/rewards/summary', owner);
    expect(summary.statusCode, summary.body).toBe(200);
    const rows = summary.json() as RewardSummaryRow[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: row.id, reward_currency: 'XRP' });
    expect(new Decimal(rows[0]!.total_reward).eq('0.0425')).toBe(true);
    const totals = (await get('/api/rewards/claim-totals', owner)).json() as RewardClaimTotal[];
    expect(totals).toEqual([{ token_id: row.id, total_claimed: '0' }]);
    // Someone else's view has none of the creator's tokens.
    expect((await get('/api/rewards/summary', alice)).json()).toEqual([]);
  });

  it('refuses a percent outside 10..100 in steps of 10', async () => {
    for (const percent of [5, 110, 15, 0, '50.5']) {
      const res = await claim(owner, { percent });
      expect(res.statusCode, `${percent}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ message: REWARD_MESSAGES.percent });
    }
  });

  it('refuses a claim by anyone but the creator, and to another user’s wallet', async () => {
    const byAlice = await claim(alice, { wallet: aliceWallet.address });
    expect(byAlice.statusCode, byAlice.body).toBe(403);
    expect(byAlice.json()).toMatchObject({ message: REWARD_MESSAGES.notCreator });

    const toAlice = await claim(owner, { wallet: aliceWallet.address });
    expect(toAlice.statusCode, toAlice.body).toBe(404);
    expect(toAlice.json()).toMatchObject({ message: REWARD_MESSAGES.walletNotFound });

    const unknown = await claim(owner, { token: 'NOPE' });
    expect(unknown.statusCode).toBe(404);
    // Nothing was reserved by any refusal.
    expect((await tokenRow()).totalClaimed).toBe('0');
    expect(await t.database.db.select().from(rewardClaims)).toEqual([]);
  });

  it('pays exactly the percent of the unclaimed reward, rounded down to 6 decimals, from the fee wallet', async () => {
    const ownerBefore = await xrpOf(ownerWallet.address);
    const feeBefore = await xrpOf(feeWallet);
    const res = await claim(owner, { percent: 50, token: token.currency });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as ClaimRewardsResult;
    // 50% of 0.0425 = 0.02125 XRP = 21 250 drops.
    expect(r).toMatchObject({ claimed: '0.021250', to: ownerWallet.address, currency: 'XRP' });
    expect((await xrpOf(ownerWallet.address)) - ownerBefore).toBe(21_250n);
    // The fee wallet pays the amount plus the network fee of its Payment.
    expect(feeBefore - (await xrpOf(feeWallet))).toBe(21_250n + (await txFee(r.hash)));
    const totals = (await get('/api/rewards/claim-totals', owner)).json() as RewardClaimTotal[];
    expect(new Decimal(totals[0]!.total_claimed).eq('0.02125')).toBe(true);
    const [row] = await t.database.db.select().from(rewardClaims);
    expect(row).toMatchObject({ status: 'paid', amount: '0.021250', hash: r.hash, currency: 'XRP' });
  });

  it('never lets two concurrent claims of 100% together exceed what is unclaimed', async () => {
    const ownerBefore = await xrpOf(ownerWallet.address);
    const [a, b] = await Promise.all([claim(owner, {}), claim(owner, {})]);
    const answers = [a, b].map((r) => ({ status: r.statusCode, body: r.json() as Record<string, string> }));
    const paid = answers.filter((x) => x.status === 200);
    const refused = answers.filter((x) => x.status !== 200);
    expect(paid, JSON.stringify(answers)).toHaveLength(1);
    expect(paid[0]!.body).toMatchObject({ claimed: '0.021250' });
    expect(refused[0]).toMatchObject({ status: 400, body: { message: REWARD_MESSAGES.nothingToClaim } });
    expect((await xrpOf(ownerWallet.address)) - ownerBefore).toBe(21_250n);
    const row = await tokenRow();
    expect(new Decimal(row.totalClaimed).eq(row.totalReward)).toBe(true);

    const again = await claim(owner, { percent: 10 });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ message: REWARD_MESSAGES.nothingToClaim });
  });

  it('refuses a claim the fee wallet cannot pay before reserving or signing anything', async () => {
    // More than the fee wallet holds: checked before signing (it would fail: tecUNFUNDED_PAYMENT).
    const before = await tokenRow();
    await t.database.db
      .update(tokensTable)
      .set({ totalReward: new Decimal(before.totalReward).plus(1_000_000).toFixed() })
      .where(eq(tokensTable.id, before.id));
    const ownerBefore = await xrpOf(ownerWallet.address);
    const res = await claim(owner, { percent: 100 });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toMatchObject({ message: REWARD_MESSAGES.platformCannotPay });
    expect(await xrpOf(ownerWallet.address)).toBe(ownerBefore);
    const after = await tokenRow();
    expect(new Decimal(after.totalClaimed).eq(before.totalClaimed)).toBe(true);
    const claims = await t.database.db.select().from(rewardClaims).orderBy(rewardClaims.id);
    expect(claims.map((c) => c.status)).toEqual(['paid', 'paid']);
    const signed = await t.database.db
      .select()
      .from(ledgerSubmissions)
      .where(like(ledgerSubmissions.intentKey, 'reward-claim:%'));
    expect(signed.map((s) => s.intentKey).sort()).toEqual(
      claims.map((c) => `reward-claim:claim-${c.id}:pay`).sort(),
    );
  });
});
