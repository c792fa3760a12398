import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Wallet } from 'xrpl';
import {
  desiredLadder,
  type BondingParams,
  type BondingView,
  type PositionsResponse,
  type QuoteView,
  type RiskReport,
  type TokenView,
} from '@ledgerpad/shared';
import { eq } from 'drizzle-orm';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { bondingTrades } from '../../src/modules/bonding/schema';
import { tradingTrades } from '../../src/modules/trading/schema';
import { bondingCurves } from '../../src/modules/bonding/schema';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { platformWallet } from '../../src/platform/custody';
import { fundedWallet } from '../helpers/trading-world';
import { testLogo } from '../helpers/test-logo';
import { until } from '../helpers/wait';
import type { SignedIn } from '../helpers/test-app';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import {
  curveLaunchBody,
  launchCurve,
  offersOf,
  outsideWallets,
  send,
  startCloser,
  submitNow,
  tokenBalance,
  waitValidated,
  xrpBalance,
  type Closer,
} from './bonding-world';
import { LedgerEntry, OfferCreateFlags, PaymentFlags } from 'xrpl';

// A curve launch on the embedded ledger, end to end, checked through xrpl.js. pump.fun's curve with
// a 30 XRP virtual reserve (their 30 SOL): 200 steps of S = 3,965,500 tokens, a step j..j+1 costing
// X(j+1) − X(j) with X(j) = ceil(k / (y0 − j·S)) − x0, k = x0·y0; every expectation is worked out
// from that formula here, in BigInt, never read back from the code under test.

const x0 = 30_000_000n; // drops
const y0 = 1_073_000_000n;
const k = x0 * y0;
const S = 3_965_500n;
const X = (j: bigint) => (k + (y0 - j * S) - 1n) / (y0 - j * S) - x0;
const FEE_PPM = 7_500n; // the 0.75% trading fee
const feeOn = (v: bigint) => (v * FEE_PPM) / 1_000_000n;
/** What buying whole steps [a, b) one offer each costs: each step's value plus the fee on it. */
const buyCost = (a: bigint, b: bigint) => {
  let total = 0n;
  for (let j = a; j < b; j++) total += X(j + 1n) - X(j) + feeOn(X(j + 1n) - X(j));
  return total;
};
const params: BondingParams = { virtualQuote: x0, steps: 200, fineSteps: 6 };

let t: WalletTestApp;
let closer: Closer;
let owner: SignedIn;
let issuer: string;
let currency: string;
let curveAddress: string;
let outsider: Wallet;
const client = () => t.connection.client;

async function settled(): Promise<void> {
  // Everything validated so far is indexed, and the keeper has answered it.
  await t.app.platform.indexer!.caughtUp();
  await t.app.bonding.keeper!.idle();
  await t.app.platform.submissions!.idle();
  // The market snapshot (the prices positions and the list read) is rebuilt after the indexer
  // announces a ledger, on the next turn: a fresh build sees everything indexed above.
  await t.app.marketSnapshot.refresh();
}

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 0 });
  closer = startCloser(t, 100);
  await t.app.platform.accounts.bootstrapped();
  await t.app.platform.settings.set('bonding_virtual_xrp', '30');
  await t.app.platform.settings.set('bonding_snipe_ledgers', '0');
  owner = await t.signInOwner();
  const w = await fundedWallet(t, owner);
  const launched = await launchCurve(t, owner, w.id, { name: 'Curve Coin', ticker: 'CURVE' });
  issuer = launched.issuer_address;
  currency = launched.currency;
  curveAddress = launched.hot_wallet_address;
  outsider = (await outsideWallets(client(), 1))[0]!;
  await send(client(), outsider, {
    TransactionType: 'TrustSet',
    Account: outsider.classicAddress,
    LimitAmount: { currency, issuer, value: '1000000000' },
  });
}, 120_000);

afterAll(async () => {
  closer?.stop();
  await t?.close();
});

const ladderOnLedger = async () =>
  (await offersOf(client(), curveAddress)).map((o) => {
    const sell = typeof o.taker_gets !== 'string';
    const tokens = sell
      ? (o.taker_gets as { value: string }).value
      : (o.taker_pays as { value: string }).value;
    const quote = sell ? (o.taker_pays as string) : (o.taker_gets as string);
    return `${sell ? 'sell' : 'buy'} ${new Decimal(tokens).toFixed()} for ${quote}`;
  });
const ladderWanted = (sold: string) =>
  desiredLadder(params, sold, FEE_PPM).map((c) => `${c.side} ${c.tokens} for ${c.quote}`);

describe('a bonding-curve launch', () => {
  it('lists the token on its curve, blackholes the issuer and posts the whole curve as offers', async () => {
    await settled();
    const token = (
      await t.app.inject({ method: 'GET', url: `/api/tokens/issuer/${issuer}` })
    ).json() as TokenView;
    expect(token).toMatchObject({
      launch_type: 'bonding',
      is_bonding_curve: true,
      bonding_active: true,
      has_graduated_to_amm: false,
      supply: '1000000000',
    });
    const info = await client().request({
      command: 'account_info',
      account: issuer,
      ledger_index: 'validated',
    });
    expect(info.result.account_data.RegularKey).toBe('rrrrrrrrrrrrrrrrrrrrBZbvji');
    expect(info.result.account_data.Flags & LedgerEntry.AccountRootFlags.lsfDisableMaster).toBeTruthy(); // lsfDisableMaster
    expect(await tokenBalance(client(), curveAddress, issuer, currency)).toBe('1000000000');
    // Fine steps 0..5, then the aligned blocks [6,8) [8,16) [16,32) [32,64) [64,128) [128,192) [192,200).
    const wanted = ladderWanted('0');
    expect(wanted).toHaveLength(13);
    expect(wanted[0]).toBe(`sell 3965500 for ${X(1n) + feeOn(X(1n))}`);
    expect((await ladderOnLedger()).sort()).toEqual([...wanted].sort());
    const view = (await t.app.inject({ method: 'GET', url: `/api/bonding/${issuer}` })).json() as BondingView;
    expect(view).toMatchObject({
      status: 'active',
      percent: '0.00',
      raised: '0',
      target: '85.00536',
      quote: 'XRP',
    });
  });

  it('sells two whole steps to an outside wallet for exactly the curve integral plus the fee', async () => {
    const before = await xrpBalance(client(), outsider.classicAddress);
    const r = await send(client(), outsider, {
      TransactionType: 'Payment',
      Account: outsider.classicAddress,
      Destination: outsider.classicAddress,
      Amount: { currency, issuer, value: (2n * S).toString() },
      SendMax: '1000000000',
    });
    const fee = BigInt(r.tx_json?.Fee ?? (r as unknown as { Fee: string }).Fee);
    const after = await xrpBalance(client(), outsider.classicAddress);
    // (X(1) − X(0)) + (X(2) − X(1)) + the fee on each step = 111,283 + 834 + 112,111 + 840
    expect(before - after - fee).toBe(buyCost(0n, 2n));
    expect(buyCost(0n, 2n)).toBe(225_068n);
    expect(await tokenBalance(client(), outsider.classicAddress, issuer, currency)).toBe('7931000');
  });

  it('re-posts the ladder within one ledger of the crossing', async () => {
    await settled();
    closer.pause();
    try {
      // A crossing in ledger L (the outsider buys half a step), then the keeper's round into L + 1.
      const hash = await submitNow(client(), outsider, {
        TransactionType: 'Payment',
        Account: outsider.classicAddress,
        Destination: outsider.classicAddress,
        Amount: { currency, issuer, value: (S / 2n).toString() },
        SendMax: '1000000000',
      });
      const L = closer.close();
      expect((await waitValidated(client(), hash)).ledger).toBe(L);
      const rounds: string[] = [];
      const off = t.app.bonding.keeper!.onRound((r) => rounds.push(...r.hashes));
      await t.app.platform.indexer!.caughtUp(L);
      await t.app.bonding.keeper!.idle();
      off();
      expect(rounds.length).toBeGreaterThan(0);
      const next = closer.close();
      expect(next).toBe(L + 1);
      for (const h of rounds)
        expect(await waitValidated(client(), h)).toEqual({ ledger: L + 1, result: 'tesSUCCESS' });
      // In ledger L + 1 the ladder is the one 2.5 steps sold calls for: step 2 split between the
      // sell side and the buy side, steps 1 and 0 bought back at their value less the fee.
      const sold = (2n * S + S / 2n).toString();
      expect((await ladderOnLedger()).sort()).toEqual(ladderWanted(sold).sort());
      const half = (X(3n) - X(2n)) / 2n; // floor(D(2) / 2), the sold half of step 2
      expect(ladderWanted(sold)).toContain(`buy 1982750 for ${half - feeOn(half)}`);
      expect(ladderWanted(sold)).toContain(`buy 3965500 for ${X(2n) - X(1n) - feeOn(X(2n) - X(1n))}`);
    } finally {
      closer.resume();
    }
  });

  it('buys a step and a half back from an outside wallet at the value less the fee', async () => {
    await settled();
    // The outsider holds 2.5 steps; it sells the half step of step 2 and the whole step 1, which the
    // curve bids for at floor(D(2)/2) less its fee and D(1) less its fee.
    const half = (X(3n) - X(2n)) / 2n;
    const expected = half - feeOn(half) + (X(2n) - X(1n)) - feeOn(X(2n) - X(1n));
    const before = await xrpBalance(client(), outsider.classicAddress);
    const r = await send(client(), outsider, {
      TransactionType: 'OfferCreate',
      Account: outsider.classicAddress,
      TakerGets: { currency, issuer, value: (S + S / 2n).toString() },
      TakerPays: '1',
      Flags: OfferCreateFlags.tfImmediateOrCancel | OfferCreateFlags.tfSell,
    });
    const fee = BigInt(r.tx_json?.Fee ?? '0');
    expect((r.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
    expect((await xrpBalance(client(), outsider.classicAddress)) - before + fee).toBe(expected);
    expect(await tokenBalance(client(), outsider.classicAddress, issuer, currency)).toBe('3965500');
    await settled();
    expect((await ladderOnLedger()).sort()).toEqual(ladderWanted(S.toString()).sort());
    const trades = await t.database.db.select().from(bondingTrades).orderBy(bondingTrades.id);
    // Each crossing, with what it paid or was paid, and the fee its price carried.
    expect(trades.map((x) => [x.side, x.tokens, x.quote])).toEqual([
      ['BUY', '7931000', buyCost(0n, 2n).toString()],
      ['BUY', '1982750', trades[1]!.quote],
      ['SELL', '5948250', expected.toString()],
    ]);
    // Whole chunks crossed give back exactly the fees they were priced with.
    expect(trades[0]!.fee).toBe((feeOn(X(1n)) + feeOn(X(2n) - X(1n))).toString());
    expect(trades[2]!.fee).toBe((feeOn(half) + feeOn(X(2n) - X(1n))).toString());
  });

  it('lets a Ledgerpad user buy on the curve at the quoted amount, with no second fee', async () => {
    const alice = await t.signIn('curve_alice');
    const wallet = await fundedWallet(t, alice);
    const body = { issuer, token: 'CURVE', tradeType: 'BUY', amountXrp: '5', wallet: wallet.address };
    const quote = await t.app.inject({
      method: 'POST',
      url: '/api/amm-info',
      headers: alice.headers,
      payload: body,
    });
    expect(quote.statusCode, quote.body).toBe(200);
    const q = quote.json() as QuoteView;
    expect(q.fee).toBe('0'); // the curve's price carries the fee
    const swap = await t.app.inject({
      method: 'POST',
      url: '/api/swap',
      headers: alice.headers,
      payload: {
        walletAddress: wallet.address,
        issuer,
        token: 'CURVE',
        amount: '5',
        type: 'BUY',
        slippage: '1',
      },
    });
    expect(swap.statusCode, swap.body).toBe(200);
    const s = swap.json() as { received: string; spent: string; fee: string; hash: string };
    expect(s).toMatchObject({ spent: '5', fee: '0' });
    // The walk up the ladder the quote simulated: step 1 from 1 step sold, then step 2, ... each at its
    // own average price; the executed amount is the quote.
    expect(s.received).toBe(q.receive);
    const [row] = await t.database.db.select().from(tradingTrades).where(eq(tradingTrades.hash, s.hash));
    expect(row).toMatchObject({ fee: '0', feeStatus: 'none' });
    // Worked out by hand: with one step sold the ladder offers steps 1..6 one by one, then the
    // aligned blocks [7,8) [8,16) [16,32) [32,64) …, each at its value plus the fee. 5 XRP takes
    // whole chunks while it lasts and the rest of a chunk at that chunk's price.
    const chunks: Array<[bigint, bigint]> = [
      [1n, 2n],
      [2n, 3n],
      [3n, 4n],
      [4n, 5n],
      [5n, 6n],
      [6n, 7n],
      [7n, 8n],
      [8n, 16n],
      [16n, 32n],
      [32n, 64n],
      [64n, 128n],
    ];
    let left = 5_000_000n;
    let tokens = new Decimal(0);
    // The fee inside those prices, chunk by chunk: each whole chunk's own fee, and in the last, part
    // taken chunk the largest value V with V + ⌊V·f⌋ within what was left.
    let feeByHand = 0n;
    for (const [a, b] of chunks) {
      const price = X(b) - X(a) + feeOn(X(b) - X(a));
      const size = new Decimal(((b - a) * S).toString());
      if (left >= price) {
        tokens = tokens.plus(size);
        left -= price;
        feeByHand += feeOn(X(b) - X(a));
      } else {
        tokens = tokens.plus(size.mul(left.toString()).div(price.toString()));
        let v = (left * 1_000_000n) / (1_000_000n + FEE_PPM);
        while (v + 1n + feeOn(v + 1n) <= left) v++;
        feeByHand += left - v;
        break;
      }
    }
    expect(new Decimal(s.received).minus(tokens).abs().lt('0.01')).toBe(true);
    // The quote says so on its own line: the fee inside the curve's price (read from the total the
    // curve moved: within a micro per crossed chunk of the chunk-by-chunk sum), at the platform rate.
    expect(q).toMatchObject({ curveFeePercent: '0.75', feePercent: '0.75', opensTrustLine: true });
    const inside = new Decimal(q.feeInPrice!).mul(1_000_000);
    expect(inside.minus(feeByHand.toString()).abs().lte(chunks.length)).toBe(true);
    expect(inside.gt(0)).toBe(true);
    // Price impact against the curve's next price (issue 39): the first chunk [1, 2) at its value
    // plus the fee, per token; the trade's average price is 5 XRP over what it buys.
    const next = new Decimal((X(2n) - X(1n) + feeOn(X(2n) - X(1n))).toString())
      .div(1_000_000)
      .div(S.toString());
    // (the ledger's offer quality and this division agree to 15 significant digits)
    expect(new Decimal(q.spotPrice!).toSignificantDigits(15).toFixed(), next.toFixed()).toBe(
      next.toSignificantDigits(15).toFixed(),
    );
    const average = new Decimal(q.spend).div(q.receive);
    expect(q.impactAgainst).toBe('curve');
    const spot = new Decimal(q.spotPrice!);
    expect(q.priceImpactPercent).toBe(average.minus(spot).div(spot).mul(100).toDecimalPlaces(2).toFixed(2));
    expect(Number(q.priceImpactPercent)).toBeGreaterThan(0);

    // Positions (issue 39): the holding is marked at selling it back into the curve's ladder — its
    // bids on the ledger, best price first, each taking tokens for drops at its own price — with no
    // platform fee (the curve's prices carry it); its cost is the 5 XRP and the trade's network fee.
    await settled();
    const held = new Decimal(await tokenBalance(client(), wallet.address, issuer, currency));
    const bids = (await offersOf(client(), curveAddress))
      .filter((o) => typeof o.taker_gets === 'string')
      .map((o) => ({
        drops: new Decimal(o.taker_gets as string),
        tokens: new Decimal((o.taker_pays as { value: string }).value),
      }))
      .sort((a, b) => b.drops.div(b.tokens).comparedTo(a.drops.div(a.tokens)));
    let rest = held;
    let back = new Decimal(0);
    for (const bid of bids) {
      if (rest.lte(0)) break;
      const take = Decimal.min(rest, bid.tokens);
      back = back.plus(bid.drops.mul(take).div(bid.tokens));
      rest = rest.minus(take);
    }
    expect(rest.isZero()).toBe(true);
    const sale = back.div(1e6).toDecimalPlaces(6, Decimal.ROUND_DOWN);
    const tx = (await client().request({ command: 'tx', transaction: s.hash })).result as {
      Fee?: string;
      tx_json?: { Fee?: string };
    };
    const cost = new Decimal(5).plus(new Decimal((tx.tx_json ?? tx).Fee!).div(1e6));
    const res = await t.app.inject({
      url: `/api/positions/${alice.user.id}`,
      headers: { cookie: alice.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    const pos = (res.json() as PositionsResponse).positions
      .find((p) => p.wallet === wallet.address)!
      .tokens.find((x) => x.tokenCode === currency)!;
    expect(new Decimal(pos.balance).eq(held)).toBe(true);
    // Within a drop of the walk (the server walks book_offers' funded amounts).
    expect(new Decimal(pos.realisableXRP).minus(sale).abs().lte('0.000001'), pos.realisableXRP).toBe(true);
    // Selling straight back loses the curve's fee both ways: below the 5 XRP paid, below spot.
    expect(sale.lt(5)).toBe(true);
    expect(new Decimal(pos.realisableXRP).lt(pos.valueInXRP)).toBe(true);
    expect(
      new Decimal(pos.unrealizedPNL).minus(new Decimal(pos.realisableXRP).minus(cost)).abs().lte('0.000001'),
    ).toBe(true);

    // A curve sell is guarded as a buy is (issue 39): its impact is against the curve's best bid, and
    // selling everything back walks down the ladder, so the average is under that bid by the impact
    // shown.
    const sellQuote = await t.app.inject({
      method: 'POST',
      url: '/api/amm-info',
      headers: alice.headers,
      payload: {
        issuer,
        token: 'CURVE',
        tradeType: 'SELL',
        amountToken: held.toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed(),
        wallet: wallet.address,
      },
    });
    expect(sellQuote.statusCode, sellQuote.body).toBe(200);
    const sq = sellQuote.json() as QuoteView;
    expect(sq.impactAgainst).toBe('curve');
    const bid = new Decimal(sq.spotPrice!);
    const sellAverage = new Decimal(sq.receive).div(sq.spend);
    expect(sellAverage.lt(bid)).toBe(true);
    expect(sq.priceImpactPercent).toBe(
      bid.minus(sellAverage).div(bid).mul(100).toDecimalPlaces(2).toFixed(2),
    );
    expect(Number(sq.priceImpactPercent)).toBeGreaterThan(0);
  });

  it('graduates when the last curve token sells: ladder down, pool at the final price, LP tokens locked', async () => {
    await settled();
    const [c0] = await t.database.db.select().from(bondingCurves);
    const remaining = new Decimal('793100000').minus(new Decimal('1000000000').minus(c0!.held));
    const feeWallet = (await platformWallet(t.database.db, PLATFORM_ROLES.fee))!.address;
    const feeBefore = await xrpBalance(client(), feeWallet);
    // The outsider buys every token left on the curve in one payment.
    const r = await send(client(), outsider, {
      TransactionType: 'Payment',
      Account: outsider.classicAddress,
      Destination: outsider.classicAddress,
      Amount: { currency, issuer, value: remaining.toFixed() },
      SendMax: '200000000',
    });
    expect((r.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
    await t.app.platform.indexer!.caughtUp();
    const [c1] = await t.database.db.select().from(bondingCurves);
    expect(c1!.status).not.toBe('active');
    const job = await t.app.platform.jobs.waitFor(c1!.graduationJobId!, { timeoutMs: 60_000 });
    expect(job.status, job.error ?? '').toBe('completed');
    const [c] = await t.database.db.select().from(bondingCurves);

    // The ladder is gone; the pool holds everything the curve raised, less the fees.
    expect(await offersOf(client(), curveAddress)).toEqual([]);
    const amm = (
      await client().request({
        command: 'amm_info',
        asset: { currency: 'XRP' },
        asset2: { currency, issuer },
        ledger_index: 'validated',
      })
    ).result.amm;
    const poolXrp = BigInt(amm.amount as string);
    const poolTokens = new Decimal((amm.amount2 as { value: string }).value);
    const trades = await t.database.db.select().from(bondingTrades);
    const sum = (f: (x: (typeof trades)[number]) => bigint) => trades.reduce((a, x) => a + f(x), 0n);
    const paidIn = sum((x) => (x.side === 'BUY' ? BigInt(x.quote) : 0n));
    const paidOut = sum((x) => (x.side === 'SELL' ? BigInt(x.quote) : 0n));
    const fees = sum((x) => BigInt(x.fee));
    expect(poolXrp).toBe(paidIn - paidOut - fees);
    // That is the curve's value at its end, X(200) = 85,005,360 drops, plus what Alice's 5 XRP paid
    // above the steps for the part of her buy inside the block [32,64): a block is priced at its
    // average, so its first tokens cost more than their steps (docs/bonding-curve.md, "Blocks").
    // Worked out by hand: she took chunks [1,2) … [16,32) whole (31 steps), then the rest of her
    // 5 XRP bought tokens of [32,64) at its price; those tokens' steps cost less.
    const whole = (a: bigint, b: bigint) => X(b) - X(a) + feeOn(X(b) - X(a));
    let spentWhole = 0n;
    for (const [a, b] of [
      [1n, 2n],
      [2n, 3n],
      [3n, 4n],
      [4n, 5n],
      [5n, 6n],
      [6n, 7n],
      [7n, 8n],
      [8n, 16n],
      [16n, 32n],
    ])
      spentWhole += whole(a!, b!);
    const inBlock = 5_000_000n - spentWhole; // drops paid at the block's price
    const blockTokens = new Decimal((32n * S).toString())
      .mul(inBlock.toString())
      .div(whole(32n, 64n).toString());
    // The same tokens along the steps: step 32 onwards, each at its value plus fee.
    let stepCost = new Decimal(0);
    let rest = blockTokens;
    for (let j = 32n; rest.gt(0); j++) {
      const take = Decimal.min(rest, S.toString());
      stepCost = stepCost.plus(take.div(S.toString()).mul(whole(j, j + 1n).toString()));
      rest = rest.minus(take);
    }
    const overpaid = new Decimal(inBlock.toString()).minus(stepCost); // fee included
    const surplus = overpaid.mul(1_000_000).div(1_000_000 + Number(FEE_PPM)); // its fee part went to fees
    expect(new Decimal((poolXrp - X(200n)).toString()).minus(surplus).abs().lte(50)).toBe(true);
    // It opens at the curve's final marginal price k / y_end² (drops per token): quote ÷ that price
    // tokens, but never more than the 206,900,000 kept for the pool — here the surplus above makes it
    // the whole reserve, and the pool opens a little above the final price, well within the last
    // step (which itself averages below the final price).
    const endPrice = new Decimal(k.toString()).div(new Decimal('279900000').pow(2));
    const wantTokens = Decimal.min(
      '206900000',
      new Decimal(poolXrp.toString()).div(endPrice).toSignificantDigits(15, Decimal.ROUND_DOWN),
    );
    expect(poolTokens.toFixed()).toBe(wantTokens.toFixed());
    const opening = new Decimal(poolXrp.toString()).div(poolTokens);
    const lastStep = new Decimal((X(200n) - X(199n)).toString()).div(S.toString());
    expect(opening.minus(endPrice).abs().lte(endPrice.minus(lastStep))).toBe(true);
    const obligations = (
      await client().request({ command: 'gateway_balances', account: issuer, ledger_index: 'validated' })
    ).result.obligations as Record<string, string>;
    const burned = new Decimal('206900000').minus(poolTokens);
    expect(new Decimal(obligations[currency]!).eq(new Decimal('1000000000').minus(burned))).toBe(true);

    // The LP tokens sit in the curve account, which can never sign again.
    const lines = (
      await client().request({ command: 'account_lines', account: curveAddress, ledger_index: 'validated' })
    ).result.lines;
    expect(lines.find((l) => l.currency === amm.lp_token.currency)?.balance).toBe(amm.lp_token.value);
    const info = (
      await client().request({ command: 'account_info', account: curveAddress, ledger_index: 'validated' })
    ).result.account_data;
    expect(info.RegularKey).toBe('rrrrrrrrrrrrrrrrrrrrBZbvji');
    expect(info.Flags & LedgerEntry.AccountRootFlags.lsfDisableMaster).toBeTruthy();
    const signers = await client().request({
      command: 'account_objects',
      account: curveAddress,
      type: 'signer_list',
      ledger_index: 'validated',
    });
    expect(signers.result.account_objects).toEqual([]);
    // Issue 37: the risk panel reads the graduation's LP as burned, all of it, from the ledger.
    const risk = (await t.app.inject({ url: `/api/tokens/${issuer}/risk` })).json() as RiskReport;
    expect(risk.lpLockedPercent).toBe('100');
    expect(risk.signals.find((s) => s.id === 'lp-locked')).toMatchObject({
      label: 'LP burned',
      value: '100%',
    });

    // The fees the prices carried went to the fee wallet; the token reads 'Graduated'.
    expect(BigInt(c!.feesSwept)).toBe(fees);
    expect((await xrpBalance(client(), feeWallet)) - feeBefore).toBe(fees);
    const token = (
      await t.app.inject({ method: 'GET', url: `/api/tokens/issuer/${issuer}` })
    ).json() as TokenView;
    expect(token).toMatchObject({ bonding_active: false, has_graduated_to_amm: true });
    const view = (await t.app.inject({ method: 'GET', url: `/api/bonding/${issuer}` })).json() as BondingView;
    expect(view).toMatchObject({ status: 'graduated', percent: '100.00', amm_account: amm.account });
  });
});

describe('anti-snipe', () => {
  it('sells at most the cap per ledger during the first ledgers, however many buyers come', async () => {
    await t.app.platform.settings.set('bonding_snipe_ledgers', '3');
    await t.app.platform.settings.set('bonding_snipe_tokens', '5000000');
    const w = await fundedWallet(t, owner);
    const launched = await launchCurve(t, owner, w.id, { name: 'Snipe Guard', ticker: 'GUARD' });
    const buyers = await outsideWallets(client(), 8, 100);
    for (const b of buyers)
      await send(client(), b, {
        TransactionType: 'TrustSet',
        Account: b.classicAddress,
        LimitAmount: { currency: launched.currency, issuer: launched.issuer_address, value: '1000000000' },
      });
    await settled();
    const [curve] = (await t.database.db.select().from(bondingCurves)).filter(
      (c) => c.issuerAddress === launched.issuer_address,
    );
    const L0 = curve!.launchLedger!;
    expect(L0).toBeGreaterThan(0);
    closer.pause();
    try {
      const soldIn = new Map<number, Decimal>();
      // Every ledger from the launch on, all eight buyers try to take 2,000,000 tokens each.
      for (let round = 0; round < 5; round++) {
        await t.app.bonding.keeper!.idle();
        const hashes = await Promise.all(
          buyers.map((b) =>
            submitNow(client(), b, {
              TransactionType: 'Payment',
              Account: b.classicAddress,
              Destination: b.classicAddress,
              Amount: { currency: launched.currency, issuer: launched.issuer_address, value: '2000000' },
              SendMax: '50000000',
              Flags: PaymentFlags.tfPartialPayment, // take what is for sale
            }),
          ),
        );
        const L = closer.close();
        await Promise.all(hashes.map((h) => waitValidated(client(), h)));
        await t.app.platform.indexer!.caughtUp(L);
        const trades = (await t.database.db.select().from(bondingTrades)).filter(
          (x) => x.curveId === curve!.id && x.ledgerIndex === L,
        );
        soldIn.set(
          L,
          trades.reduce((a, x) => a.plus(x.tokens), new Decimal(0)),
        );
      }
      for (const [L, sold] of soldIn) {
        // In the anti-snipe window (launch ledger L0 and the next two) at most 5,000,000 a ledger,
        // and with 16,000,000 asked for, exactly the cap; after it the whole curve is for sale.
        if (L < L0 + 3) expect(sold.toFixed()).toBe('5000000');
        else expect(sold.toFixed()).toBe('16000000');
      }
      expect([...soldIn.keys()].some((L) => L >= L0 + 3)).toBe(true);
    } finally {
      closer.resume();
    }
  });
});

describe('launch protection', () => {
  it('a buy that meets the anti-snipe cap is told so, not "Insufficient Liquidity"', async () => {
    await t.app.platform.settings.set('bonding_snipe_ledgers', '1000');
    await t.app.platform.settings.set('bonding_snipe_tokens', '5000000');
    const w = await fundedWallet(t, owner);
    const launched = await launchCurve(t, owner, w.id, { name: 'Cap Guard', ticker: 'CAPG' });
    await t.app.platform.settings.set('bonding_snipe_ledgers', '0');
    const [buyer] = await outsideWallets(client(), 1, 100);
    await send(client(), buyer!, {
      TransactionType: 'TrustSet',
      Account: buyer!.classicAddress,
      LimitAmount: { currency: launched.currency, issuer: launched.issuer_address, value: '1000000000' },
    });
    const carol = await t.signIn('cap_carol');
    const carolWallet = await fundedWallet(t, carol);
    // Her trust line is open: her swap below is checked only by the simulation right before
    // signing (no probe before it: issue 40), which must refuse it as the quote does.
    const line = await t.app.inject({
      method: 'POST',
      url: '/api/add-trustline',
      headers: carol.headers,
      payload: { wallet: carolWallet.address, issuer: launched.issuer_address, token: 'CAPG' },
    });
    expect(line.statusCode, line.body).toBe(200);
    const signedFor = async () =>
      (
        await t.database.db
          .select({ hash: ledgerSubmissions.hash })
          .from(ledgerSubmissions)
          .where(eq(ledgerSubmissions.account, carolWallet.address))
      ).length;
    const quote = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/amm-info',
        headers: carol.headers,
        payload: {
          issuer: launched.issuer_address,
          token: 'CAPG',
          tradeType: 'BUY',
          amountXrp: '1',
          wallet: carolWallet.address,
        },
      });
    await settled();
    closer.pause();
    try {
      // Tokens are for sale: the quote answers.
      expect((await quote()).statusCode).toBe(200);
      // An outside wallet takes this ledger's whole cap (in the open ledger, where quotes simulate).
      await submitNow(client(), buyer!, {
        TransactionType: 'Payment',
        Account: buyer!.classicAddress,
        Destination: buyer!.classicAddress,
        Amount: { currency: launched.currency, issuer: launched.issuer_address, value: '6000000' },
        SendMax: '50000000',
        Flags: PaymentFlags.tfPartialPayment, // take what is for sale
      });
      const none = await quote();
      const capped = 'Launch protection: at most 5,000,000 tokens per ledger for the first 1000 ledgers';
      expect([none.statusCode, none.json().message]).toEqual([400, capped]);
      // Her buy is refused with the same sentence, and nothing is signed for it.
      const signed = await signedFor();
      const swap = await t.app.inject({
        method: 'POST',
        url: '/api/swap',
        headers: carol.headers,
        payload: {
          walletAddress: carolWallet.address,
          issuer: launched.issuer_address,
          token: 'CAPG',
          amount: '1',
          type: 'BUY',
          slippage: '5',
        },
      });
      expect([swap.statusCode, swap.json().message]).toEqual([400, capped]);
      expect(await signedFor()).toBe(signed);
    } finally {
      closer.resume();
    }
  });
});

describe('an indexer that falls behind', () => {
  it('catching up through the ledgers before a launch (no supply yet) does not graduate the curve', async () => {
    await t.app.platform.settings.set('bonding_snipe_ledgers', '0');
    const indexer = t.app.platform.indexer!;
    await indexer.stop();
    let launched: Awaited<ReturnType<typeof launchCurve>>;
    try {
      const w = await fundedWallet(t, owner);
      launched = await launchCurve(t, owner, w.id, { name: 'Late Index', ticker: 'LATE' });
    } finally {
      indexer.start();
    }
    // The follower now reads the launch's ledgers with the curve already registered: the ledgers
    // that funded the curve account and set its line show it holding nothing.
    const row = async () =>
      (await t.database.db.select().from(bondingCurves)).find(
        (c) => c.issuerAddress === launched.issuer_address,
      )!;
    // Until the indexer has seen the curve's first ladder (the launch) and everything after it.
    await until('the launch ledger indexed', async () => {
      await settled();
      return (await row()).launchLedger !== null;
    });
    await settled();
    const curve = await row();
    expect(curve!.status).toBe('active');
    expect(curve!.graduationJobId).toBeNull();
    expect(new Decimal(curve!.held).toFixed()).toBe('1000000000');
    expect(curve!.launchLedger).not.toBeNull();
  });
});

describe('curve routes and launch rules', () => {
  it('answers the market cap from the curve, 404 for a token without one', async () => {
    const token = (
      await t.app.inject({ method: 'GET', url: `/api/tokens/issuer/${issuer}` })
    ).json() as TokenView;
    const r = await t.app.inject({ method: 'GET', url: `/api/pump/bonding/marketcap/${token.id}` });
    expect(r.statusCode).toBe(200);
    const view = (await t.app.inject({ method: 'GET', url: `/api/bonding/${issuer}` })).json() as BondingView;
    const xrpUsd = (await t.app.marketSnapshot.get()).xrpUsd!;
    // price × 1,000,000,000 × the XRP/USD price of the ledger's XRP/RLUSD pool.
    expect(r.json()).toEqual({
      market_cap_usd: new Decimal(view.price).mul('1000000000').mul(xrpUsd).toDecimalPlaces(2).toFixed(2),
    });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/pump/bonding/marketcap/999999' })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/pump/bonding/marketcap/abc' })).statusCode).toBe(
      400,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/bonding/not-an-address' })).statusCode).toBe(400);
  });

  it('refuses a curve launch with another supply, a dev allocation, a kept issuer or required authorization', async () => {
    // A user of their own (the deploy attempt lock counts five a minute); the form is refused before
    // any balance is read, so an empty wallet will do.
    const carol = await t.signIn('curve_carol');
    const w = await fundedWallet(t, carol, 0);
    // A stored logo of its own, so each refusal is the curve rule's, not the logo's (issue 35).
    const base = curveLaunchBody(w.id, { name: 'Bad Curve', ticker: 'BADC' }, await testLogo(t.database.db));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ supply: '5000' }, 'A bonding curve launch has a supply of 1,000,000,000.'],
      [{ devAllocation: '5' }, 'A bonding curve launch has no dev allocation: everyone buys on the curve.'],
      [{ blackholeIssuer: false }, 'A bonding curve launch blackholes its issuer: the supply is fixed.'],
      [{ requireAuth: true }, 'A bonding curve launch cannot require authorization: anyone may buy.'],
    ];
    for (const [patch, message] of cases) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/deploy-token',
        headers: carol.headers,
        payload: { ...base, ...patch },
      });
      expect(r.statusCode, JSON.stringify(patch)).toBe(400);
      expect((r.json() as { message: string }).message).toBe(message);
    }
    const fees = (await t.app.inject({ method: 'GET', url: '/api/config/fees' })).json() as {
      bonding: { graduation_xrp: string; steps: number };
    };
    expect(fees.bonding).toMatchObject({ steps: 200, graduation_xrp: '85.00536' });
  });
});
