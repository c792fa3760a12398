import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrustSetFlags, Wallet } from 'xrpl';
import {
  BURN_MESSAGES,
  Decimal,
  type AddLiquidityResult,
  type AmmVoteResult,
  type BurnResult,
  type DeployResult,
  type RemoveLiquidityResult,
  type SigningIntent,
  type SwapResult,
} from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import { signingIntents } from '../../src/platform/intents/schema';
import { submitOk } from '../helpers/submit-and-wait';
import type { SignedIn } from '../helpers/test-app';
import { seed, type TradingWorld } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { addSelfCustody, call as callApp, intentOf, signIntent } from './helpers';

// Trust lines, liquidity and burns from a browser wallet on the real ledger (docs/self-custody.md):
// each action answers the exact transaction as an intent, the test's xrpl.js Wallet signs it, the
// server checks the blob field by field, submits it through the one submission service and answers
// as the custodial route does. A blob changed and re-signed is refused and sends nothing.

let t: WalletTestApp;
let world: TradingWorld;
let owner: SignedIn;
let alice: SignedIn;
let token: DeployResult;
const browser = Wallet.generate();
const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);
let walletId: number;

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on', FAUCET_XRP: '1000' });
  await t.app.platform.accounts.bootstrapped();
  world = seed(t);
  owner = await t.signIn('creator');
  alice = await t.signIn('alice');
  const ownerWallet = await world.wallet(owner, 1);
  token = await world.deploy(owner, ownerWallet.id, { name: 'Line Coin', ticker: 'LINE' });
  walletId = (await addSelfCustody(t.app, alice, browser)).id;
  expect((await callApp(t.app, alice, 'POST', `/api/wallets/${walletId}/fund`)).statusCode).toBe(200);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const call = (...args: Parameters<typeof callApp> extends [unknown, ...infer R] ? R : never) =>
  callApp(t.app, ...args);
const address = browser.classicAddress;
const submit = (intent: SigningIntent, blobs = signIntent(browser, intent)) =>
  call(alice, 'POST', `/api/intents/${intent.id}/submit`, { blobs });

async function stepsOf(intent: SigningIntent) {
  const [row] = await t.database.db.select().from(signingIntents).where(eq(signingIntents.id, intent.id));
  return t.database.db
    .select()
    .from(ledgerSubmissions)
    .where(like(ledgerSubmissions.intentKey, `${row!.intentKey}:step-%`));
}

/** A blob changed (and re-signed by the wallet's own key) is refused with the field's name; nothing sent. */
async function refusesChanged(
  intent: SigningIntent,
  field: string,
  value: unknown,
  how = 'differs',
): Promise<void> {
  const res = await submit(
    intent,
    signIntent(browser, intent, (tx) => ({ ...tx, [field]: value })),
  );
  expect(res.statusCode).toBe(400);
  expect(res.json().message).toBe(
    `The signed transaction does not match what was prepared: ${field} ${how}.`,
  );
  expect(await stepsOf(intent)).toHaveLength(0);
}

async function line(currency: string, issuer: string) {
  const r = await t.connection.client.request({
    command: 'account_lines',
    account: address,
    peer: issuer,
    ledger_index: 'validated',
  });
  return r.result.lines.find((l) => l.currency === currency);
}

async function ownerCount(): Promise<number> {
  const r = await t.connection.client.request({
    command: 'account_info',
    account: address,
    ledger_index: 'validated',
  });
  return r.result.account_data.OwnerCount;
}

async function pool() {
  const r = await t.connection.client.request({
    command: 'amm_info',
    asset: { currency: 'XRP' },
    asset2: { currency: token.currency, issuer: token.issuer_address },
    ledger_index: 'validated',
  });
  return r.result.amm as unknown as {
    amount: string;
    amount2: { value: string };
    lp_token: { currency: string; issuer: string; value: string };
    trading_fee: number;
    vote_slots?: Array<{ account: string; trading_fee: number }>;
  };
}

describe('trust lines from a browser wallet', () => {
  it('adds a trust line: one TrustSet signed in the browser; a changed limit is refused; asked again, nothing is sent', async () => {
    const body = { wallet: address, issuer: token.issuer_address, token: token.currency };
    const res = await call(alice, 'POST', '/api/add-trustline', body, { 'idempotency-key': 'add-line-0001' });
    const intent = intentOf(res);
    expect(intent.mode).toBe('single');
    expect(intent.txs[0]).toMatchObject({
      TransactionType: 'TrustSet',
      Account: address,
      LimitAmount: { currency: token.currency, issuer: token.issuer_address },
    });
    // The same request again (a retry) answers the same intent.
    const again = intentOf(
      await call(alice, 'POST', '/api/add-trustline', body, { 'idempotency-key': 'add-line-0001' }),
    );
    expect(again.id).toBe(intent.id);
    await refusesChanged(intent, 'LimitAmount', {
      currency: token.currency,
      issuer: token.issuer_address,
      value: '1',
    });
    const before = await world.xrp(address);
    const ok = await submit(intent);
    expect(ok.statusCode, ok.body).toBe(200);
    const answer = ok.json() as { status: string; hash: string };
    expect(answer.status).toBe('success');
    expect((await stepsOf(intent)).map((s) => [s.hash, s.signer, s.status])).toEqual([
      [answer.hash, 'wallet', 'success'],
    ]);
    // On the ledger: the line, and one network fee of 10 drops spent (the reserve locked, not spent).
    expect(await line(token.currency, token.issuer_address)).toMatchObject({ balance: '0' });
    expect(await world.xrp(address)).toBe(before - 10n);
    // The line is there now: a new request sends nothing.
    const existed = await call(alice, 'POST', '/api/add-trustline', body);
    expect(existed.json()).toEqual({ status: 'success', existed: true });
  });

  it("changes the line's limit: the TrustSet the wallet signs carries the new limit", async () => {
    // Some tokens first (a market buy signed in the browser), to check the limit against.
    const buy = intentOf(
      await call(alice, 'POST', '/api/swap', {
        walletAddress: address,
        issuer: token.issuer_address,
        token: token.currency,
        amount: '30',
        type: 'BUY',
        slippage: '1',
      }),
    );
    const bought = await submit(buy);
    expect(bought.statusCode, bought.body).toBe(200);
    expect((bought.json() as SwapResult).status).toBe('success');

    const intent = intentOf(
      await call(alice, 'POST', '/api/wallets/set-trustline-limit', {
        walletId,
        issuer: token.issuer_address,
        currency: token.currency,
        limit: '5000000',
      }),
    );
    expect(intent.txs[0]).toMatchObject({
      TransactionType: 'TrustSet',
      LimitAmount: { currency: token.currency, issuer: token.issuer_address, value: '5000000' },
    });
    await refusesChanged(intent, 'Flags', TrustSetFlags.tfSetNoRipple, 'was added');
    const ok = await submit(intent);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, limit: '5000000' });
    expect(await line(token.currency, token.issuer_address)).toMatchObject({ limit: '5000000' });
  });
});

describe('liquidity from a browser wallet', () => {
  it('deposits both assets: the LP tokens the ledger minted, 2 XRP and one network fee spent', async () => {
    const before = await world.xrp(address);
    const p = await pool();
    const intent = intentOf(
      await call(alice, 'POST', '/api/add-liquidity', {
        wallet: address,
        issuer: token.issuer_address,
        token: token.currency,
        mode: 'double-asset',
        amountXrp: '2',
        // More than the pool's ratio asks for 2 XRP: the XRP side limits the deposit.
        amountToken: new Decimal(p.amount2.value)
          .mul(2)
          .div(new Decimal(p.amount).div(1e6))
          .mul(1.5)
          .toFixed(6),
      }),
    );
    expect(intent.txs[0]).toMatchObject({ TransactionType: 'AMMDeposit', Amount: '2000000' });
    await refusesChanged(intent, 'Amount', '20000000');
    const ok = await submit(intent);
    expect(ok.statusCode, ok.body).toBe(200);
    const result = ok.json() as AddLiquidityResult;
    expect(result).toMatchObject({ status: 'success', deposited: { base: '2' } });
    // 2 XRP into the pool and a fee of 10 drops; the LP line's reserve is locked, not spent.
    expect(await world.xrp(address)).toBe(before - 2_000_000n - 10n);
    // The LP tokens: the pool's LP supply × 2 / its XRP (the XRP side limits), as the ledger holds them.
    const lp = await line(p.lp_token.currency, p.lp_token.issuer);
    expect(lp!.balance).toBe(result.lpTokens);
    const expected = new Decimal(p.lp_token.value).mul(2_000_000).div(p.amount);
    expect(new Decimal(result.lpTokens).div(expected).minus(1).abs().lt(1e-9)).toBe(true);
  });

  it("votes the pool's fee with its LP tokens", async () => {
    const intent = intentOf(
      await call(alice, 'POST', '/api/amm-vote', {
        wallet: address,
        issuer: token.issuer_address,
        token: token.currency,
        tradingFee: 500,
      }),
    );
    expect(intent.txs[0]).toMatchObject({ TransactionType: 'AMMVote', TradingFee: 500 });
    await refusesChanged(intent, 'TradingFee', 1000);
    const ok = await submit(intent);
    expect(ok.statusCode, ok.body).toBe(200);
    const result = ok.json() as AmmVoteResult;
    const p = await pool();
    expect(p.vote_slots?.find((v) => v.account === address)).toMatchObject({ trading_fee: 500 });
    expect(result.tradingFee).toBe(p.trading_fee);
  });

  it('withdraws every LP token it holds, both sides pro rata', async () => {
    const p = await pool();
    const held = (await line(p.lp_token.currency, p.lp_token.issuer))!.balance;
    const intent = intentOf(
      await call(alice, 'POST', '/api/remove-liquidity', {
        wallet: address,
        issuer: token.issuer_address,
        token: token.currency,
        amountLp: held,
        mode: 'double',
        limitPrice: '',
      }),
    );
    expect(intent.txs[0]).toMatchObject({ TransactionType: 'AMMWithdraw', LPTokenIn: { value: held } });
    await refusesChanged(intent, 'LPTokenIn', { ...p.lp_token, value: '0.5' });
    const before = await world.xrp(address);
    const ok = await submit(intent);
    expect(ok.statusCode, ok.body).toBe(200);
    const result = ok.json() as RemoveLiquidityResult;
    expect(result).toMatchObject({ status: 'success', lpTokens: held });
    expect(new Decimal((await line(p.lp_token.currency, p.lp_token.issuer))?.balance ?? 0).isZero()).toBe(
      true,
    );
    // What came back, less one network fee: the pool's XRP × held / LP supply (rounded down).
    expect(await world.xrp(address)).toBe(
      before + BigInt(new Decimal(result.withdrawn.base).mul(1e6).toFixed()) - 10n,
    );
    const share = new Decimal(p.amount).mul(held).div(p.lp_token.value).div(1e6);
    expect(new Decimal(result.withdrawn.base).minus(share).abs().lte('0.000001')).toBe(true);
  });
});

describe('burns from a browser wallet', () => {
  it('burns tokens back to the issuer; a payment sent elsewhere is refused; more than held is refused', async () => {
    const held = await world.tokens(address, token);
    const burnBody = (amount: string) => ({
      walletAddress: address,
      issuerAddress: token.issuer_address,
      tokenCode: token.currency,
      amount,
    });
    const part = intentOf(await call(alice, 'POST', '/api/burn/burn', burnBody('1.5')));
    expect(part.txs[0]).toMatchObject({
      TransactionType: 'Payment',
      Destination: token.issuer_address,
      Amount: { currency: token.currency, issuer: token.issuer_address, value: '1.5' },
    });
    await refusesChanged(part, 'Destination', Wallet.generate().classicAddress);
    const ok = await submit(part);
    expect(ok.statusCode, ok.body).toBe(200);
    const burned = ok.json() as BurnResult;
    expect(burned).toMatchObject({ status: 'success', burned: '1.5' });
    const rest = new Decimal(held).minus('1.5');
    expect(await world.tokens(address, token)).toBe(rest.toFixed());
    // The issuer's obligations as of the burn's ledger: 1,000,000 less everything burned so far.
    const gw = await t.connection.client.request({
      command: 'gateway_balances',
      account: token.issuer_address,
      ledger_index: 'validated',
    });
    expect(burned.outstandingSupply).toBe(
      new Decimal(Object.values(gw.result.obligations ?? {})[0] ?? 0).toFixed(),
    );
    // More than held: refused before any intent.
    const tooMuch = await call(alice, 'POST', '/api/burn/burn', burnBody(rest.plus(1000).toFixed(0)));
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toContain(BURN_MESSAGES.moreThanHeld);
    expect(await world.tokens(address, token)).toBe(rest.toFixed());
  });

  it('removes an empty trust line: its TrustSet back to the default state, the owner reserve returned', async () => {
    // A line of the wallet's own making (signed straight to the ledger), to another issuer.
    await submitOk(t.connection.client, browser, {
      TransactionType: 'TrustSet',
      Account: address,
      LimitAmount: { currency: 'TST', issuer: genesis.classicAddress, value: '1000' },
    });
    const objects = await ownerCount();
    const removal = intentOf(
      await call(alice, 'POST', '/api/wallets/remove-trustline', {
        walletId,
        issuer: genesis.classicAddress,
        currency: 'TST',
      }),
    );
    expect(removal.txs[0]).toMatchObject({
      TransactionType: 'TrustSet',
      LimitAmount: { currency: 'TST', issuer: genesis.classicAddress, value: '0' },
      Flags: TrustSetFlags.tfSetNoRipple | TrustSetFlags.tfClearFreeze,
    });
    // Signed without clearing the freeze flag: not the removal prepared.
    await refusesChanged(removal, 'Flags', TrustSetFlags.tfSetNoRipple);
    const removed = await submit(removal);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ success: true });
    expect(await line('TST', genesis.classicAddress)).toBeUndefined();
    expect(await ownerCount()).toBe(objects - 1);
  });
});
