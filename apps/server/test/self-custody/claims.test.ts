import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import {
  Decimal,
  TRUST_LINE_MAX_LIMIT,
  xrpToDrops,
  type ClaimAirdropResult,
  type CreateAirdropResult,
  type DeployResult,
} from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { platformWallet } from '../../src/platform/custody';
import { airdropClaims, airdrops as airdropsTable } from '../../src/modules/airdrops/schema';
import { tokens as tokensTable } from '../../src/modules/tokens/schema';
import { signingIntents } from '../../src/platform/intents/schema';
import { submitOk } from '../helpers/submit-and-wait';
import type { SignedIn } from '../helpers/test-app';
import type { TradingWorld } from '../helpers/trading-world';
import type { WalletTestApp } from '../wallets/wallet-app';
import { addSelfCustody, intentOf, signIntent } from './helpers';
import { selfCustodyWorld, type SelfCustodyWorld } from './world';

// Money the platform pays INTO a self-custody wallet (docs/self-custody.md): an airdrop claim (the
// airdrop wallet's payment; the claimer's trust line is the only thing the wallet signs) and a
// creator's reward claim (the fee wallet's payment, nothing signed by the wallet at all).

let t: WalletTestApp;
let world: TradingWorld;
let creator: SignedIn;
let alice: SignedIn;
let bob: SignedIn;
let token: DeployResult;
let aliceWallet: { id: number; address: string };
const bobBrowser = Wallet.generate();
let bobWalletId: number;

let call: SelfCustodyWorld['call'];
let stepsOf: SelfCustodyWorld['stepsOf'];

beforeAll(async () => {
  const w = await selfCustodyWorld();
  ({ t, world, call, stepsOf } = w);
  creator = await t.signIn('creator');
  const creatorWallet = await world.wallet(creator, 1);
  token = await world.deploy(creator, creatorWallet.id, { name: 'Drop Coin', ticker: 'DROP' });
  // Alice buys tokens (a custodial trade: its fee accrues the creator's reward) to airdrop them.
  alice = await t.signIn('alice');
  aliceWallet = await world.wallet(alice, 1);
  await world.swap(alice, {
    walletAddress: aliceWallet.address,
    issuer: token.issuer_address,
    token: token.currency,
    amount: '40',
    type: 'BUY',
    slippage: '1',
  });
  bob = await t.signIn('bob');
  bobWalletId = await w.fundedSelfCustody(bob, bobBrowser);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

async function airdrop(over: Record<string, unknown> = {}) {
  const res = await call(alice, 'POST', '/api/airdrops', {
    sourceWalletId: aliceWallet.id,
    tokenCode: token.currency,
    issuerAddress: token.issuer_address,
    projectName: 'Drop Project',
    tagline: 'Free DROP',
    logoUrl: '',
    description: 'An airdrop',
    perUserType: 'fixed',
    totalTokenAmount: '300',
    fixedAmount: '100',
    deadline: new Date(Date.now() + 3600_000).toISOString(),
    website: '',
    twitter: '',
    trustlineMode: 'auto',
    ...over,
  });
  expect(res.statusCode, res.body).toBe(202);
  const body = res.json() as CreateAirdropResult;
  const job = await t.app.platform.jobs.waitFor(body.jobId, { timeoutMs: 60_000 });
  expect(job.status, job.error ?? '').toBe('completed');
  const [row] = await t.database.db.select().from(airdropsTable).where(eq(airdropsTable.id, body.id));
  return row!;
}

describe('an airdrop claimed into a browser wallet', () => {
  it('without the line: the wallet signs only its TrustSet, the airdrop wallet pays; a changed blob is refused', async () => {
    const drop = await airdrop();
    const headers = { 'idempotency-key': 'claim-bob-0001' };
    const res = await call(
      bob,
      'POST',
      `/api/airdrops/${drop.id}/claim`,
      { destinationWalletId: bobWalletId },
      headers,
    );
    const intent = intentOf(res);
    expect(intent.txs).toHaveLength(1);
    expect(intent.txs[0]).toMatchObject({
      TransactionType: 'TrustSet',
      Account: bobBrowser.classicAddress,
      LimitAmount: { currency: token.currency, issuer: token.issuer_address, value: TRUST_LINE_MAX_LIMIT },
    });
    // Nothing is reserved until the line is there: the allocation is still whole.
    expect(
      (await t.database.db.select().from(airdropClaims).where(eq(airdropClaims.airdropId, drop.id))).length,
    ).toBe(0);
    // Retried, the same request answers the same intent.
    const again = intentOf(
      await call(
        bob,
        'POST',
        `/api/airdrops/${drop.id}/claim`,
        { destinationWalletId: bobWalletId },
        headers,
      ),
    );
    expect(again.id).toBe(intent.id);
    // A line with a smaller limit than prepared: refused, nothing sent.
    const changed = await call(bob, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(bobBrowser, intent, (tx) => ({
        ...tx,
        LimitAmount: { currency: token.currency, issuer: token.issuer_address, value: '1' },
      })),
    });
    expect(changed.statusCode).toBe(400);
    expect(changed.json().message).toBe(
      'The signed transaction does not match what was prepared: LimitAmount differs.',
    );
    expect(await stepsOf(intent.id)).toHaveLength(0);

    const xrpBefore = await world.xrp(bobBrowser.classicAddress);
    const ok = await call(bob, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(bobBrowser, intent),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const paid = ok.json() as ClaimAirdropResult;
    expect(paid.amount).toBe('100');
    // On the ledger: the 100 tokens arrived; the wallet paid only its TrustSet's 10-drop fee.
    expect(await world.tokens(bobBrowser.classicAddress, token)).toBe('100');
    expect(await world.xrp(bobBrowser.classicAddress)).toBe(xrpBefore - 10n);
    const [claim] = await t.database.db
      .select()
      .from(airdropClaims)
      .where(eq(airdropClaims.airdropId, drop.id));
    expect(claim).toMatchObject({
      status: 'paid',
      hash: paid.hash,
      amount: '100',
      requestKey: 'claim-bob-0001',
    });
    // The payment is the platform's (the airdrop wallet's), not the wallet's.
    const [payment] = await t.database.db
      .select()
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.hash, paid.hash));
    expect(payment).toMatchObject({ account: drop.airdropAddress, status: 'success' });
    expect(payment!.signer).not.toBe('wallet');
    // Posted again: the same answer, nothing sent or paid twice.
    const twice = await call(bob, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(bobBrowser, intent),
    });
    expect(twice.json()).toEqual(paid);
    expect(await world.tokens(bobBrowser.classicAddress, token)).toBe('100');
  });

  it('with the line already there: nothing to sign, the claim is paid as for a custodial wallet', async () => {
    const drop = await airdrop({ totalTokenAmount: '50', fixedAmount: '25' });
    const xrpBefore = await world.xrp(bobBrowser.classicAddress);
    const res = await call(bob, 'POST', `/api/airdrops/${drop.id}/claim`, {
      destinationWalletId: bobWalletId,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ amount: '25' });
    expect(await world.tokens(bobBrowser.classicAddress, token)).toBe('125');
    expect(await world.xrp(bobBrowser.classicAddress)).toBe(xrpBefore);
  });

  it('manual mode without the line: refused with the sentence, nothing prepared', async () => {
    const drop = await airdrop({ totalTokenAmount: '50', fixedAmount: '25', trustlineMode: 'manual' });
    const carol = await t.signIn('carol');
    const carolBrowser = Wallet.generate();
    const carolId = (await addSelfCustody(t.app, carol, carolBrowser)).id;
    expect((await call(carol, 'POST', `/api/wallets/${carolId}/fund`)).statusCode).toBe(200);
    const res = await call(carol, 'POST', `/api/airdrops/${drop.id}/claim`, { destinationWalletId: carolId });
    expect(res.statusCode).toBe(400);
    // The wallet opens its line itself (here straight on the ledger), then claims with nothing to sign.
    await submitOk(t.connection.client, carolBrowser, {
      TransactionType: 'TrustSet',
      Account: carolBrowser.classicAddress,
      LimitAmount: { currency: token.currency, issuer: token.issuer_address, value: '1000' },
    });
    const ok = await call(carol, 'POST', `/api/airdrops/${drop.id}/claim`, { destinationWalletId: carolId });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await world.tokens(carolBrowser.classicAddress, token)).toBe('25');
  });
});

describe('an airdrop created from a browser wallet', () => {
  const form = (over: Record<string, unknown> = {}) => ({
    sourceWalletId: bobWalletId,
    tokenCode: token.currency,
    issuerAddress: token.issuer_address,
    projectName: 'Bob Drop',
    tagline: 'Free DROP',
    logoUrl: '',
    description: 'An airdrop',
    perUserType: 'fixed',
    totalTokenAmount: '60',
    fixedAmount: '30',
    deadline: new Date(Date.now() + 3600_000).toISOString(),
    website: '',
    twitter: '',
    trustlineMode: 'auto',
    ...over,
  });

  it('is one intent (funding, fee, Check); signed, the job cashes the Check and the airdrop pays claims', async () => {
    // bob's browser wallet holds 125 DROP from the claims above.
    expect(await world.tokens(bobBrowser.classicAddress, token)).toBe('125');
    const airdropsBefore = (await t.database.db.select().from(airdropsTable)).length;
    // More tokens than held: refused before anything is prepared or recorded.
    const tooMuch = await call(bob, 'POST', '/api/airdrops', form({ totalTokenAmount: '500' }));
    expect(tooMuch.statusCode).toBe(400);

    const headers = { 'idempotency-key': 'create-bob-0001' };
    const body = form();
    const intent = intentOf(await call(bob, 'POST', '/api/airdrops', body, headers));
    const { reserveBase, reserveIncrement } = t.app.platform.submissions!.reserves;
    // The airdrop wallet's funding: base reserve + its one line + the 60,000-drop fee allowance.
    const fundDrops = reserveBase + reserveIncrement + 60_000n;
    const feeDrops = xrpToDrops((await t.app.platform.settings.all()).airdrop_fee_xrp);
    const feeWallet = (await platformWallet(t.database.db, PLATFORM_ROLES.fee))!.address;
    expect(intent.txs).toHaveLength(3);
    const airdropAddress = intent.txs[0]!.Destination as string;
    expect(intent.txs[0]).toMatchObject({
      TransactionType: 'Payment',
      Account: bobBrowser.classicAddress,
      Amount: fundDrops.toString(),
    });
    expect(intent.txs[1]).toMatchObject({
      TransactionType: 'Payment',
      Destination: feeWallet,
      Amount: feeDrops.toString(),
    });
    expect(intent.txs[2]).toMatchObject({
      TransactionType: 'CheckCreate',
      Destination: airdropAddress,
      SendMax: { currency: token.currency, issuer: token.issuer_address, value: '60' },
    });
    // Nothing recorded until the wallet's transactions applied; a retry answers the same intent.
    expect(await t.database.db.select().from(airdropsTable)).toHaveLength(airdropsBefore);
    expect(intentOf(await call(bob, 'POST', '/api/airdrops', body, headers)).id).toBe(intent.id);

    // Changed on the way (re-signed with the right key): the Check's amount, the funding's
    // destination, the fee's amount — each refused by name, nothing sent.
    for (const [change, field] of [
      [
        (tx: Record<string, unknown>, i: number) =>
          i === 2 ? { ...tx, SendMax: { ...(tx.SendMax as object), value: '1' } } : tx,
        'SendMax',
      ],
      [
        (tx: Record<string, unknown>, i: number) =>
          i === 0 ? { ...tx, Destination: Wallet.generate().classicAddress } : tx,
        'Destination',
      ],
      [(tx: Record<string, unknown>, i: number) => (i === 1 ? { ...tx, Amount: '1' } : tx), 'Amount'],
    ] as const) {
      const refused = await call(bob, 'POST', `/api/intents/${intent.id}/submit`, {
        blobs: signIntent(bobBrowser, intent, change),
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(
        `The signed transaction does not match what was prepared: ${field} differs.`,
      );
    }
    expect(await stepsOf(intent.id)).toHaveLength(0);

    const xrpBefore = await world.xrp(bobBrowser.classicAddress);
    const feeBefore = await world.xrp(feeWallet);
    const ok = await call(bob, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(bobBrowser, intent),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const created = ok.json() as CreateAirdropResult;
    const job = await t.app.platform.jobs.waitFor(created.jobId, { timeoutMs: 60_000 });
    expect(job.status, job.error ?? '').toBe('completed');
    const [row] = await t.database.db.select().from(airdropsTable).where(eq(airdropsTable.id, created.id));
    expect(row).toMatchObject({
      status: 'active',
      airdropAddress,
      sourceAddress: bobBrowser.classicAddress,
      totalAmount: '60',
      remaining: '60',
    });
    // On the ledger: the allocation moved by the cashed Check; the wallet paid the funding, the
    // fee and three 10-drop network fees (the Check's reserve came back when it was cashed).
    expect(await world.tokens(airdropAddress, token)).toBe('60');
    expect(await world.tokens(bobBrowser.classicAddress, token)).toBe('65');
    expect(await world.xrp(bobBrowser.classicAddress)).toBe(xrpBefore - fundDrops - feeDrops - 30n);
    expect(await world.xrp(feeWallet)).toBe(feeBefore + feeDrops);
    const checks = await t.connection.client.request({
      command: 'account_objects',
      account: bobBrowser.classicAddress,
      type: 'check',
      ledger_index: 'validated',
    });
    expect(checks.result.account_objects).toHaveLength(0);
    const signed = (await stepsOf(intent.id)).sort((a, b) => a.sequence - b.sequence);
    expect(signed.map((r) => [r.txType, r.signer, r.status])).toEqual([
      ['Payment', 'wallet', 'success'],
      ['Payment', 'wallet', 'success'],
      ['CheckCreate', 'wallet', 'success'],
    ]);
    // Posted again: the same answer, no second airdrop or job.
    const twice = await call(bob, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(bobBrowser, intent),
    });
    expect(twice.json()).toEqual(created);
    expect(await t.database.db.select().from(airdropsTable)).toHaveLength(airdropsBefore + 1);
    // A crash after the finisher recorded the airdrop but before the intent was marked done: the
    // start sweep runs the finisher again, which finds its airdrop (no second one, no second job).
    await t.database.db
      .update(signingIntents)
      .set({ status: 'submitted', result: null })
      .where(eq(signingIntents.id, intent.id));
    expect(await t.app.platform.intents!.resume()).toBe(1);
    const [resumed] = await t.database.db
      .select()
      .from(signingIntents)
      .where(eq(signingIntents.id, intent.id));
    expect(resumed).toMatchObject({ status: 'done', result: created });
    expect(await t.database.db.select().from(airdropsTable)).toHaveLength(airdropsBefore + 1);

    // The airdrop pays claims like any other: alice's custodial wallet gets its 30.
    const claimed = await call(alice, 'POST', `/api/airdrops/${created.id}/claim`, {
      destinationWalletId: aliceWallet.id,
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json()).toMatchObject({ amount: '30' });
    expect(await world.tokens(airdropAddress, token)).toBe('30');
  });
});

describe("a creator's rewards claimed into a browser wallet", () => {
  it('pays the unclaimed reward from the fee wallet: nothing signed by the wallet', async () => {
    const browser = Wallet.generate();
    const id = (await addSelfCustody(t.app, creator, browser)).id;
    expect((await call(creator, 'POST', `/api/wallets/${id}/fund`)).statusCode).toBe(200);
    const [row] = await t.database.db
      .select()
      .from(tokensTable)
      .where(eq(tokensTable.issuerAddress, token.issuer_address));
    // The creator's third of alice's 0.75% fee on 40 XRP: 0.1 XRP.
    expect(new Decimal(row!.totalReward).toFixed()).toBe('0.1');
    const before = await world.xrp(browser.classicAddress);
    const res = await call(creator, 'POST', '/api/claim-rewards', {
      wallet: browser.classicAddress,
      token: token.currency,
      issuer: token.issuer_address,
      percent: 100,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ claimed: '0.100000', to: browser.classicAddress });
    expect(await world.xrp(browser.classicAddress)).toBe(before + 100_000n);
  });
});

describe("the issuer dashboard's limit change for a browser holder", () => {
  it("answers the holder's TrustSet as an intent; the signed one sets the limit on the ledger", async () => {
    const holder = Wallet.generate();
    const id = (await addSelfCustody(t.app, creator, holder)).id;
    expect((await call(creator, 'POST', `/api/wallets/${id}/fund`)).statusCode).toBe(200);
    await submitOk(t.connection.client, holder, {
      TransactionType: 'TrustSet',
      Account: holder.classicAddress,
      LimitAmount: { currency: token.currency, issuer: token.issuer_address, value: '1000' },
    });
    const intent = intentOf(
      await call(creator, 'POST', '/api/dashboard/set-trust-line-limit', {
        issuerAddress: token.issuer_address,
        holderAddress: holder.classicAddress,
        currency: token.currency,
        limitAmount: '250000',
      }),
    );
    expect(intent.txs[0]).toMatchObject({
      TransactionType: 'TrustSet',
      Account: holder.classicAddress,
      LimitAmount: { currency: token.currency, issuer: token.issuer_address, value: '250000' },
    });
    const changed = await call(creator, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(holder, intent, (tx) => ({ ...tx, Fee: '1000' })),
    });
    expect(changed.json().message).toBe(
      'The signed transaction does not match what was prepared: Fee differs.',
    );
    expect(await stepsOf(intent.id)).toHaveLength(0);
    const ok = await call(creator, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(holder, intent),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, limit: '250000' });
    const lines = await t.connection.client.request({
      command: 'account_lines',
      account: holder.classicAddress,
      peer: token.issuer_address,
      ledger_index: 'validated',
    });
    expect(lines.result.lines[0]).toMatchObject({ limit: '250000' });
  });
});
