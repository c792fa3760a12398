import Decimal from 'decimal.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type Client } from 'xrpl';
import {
  AIRDROP_MESSAGES,
  tickerToCurrency,
  type ClaimAirdropResult,
  type CreateAirdropResult,
} from '@ledgerpad/shared';
import { airdrops as airdropsTable } from '../../src/modules/airdrops/schema';
import { STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import type { SignedIn } from '../helpers/test-app';
import { deployToken, fundedWallet } from '../helpers/trading-world';
import { tokenBalance } from '../helpers/ledger-reads';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { waitValidated } from '../helpers/submit-and-wait';

// 200 people claim at once on one airdrop whose allocation covers 150 (fixed 500, total 75,250):
// exactly 150 are paid on the ledger, each once and exactly 500; the other 50 are refused with the
// exhausted message; the airdrop wallet keeps exactly the 250 nobody can claim.

const CLAIMERS = 200;
const FIXED = 500;
const TOTAL = 75_250; // 150.5 allocations: 150 claims, 250 left over

let t: WalletTestApp;
let client: Client;
let issuer: string;
let alice: SignedIn;
let aliceWallet: { id: number; address: string };
const claimers: Array<{ who: SignedIn; wallet: { id: number; address: string } }> = [];

const lineBalance = async (address: string): Promise<Decimal> =>
  new Decimal(await tokenBalance(client, address, issuer, tickerToCurrency('HERD')));

beforeAll(async () => {
  // The expiry sweep is off: the airdrop is fully claimed at the end, and a sweep in between would
  // (rightly) hand the 250 left over back to the creator before the test reads the wallet.
  t = await createWalletTestApp(
    { PLATFORM_BOOTSTRAP: 'on', AIRDROP_SWEEP_MS: '0' },
    { closeIntervalMs: 150 },
  );
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  const owner = await t.signInOwner();
  const ownerWallet = await fundedWallet(t, owner);
  issuer = (await deployToken(t, owner, ownerWallet.id, { name: 'Herd Token', ticker: 'HERD' }))
    .issuer_address;
  alice = await t.signIn('alice_herd');
  aliceWallet = await fundedWallet(t, alice);
  const swap = await t.app.inject({
    method: 'POST',
    url: '/api/swap',
    headers: alice.headers,
    payload: {
      walletAddress: aliceWallet.address,
      issuer,
      token: 'HERD',
      amount: '20',
      type: 'BUY',
      slippage: '2',
    },
  });
  expect(swap.statusCode, swap.body).toBe(200);

  // 200 people with a wallet each, funded from genesis in one batch (a faucet payment each would
  // take a ledger apiece): 20 XRP covers the account reserve and the trust line the claim sets.
  for (let i = 0; i < CLAIMERS; i++) {
    const who = await t.signIn(`herd_${i}`);
    const w = await t.app.inject({ method: 'POST', url: '/api/wallets', headers: who.headers, payload: {} });
    const { id, wallet_address: address } = w.json() as { id: number; wallet_address: string };
    claimers.push({ who, wallet: { id, address } });
  }
  const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);
  let seq = (
    await client.request({
      command: 'account_info',
      account: genesis.classicAddress,
      ledger_index: 'current',
    })
  ).result.account_data.Sequence;
  const hashes: string[] = [];
  for (const c of claimers) {
    const tx = await client.autofill({
      TransactionType: 'Payment',
      Account: genesis.classicAddress,
      Destination: c.wallet.address,
      Amount: '20000000',
      Sequence: seq++,
    });
    const signed = genesis.sign(tx);
    await client.request({ command: 'submit', tx_blob: signed.tx_blob });
    hashes.push(signed.hash);
  }
  for (const hash of hashes) await waitValidated(client, hash);
}, 240_000);

afterAll(async () => {
  await t?.close();
});

describe('airdrop claims under load', () => {
  it('pays exactly the 150 allocations of 200 simultaneous claims, once each, and keeps the rest', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/airdrops',
      headers: alice.headers,
      payload: {
        sourceWalletId: aliceWallet.id,
        tokenCode: 'HERD',
        issuerAddress: issuer,
        projectName: 'Herd',
        tagline: 'Two hundred at once',
        logoUrl: '',
        description: '',
        perUserType: 'fixed',
        totalTokenAmount: String(TOTAL),
        fixedAmount: String(FIXED),
        deadline: new Date(Date.now() + 3600_000).toISOString(),
        website: '',
        twitter: '',
        trustlineMode: 'auto',
      },
    });
    expect(created.statusCode, created.body).toBe(202);
    const { id, jobId } = created.json() as CreateAirdropResult;
    const job = await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 60_000 });
    expect(job.status, job.error ?? '').toBe('completed');
    const [row] = await t.database.db.select().from(airdropsTable).where(eq(airdropsTable.id, id));
    expect(row!.maxClaims).toBe(150);
    const airdropWallet = row!.airdropAddress!;

    const answers = await Promise.all(
      claimers.map((c) =>
        t.app.inject({
          method: 'POST',
          url: `/api/airdrops/${id}/claim`,
          headers: c.who.headers,
          payload: { destinationWalletId: c.wallet.id },
        }),
      ),
    );
    const paid = answers.flatMap((a, i) =>
      a.statusCode === 200 ? [{ i, body: a.json() as ClaimAirdropResult }] : [],
    );
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(paid).toHaveLength(150);
    expect(refused).toHaveLength(50);
    for (const r of refused) {
      expect(r.statusCode).toBe(400);
      expect((r.json() as { message: string }).message).toBe(AIRDROP_MESSAGES.exhausted);
    }
    for (const p of paid) expect(p.body.amount).toBe(String(FIXED));

    // On the ledger: 150 payments from the airdrop wallet, one per paid claimer, 500 each.
    const txs = (
      await client.request({ command: 'account_tx', account: airdropWallet, limit: 400, forward: true })
    ).result.transactions as unknown as Array<{
      tx_json: { TransactionType: string; Account: string; Destination: string };
      meta: { TransactionResult: string; delivered_amount: { value: string } };
    }>;
    const payouts = txs.filter(
      (x) =>
        x.tx_json.TransactionType === 'Payment' &&
        x.tx_json.Account === airdropWallet &&
        x.meta.TransactionResult === 'tesSUCCESS',
    );
    expect(payouts).toHaveLength(150);
    expect(new Set(payouts.map((x) => x.tx_json.Destination)).size).toBe(150);
    expect(payouts.every((x) => x.meta.delivered_amount.value === String(FIXED))).toBe(true);
    const paidAddresses = new Set(paid.map((p) => claimers[p.i]!.wallet.address));
    expect(new Set(payouts.map((x) => x.tx_json.Destination))).toEqual(paidAddresses);
    for (const p of paid.slice(0, 10))
      expect((await lineBalance(claimers[p.i]!.wallet.address)).toFixed()).toBe('500');
    const unpaid = claimers.filter((_, i) => !paid.some((p) => p.i === i));
    for (const c of unpaid.slice(0, 10)) expect((await lineBalance(c.wallet.address)).toFixed()).toBe('0');

    // The airdrop wallet holds exactly the allocation nobody could claim: 75,250 − 150 × 500.
    expect((await lineBalance(airdropWallet)).toFixed()).toBe('250');
    const [after] = await t.database.db.select().from(airdropsTable).where(eq(airdropsTable.id, id));
    expect(after).toMatchObject({ claimedCount: 150, remaining: '250' });
  }, 240_000);
});
