import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import {
  Decimal,
  RLUSD_CURRENCY_HEX,
  platformFeeDrops,
  xrpToDrops,
  type QuoteView,
  type SwapResult,
} from '@ledgerpad/shared';
import { tradingTrades } from '../../src/modules/trading/schema';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { platformWallet } from '../../src/platform/custody';
import { signingIntents } from '../../src/platform/intents/schema';
import type { SignedIn } from '../helpers/test-app';
import { intentOf, signIntent } from './helpers';
import { selfCustodyWorld, type SelfCustodyWorld } from './world';

// The swap box's XRP ⇄ RLUSD form from a browser wallet, on the real ledger: the form sends one
// POST /api/swap with RLUSD as the token and `baseAsset: 'XRP'` (apps/web/src/features/swap:
// trade-box.tsx, api.ts useTradeAction), the server answers an intent (RLUSD's trust line, the
// trade against the XRP/RLUSD pool, the platform fee), the test's xrpl.js Wallet signs it, and
// every drop is accounted for: the pool's side of the trade, the fee from the one fee rule, the
// network fees the intent carried.

let w: SelfCustodyWorld;
let alice: SignedIn;
const browser = Wallet.generate();
let rlusd: { issuer_address: string; currency: string };
let feeWallet: string;

beforeAll(async () => {
  w = await selfCustodyWorld();
  alice = await w.t.signIn('alice_rlusd');
  await w.fundedSelfCustody(alice, browser);
  const config = (await w.t.app.inject({ url: '/api/config/rlusd' })).json() as {
    issuer: string;
    currency: string;
  };
  rlusd = { issuer_address: config.issuer, currency: config.currency };
  feeWallet = (await platformWallet(w.t.database.db, PLATFORM_ROLES.fee))!.address;
}, 180_000);
afterAll(async () => {
  await w?.t.close();
});

/** The body the swap box's XRP ⇄ RLUSD form posts (XRP → RLUSD is a BUY, RLUSD → XRP a SELL). */
const formBody = (type: 'BUY' | 'SELL', amount: string, expected?: string) => ({
  walletAddress: browser.classicAddress,
  issuer: rlusd.issuer_address,
  token: rlusd.currency,
  amount,
  type,
  baseAsset: 'XRP',
  slippage: '1',
  ...(expected ? { expected } : {}),
});

/** The XRP/RLUSD pool's XRP, in drops, on the validated ledger. */
async function poolDrops(): Promise<bigint> {
  const r = await w.t.connection.client.request({
    command: 'amm_info',
    asset: { currency: 'XRP' },
    asset2: { currency: rlusd.currency, issuer: rlusd.issuer_address },
    ledger_index: 'validated',
  });
  return BigInt(r.result.amm.amount as string);
}

const networkFees = (txs: Array<Record<string, unknown>>) =>
  txs.reduce((sum, tx) => sum + BigInt(tx.Fee as string), 0n);

const quote = async (body: Record<string, unknown>) => {
  const res = await w.call(alice, 'POST', '/api/amm-info', {
    issuer: rlusd.issuer_address,
    token: rlusd.currency,
    wallet: browser.classicAddress,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as QuoteView;
};

describe('XRP ⇄ RLUSD from a browser wallet', () => {
  it('buys RLUSD with XRP: line, trade and fee signed in the browser, every drop accounted for', async () => {
    expect(rlusd.currency).toBe(RLUSD_CURRENCY_HEX);
    const q = await quote({ amountXrp: '3', tradeType: 'BUY' });
    expect(q.opensTrustLine).toBe(true);
    // The fee rule: 0.75% of the 3 XRP spent, in drops (platformFeeDrops, the fee job's own rule).
    const feeDrops = platformFeeDrops(3_000_000n, '0.75');
    expect(feeDrops).toBe(22_500n);
    expect(q.fee).toBe('0.0225');

    const intent = intentOf(await w.call(alice, 'POST', '/api/swap', formBody('BUY', '3', q.receive)));
    expect(intent.mode).toBe('sequence');
    const [line, trade, fee] = intent.txs;
    expect(intent.txs).toHaveLength(3);
    const seq = Number(line!.Sequence);
    expect(line).toMatchObject({
      TransactionType: 'TrustSet',
      Account: browser.classicAddress,
      LimitAmount: { currency: RLUSD_CURRENCY_HEX, issuer: rlusd.issuer_address },
    });
    expect(trade).toMatchObject({
      TransactionType: 'Payment',
      Account: browser.classicAddress,
      Destination: browser.classicAddress,
      SendMax: '3000000',
      Sequence: seq + 1,
    });
    // The slippage floor: the quote less 1%.
    const floor = new Decimal((trade!.DeliverMin as { value: string }).value);
    expect(floor.lte(new Decimal(q.receive).mul('0.99'))).toBe(true);
    expect(floor.gt(new Decimal(q.receive).mul('0.9899'))).toBe(true);
    expect(fee).toMatchObject({
      TransactionType: 'Payment',
      Destination: feeWallet,
      Amount: feeDrops.toString(),
      Sequence: seq + 2,
    });

    // A changed blob is refused by name and nothing is sent: more XRP into the trade, a lower fee.
    for (const [change, field] of [
      [(tx: Record<string, unknown>, i: number) => (i === 1 ? { ...tx, SendMax: '3100000' } : tx), 'SendMax'],
      [(tx: Record<string, unknown>, i: number) => (i === 2 ? { ...tx, Amount: '1' } : tx), 'Amount'],
      [(tx: Record<string, unknown>, i: number) => (i === 2 ? { ...tx, Fee: '12' } : tx), 'Fee'],
    ] as const) {
      const res = await w.call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
        blobs: signIntent(browser, intent, change),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        `The signed transaction does not match what was prepared: ${field} differs.`,
      );
    }
    expect(await w.stepsOf(intent.id)).toHaveLength(0);

    const xrpBefore = await w.world.xrp(browser.classicAddress);
    const feeWalletBefore = await w.world.xrp(feeWallet);
    const poolBefore = await poolDrops();
    const res = await w.call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as SwapResult;
    // Nothing traded in between: the quote to the last digit, and the spec's sentence.
    expect(result).toMatchObject({ status: 'success', spent: '3', received: q.receive, fee: '0.0225' });
    expect(result.message).toBe(
      `✅ Swapped 3.000000 XRP → ${new Decimal(q.receive).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed(6)} RLUSD`,
    );
    // The wallet: 3 XRP into the pool, the fee to the fee wallet, the three network fees the intent
    // carried (the line's reserve stays locked, not spent); the RLUSD the quote said.
    expect(networkFees(intent.txs)).toBe(30n);
    expect(await w.world.xrp(browser.classicAddress)).toBe(xrpBefore - 3_000_000n - feeDrops - 30n);
    expect(await poolDrops()).toBe(poolBefore + 3_000_000n);
    expect(await w.world.xrp(feeWallet)).toBe(feeWalletBefore + feeDrops);
    expect(await w.world.tokens(browser.classicAddress, rlusd)).toBe(q.receive);

    const steps = await w.stepsOf(intent.id);
    steps.sort((a, b) => a.id - b.id);
    expect(steps.map((s) => [s.purpose, s.status, s.signer])).toEqual([
      ['swap-trustline', 'success', 'wallet'],
      ['swap', 'success', 'wallet'],
      ['trading-fee', 'success', 'wallet'],
    ]);
    const [row] = await w.t.database.db
      .select()
      .from(tradingTrades)
      .where(eq(tradingTrades.hash, result.hash));
    expect(row).toMatchObject({
      side: 'BUY',
      fee: '0.0225',
      feeStatus: 'paid',
      feeHash: steps[2]!.hash,
      walletAddress: browser.classicAddress,
    });

    // Posted again: the same answer, nothing sent twice.
    const again = await w.call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(again.json()).toEqual(result);
    expect(await w.stepsOf(intent.id)).toHaveLength(3);
  });

  it('sells RLUSD back for XRP: trade and fee signed, the fee on what it receives, to the drop', async () => {
    const held = new Decimal(await w.world.tokens(browser.classicAddress, rlusd));
    const half = held.div(2).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed();
    const q = await quote({ amountToken: half, tradeType: 'SELL' });
    // The fee rule on a SELL: 0.75% of the simulated XRP received, rounded down to the drop.
    const feeDrops = BigInt(new Decimal(q.receive).mul(1_000_000).mul('0.0075').floor().toFixed());
    expect(feeDrops).toBe(platformFeeDrops(xrpToDrops(q.receive), '0.75'));

    // The form's request carries its Idempotency-Key: a retry of it answers the same intent.
    const key = { 'idempotency-key': 'rlusd-sell-0001' };
    const intent = intentOf(await w.call(alice, 'POST', '/api/swap', formBody('SELL', half, q.receive), key));
    const retried = intentOf(
      await w.call(alice, 'POST', '/api/swap', formBody('SELL', half, q.receive), key),
    );
    expect(retried).toEqual(intent);
    expect(intent.txs).toHaveLength(2); // the line is there: trade and fee
    const [trade, fee] = intent.txs;
    expect(trade).toMatchObject({
      TransactionType: 'Payment',
      Destination: browser.classicAddress,
      SendMax: { currency: RLUSD_CURRENCY_HEX, issuer: rlusd.issuer_address, value: half },
    });
    expect(fee).toMatchObject({
      TransactionType: 'Payment',
      Destination: feeWallet,
      Amount: feeDrops.toString(),
    });

    // The fee sent elsewhere, or the trade's floor lowered: refused by name, nothing sent.
    const elsewhere = await w.call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent, (tx, i) =>
        i === 1 ? { ...tx, Destination: Wallet.generate().classicAddress } : tx,
      ),
    });
    expect(elsewhere.json().message).toBe(
      'The signed transaction does not match what was prepared: Destination differs.',
    );
    const lowFloor = await w.call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent, (tx, i) => (i === 0 ? { ...tx, DeliverMin: '1' } : tx)),
    });
    expect(lowFloor.json().message).toBe(
      'The signed transaction does not match what was prepared: DeliverMin differs.',
    );
    expect(await w.stepsOf(intent.id)).toHaveLength(0);

    const xrpBefore = await w.world.xrp(browser.classicAddress);
    const feeWalletBefore = await w.world.xrp(feeWallet);
    const poolBefore = await poolDrops();
    const res = await w.call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as SwapResult;
    expect(result).toMatchObject({ status: 'success', spent: half, received: q.receive });
    expect(result.fee).toBe(new Decimal(feeDrops.toString()).div(1_000_000).toFixed());
    expect(result.message).toBe(
      `✅ Swapped ${new Decimal(half).toFixed(6)} RLUSD → ${new Decimal(q.receive).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed(6)} XRP`,
    );
    const received = xrpToDrops(q.receive);
    // The pool paid out exactly what the wallet received; the wallet keeps it less the fee and the
    // two network fees; the RLUSD is down by exactly what was sold.
    expect(networkFees(intent.txs)).toBe(20n);
    expect(await poolDrops()).toBe(poolBefore - received);
    expect(await w.world.xrp(browser.classicAddress)).toBe(xrpBefore + received - feeDrops - 20n);
    expect(await w.world.xrp(feeWallet)).toBe(feeWalletBefore + feeDrops);
    expect(new Decimal(await w.world.tokens(browser.classicAddress, rlusd)).eq(held.minus(half))).toBe(true);

    const steps = await w.stepsOf(intent.id);
    steps.sort((a, b) => a.id - b.id);
    expect(steps.map((s) => [s.purpose, s.status, s.signer])).toEqual([
      ['swap', 'success', 'wallet'],
      ['trading-fee', 'success', 'wallet'],
    ]);
    const [row] = await w.t.database.db
      .select()
      .from(tradingTrades)
      .where(eq(tradingTrades.hash, result.hash));
    expect(row).toMatchObject({ side: 'SELL', feeStatus: 'paid', feeHash: steps[1]!.hash });
    // The same request once more (a retry after the answer was lost): the same intent, already
    // done — posting its blobs answers the stored result; nothing is prepared or sent again.
    const after = intentOf(await w.call(alice, 'POST', '/api/swap', formBody('SELL', half, q.receive), key));
    expect(after.id).toBe(intent.id);
    const replay = await w.call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(replay.json()).toEqual(result);
    expect(await w.stepsOf(intent.id)).toHaveLength(2);
    expect(new Decimal(row!.fee).eq(result.fee)).toBe(true);
  });

  it('a crash between the trade and its fee: the start sweep sends the fee once and records the trade once', async () => {
    const q = await quote({ amountXrp: '1', tradeType: 'BUY' });
    const intent = intentOf(await w.call(alice, 'POST', '/api/swap', formBody('BUY', '1', q.receive)));
    expect(intent.txs).toHaveLength(2); // the line is there: trade and fee
    const feeDrops = platformFeeDrops(1_000_000n, '0.75');
    expect(intent.txs[1]).toMatchObject({ Destination: feeWallet, Amount: feeDrops.toString() });
    const blobs = signIntent(browser, intent);
    const xrpBefore = await w.world.xrp(browser.classicAddress);
    const feeWalletBefore = await w.world.xrp(feeWallet);
    const rlusdBefore = new Decimal(await w.world.tokens(browser.classicAddress, rlusd));

    // The state a kill -9 leaves after the blobs were claimed and the trade went out, before the fee
    // step was recorded: the intent 'submitted' with its blobs, step 0 final on the ledger, no step 1.
    const [row] = await w.t.database.db
      .update(signingIntents)
      .set({ status: 'submitted', signed: blobs })
      .where(eq(signingIntents.id, intent.id))
      .returning();
    const submissions = w.t.app.platform.submissions!;
    const trade = await submissions.recordSigned({
      intentKey: `${row!.intentKey}:step-0`,
      account: browser.classicAddress,
      blob: blobs[0]!,
      purpose: 'swap',
      userId: alice.user.id,
      walletId: intent.walletId,
    });
    expect((await submissions.wait(trade.hash)).status).toBe('success');
    expect(await w.stepsOf(intent.id)).toHaveLength(1);
    expect(await w.world.xrp(feeWallet)).toBe(feeWalletBefore);

    // The restarted process's sweep: the fee step sent (the trade succeeded), the finisher run.
    expect(await w.t.app.platform.intents!.resume()).toBe(1);
    const steps = await w.stepsOf(intent.id);
    steps.sort((a, b) => a.id - b.id);
    expect(steps.map((s) => [s.purpose, s.status])).toEqual([
      ['swap', 'success'],
      ['trading-fee', 'success'],
    ]);
    expect(await w.world.xrp(feeWallet)).toBe(feeWalletBefore + feeDrops);
    expect(await w.world.xrp(browser.classicAddress)).toBe(xrpBefore - 1_000_000n - feeDrops - 20n);
    expect(
      new Decimal(await w.world.tokens(browser.classicAddress, rlusd)).eq(rlusdBefore.plus(q.receive)),
    ).toBe(true);
    const trades = await w.t.database.db
      .select()
      .from(tradingTrades)
      .where(eq(tradingTrades.hash, trade.hash));
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ side: 'BUY', feeStatus: 'paid', feeHash: steps[1]!.hash });

    // The browser's post, arriving after the restart: the same answer, nothing sent again.
    const late = await w.call(alice, 'POST', `/api/intents/${intent.id}/submit`, { blobs });
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json()).toMatchObject({
      status: 'success',
      hash: trade.hash,
      spent: '1',
      received: q.receive,
    });
    expect(await w.stepsOf(intent.id)).toHaveLength(2);
    expect(
      await w.t.database.db.select().from(tradingTrades).where(eq(tradingTrades.hash, trade.hash)),
    ).toHaveLength(1);
    expect(await w.world.xrp(feeWallet)).toBe(feeWalletBefore + feeDrops);
  });

  it('the same form from a wallet app (kind external, GemWallet): the same intent, the same drops', async () => {
    const app = Wallet.generate();
    const bob = await w.t.signIn('bob_rlusd');
    await w.fundedSelfCustody(bob, app, { kind: 'external', app: 'gemwallet' });
    const q = (
      await w.call(bob, 'POST', '/api/amm-info', {
        issuer: rlusd.issuer_address,
        token: rlusd.currency,
        wallet: app.classicAddress,
        amountXrp: '2',
        tradeType: 'BUY',
      })
    ).json() as QuoteView;
    const intent = intentOf(
      await w.call(bob, 'POST', '/api/swap', {
        ...formBody('BUY', '2', q.receive),
        walletAddress: app.classicAddress,
      }),
    );
    const feeDrops = platformFeeDrops(2_000_000n, '0.75');
    expect(intent.txs.map((tx) => tx.TransactionType)).toEqual(['TrustSet', 'Payment', 'Payment']);
    expect(intent.txs[1]).toMatchObject({ Account: app.classicAddress, SendMax: '2000000' });
    expect(intent.txs[2]).toMatchObject({ Destination: feeWallet, Amount: feeDrops.toString() });
    const xrpBefore = await w.world.xrp(app.classicAddress);
    const feeWalletBefore = await w.world.xrp(feeWallet);
    const res = await w.call(bob, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(app, intent),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'success', spent: '2', received: q.receive });
    expect(await w.world.xrp(app.classicAddress)).toBe(
      xrpBefore - 2_000_000n - feeDrops - networkFees(intent.txs),
    );
    expect(networkFees(intent.txs)).toBe(30n);
    expect(await w.world.xrp(feeWallet)).toBe(feeWalletBefore + feeDrops);
    expect(await w.world.tokens(app.classicAddress, rlusd)).toBe(q.receive);
  });
});
