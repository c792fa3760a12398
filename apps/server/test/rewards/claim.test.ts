import Decimal from 'decimal.js';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type Client } from 'xrpl';
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

  it('gives the reservation back when the payment fails on the ledger, and the claim can be made again', async () => {
    // 0.5 XRP left to claim (the test above inflated the reward past what the fee wallet holds).
    const before = await tokenRow();
    await t.database.db
      .update(tokensTable)
      .set({ totalReward: new Decimal(before.totalClaimed).plus('0.5').toFixed() })
      .where(eq(tokensTable.id, before.id));
    const claimedBefore = new Decimal(before.totalClaimed);
    // A wallet of the creator's that demands a destination tag (asfRequireDest), set with its seed
    // outside the app: the platform's Payment carries none, so the ledger refuses it for real
    // (tecDST_TAG_NEEDED) after the claim was reserved.
    const created = (await post('/api/wallets', owner, {})).json() as {
      id: number;
      wallet_address: string;
      wallet_seed: string;
    };
    const funded = await t.app.inject({
      method: 'POST',
      url: `/api/wallets/${created.id}/fund`,
      headers: owner.headers,
    });
    expect(funded.statusCode, funded.body).toBe(200);
    const own = Wallet.fromSeed(created.wallet_seed);
    const setFlag = async (flag: 'SetFlag' | 'ClearFlag') => {
      const r = await client.submitAndWait(
        { TransactionType: 'AccountSet', Account: own.classicAddress, [flag]: 1 },
        { wallet: own },
      );
      expect((r.result.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
    };
    await setFlag('SetFlag');
    const walletBefore = await xrpOf(created.wallet_address);

    const failed = await claim(owner, { wallet: created.wallet_address, percent: 100 });
    expect(failed.statusCode, failed.body).toBe(400);
    expect(failed.json()).toMatchObject({
      message: REWARD_MESSAGES.claimFailed,
      result: 'tecDST_TAG_NEEDED',
    });
    const failedHash = (failed.json() as { hash: string }).hash;
    // The Payment was signed and validated as a failure: nothing reached the wallet, and the
    // reservation went back to the unclaimed reward to the last digit.
    const onLedger = await client.request({ command: 'tx', transaction: failedHash });
    expect((onLedger.result.meta as { TransactionResult: string }).TransactionResult).toBe(
      'tecDST_TAG_NEEDED',
    );
    expect(await xrpOf(created.wallet_address)).toBe(walletBefore);
    expect(new Decimal((await tokenRow()).totalClaimed).eq(claimedBefore)).toBe(true);
    const [failedClaim] = await t.database.db
      .select()
      .from(rewardClaims)
      .where(eq(rewardClaims.hash, failedHash));
    expect(failedClaim).toMatchObject({ status: 'failed', amount: '0.500000' });
    const totals = (await get('/api/rewards/claim-totals', owner)).json() as RewardClaimTotal[];
    expect(new Decimal(totals[0]!.total_claimed).eq(claimedBefore)).toBe(true);

    // The wallet accepts payments again: the same claim is paid in full, once.
    await setFlag('ClearFlag');
    const walletCleared = await xrpOf(created.wallet_address); // less the AccountSet's fee
    const retried = await claim(owner, { wallet: created.wallet_address, percent: 100 });
    expect(retried.statusCode, retried.body).toBe(200);
    const paid = retried.json() as ClaimRewardsResult;
    expect(paid).toMatchObject({ claimed: '0.500000', to: created.wallet_address, currency: 'XRP' });
    expect((await xrpOf(created.wallet_address)) - walletCleared).toBe(500_000n);
    expect(new Decimal((await tokenRow()).totalClaimed).eq(claimedBefore.plus('0.5'))).toBe(true);
    const nothing = await claim(owner, { wallet: created.wallet_address, percent: 10 });
    expect(nothing.json()).toMatchObject({ message: REWARD_MESSAGES.nothingToClaim });
  });
});
