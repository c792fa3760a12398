import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import {
  Decimal,
  SELF_CUSTODY_MESSAGES,
  SWAP_MESSAGES,
  xrpToDrops,
  type DeployResult,
  type ReferralSummary,
  type SwapResult,
} from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { referralAccruals } from '../../src/modules/referrals/schema';
import { tradingTrades } from '../../src/modules/trading/schema';
import { tokens as tokensTable } from '../../src/modules/tokens/schema';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { platformWallet } from '../../src/platform/custody';
import { signingIntents } from '../../src/platform/intents/schema';
import type { SignedIn } from '../helpers/test-app';
import { seed, type TradingWorld } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { addSelfCustody, call as callApp, intentOf, signIntent } from './helpers';

// A market swap from a browser wallet on the real ledger: the server prepares the trust line, the
// trade (slippage floor as DeliverMin) and the platform fee as one intent; the test's xrpl.js
// Wallet signs all three; the server checks each, submits them in order, records the trade and
// settles its fee exactly as the wallet signed it.

let t: WalletTestApp;
let world: TradingWorld;
let owner: SignedIn;
let alice: SignedIn;
let carol: SignedIn;
let token: DeployResult;
const browser = Wallet.generate();
let walletId: number;
let feeWallet: string;

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on', FAUCET_XRP: '1000' });
  await t.app.platform.accounts.bootstrapped();
  world = seed(t);
  owner = await t.signIn('creator');
  // Alice signs up through Carol's referral link: Carol earns a share of Alice's paid fees.
  carol = await t.signIn('carol');
  const link = await callApp(t.app, carol, 'GET', '/api/referrals/me');
  alice = await t.signIn('alice', link.json<ReferralSummary>().code);
  const ownerWallet = await world.wallet(owner, 1);
  token = await world.deploy(owner, ownerWallet.id, { name: 'Self Coin', ticker: 'SELF' });
  walletId = (await addSelfCustody(t.app, alice, browser)).id;
  expect((await callApp(t.app, alice, 'POST', `/api/wallets/${walletId}/fund`)).statusCode).toBe(200);
  feeWallet = (await platformWallet(t.database.db, PLATFORM_ROLES.fee))!.address;
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const call = (...args: Parameters<typeof callApp> extends [unknown, ...infer R] ? R : never) =>
  callApp(t.app, ...args);

const swapBody = (type: 'BUY' | 'SELL', amount: string, extra: Record<string, unknown> = {}) => ({
  walletAddress: browser.classicAddress,
  issuer: token.issuer_address,
  token: token.currency,
  amount,
  type,
  slippage: '1',
  ...extra,
});

async function stepsOf(intentId: string) {
  const [row] = await t.database.db.select().from(signingIntents).where(eq(signingIntents.id, intentId));
  return t.database.db
    .select()
    .from(ledgerSubmissions)
    .where(like(ledgerSubmissions.intentKey, `${row!.intentKey}:step-%`))
    .orderBy(ledgerSubmissions.id);
}

describe('market swaps from a browser wallet', () => {
  it('buys: trust line, trade and fee in one signed intent, fee exactly as disclosed', async () => {
    const quote = (
      await call(alice, 'POST', '/api/amm-info', {
        issuer: token.issuer_address,
        token: token.currency,
        amountXrp: '10',
        tradeType: 'BUY',
        wallet: browser.classicAddress,
      })
    ).json() as { fee: string; receive: string; opensTrustLine: boolean };
    expect(quote.opensTrustLine).toBe(true);
    const intent = intentOf(
      await call(alice, 'POST', '/api/swap', swapBody('BUY', '10', { expected: quote.receive })),
    );
    expect(intent.mode).toBe('sequence');
    const [line, trade, fee] = intent.txs;
    const seq = Number(line!.Sequence);
    expect(line).toMatchObject({
      TransactionType: 'TrustSet',
      LimitAmount: { currency: token.currency, issuer: token.issuer_address },
    });
    expect(trade).toMatchObject({
      TransactionType: 'Payment',
      Destination: browser.classicAddress,
      SendMax: '10000000',
      Sequence: seq + 1,
    });
    // 0.75% of the 10 XRP spent: 75,000 drops, to the fee wallet, the quote's disclosed fee.
    expect(quote.fee).toBe('0.075');
    expect(fee).toMatchObject({
      TransactionType: 'Payment',
      Destination: feeWallet,
      Amount: '75000',
      Sequence: seq + 2,
    });
    // DeliverMin is the 1% slippage floor of what the screen's quote said.
    const floor = Number(quote.receive) * 0.99;
    expect(Number((trade!.DeliverMin as { value: string }).value)).toBeCloseTo(floor, 4);

    const before = await world.xrp(browser.classicAddress);
    const feeBefore = await world.xrp(feeWallet);
    const res = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as SwapResult;
    expect(result).toMatchObject({ status: 'success', fee: '0.075', spent: '10' });
    // What left the wallet: 10 XRP, the 0.075 fee and three network fees of 10 drops (the line's
    // reserve stays locked, not spent).
    expect(await world.xrp(browser.classicAddress)).toBe(before - 10_000_000n - 75_000n - 30n);
    expect(await world.xrp(feeWallet)).toBe(feeBefore + 75_000n);
    expect(await world.tokens(browser.classicAddress, token)).toBe(result.received);
    const steps = await stepsOf(intent.id);
    expect(steps.map((s) => [s.purpose, s.status, s.signer])).toEqual([
      ['swap-trustline', 'success', 'wallet'],
      ['swap', 'success', 'wallet'],
      ['trading-fee', 'success', 'wallet'],
    ]);
    // The trade is recorded as a custodial one, its fee paid by the intent's third transaction.
    const [row] = await t.database.db.select().from(tradingTrades).where(eq(tradingTrades.hash, result.hash));
    expect(row).toMatchObject({
      side: 'BUY',
      fee: '0.075',
      feeStatus: 'paid',
      feeHash: steps[2]!.hash,
      walletAddress: browser.classicAddress,
    });
    // The creator's share (1/3) of the paid fee accrued on the token deployed here.
    const [listed] = await t.database.db
      .select()
      .from(tokensTable)
      .where(eq(tokensTable.issuerAddress, token.issuer_address));
    expect(Number(listed!.totalReward)).toBeCloseTo(0.025, 6);
    // …and, in the same settlement, the referrer's: 20% of the 75,000-drop fee = 15,000 drops
    // (floor(75,000 × 2,000 / 10,000); referral_share_percent 20), once, for this trade.
    const earned = await t.database.db
      .select()
      .from(referralAccruals)
      .where(eq(referralAccruals.tradeId, row!.id));
    expect(earned.map((e) => [e.referrerUserId, e.currency, e.fee, e.amount])).toEqual([
      [carol.user.id, 'XRP', '0.075', '0.015'],
    ]);
    const me = (await call(carol, 'GET', '/api/referrals/me')).json<ReferralSummary>();
    expect(me.balances.find((b) => b.currency === 'XRP')).toMatchObject({ earned: '0.015' });
  });

  it('refuses an intent signed without its fee, or with another floor, and sends nothing', async () => {
    const intent = intentOf(await call(alice, 'POST', '/api/swap', swapBody('BUY', '5')));
    expect(intent.txs).toHaveLength(2); // the line exists now: trade and fee
    const blobs = signIntent(browser, intent);
    const noFee = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, { blobs: [blobs[0]] });
    expect(noFee.json().message).toBe(SELF_CUSTODY_MESSAGES.count(2));
    const lowFloor = signIntent(browser, intent, (tx, i) =>
      i === 0 ? { ...tx, DeliverMin: { ...(tx.DeliverMin as object), value: '0.000001' } } : tx,
    );
    const floor = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, { blobs: lowFloor });
    expect(floor.json().message).toBe(
      'The signed transaction does not match what was prepared: DeliverMin differs.',
    );
    const feeElsewhere = signIntent(browser, intent, (tx, i) =>
      i === 1 ? { ...tx, Destination: Wallet.generate().classicAddress } : tx,
    );
    const stolen = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, { blobs: feeElsewhere });
    expect(stolen.json().message).toBe(
      'The signed transaction does not match what was prepared: Destination differs.',
    );
    expect(await stepsOf(intent.id)).toHaveLength(0);
  });

  it('sells the whole balance; the fee comes out of what it receives, as disclosed', async () => {
    const held = await world.tokens(browser.classicAddress, token);
    // "100%" arrives as the balance's 6-decimal floor, as the swap box sends it.
    const [whole, frac = ''] = held.split('.');
    const amount = frac ? `${whole}.${frac.slice(0, 6)}` : whole!;
    const quote = (
      await call(alice, 'POST', '/api/amm-info', {
        issuer: token.issuer_address,
        token: token.currency,
        amountToken: amount,
        tradeType: 'SELL',
        wallet: browser.classicAddress,
      })
    ).json() as { fee: string; receive: string };
    const intent = intentOf(
      await call(alice, 'POST', '/api/swap', swapBody('SELL', amount, { expected: quote.receive })),
    );
    const [trade, fee] = intent.txs;
    expect(trade).toMatchObject({ SendMax: { value: held } });
    expect(fee).toMatchObject({ Destination: feeWallet });
    // The fee on the simulated receive, in drops (0.75%, rounded down to the drop).
    const expectedFee = BigInt(new Decimal(quote.receive).mul(1_000_000).mul('0.0075').floor().toFixed());
    expect(BigInt(fee!.Amount as string)).toBe(expectedFee);
    const before = await world.xrp(browser.classicAddress);
    const res = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as SwapResult;
    expect(result.status).toBe('success');
    expect(await world.tokens(browser.classicAddress, token)).toBe('0');
    // What arrived, less the fee payment and two network fees.
    expect(await world.xrp(browser.classicAddress)).toBe(
      before + xrpToDrops(result.received) - expectedFee - 20n,
    );
  });

  it('a trade the market moved past the floor fails alone: the fee is never sent', async () => {
    // A floor far above what the pool gives: the ledger refuses to deliver less (tecPATH_PARTIAL).
    const intent = intentOf(
      await call(alice, 'POST', '/api/swap', swapBody('BUY', '2', { expected: '999999' })),
    );
    const res = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(SWAP_MESSAGES.slippageExceeded);
    const steps = await stepsOf(intent.id);
    expect(steps.map((s) => [s.purpose, s.result])).toEqual([['swap', 'tecPATH_PARTIAL']]);
    // Posting again answers the same refusal, and still sends nothing more.
    const again = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(again.json().message).toBe(SWAP_MESSAGES.slippageExceeded);
    expect(await stepsOf(intent.id)).toHaveLength(1);
  });
});
