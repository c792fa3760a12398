import Decimal from 'decimal.js';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'xrpl';
import {
  positionsResponseSchema,
  type DeployResult,
  type PositionsResponse,
  type SwapResult,
  EDGE_MESSAGES,
} from '@ledgerpad/shared';
import { marketTrades } from '../../src/modules/market/schema';
import { tradingTrades } from '../../src/modules/trading/schema';
import { userFeePercent } from '../../src/modules/trading';
import type { SignedIn } from '../helpers/test-app';
import {
  ammLaunchBody,
  deployToken,
  fundedWallet,
  runDeploy,
  seed,
  type TradingWorld,
} from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// Positions on the embedded ledger: real swaps through POST /api/swap, the market indexer's trades,
// then GET /api/positions/{userId} against figures this test computes itself from the executed
// amounts (average cost, written out below independently of the server's code).

let t: WalletTestApp;
let world: TradingWorld;
let client: Client;
let owner: SignedIn;
let alice: SignedIn;
let bob: SignedIn;
let token: DeployResult;
/** A token whose creator keeps 90% of the supply: ten times what its pool holds. */
let whale: DeployResult;
let ownerWallet: { id: number; address: string };
let trader: { id: number; address: string };
let receiver: { id: number; address: string };

const D = Decimal.clone({ precision: 80 });
const post = (url: string, who: SignedIn, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload });
const positionsOf = (who: SignedIn, userId: number | string = who.user.id) =>
  t.app.inject({ method: 'GET', url: `/api/positions/${userId}`, headers: { cookie: who.cookie } });

const walletOf = (who: SignedIn) => fundedWallet(t, who);

// Its platform fee is an XRP payment of its own: `world.swap` lets it land before balances are compared.
const swap = (type: 'BUY' | 'SELL', amount: string): Promise<SwapResult> =>
  world.swap(alice, {
    walletAddress: trader.address,
    issuer: token.issuer_address,
    token: 'POSN',
    amount,
    type,
    slippage: '5',
  });

const tokensOf = (address: string): Promise<string> => world.tokens(address, token);

/** A token's XRP pool on the validated ledger: its XRP (drops), its tokens and its trading fee. */
async function poolOf(of: DeployResult = token) {
  const r = await client.request({
    command: 'amm_info',
    asset: { currency: 'XRP' },
    asset2: { currency: of.currency, issuer: of.issuer_address },
    ledger_index: 'validated',
  });
  return {
    drops: new D(r.result.amm.amount as string),
    tokens: new D((r.result.amm.amount2 as { value: string }).value),
    /** The fee as a fraction (TradingFee is in 1/100,000). */
    fee: new D(r.result.amm.trading_fee).div(100_000),
  };
}

/** XRP per token in the pool on the validated ledger. */
async function poolPrice(of: DeployResult = token): Promise<Decimal> {
  const p = await poolOf(of);
  return p.drops.div(1e6).div(p.tokens);
}

/**
 * What selling `balance` tokens into the pool returns, net of the platform fee, in XRP — by the
 * constant product: (X − x)(T + b(1 − f)) = X·T, so x = X − X·T / (T + b(1 − f)), in whole drops
 * (rounded down, as the ledger pays), less the platform fee on it (its percent of the drops, down).
 */
async function realisable(balance: Decimal.Value, of: DeployResult, userId: number): Promise<Decimal> {
  const { drops: X, tokens: T, fee } = await poolOf(of);
  const b = new D(balance);
  const out = X.minus(X.mul(T).div(T.plus(b.mul(new D(1).minus(fee))))).floor();
  const percent = await userFeePercent(t.database.db, t.app.platform.settings, userId);
  const platformFee = out.mul(percent).div(100).floor();
  return out.minus(platformFee).div(1e6);
}

/** Everything settled: the indexer has the last validated ledger and the snapshot its pools. */
async function settled(): Promise<void> {
  await t.app.platform.indexer!.caughtUp();
  await t.app.marketSnapshot.refresh();
}

/**
 * What a trade made here cost besides its executed amounts, in XRP: the platform fee (its percent of
 * the trade's XRP, rounded down to the drop) and the network fees the ledger charged for the trade
 * and for the fee's own payment (read from the validated transactions).
 */
async function feesOf(hash: string, xrpAmount: string, userId: number): Promise<Decimal> {
  const percent = await userFeePercent(t.database.db, t.app.platform.settings, userId);
  const platform = new D(xrpAmount).mul(1e6).mul(percent).div(100).floor();
  const [row] = await t.database.db.select().from(tradingTrades).where(eq(tradingTrades.hash, hash));
  expect(row?.feeHash, `the fee of ${hash} is paid`).toBeTruthy();
  // API v2 answers the transaction's fields in tx_json.
  const fee = async (h: string) => {
    const r = (await client.request({ command: 'tx', transaction: h })).result as {
      Fee?: string;
      tx_json?: { Fee?: string };
    };
    return new D((r.tx_json ?? r).Fee!);
  };
  return platform
    .plus(await fee(hash))
    .plus(await fee(row!.feeHash!))
    .div(1e6);
}

const near = (actual: string, expected: Decimal, within = '0.000001') =>
  expect(new D(actual).minus(expected).abs().lte(within), `${actual} vs ${expected.toFixed()}`).toBe(true);
/** The ledger's swap rounds each step to 16 digits in the pool's favour: a drop either way of the formula. */
const nearDrops = (actual: string, expected: Decimal) => near(actual, expected, '0.000002');

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  world = seed(t);
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  owner = await t.signInOwner();
  ownerWallet = await walletOf(owner);
  token = await deployToken(t, owner, ownerWallet.id, { name: 'Position Token', ticker: 'POSN' });
  // 900,000 of 1,000,000 kept by the creator, 100,000 in a 100 XRP pool (its LP burned: the
  // liquidity test below looks at POSN's kept LP alone).
  whale = await runDeploy(
    t,
    owner,
    {
      ...ammLaunchBody(ownerWallet.id, { name: 'Whale Token', ticker: 'WHAL' }),
      devAllocation: '90',
      burnLp: true,
    },
    60_000,
  );
  alice = await t.signIn('alice_positions');
  bob = await t.signIn('bob_positions');
  trader = await walletOf(alice);
  receiver = await walletOf(alice);
  await walletOf(bob);

  // Two buys and a sell, then 5,000 tokens sent from the trading wallet to the other one.
  await swap('BUY', '10');
  await swap('BUY', '5');
  await swap('SELL', '30000');
  const line = await post('/api/add-trustline', alice, {
    wallet: receiver.address,
    issuer: token.issuer_address,
    token: 'POSN',
  });
  expect(line.statusCode, line.body).toBe(200);
  const sent = await post('/api/wallets/transfer', alice, {
    walletId: trader.id,
    recipient: receiver.address,
    amount: '5000',
    token: { currency: token.currency, issuer: token.issuer_address },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  await settled();
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /api/positions/{userId}', () => {
  it('prices the trading wallet at average cost from the trades it executed', async () => {
    const rows = await t.database.db
      .select()
      .from(marketTrades)
      .where(and(eq(marketTrades.account, trader.address)))
      .orderBy(asc(marketTrades.ledgerIndex), asc(marketTrades.txIndex));
    expect(rows.map((r) => r.side)).toEqual(['BUY', 'BUY', 'SELL']);

    // Average cost by hand, net of fees (issue 39): buys add tokens and XRP with their fees; the
    // sell realizes its proceeds less its fees − avg × qty and keeps the average for what is left.
    const [b1, b2, s1] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
    const [f1, f2, f3] = await Promise.all(
      [b1, b2, s1].map((r) => feesOf(r.hash, r.quoteAmount, alice.user.id)),
    );
    // 0.75% of 10 XRP is 0.075 XRP, and each transaction pays at least the 10-drop base fee.
    expect(f1!.gte('0.07502')).toBe(true);
    const qtyBought = new D(b1.tokenAmount).plus(b2.tokenAmount);
    const costBought = new D(b1.quoteAmount).plus(f1!).plus(b2.quoteAmount).plus(f2!);
    const avg = costBought.div(qtyBought);
    expect(new D(s1.tokenAmount).eq(30000)).toBe(true);
    const realized = new D(s1.quoteAmount).minus(f3!).minus(avg.mul(s1.tokenAmount));
    const heldByTrades = qtyBought.minus(s1.tokenAmount);
    // 5,000 tokens left by transfer (not a sale): they take their average cost with them.
    const balance = await tokensOf(trader.address);
    expect(new D(balance).eq(heldByTrades.minus(5000))).toBe(true);
    const cost = avg.mul(balance);
    const price = await poolPrice();
    const value = price.mul(balance);
    // Unrealized PNL is marked at what selling the balance would return (issue 39), not at spot.
    const sale = await realisable(balance, token, alice.user.id);

    const res = await positionsOf(alice);
    expect(res.statusCode, res.body).toBe(200);
    const body = positionsResponseSchema.parse(res.json()) as PositionsResponse;
    expect(body.positions.map((p) => p.wallet)).toEqual([trader.address, receiver.address]);
    const [mine] = body.positions;
    const info = await client.request({
      command: 'account_info',
      account: trader.address,
      ledger_index: 'validated',
    });
    expect(mine!.xrpBalance).toBe(new D(info.result.account_data.Balance).div(1e6).toFixed());
    expect(mine!.tokens).toHaveLength(1);
    const pos = mine!.tokens[0]!;
    expect(pos).toMatchObject({ tokenCode: token.currency, ticker: 'POSN', issuer: token.issuer_address });
    expect(new D(pos.balance).eq(balance)).toBe(true);
    expect(pos.realizedPNL).toBe(realized.toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed());
    near(pos.valueInXRP, value);
    nearDrops(pos.realisableXRP, sale);
    expect(new D(pos.realisableXRP).lt(pos.valueInXRP)).toBe(true);
    nearDrops(pos.unrealizedPNL, sale.minus(cost));
    nearDrops(pos.totalPNL, realized.plus(sale).minus(cost));
    // Outputs carry at most 6 decimals.
    for (const v of [pos.valueInXRP, pos.realisableXRP, pos.realizedPNL, pos.unrealizedPNL, pos.totalPNL])
      expect(v).toMatch(/^-?\d+(\.\d{1,6})?$/);
  });

  it('takes tokens that arrived without a trade at the market price: value, no profit', async () => {
    const res = await positionsOf(alice);
    const other = (res.json() as PositionsResponse).positions[1]!;
    const price = await poolPrice();
    expect(other.tokens).toHaveLength(1);
    const pos = other.tokens[0]!;
    expect(pos.balance).toBe('5000');
    near(pos.valueInXRP, price.mul(5000));
    nearDrops(pos.realisableXRP, await realisable(5000, token, alice.user.id));
    // They enter at what they would sell for: value, no profit or loss.
    expect(pos).toMatchObject({ realizedPNL: '0', unrealizedPNL: '0', totalPNL: '0' });
  });

  it('marks a holding ten times its pool at what selling it would return, far below spot (issue 39)', async () => {
    const res = await positionsOf(owner);
    expect(res.statusCode, res.body).toBe(200);
    const body = positionsResponseSchema.parse(res.json());
    const mine = body.positions.find((p) => p.wallet === ownerWallet.address)!;
    const pos = mine.tokens.find((x) => x.tokenCode === whale.currency)!;
    expect(pos.balance).toBe('900000');
    const pool = await poolOf(whale);
    expect(pool.tokens.eq(100_000)).toBe(true);
    // Spot: 900,000 × (100 XRP ÷ 100,000) = 900 XRP; the whole pool holds 100 XRP.
    const spot = (await poolPrice(whale)).mul(900_000);
    near(pos.valueInXRP, spot);
    // x = X − X·T / (T + b(1 − f)): 100 − 100 × 100,000 / (100,000 + 900,000 × 0.997) ≈ 89.97 XRP,
    // less the platform fee — under a tenth of spot.
    const sale = await realisable(900_000, whale, owner.user.id);
    nearDrops(pos.realisableXRP, sale);
    expect(new D(pos.realisableXRP).lt(pool.drops.div(1e6))).toBe(true);
    expect(new D(pos.realisableXRP).lt(spot.div(9))).toBe(true);
    // The dev allocation arrived without a trade: it enters at what it would sell for, no PNL.
    expect(pos).toMatchObject({ realizedPNL: '0', unrealizedPNL: '0', totalPNL: '0' });
  });

  it("refuses another user's positions and a userId that is not a number", async () => {
    const theirs = await positionsOf(bob, alice.user.id);
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json()).toMatchObject({ message: EDGE_MESSAGES.notOwnUser });
    const bad = await positionsOf(bob, 'abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: EDGE_MESSAGES.id('userId') });
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/positions/${alice.user.id}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('lists a wallet holding only XRP with no tokens', async () => {
    const res = await positionsOf(bob);
    expect(res.statusCode, res.body).toBe(200);
    const { positions } = res.json() as PositionsResponse;
    expect(positions).toHaveLength(1);
    expect(positions[0]!.tokens).toEqual([]);
    expect(new D(positions[0]!.xrpBalance).gt(0)).toBe(true);
  });

  it("values the creator's kept LP tokens at the pool: share, what it holds, twice its XRP side (issue 37)", async () => {
    // The deploy kept its LP (no burnLp): the owner's "POSN liquidity" wallet holds every LP token.
    const res = await positionsOf(owner);
    expect(res.statusCode, res.body).toBe(200);
    const body = positionsResponseSchema.parse(res.json());
    const withLp = body.positions.filter((p) => p.liquidity?.length);
    expect(withLp).toHaveLength(1);
    const lp = withLp[0]!.liquidity![0]!;
    const line = (
      await client.request({
        command: 'account_lines',
        account: withLp[0]!.wallet,
        ledger_index: 'validated',
      })
    ).result.lines.find((l) => l.currency.startsWith('03'))!;
    const amm = (
      await client.request({ command: 'amm_info', amm_account: line.account, ledger_index: 'validated' })
    ).result.amm;
    const share = new D(line.balance).div(amm.lp_token.value);
    const poolXrp = new D(amm.amount as string).div(1e6);
    const poolTokens = new D((amm.amount2 as { value: string }).value);
    expect(lp).toEqual({
      lpCurrency: line.currency,
      ammAccount: line.account,
      ticker: 'POSN',
      tokenCode: token.currency,
      issuer: token.issuer_address,
      quote: 'XRP',
      lpBalance: new D(line.balance).toFixed(),
      sharePercent: share.mul(100).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed(),
      pooledQuote: share.mul(poolXrp).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed(),
      pooledTokens: share.mul(poolTokens).toSignificantDigits(15, Decimal.ROUND_DOWN).toFixed(),
      // The tokens at the pool's own price (XRP ÷ tokens) are worth its XRP side again.
      valueInXRP: share.mul(poolXrp).mul(2).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed(),
    });
    // The only LP holder: the whole pool.
    expect(lp.sharePercent).toBe('100');
  });
});
