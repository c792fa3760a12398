import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfferCreateFlags, type SubmittableTransaction, type Wallet } from 'xrpl';
import type { DeployResult, QuoteView } from '@ledgerpad/shared';
import { bondingCurves } from '../../src/modules/bonding/schema';
import { fundedWallet, runDeploy } from '../helpers/trading-world';
import type { SignedIn } from '../helpers/test-app';
import { until } from '../helpers/wait';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import {
  curveLaunchBody,
  offersOf,
  outsideWallets,
  send,
  startCloser,
  submitNow,
  waitValidated,
  tokenBalance,
  xrpBalance,
  type Closer,
} from './bonding-world';

// The anti-sniper window of a curve launch (issue 37, docs/launch-protection.md) on the embedded
// ledger, bought through xrpl.js directly — no Ledgerpad call, as a bot buys. The curve: x0 = 30 XRP,
// 200 steps of S = 3,965,500 tokens, step j costing D(j) = X(j+1) − X(j) with
// X(j) = ceil(k / (y0 − j·S)) − x0. In the window a sell offer asks V' + ⌊V'·f⌋ with
// V' = D + ⌊D·r⌋: r = 30% × (10 − ⌊elapsed·10 / 60⌋) / 10 for a 60 s window, elapsed the ledger
// time (close times) since the launch ledger. Every expectation is worked out here from that.

const x0 = 30_000_000n;
const y0 = 1_073_000_000n;
const k = x0 * y0;
const S = 3_965_500n;
const X = (j: bigint) => (k + (y0 - j * S) - 1n) / (y0 - j * S) - x0;
const D = (j: bigint) => X(j + 1n) - X(j);
const M = 1_000_000n;
const FEE_PPM = 7_500n;
const START_PPM = 300_000n; // 30%
const WINDOW = 60; // seconds of ledger time
/** The surcharge after `elapsed` seconds: ten equal steps down from the start rate, 0 after the window. */
const rateAt = (elapsed: number) =>
  elapsed >= WINDOW ? 0n : (START_PPM * BigInt(10 - Math.floor((elapsed * 10) / WINDOW))) / 10n;
/** What the curve asks for whole step j at surcharge r (ppm). */
const ask = (j: bigint, r: bigint) => {
  const v = D(j) + (D(j) * r) / M;
  return v + (v * FEE_PPM) / M;
};

let t: WalletTestApp;
let closer: Closer;
let owner: SignedIn;
let launched: DeployResult;
let bot: Wallet;
let L0: number;
let alice: SignedIn;
let wallet: { address: string };
const client = () => t.connection.client;

const closeTime = async (ledger: number) =>
  (await client().request({ command: 'ledger', ledger_index: ledger })).result.ledger.close_time;

/** The surcharge the next ledger's offers carry: from the last validated ledger's close time. */
async function rateNow(): Promise<{ r: bigint; elapsed: number }> {
  const v = t.app.platform.submissions!.ledgerIndex;
  const elapsed = (await closeTime(v)) - (await closeTime(L0));
  return { r: rateAt(elapsed), elapsed };
}

/** The curve's cheapest sell offer (per token) on the open ledger: what it asks, drops. */
async function firstAsk(): Promise<bigint | undefined> {
  const sells = (await offersOf(client(), launched.hot_wallet_address, 'current'))
    .filter((o) => typeof o.taker_gets !== 'string')
    .map((o) => ({
      tokens: new Decimal((o.taker_gets as { value: string }).value),
      drops: BigInt(o.taker_pays as string),
    }))
    .sort((a, b) =>
      new Decimal(a.drops.toString()).div(a.tokens).cmp(new Decimal(b.drops.toString()).div(b.tokens)),
    );
  return sells[0]?.drops;
}

/** With the closer paused: waits until the keeper priced step j at what the rate now calls for. */
async function pricedAt(j: bigint): Promise<bigint> {
  const { r } = await rateNow();
  await until(`step ${j} asked at ${r} ppm`, async () => (await firstAsk()) === ask(j, r), 20_000);
  return r;
}

/** Submits the bot's transaction into the open ledger, closes it; the network fee it paid, drops. */
async function buy(tx: SubmittableTransaction): Promise<bigint> {
  const hash = await submitNow(client(), bot, tx);
  closer.close();
  const v = await waitValidated(client(), hash);
  expect(v.result).toBe('tesSUCCESS');
  const r = await client().request({ command: 'tx', transaction: hash });
  const json = (r.result as { tx_json?: { Fee?: string }; Fee?: string }).tx_json ?? r.result;
  return BigInt((json as { Fee?: string }).Fee ?? '0');
}

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 0 });
  closer = startCloser(t, 100);
  await t.app.platform.accounts.bootstrapped();
  await t.app.platform.settings.set('bonding_virtual_xrp', '30');
  await t.app.platform.settings.set('bonding_snipe_ledgers', '0');
  await t.app.platform.settings.set('anti_sniper_start_percent', '30');
  await t.app.platform.settings.set('anti_sniper_window_seconds', String(WINDOW));
  owner = await t.signInOwner();
  const w = await fundedWallet(t, owner);
  launched = await runDeploy(
    t,
    owner,
    { ...curveLaunchBody(w.id, { name: 'Guarded Coin', ticker: 'GUARD' }), antiSniper: true },
    120_000,
  );
  bot = (await outsideWallets(client(), 1))[0]!;
  alice = await t.signIn('guard_alice');
  wallet = await fundedWallet(t, alice);
  await send(client(), bot, {
    TransactionType: 'TrustSet',
    Account: bot.classicAddress,
    LimitAmount: { currency: launched.currency, issuer: launched.issuer_address, value: '1000000000' },
  });
  await until('the launch ledger', async () => {
    const [c] = (await t.database.db.select().from(bondingCurves)).filter(
      (x) => x.issuerAddress === launched.issuer_address,
    );
    L0 = c?.launchLedger ?? 0;
    return L0 > 0;
  });
}, 120_000);

afterAll(async () => {
  closer?.stop();
  await t?.close();
});

describe('the anti-sniper window of a curve launch', () => {
  it('a direct xrpl.js buy inside the window pays the surcharged curve price, and the quote says so', async () => {
    closer.pause();
    try {
      const r = await pricedAt(0n);
      expect(r).toBeGreaterThan(0n);
      // Ledgerpad's quote for exactly step 0's asking price: the whole step, with the anti-sniper line.
      const quote = await t.app.inject({
        method: 'POST',
        url: '/api/amm-info',
        headers: alice.headers,
        payload: {
          issuer: launched.issuer_address,
          token: launched.currency,
          tradeType: 'BUY',
          amountXrp: new Decimal(ask(0n, r).toString()).div(1e6).toFixed(),
          wallet: wallet.address,
        },
      });
      expect(quote.statusCode, quote.body).toBe(200);
      const q = quote.json() as QuoteView;
      expect(q.receive).toBe(S.toString());
      const elapsed = (await rateNow()).elapsed;
      expect(q.antiSniper).toEqual({
        percent: new Decimal(r.toString()).div(10_000).toFixed(),
        endsInSeconds: WINDOW - elapsed,
        // ⌊D(0)·r⌋ drops, inside the price.
        fee: new Decimal(((D(0n) * r) / M).toString()).div(1e6).toFixed(),
      });

      // The bot buys two whole steps with a Payment to itself, straight on the ledger.
      const before = await xrpBalance(client(), bot.classicAddress);
      const fee = await buy({
        TransactionType: 'Payment',
        Account: bot.classicAddress,
        Destination: bot.classicAddress,
        Amount: { currency: launched.currency, issuer: launched.issuer_address, value: (2n * S).toString() },
        SendMax: '1000000000',
      });
      const after = await xrpBalance(client(), bot.classicAddress);
      expect(before - after - fee).toBe(ask(0n, r) + ask(1n, r));
      // More than the plain curve price by exactly the surcharge and the fee on it.
      expect(ask(0n, r) + ask(1n, r)).toBeGreaterThan(ask(0n, 0n) + ask(1n, 0n));
      expect(
        await tokenBalance(client(), bot.classicAddress, launched.issuer_address, launched.currency),
      ).toBe((2n * S).toString());
    } finally {
      closer.resume();
    }
  });

  it('after the window an OfferCreate pays the plain curve price', async () => {
    await until('the window over', async () => (await rateNow()).elapsed >= WINDOW, 60_000);
    closer.pause();
    try {
      const r = await pricedAt(2n);
      expect(r).toBe(0n);
      const before = await xrpBalance(client(), bot.classicAddress);
      const fee = await buy({
        TransactionType: 'OfferCreate',
        Account: bot.classicAddress,
        TakerPays: { currency: launched.currency, issuer: launched.issuer_address, value: S.toString() },
        TakerGets: '100000000',
        Flags: OfferCreateFlags.tfImmediateOrCancel,
      });
      const after = await xrpBalance(client(), bot.classicAddress);
      // D(2) + ⌊D(2)·f⌋: the curve's own price, no surcharge.
      expect(before - after - fee).toBe(D(2n) + (D(2n) * FEE_PPM) / M);
      // No anti-sniper line on a quote after the window.
      const quote = await t.app.inject({
        method: 'POST',
        url: '/api/amm-info',
        headers: alice.headers,
        payload: {
          issuer: launched.issuer_address,
          token: launched.currency,
          tradeType: 'BUY',
          amountXrp: '1',
          wallet: wallet.address,
        },
      });
      expect((quote.json() as QuoteView).antiSniper).toBeUndefined();
    } finally {
      closer.resume();
    }
  });
});
