import Decimal from 'decimal.js';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'xrpl';
import {
  BURN_MESSAGES,
  burnAmountForPercent,
  burnResultSchema,
  burnWalletsResponseSchema,
  type BurnResult,
  type DeployResult,
  type SwapResult,
  EDGE_MESSAGES,
} from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import type { SignedIn } from '../helpers/test-app';
import { deployToken, fundedWallet } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// The token burner on the embedded ledger: a holder pays tokens back to the issuer, the holder's
// balance and the issuer's obligations (gateway_balances, read here through xrpl.js) drop by exactly
// the amount, and every refusal happens before anything is signed.

let t: WalletTestApp;
let client: Client;
let owner: SignedIn;
let alice: SignedIn;
let bob: SignedIn;
let token: DeployResult;
let holder: { id: number; address: string };

const post = (
  url: string,
  who: SignedIn,
  payload: Record<string, unknown>,
  extra: Record<string, string> = {},
) => t.app.inject({ method: 'POST', url, headers: { ...who.headers, ...extra }, payload });
const walletsOf = (who: SignedIn, userId: number | string = who.user.id) =>
  t.app.inject({ method: 'GET', url: `/api/burn/wallets/${userId}`, headers: { cookie: who.cookie } });
const burn = (who: SignedIn, body: Record<string, unknown>, extra: Record<string, string> = {}) =>
  post('/api/burn/burn', who, body, extra);

async function held(address: string): Promise<string> {
  const r = await client.request({
    command: 'account_lines',
    account: address,
    peer: token.issuer_address,
    ledger_index: 'validated',
  });
  return r.result.lines.find((l) => l.currency === token.currency)?.balance ?? '0';
}

async function obligations(): Promise<string> {
  const r = await client.request({
    command: 'gateway_balances',
    account: token.issuer_address,
    ledger_index: 'validated',
  });
  return (r.result.obligations as Record<string, string> | undefined)?.[token.currency] ?? '0';
}

async function submissionRows(): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(ledgerSubmissions);
  return row!.n;
}

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  owner = await t.signInOwner();
  const ownerWallet = await fundedWallet(t, owner);
  token = await deployToken(t, owner, ownerWallet.id, { name: 'Burn Token', ticker: 'BURN' });
  alice = await t.signIn('alice_burner');
  bob = await t.signIn('bob_onlooker');
  holder = await fundedWallet(t, alice);
  const res = await post('/api/swap', alice, {
    walletAddress: holder.address,
    issuer: token.issuer_address,
    token: 'BURN',
    amount: '10',
    type: 'BUY',
    slippage: '5',
  });
  expect(res.statusCode, res.body).toBe(200);
  expect((res.json() as SwapResult).status).toBe('success');
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /api/burn/wallets/{userId}', () => {
  it("lists the user's wallets with XRP and the tokens they hold, readable tickers, no LP tokens", async () => {
    const res = await walletsOf(alice);
    expect(res.statusCode, res.body).toBe(200);
    const body = burnWalletsResponseSchema.parse(res.json());
    expect(body.wallets).toHaveLength(1);
    const [w] = body.wallets;
    expect(w).toMatchObject({ id: holder.id, walletAddress: holder.address });
    expect(new Decimal(w!.xrpBalance).gt(0)).toBe(true);
    expect(w!.tokens).toEqual([
      {
        tokenCode: token.currency,
        issuer: token.issuer_address,
        balance: new Decimal(await held(holder.address)).toFixed(),
        ascii: 'BURN',
      },
    ]);
    // The deployer's wallets: whatever they hold, never an LP-style code.
    const mine = burnWalletsResponseSchema.parse((await walletsOf(owner)).json());
    for (const wallet of mine.wallets) {
      for (const tok of wallet.tokens) expect(tok.tokenCode.startsWith('03')).toBe(false);
    }
  });

  it("refuses another user's id (403) and a non-numeric id (400)", async () => {
    const other = await walletsOf(bob, alice.user.id);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ message: EDGE_MESSAGES.notOwnUser });
    const bad = await walletsOf(alice, 'abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: EDGE_MESSAGES.id('userId') });
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/burn/wallets/${alice.user.id}` });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('POST /api/burn/burn', () => {
  it('burns 25% of a holding: the balance and the outstanding supply drop by exactly that', async () => {
    const before = await held(holder.address);
    const supplyBefore = await obligations();
    const amount = burnAmountForPercent(before, 25);
    expect(new Decimal(amount).gt(0)).toBe(true);

    const res = await burn(alice, {
      walletAddress: holder.address,
      issuerAddress: token.issuer_address,
      tokenCode: token.currency,
      amount,
    });
    expect(res.statusCode, res.body).toBe(200);
    const r = burnResultSchema.parse(res.json()) as BurnResult;
    expect(r).toMatchObject({ status: 'success', burned: amount, token: 'BURN' });

    const after = await held(holder.address);
    const supplyAfter = await obligations();
    expect(new Decimal(after).eq(new Decimal(before).minus(amount))).toBe(true);
    expect(new Decimal(supplyAfter).eq(new Decimal(supplyBefore).minus(amount))).toBe(true);
    expect(new Decimal(r.outstandingSupply).eq(supplyAfter)).toBe(true);

    const [row] = await t.database.db
      .select()
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.hash, r.hash));
    expect(row).toMatchObject({
      purpose: 'burn',
      status: 'success',
      txType: 'Payment',
      userId: alice.user.id,
      walletId: holder.id,
    });
  });

  it('a retried request (same Idempotency-Key) burns once and answers with the same transaction', async () => {
    const before = await held(holder.address);
    const body = {
      walletAddress: holder.address,
      issuerAddress: token.issuer_address,
      tokenCode: 'BURN',
      amount: '1.5',
    };
    const key = { 'idempotency-key': 'burn-retry-0001' };
    const first = await burn(alice, body, key);
    expect(first.statusCode, first.body).toBe(200);
    const second = await burn(alice, body, key);
    expect(second.statusCode, second.body).toBe(200);
    expect((second.json() as BurnResult).hash).toBe((first.json() as BurnResult).hash);
    expect(new Decimal(await held(holder.address)).eq(new Decimal(before).minus('1.5'))).toBe(true);
  });

  it('refuses bad amounts, more than held, and others’ wallets before signing anything', async () => {
    const balance = await held(holder.address);
    const rows = await submissionRows();
    const base = {
      walletAddress: holder.address,
      issuerAddress: token.issuer_address,
      tokenCode: token.currency,
    };

    for (const amount of ['0', '-1', '', 'abc', '1e3', '0.1234567890123456', '12.34567890123456', 0]) {
      const res = await burn(alice, { ...base, amount });
      expect(res.statusCode, `${String(amount)}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ message: BURN_MESSAGES.invalidInput });
    }
    for (const missing of ['walletAddress', 'issuerAddress', 'tokenCode', 'amount'] as const) {
      const body: Record<string, unknown> = { ...base, amount: '1' };
      delete body[missing];
      const res = await burn(alice, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: BURN_MESSAGES.invalidInput });
    }

    const over = new Decimal(balance).plus('0.000001').toFixed();
    const tooMuch = await burn(alice, { ...base, amount: over });
    expect(tooMuch.statusCode).toBe(400);
    // Both figures: what the wallet holds and what the burn needs.
    expect(tooMuch.json()).toMatchObject({
      message: `${BURN_MESSAGES.moreThanHeld} Insufficient balance: you have ${new Decimal(balance).toFixed()} BURN available, this needs ${over} BURN.`,
    });

    const notMine = await burn(bob, { ...base, amount: '1' });
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json()).toMatchObject({ message: BURN_MESSAGES.walletNotFound });

    const issuerItself = await burn(owner, { ...base, walletAddress: token.issuer_address, amount: '1' });
    expect(issuerItself.statusCode).toBe(404);
    const toSelf = await burn(alice, { ...base, issuerAddress: holder.address, amount: '1' });
    expect(toSelf.statusCode).toBe(400);
    expect(toSelf.json()).toMatchObject({ message: BURN_MESSAGES.issuerCannotBurn });

    const noCsrf = await t.app.inject({
      method: 'POST',
      url: '/api/burn/burn',
      headers: { cookie: alice.cookie },
      payload: { ...base, amount: '1' },
    });
    expect(noCsrf.statusCode).toBe(403);

    expect(await submissionRows()).toBe(rows);
    expect(await held(holder.address)).toBe(balance);
  });
});
