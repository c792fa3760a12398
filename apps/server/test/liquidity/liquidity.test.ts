import DecimalBase from 'decimal.js';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'xrpl';
import {
  LIQUIDITY_MESSAGES,
  type AddLiquidityResult,
  type AmmVoteResult,
  type DeployResult,
  type LpBalanceResult,
  type LpPriceResult,
  type RemoveLiquidityResult,
} from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import type { SignedIn } from '../helpers/test-app';
import { deployToken, fundedWallet, seed, type TradingWorld } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// AMM liquidity from a custodial wallet on the embedded ledger. Every expected number is worked
// out here from the pool read with xrpl.js (`amm_info`) before the transaction, with XLS-30's
// formulas as rippled computes them, and compared with the pool and balances afterwards. The
// ledger keeps 16 significant digits and rounds in the pool's favour, so amounts agree to ~1e-12
// relative (XRP to the drop).

const Decimal = DecimalBase.clone({ precision: 60 });
type Decimal = InstanceType<typeof Decimal>;

let t: WalletTestApp;
let world: TradingWorld;
let client: Client;
let owner: SignedIn;
let alice: SignedIn;
let bob: SignedIn;
let aliceWallet: string;
let token: DeployResult;

const LIQUIDITY_PURPOSES = ['add-liquidity', 'remove-liquidity', 'amm-vote'];

const post = (url: string, who: SignedIn, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload });

async function pool() {
  const r = await client.request({
    command: 'amm_info',
    asset: { currency: 'XRP' },
    asset2: { currency: token.currency, issuer: token.issuer_address },
    ledger_index: 'validated',
  });
  const amm = r.result.amm;
  return {
    xrp: new Decimal(amm.amount as string).div(1e6),
    tokens: new Decimal((amm.amount2 as { value: string }).value),
    lp: new Decimal(amm.lp_token.value),
    fee: new Decimal(amm.trading_fee).div(100_000),
    tradingFee: amm.trading_fee,
    account: amm.account,
    lpCurrency: amm.lp_token.currency,
    votes: (amm.vote_slots ?? []) as Array<{ account: string; trading_fee: number }>,
  };
}

async function lpOf(address: string): Promise<Decimal> {
  const p = await pool();
  const r = await client.request({
    command: 'account_lines',
    account: address,
    peer: p.account,
    ledger_index: 'validated',
  });
  return new Decimal(r.result.lines.find((l) => l.currency === p.lpCurrency)?.balance ?? 0);
}

const tokensOf = async (address: string): Promise<Decimal> => new Decimal(await world.tokens(address, token));

async function liquiditySubmissions(): Promise<number> {
  const [row] = await t.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(ledgerSubmissions)
    .where(inArray(ledgerSubmissions.purpose, LIQUIDITY_PURPOSES));
  return row!.n;
}

/** |a − b| ≤ b × 1e-12 (16-digit ledger arithmetic against 60-digit decimals). */
const close = (a: DecimalBase.Value, b: DecimalBase.Value) =>
  new Decimal(a).minus(b).abs().lte(new Decimal(b).abs().mul('1e-12'));

const market = () => ({ wallet: aliceWallet, issuer: token.issuer_address, token: 'LIQ' });

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  world = seed(t);
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  owner = await t.signInOwner();
  const ownerWallet = await fundedWallet(t, owner);
  token = await deployToken(t, owner, ownerWallet.id, { name: 'Liquid Token', ticker: 'LIQ' });
  alice = await t.signIn('alice_lp');
  bob = await t.signIn('bob_lp');
  aliceWallet = (await fundedWallet(t, alice)).address;
  // Alice buys tokens to deposit beside her XRP.
  const swap = await post('/api/swap', alice, {
    wallet: aliceWallet,
    issuer: token.issuer_address,
    token: 'LIQ',
    amount: '30',
    type: 'BUY',
    slippage: '1',
  });
  expect(swap.statusCode, swap.body).toBe(200);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('liquidity', () => {
  it('deposits both assets in the pool ratio: LP out = lpTotal × deposit / pool', async () => {
    const before = await pool();
    // Maxima: 10 XRP and all of Alice's tokens (the ledger wants both maxima funded); the XRP
    // side is the smaller fraction, so it limits:
    //   frac = min(10 / X, held / T) = 10 / X
    //   LP out   = lpTotal × frac
    //   tokens in = T × frac (rounded up, in the pool's favour)
    const held = (await tokensOf(aliceWallet)).toDecimalPlaces(6, Decimal.ROUND_DOWN);
    expect(held.div(before.tokens).gt(new Decimal(10).div(before.xrp))).toBe(true);
    const frac = new Decimal(10).div(before.xrp);
    const lpOut = before.lp.mul(frac);
    const tokensIn = before.tokens.mul(frac);
    // The Add form's 'LP tokens you will receive', asked first: the same formula, rounded down.
    const preview = (
      await post('/api/get-lp-price', alice, {
        issuer: token.issuer_address,
        token: 'LIQ',
        depositBase: '10',
        depositToken: held.toFixed(),
      })
    ).json() as LpPriceResult;
    expect(close(preview.deposit!.double!.lpTokens, lpOut)).toBe(true);
    expect(new Decimal(preview.deposit!.double!.lpTokens).lte(lpOut)).toBe(true);
    expect(preview.deposit!.double!.used.base).toBe('10');
    expect(close(preview.deposit!.double!.used.token, tokensIn)).toBe(true);
    const res = await post('/api/add-liquidity', alice, {
      ...market(),
      mode: 'double-asset',
      selectedAsset: null,
      amountXrp: '10',
      amountToken: held.toFixed(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as AddLiquidityResult;
    expect(body).toMatchObject({ status: 'success', message: '✅ Liquidity added successfully!' });
    expect(body.deposited.base).toBe('10');
    expect(close(body.deposited.token, tokensIn)).toBe(true);
    expect(close(body.lpTokens, lpOut)).toBe(true);
    expect(close(preview.deposit!.double!.lpTokens, body.lpTokens)).toBe(true);

    const after = await pool();
    expect(after.xrp.eq(before.xrp.plus(10))).toBe(true);
    expect(after.tokens.eq(before.tokens.plus(body.deposited.token))).toBe(true);
    expect(after.lp.minus(before.lp).eq(body.lpTokens)).toBe(true);
    // The price did not move: both sides grew by the same fraction.
    expect(close(after.xrp.div(after.tokens), before.xrp.div(before.tokens))).toBe(true);
    const bal = (
      await post('/api/lp-token-balance', alice, { ...market(), baseCurrency: 'XRP', baseIssuer: '' })
    ).json() as LpBalanceResult;
    expect(bal.status).toBe('success');
    expect(new Decimal(bal.balance).eq(await lpOf(aliceWallet))).toBe(true);
    expect(new Decimal(bal.balance).eq(body.lpTokens)).toBe(true);
  });

  it('deposits one asset with the pool fee (rippled lpTokensOut)', async () => {
    const before = await pool();
    // 5 XRP into the XRP side, fee f = 0.003:
    //   f1 = 1 − f = 0.997, f2 = (1 − f/2) / f1 = 0.9985 / 0.997, r = 5 / X
    //   c = √(f2² + r / f1) − f2
    //   LP out = lpTotal × (r − c) / (1 + c)
    // (XLS-30's first form, lpTotal × (√(1 + r(1 − f/2)) − 1), differs from it in the 6th digit.)
    const f = before.fee;
    const f1 = new Decimal(1).minus(f);
    const f2 = new Decimal(1).minus(f.div(2)).div(f1);
    const r = new Decimal(5).div(before.xrp);
    const c = f2.mul(f2).plus(r.div(f1)).sqrt().minus(f2);
    const lpOut = before.lp.mul(r.minus(c)).div(new Decimal(1).plus(c));
    // Without any fee the same deposit would issue more: the fee is real.
    const feeFree = before.lp.mul(new Decimal(1).plus(r).sqrt().minus(1));
    expect(lpOut.lt(feeFree)).toBe(true);

    const lpBefore = await lpOf(aliceWallet);
    const preview = (
      await post('/api/get-lp-price', alice, { issuer: token.issuer_address, token: 'LIQ', depositBase: '5' })
    ).json() as LpPriceResult;
    expect(preview.deposit!.double).toBeUndefined();
    expect(close(preview.deposit!.singleBase!, lpOut)).toBe(true);
    expect(new Decimal(preview.deposit!.singleBase!).lte(lpOut)).toBe(true);
    const res = await post('/api/add-liquidity', alice, {
      ...market(),
      mode: 'single-asset',
      selectedAsset: { currency: 'XRP' },
      amountXrp: '5',
      amountToken: '',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as AddLiquidityResult;
    // The ledger rounds in the pool's favour: it may take a drop less than asked for the LP tokens
    // it issues (rippled adjustAssetInByTokens), never more.
    expect(body.deposited.token).toBe('0');
    expect(new Decimal(body.deposited.base).lte(5)).toBe(true);
    expect(new Decimal(body.deposited.base).gte('4.999999')).toBe(true);
    // The LP tokens are the formula's for what was taken (4.999999 XRP or 5): within the 16-digit
    // rounding of the formula for 5 XRP and never more than it.
    const lpFor = (b: DecimalBase.Value) => {
      const rb = new Decimal(b).div(before.xrp);
      const cb = f2.mul(f2).plus(rb.div(f1)).sqrt().minus(f2);
      return before.lp.mul(rb.minus(cb)).div(new Decimal(1).plus(cb));
    };
    expect(close(body.lpTokens, lpFor(body.deposited.base))).toBe(true);
    expect(new Decimal(body.lpTokens).lte(lpOut)).toBe(true);
    expect(lpOut.minus(body.lpTokens).lte(lpOut.minus(lpFor('4.999998')))).toBe(true);
    const after = await pool();
    expect(after.xrp.eq(before.xrp.plus(body.deposited.base))).toBe(true);
    expect(after.tokens.eq(before.tokens)).toBe(true);
    expect((await lpOf(aliceWallet)).minus(lpBefore).eq(body.lpTokens)).toBe(true);
  });

  it('withdraws both assets pro rata for 50% of the LP tokens, without fee', async () => {
    const held = await lpOf(aliceWallet);
    const half = held.div(2).toSignificantDigits(15, Decimal.ROUND_DOWN);
    const before = await pool();
    // Each side × lp / lpTotal; XRP rounded down to the drop.
    const xrpOut = before.xrp.mul(half).div(before.lp).mul(1e6).floor().div(1e6);
    const tokensOut = before.tokens.mul(half).div(before.lp);
    const quoted = (
      await post('/api/get-lp-price', alice, {
        issuer: token.issuer_address,
        token: 'LIQ',
        amountLp: half.toFixed(),
      })
    ).json() as LpPriceResult;
    expect(new Decimal(quoted.expected!.double.base).eq(xrpOut)).toBe(true);

    const res = await post('/api/remove-liquidity', alice, {
      ...market(),
      amountLp: half.toFixed(),
      mode: 'double',
      selectedAsset: null,
      limitPrice: '',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as RemoveLiquidityResult;
    expect(body).toMatchObject({ status: 'success', message: '✅ Liquidity removed successfully!' });
    // The tokens redeemed are the balance difference at 16 digits (rippled adjustLPTokens): `half`
    // to ~1e-15; so the XRP out is the formula's to the drop.
    expect(close(body.lpTokens, half)).toBe(true);
    expect(new Decimal(body.withdrawn.base).minus(xrpOut).abs().lte('0.000001')).toBe(true);
    expect(close(body.withdrawn.token, tokensOut)).toBe(true);
    expect(new Decimal(quoted.expected!.double.base).minus(body.withdrawn.base).abs().lte('0.000001')).toBe(
      true,
    );
    expect(close(quoted.expected!.double.token, body.withdrawn.token)).toBe(true);
    const after = await pool();
    expect(after.lp.eq(before.lp.minus(body.lpTokens))).toBe(true);
    expect(after.xrp.eq(before.xrp.minus(body.withdrawn.base))).toBe(true);
    expect((await lpOf(aliceWallet)).eq(held.minus(body.lpTokens))).toBe(true);
  });

  it('withdraws one asset with the fee (rippled ammAssetOut); the screen’s expected amount is what executes', async () => {
    const held = await lpOf(aliceWallet);
    const lp = held.div(4).toSignificantDigits(15, Decimal.ROUND_DOWN);
    const before = await pool();
    // t = lp / lpTotal, out = X × (t² − t(2 − f)) / (t·f − 1), XRP rounded down to the drop.
    const tt = lp.div(before.lp);
    const out = before.xrp
      .mul(tt.mul(tt).minus(tt.mul(new Decimal(2).minus(before.fee))))
      .div(tt.mul(before.fee).minus(1))
      .mul(1e6)
      .floor()
      .div(1e6);
    // Less than the pro-rata share of both sides valued at the pool price (2 × X × t): the fee.
    expect(out.lt(before.xrp.mul(tt).mul(2))).toBe(true);
    const price = (
      await post('/api/get-lp-price', alice, {
        issuer: token.issuer_address,
        token: 'LIQ',
        amountLp: lp.toFixed(),
      })
    ).json() as LpPriceResult;
    // LP per unit: lpTotal / (2 × side).
    expect(close(price.lpPerBase, before.lp.div(before.xrp.mul(2)))).toBe(true);
    expect(close(price.lpPerToken, before.lp.div(before.tokens.mul(2)))).toBe(true);
    expect(price.tradingFee).toBe(300);

    // A limit below this withdrawal's effective price (lp / out) asks for more than it pays: refused
    // before signing with both figures (issue 39; before, the ledger refused it, tecAMM_FAILED, and
    // kept the network fee).
    const effective = lp.div(out);
    const tooLow = effective.mul('0.99').toSignificantDigits(10).toFixed();
    const refused = await post('/api/remove-liquidity', alice, {
      ...market(),
      amountLp: lp.toFixed(),
      mode: 'single',
      selectedAsset: { currency: 'XRP' },
      limitPrice: tooLow,
    });
    expect(refused.statusCode).toBe(400);
    const needed = lp.div(tooLow).toSignificantDigits(15, Decimal.ROUND_UP).toFixed();
    expect(refused.json()).toMatchObject({
      message: LIQUIDITY_MESSAGES.limitUnmet(price.expected!.singleBase, needed, 'XRP'),
    });
    expect(new Decimal(needed).gt(out)).toBe(true);
    expect((await pool()).lp.eq(before.lp)).toBe(true);
    // Nothing was signed for it.
    const signed = await t.database.db.select().from(ledgerSubmissions);
    expect(signed.filter((r) => r.txType === 'AMMWithdraw' && r.result === 'tecAMM_FAILED')).toEqual([]);

    const res = await post('/api/remove-liquidity', alice, {
      ...market(),
      amountLp: lp.toFixed(),
      mode: 'single',
      selectedAsset: { currency: 'XRP' },
      limitPrice: effective.mul('1.01').toSignificantDigits(10).toFixed(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as RemoveLiquidityResult;
    expect(new Decimal(body.lpTokens).eq(lp)).toBe(true);
    expect(new Decimal(body.withdrawn.base).eq(out)).toBe(true);
    expect(body.withdrawn.token).toBe('0');
    expect(body.withdrawn.base).toBe(price.expected!.singleBase);
    const after = await pool();
    expect(after.tokens.eq(before.tokens)).toBe(true);
    expect(after.xrp.eq(before.xrp.minus(out))).toBe(true);
  });

  it('a vote moves the pool fee to the LP-weighted mean of the votes', async () => {
    const before = await pool();
    expect(before.tradingFee).toBe(300);
    // Each voter weighs by the LP tokens held now:
    //   fee = (Σ fee_i × lp_i + 1000 × lp_alice) / (Σ lp_i + lp_alice), to the nearest integer
    //   (rippled's Number → integer conversion rounds to nearest, ties to even)
    const voters = await Promise.all(
      before.votes
        .filter((v) => v.account !== aliceWallet)
        .map(async (v) => ({ fee: v.trading_fee, lp: await lpOf(v.account) })),
    );
    const mine = await lpOf(aliceWallet);
    const num = voters.reduce((s, v) => s.plus(v.lp.mul(v.fee)), mine.mul(1000));
    const den = voters.reduce((s, v) => s.plus(v.lp), mine);
    const expected = num.div(den).toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN).toNumber();
    expect(expected).toBeGreaterThan(300);

    const res = await post('/api/amm-vote', alice, { ...market(), tradingFee: 1000 });
    expect(res.statusCode, res.body).toBe(200);
    const vote = res.json() as AmmVoteResult;
    expect(vote.tradingFee).toBe(expected);
    expect((await pool()).tradingFee).toBe(expected);
    // The answer says what happened: the vote's weight is alice's share of all LP tokens (rippled
    // keeps it in 1/100,000, rounded like the fee), shown in percent to 2 decimals, and the fee
    // now in force, in percent.
    const weight = mine
      .mul(100_000)
      .div(before.lp)
      .toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN)
      .div(1000)
      .toDecimalPlaces(2, Decimal.ROUND_DOWN);
    expect(vote.voteWeightPercent).toBe(weight.toFixed(2));
    expect(vote.message).toBe(
      `Your vote (weight ${weight.toFixed(2)}%) is recorded; the pool fee is now ${new Decimal(expected).div(1000).toFixed(3)}%`,
    );
  });

  it('refuses another user’s wallet and bad input before signing anything', async () => {
    const n = await liquiditySubmissions();
    const foreign = await post('/api/add-liquidity', bob, {
      ...market(),
      mode: 'double-asset',
      selectedAsset: null,
      amountXrp: '1',
      amountToken: '1',
    });
    expect(foreign.statusCode).toBe(404);
    for (const [url, who] of [
      ['/api/remove-liquidity', bob],
      ['/api/amm-vote', bob],
      ['/api/lp-token-balance', bob],
    ] as const) {
      const r = await post(url, who, { ...market(), amountLp: '1', mode: 'double', tradingFee: 500 });
      expect(r.statusCode, url).toBe(404);
    }

    const cases: Array<[string, Record<string, unknown>, string | RegExp]> = [
      [
        '/api/add-liquidity',
        { mode: 'single-asset', selectedAsset: { currency: 'XRP' }, amountXrp: '' },
        'Please enter the amount of XRP to add.',
      ],
      [
        '/api/add-liquidity',
        {
          mode: 'single-asset',
          selectedAsset: { currency: 'LIQ', issuer: token.issuer_address },
          amountToken: '0',
        },
        'Please enter the amount of LIQ to add.',
      ],
      [
        '/api/add-liquidity',
        { mode: 'double-asset', selectedAsset: null, amountXrp: '1', amountToken: '' },
        'Please enter the amount of both assets to add.',
      ],
      [
        '/api/add-liquidity',
        { mode: 'double-asset', selectedAsset: null, amountXrp: '1', amountToken: '1e5' },
        'Invalid token amount.',
      ],
      [
        '/api/remove-liquidity',
        { mode: 'double', amountLp: '0' },
        'Please enter the LP token amount to withdraw.',
      ],
      [
        '/api/remove-liquidity',
        { mode: 'double', amountLp: '1000000' },
        new RegExp(
          `^${LIQUIDITY_MESSAGES.lpOverBalance} Insufficient balance: you have [\\d.]+ LP-LIQ available, this needs 1000000 LP-LIQ\\.$`,
        ),
      ],
      ['/api/amm-vote', { tradingFee: '' }, 'Please fill all fields.'],
      ['/api/amm-vote', { tradingFee: 1001 }, LIQUIDITY_MESSAGES.feeRange],
    ];
    for (const [url, body, message] of cases) {
      const r = await post(url, alice, { ...market(), ...body });
      expect(r.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
      if (message instanceof RegExp) expect(r.json().message).toMatch(message);
      else expect(r.json().message).toBe(message);
    }
    expect(await liquiditySubmissions()).toBe(n);
  });
});
