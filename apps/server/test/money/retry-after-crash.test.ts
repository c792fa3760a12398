import { count, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'xrpl';
import { Decimal, type DeployResult, type JobStatusView, type ReferralSummary } from '@ledgerpad/shared';
import { rowsOf } from '../../src/db/results';
import { testLogo } from '../helpers/test-logo';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { idempotentRequests } from '../../src/lib/idempotency-schema';
import { airdropClaims, airdrops } from '../../src/modules/airdrops/schema';
import { referralClaims } from '../../src/modules/referrals/schema';
import { rewardClaims } from '../../src/modules/rewards/schema';
import { TRADING_FEE_JOB } from '../../src/modules/trading';
import { jobs } from '../../src/platform/jobs';
import type { SignedIn } from '../helpers/test-app';
import { ammLaunchBody, fundedWallet } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// Answers tell the truth after a crash (issue 34): a write whose first attempt did its work but
// never stored its answer — the process killed between the ledger's result and the answer, or an
// answer lost to a 5xx — is run again by its retry (same Idempotency-Key), and must answer with
// what the first attempt did (paid, its hash), not refuse because its own effect is now there
// ("fully claimed", "more than held", "funded less than a minute ago", "nothing to claim"), and
// never do it twice. Each case sends the request, removes its stored answer (what a kill -9 leaves:
// no answer for the key, the effect committed), and sends it again. The kill -9 itself is in the
// crash tests (test/airdrops/crash.test.ts retries its claims after the kill).

let t: WalletTestApp;
let client: Client;
let alice: SignedIn;
let bob: SignedIn;
let aliceWallet: { id: number; address: string };
let bobWallet: { id: number; address: string };
let token: DeployResult;

const post = (who: SignedIn, url: string, payload: object, key: string) =>
  t.app.inject({ method: 'POST', url, headers: { ...who.headers, 'idempotency-key': key }, payload });

/** What a kill -9 after the effect leaves: the effect, and no answer stored for the key. */
const loseAnswer = (key: string) =>
  t.database.db.delete(idempotentRequests).where(eq(idempotentRequests.key, key));

/** Ledger transactions recorded for the intents a key named. */
const signedFor = async (key: string) =>
  (
    await t.database.db
      .select({ n: count() })
      .from(ledgerSubmissions)
      .where(like(ledgerSubmissions.intentKey, `%${key}%`))
  )[0]!.n;

/** Sends, loses the answer, sends again: both answers, and the transactions signed in between. */
async function retried(who: SignedIn, url: string, payload: object, key: string) {
  const first = await post(who, url, payload, key);
  const signed = await signedFor(key);
  await loseAnswer(key);
  const again = await post(who, url, payload, key);
  expect(again.headers['idempotent-replayed'], 'the retry ran the route again').toBeUndefined();
  return { first, again, signedAgain: (await signedFor(key)) - signed };
}

const market = () => ({ issuer: token.issuer_address, token: token.currency });

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  alice = await t.signIn('retry_alice');
  // Bob signs up through Alice's referral link: his trades' fees earn her the referral share.
  const link = await t.app.inject({ url: '/api/referrals/me', headers: { cookie: alice.cookie } });
  bob = await t.signIn('retry_bob', link.json<ReferralSummary>().code);
  aliceWallet = await fundedWallet(t, alice, 3);
  bobWallet = await fundedWallet(t, bob, 3);
}, 180_000);
afterAll(() => t?.close());

describe('a retry after the first answer was lost answers with the first attempt', () => {
  it('deploy: the same job, not a second deploy (nor "a deploy is already running from this wallet")', async () => {
    const body = ammLaunchBody(
      aliceWallet.id,
      { name: 'Retry Token', ticker: 'RTRY' },
      await testLogo(t.database.db),
    );
    const { first, again } = await retried(alice, '/api/deploy-token', body, 'retry-deploy-1');
    expect(first.statusCode, first.body).toBe(202);
    expect(again.statusCode, again.body).toBe(202);
    const { jobId } = first.json() as { jobId: string };
    expect(again.json()).toEqual({ jobId });
    const job = await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 90_000 });
    expect(job.status, job.error ?? '').toBe('completed');
    token = (job as unknown as JobStatusView<DeployResult>).result!;
    const deploys = await t.database.db.select().from(jobs).where(eq(jobs.userId, alice.user.id));
    expect(deploys.filter((j) => j.type === 'deploy')).toHaveLength(1);
  }, 120_000);

  it('swap and transfer: the first transaction', async () => {
    const swap = await retried(
      bob,
      '/api/swap',
      {
        walletAddress: bobWallet.address,
        ...market(),
        amount: '10',
        type: 'BUY',
        slippage: '5',
        baseAsset: 'XRP',
      },
      'retry-swap-1',
    );
    expect(swap.first.statusCode, swap.first.body).toBe(200);
    expect(swap.again.statusCode, swap.again.body).toBe(200);
    expect(swap.again.json<{ hash: string }>().hash).toBe(swap.first.json<{ hash: string }>().hash);
    expect(swap.signedAgain).toBe(0);
    // Its platform fee accrues the creator's reward (claimed below).
    const [fee] = await t.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `${TRADING_FEE_JOB}:${swap.first.json<{ hash: string }>().hash}`));
    expect((await t.app.platform.jobs.waitFor(fee!.id, { timeoutMs: 30_000 })).status).toBe('completed');

    const transfer = await retried(
      bob,
      '/api/wallets/transfer',
      { walletId: bobWallet.id, recipient: aliceWallet.address, amount: '1.5', token: null },
      'retry-transfer-1',
    );
    expect(transfer.again.statusCode, transfer.again.body).toBe(200);
    expect(transfer.again.json<{ hash: string }>().hash).toBe(transfer.first.json<{ hash: string }>().hash);
    expect(transfer.signedAgain).toBe(0);
  }, 60_000);

  it('faucet: the first payout, not 429 "funded less than a minute ago"', async () => {
    const fresh = await fundedWallet(t, bob, 0);
    const { first, again, signedAgain } = await retried(
      bob,
      `/api/wallets/${fresh.id}/fund`,
      {},
      'retry-fund-1',
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<{ hash: string }>().hash).toBe(first.json<{ hash: string }>().hash);
    expect(signedAgain).toBe(0);
  });

  it('liquidity: the deposit, the slot bid and the withdrawal of every LP token each answer their transaction', async () => {
    const add = await retried(
      bob,
      '/api/add-liquidity',
      {
        wallet: bobWallet.address,
        ...market(),
        mode: 'single-asset',
        selectedAsset: { currency: 'XRP' },
        amountXrp: '5',
        amountToken: '',
      },
      'retry-add-1',
    );
    expect(add.first.statusCode, add.first.body).toBe(200);
    expect(add.again.json<{ hash: string }>().hash).toBe(add.first.json<{ hash: string }>().hash);

    const slot = await t.app.inject({
      method: 'POST',
      url: '/api/amm-auction',
      headers: bob.headers,
      payload: market(),
    });
    const price = slot.json<{ price: string }>().price;
    const bid = await retried(
      bob,
      '/api/amm-bid',
      { wallet: bobWallet.address, ...market(), maxPrice: price },
      'retry-bid-1',
    );
    expect(bid.first.statusCode, bid.first.body).toBe(200);
    // Checked again, the slot's price after its own bid would be "moved".
    expect(bid.again.statusCode, bid.again.body).toBe(200);
    expect(bid.again.json<{ hash: string }>().hash).toBe(bid.first.json<{ hash: string }>().hash);
    expect(bid.signedAgain).toBe(0);

    const held = (
      await t.app.inject({
        method: 'POST',
        url: '/api/lp-token-balance',
        headers: bob.headers,
        payload: { wallet: bobWallet.address, ...market() },
      })
    ).json<{ balance: string }>().balance;
    const remove = await retried(
      bob,
      '/api/remove-liquidity',
      { wallet: bobWallet.address, ...market(), amountLp: held, mode: 'double', limitPrice: '' },
      'retry-remove-1',
    );
    expect(remove.first.statusCode, remove.first.body).toBe(200);
    // Checked again, the LP tokens it redeemed would be "more than held".
    expect(remove.again.statusCode, remove.again.body).toBe(200);
    expect(remove.again.json()).toEqual(remove.first.json());
    expect(remove.signedAgain).toBe(0);
  }, 60_000);

  it("creator reward claim: the first claim's payment, not 'Nothing to claim.' nor a second claim", async () => {
    const { first, again } = await retried(
      alice,
      '/api/claim-rewards',
      { wallet: aliceWallet.address, ...market(), percent: 100 },
      'retry-reward-1',
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    const claims = await t.database.db
      .select()
      .from(rewardClaims)
      .where(eq(rewardClaims.userId, alice.user.id));
    expect(claims).toHaveLength(1);
  }, 60_000);

  it("referral claim: the first claim's payment, not 'Nothing to claim.' nor a second claim", async () => {
    // Bob's swap above paid its fee: Alice, who referred him, has her share of it to claim.
    const before = (
      await t.app.inject({ url: '/api/referrals/me', headers: { cookie: alice.cookie } })
    ).json<ReferralSummary>();
    const claimable = before.balances.find((b) => b.currency === 'XRP')!.claimable;
    expect(Number(claimable)).toBeGreaterThan(0);
    const { first, again } = await retried(
      alice,
      '/api/referrals/claim',
      { wallet: aliceWallet.address, currency: 'XRP' },
      'retry-referral-1',
    );
    expect(first.statusCode, first.body).toBe(200);
    const paid = first.json<{ claimed: string; to: string; hash: string }>();
    expect(new Decimal(paid.claimed).eq(claimable), `${paid.claimed} claimed of ${claimable}`).toBe(true);
    expect(paid.to).toBe(aliceWallet.address);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    const claims = await t.database.db
      .select()
      .from(referralClaims)
      .where(eq(referralClaims.userId, alice.user.id));
    expect(claims.map((c) => [c.status, c.hash])).toEqual([['paid', paid.hash]]);
    // Paid on the ledger once.
    const tx = await client.request({ command: 'tx', transaction: claims[0]!.hash! });
    expect((tx.result.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
  }, 60_000);

  it("airdrop: the creation's airdrop and job; a claim of the last allocation answers paid with its hash, not 'fully claimed'", async () => {
    const created = await retried(
      bob,
      '/api/airdrops',
      {
        sourceWalletId: bobWallet.id,
        tokenCode: token.currency,
        issuerAddress: token.issuer_address,
        projectName: 'Retry Drop',
        perUserType: 'fixed',
        totalTokenAmount: '5',
        fixedAmount: '5',
        deadline: new Date(Date.now() + 3_600_000).toISOString(),
        trustlineMode: 'auto',
      },
      'retry-airdrop-1',
    );
    expect(created.first.statusCode, created.first.body).toBe(202);
    expect(created.again.statusCode, created.again.body).toBe(202);
    const drop = created.first.json<{ id: number; jobId: string }>();
    expect(created.again.json()).toMatchObject({ id: drop.id, jobId: drop.jobId });
    expect(await t.database.db.select().from(airdrops)).toHaveLength(1);
    expect((await t.app.platform.jobs.waitFor(drop.jobId, { timeoutMs: 60_000 })).status).toBe('completed');

    // One allocation: after the first claim the airdrop is fully claimed.
    const claim = await retried(
      alice,
      `/api/airdrops/${drop.id}/claim`,
      { destinationWalletId: aliceWallet.id },
      'retry-claim-1',
    );
    expect(claim.first.statusCode, claim.first.body).toBe(200);
    expect(claim.again.statusCode, claim.again.body).toBe(200);
    expect(claim.again.json()).toEqual(claim.first.json());
    const rows = await t.database.db.select().from(airdropClaims).where(eq(airdropClaims.airdropId, drop.id));
    expect(rows.map((r) => [r.status, r.hash])).toEqual([
      ['paid', claim.first.json<{ hash: string }>().hash],
    ]);
    // The payment is on the ledger once.
    const tx = await client.request({ command: 'tx', transaction: rows[0]!.hash! });
    expect((tx.result.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
  }, 120_000);

  it("an issuer action (freeze) answers the first transaction's hash, not a bare success", async () => {
    const tokenId = rowsOf<{ id: number }>(
      await t.database.db.execute(sql`select id from tokens where issuer_address = ${token.issuer_address}`),
    )[0]!.id;
    const { first, again, signedAgain } = await retried(
      alice,
      `/api/dashboard/trust-lines/${tokenId}/freeze`,
      { accountAddress: bobWallet.address, freeze: true },
      'retry-freeze-1',
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<{ hash?: string }>().hash).toBeTruthy();
    expect(again.json()).toEqual(first.json());
    expect(signedAgain).toBe(0);
  });
});
