import DecimalBase from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'xrpl';
import {
  LIQUIDITY_MESSAGES,
  type AmmAuctionView,
  type AmmBidResult,
  type DeployResult,
  type LpPositionResult,
  type QuoteView,
} from '@ledgerpad/shared';
import type { SignedIn } from '../helpers/test-app';
import { deployToken, fundedWallet } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// A liquidity provider's position, worked out by hand from the pool read with xrpl.js at each step:
// Alice deposits both assets at the pool ratio, Bob's swap moves the price and pays the pool's fee,
// and the position's share, value, holding value, fees and impermanent loss are what the
// constant-product formulas say; then a withdrawal takes its share of the deposits. And the
// auction slot: its price from rippled's AMMBid rule, a bid that wins it, the holder's discounted
// fee on a swap, and an outbid with the refund.

const Decimal = DecimalBase.clone({ precision: 60 });
type Decimal = InstanceType<typeof Decimal>;

let t: WalletTestApp;
let client: Client;
let alice: SignedIn;
let bob: SignedIn;
let aliceWallet: string;
let bobWallet: string;
let token: DeployResult;

const post = (url: string, who: SignedIn, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload });

async function pool() {
  const r = await client.request({
    command: 'amm_info',
    asset: { currency: 'XRP' },
    asset2: { currency: token.currency, issuer: token.issuer_address },
    ledger_index: 'validated',
  });
  const amm = r.result.amm as typeof r.result.amm & {
    auction_slot?: {
      account: string;
      price: { value: string };
      time_interval: number;
      discounted_fee: number;
    };
  };
  return {
    xrp: new Decimal(amm.amount as string).div(1e6),
    tokens: new Decimal((amm.amount2 as { value: string }).value),
    lp: new Decimal(amm.lp_token.value),
    fee: new Decimal(amm.trading_fee).div(100_000),
    tradingFee: amm.trading_fee,
    slot: amm.auction_slot,
  };
}

/** |a − b| ≤ |b| × rel (16-digit ledger arithmetic against 60-digit decimals), or ≤ abs. */
const close = (a: DecimalBase.Value, b: DecimalBase.Value, rel = '1e-9', abs = '0.000002') =>
  new Decimal(a)
    .minus(b)
    .abs()
    .lte(Decimal.max(new Decimal(b).abs().mul(rel), abs));

const market = (wallet: string) => ({ wallet, issuer: token.issuer_address, token: 'POS' });

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  const owner = await t.signInOwner();
  const ownerWallet = await fundedWallet(t, owner);
  token = await deployToken(t, owner, ownerWallet.id, { name: 'Position Token', ticker: 'POS' });
  alice = await t.signIn('alice_pos');
  bob = await t.signIn('bob_pos');
  aliceWallet = (await fundedWallet(t, alice)).address;
  bobWallet = (await fundedWallet(t, bob)).address;
  const swap = await post('/api/swap', alice, {
    wallet: aliceWallet,
    issuer: token.issuer_address,
    token: 'POS',
    amount: '30',
    type: 'BUY',
    slippage: '1',
  });
  expect(swap.statusCode, swap.body).toBe(200);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the LP position', () => {
  // The pool when Alice deposits (A0, B0, T0) and her deposit (a, b, l).
  let A0: Decimal;
  let B0: Decimal;
  let T0: Decimal;
  let a: Decimal;
  let b: Decimal;
  let l: Decimal;

  it('starts at what was deposited: no profit, no loss', async () => {
    const p0 = await pool();
    [A0, B0, T0] = [p0.xrp, p0.tokens, p0.lp];
    const add = await post('/api/add-liquidity', alice, {
      ...market(aliceWallet),
      mode: 'double-asset',
      amountXrp: '10',
      amountToken: B0.div(A0).mul(20).toFixed(6), // more than the ratio needs: XRP limits
    });
    expect(add.statusCode, add.body).toBe(200);
    // tfTwoAsset: frac = 10 / A0, LP = T0 × frac, tokens = B0 × frac.
    const frac = new Decimal(10).div(A0);
    [a, l, b] = [new Decimal(10), T0.mul(frac), B0.mul(frac)];
    const res = await post('/api/lp-position', alice, market(aliceWallet));
    expect(res.statusCode, res.body).toBe(200);
    const pos = res.json() as LpPositionResult;
    expect(close(pos.lpBalance, l)).toBe(true);
    // Share l / (T0 + l); the share's XRP and tokens are what she put in; worth 2 × 10 XRP.
    expect(close(pos.share, l.div(T0.plus(l)).mul(100), '1e-6')).toBe(true);
    expect(close(pos.current.base, a)).toBe(true);
    expect(close(pos.current.token, b)).toBe(true);
    expect(close(pos.current.value, 20)).toBe(true);
    expect(close(pos.holdValue, 20)).toBe(true);
    expect(close(pos.pnl, 0)).toBe(true);
    expect(close(pos.feesEarned, 0)).toBe(true);
    expect(close(pos.impermanentLoss, 0)).toBe(true);
    expect(pos.history.map((h) => h.kind)).toEqual(['deposit']);
  });

  it('after a swap: fees earned from the invariant, impermanent loss from the price move', async () => {
    const before = await pool();
    const swap = await post('/api/swap', bob, {
      wallet: bobWallet,
      issuer: token.issuer_address,
      token: 'POS',
      amount: '25',
      type: 'BUY',
      slippage: '2',
    });
    expect(swap.statusCode, swap.body).toBe(200);
    // Constant product with the fee on the input: B' = B − B(1 − A / (A + 25(1 − f))), A' = A + 25.
    const A1 = before.xrp.plus(25);
    const out = before.tokens.mul(
      new Decimal(1).minus(
        before.xrp.div(before.xrp.plus(new Decimal(25).mul(new Decimal(1).minus(before.fee)))),
      ),
    );
    const B1 = before.tokens.minus(out);
    const T1 = before.lp; // a swap issues no LP tokens
    const after = await pool();
    expect(close(after.xrp, A1)).toBe(true);
    expect(close(after.tokens, B1)).toBe(true);

    const s = l.div(T1);
    const P = A1.div(B1);
    const value = A1.mul(s).mul(2);
    const hold = a.plus(b.mul(P));
    // g = √(A·B)/T: at the deposit (the pool after it) and now; fees = 2·L·√P·(g1 − g0).
    const g0 = A0.plus(a).mul(B0.plus(b)).sqrt().div(T0.plus(l));
    const g1 = A1.mul(B1).sqrt().div(T1);
    const fees = l.mul(P.sqrt()).mul(g1.minus(g0)).mul(2);
    const il = value.minus(fees).minus(hold);
    expect(g1.gt(g0)).toBe(true); // the swap's fee grew the invariant
    expect(il.lt(0)).toBe(true); // the price moved: holding would have been worth more

    const pos = (await post('/api/lp-position', alice, market(aliceWallet))).json() as LpPositionResult;
    expect(close(pos.current.base, A1.mul(s))).toBe(true);
    expect(close(pos.current.token, B1.mul(s))).toBe(true);
    expect(close(pos.current.value, value)).toBe(true);
    expect(close(pos.holdValue, hold)).toBe(true);
    expect(close(pos.pnl, value.minus(hold))).toBe(true);
    expect(close(pos.feesEarned, fees, '1e-6')).toBe(true);
    expect(close(pos.impermanentLoss, il, '1e-6')).toBe(true);
    expect(new Decimal(pos.feesEarned).plus(pos.impermanentLoss).minus(pos.pnl).abs().lte('0.000002')).toBe(
      true,
    );
  });

  it('a withdrawal takes its share of the deposits', async () => {
    const half = l.div(2).toSignificantDigits(15, DecimalBase.ROUND_DOWN);
    const rm = await post('/api/remove-liquidity', alice, {
      ...market(aliceWallet),
      amountLp: half.toFixed(),
      mode: 'double',
    });
    expect(rm.statusCode, rm.body).toBe(200);
    const pos = (await post('/api/lp-position', alice, market(aliceWallet))).json() as LpPositionResult;
    expect(pos.history.map((h) => h.kind)).toEqual(['withdraw', 'deposit']);
    // Average cost: (l − half) / l of what was deposited is still in.
    const keep = l.minus(half).div(l);
    expect(close(pos.deposited.base, a.mul(keep))).toBe(true);
    expect(close(pos.deposited.token, b.mul(keep))).toBe(true);
    expect(close(pos.lpBalance, l.minus(half))).toBe(true);
  });

  it('is another user’s wallet: not found', async () => {
    const res = await post('/api/lp-position', bob, market(aliceWallet));
    expect(res.statusCode).toBe(404);
  });
});

describe('the auction slot', () => {
  it('costs LP tokens × fee / 25 to take from the pool creator, who held it for nothing; a bid wins it', async () => {
    const p = await pool();
    // AMMCreate gave the slot to the pool's creator (the deploy's hot wallet) at price 0: outbidding
    // it in its first interval costs 1.05 × 0 + the minimum.
    expect(p.slot?.account).toBe(token.hot_wallet_address);
    expect(p.slot?.price.value).toBe('0');
    const min = p.lp.mul(p.fee).div(25);
    const view = (
      await post('/api/amm-auction', alice, { issuer: token.issuer_address, token: 'POS' })
    ).json() as AmmAuctionView;
    expect(view).toMatchObject({
      holder: token.hot_wallet_address,
      tradingFee: 300,
      discountedFee: 30,
      refund: '0',
    });
    expect(close(view.price, min, '1e-14', '0')).toBe(true);
    const bid = await post('/api/amm-bid', alice, { ...market(aliceWallet), maxPrice: view.price });
    expect(bid.statusCode, bid.body).toBe(200);
    const r = bid.json() as AmmBidResult;
    // What left the wallet: the price, to the 16 digits its LP balance keeps.
    expect(close(r.paid, min, '1e-10', '0')).toBe(true);
    expect(r.slot.holder).toBe(aliceWallet);
    const after = await pool();
    expect(after.slot?.account).toBe(aliceWallet);
    // The bid is burned: the LP supply shrinks by what was paid.
    expect(close(after.lp, p.lp.minus(min), '1e-14', '0')).toBe(true);
  });

  it('gives the holder the discounted fee (a tenth) on its swaps', async () => {
    const before = await pool();
    const body = {
      issuer: token.issuer_address,
      token: 'POS',
      tradeType: 'BUY',
      amountXrp: '5',
      wallet: aliceWallet,
    };
    const q = (await post('/api/amm-info', alice, body)).json() as QuoteView;
    // The holder trades at 0.03%: out = B(1 − A / (A + 5 × (1 − 0.0003))).
    const discounted = new Decimal(30).div(100_000);
    const out = before.tokens.mul(
      new Decimal(1).minus(
        before.xrp.div(before.xrp.plus(new Decimal(5).mul(new Decimal(1).minus(discounted)))),
      ),
    );
    expect(close(q.receive, out)).toBe(true);
  });

  it('is outbid at 1.05 × the price + the minimum, the holder refunded 95% in the first interval', async () => {
    const p = await pool();
    const paid = new Decimal(p.slot!.price.value);
    expect(p.slot!.time_interval).toBe(0);
    const min = p.lp.mul(p.fee).div(25);
    const price = paid.mul('1.05').plus(min);
    const view = (
      await post('/api/amm-auction', bob, { issuer: token.issuer_address, token: 'POS' })
    ).json() as AmmAuctionView;
    expect(close(view.price, price, '1e-14', '0')).toBe(true);
    expect(close(view.refund, paid.mul('0.95'), '1e-14', '0')).toBe(true);
    // Bob holds no LP tokens yet: refused before anything is signed.
    const poor = await post('/api/amm-bid', bob, { ...market(bobWallet), maxPrice: view.price });
    expect(poor.statusCode).toBe(400);
    // Both figures: the LP tokens held (none) and the slot's price.
    expect(poor.json().message).toBe(
      `${LIQUIDITY_MESSAGES.bidTooLow} Insufficient balance: you have 0 LP-POS available, this needs ${view.price} LP-POS.`,
    );
    const add = await post('/api/add-liquidity', bob, {
      ...market(bobWallet),
      mode: 'single-asset',
      selectedAsset: { currency: 'XRP' },
      amountXrp: '20',
    });
    expect(add.statusCode, add.body).toBe(200);
    const again = (
      await post('/api/amm-auction', bob, { issuer: token.issuer_address, token: 'POS' })
    ).json() as AmmAuctionView;
    const aliceLp = async () =>
      new Decimal(
        (
          await client.request({
            command: 'amm_info',
            asset: { currency: 'XRP' },
            asset2: { currency: token.currency, issuer: token.issuer_address },
            account: aliceWallet,
            ledger_index: 'validated',
          })
        ).result.amm.lp_token.value,
      );
    const before = await aliceLp();
    const bid = await post('/api/amm-bid', bob, { ...market(bobWallet), maxPrice: again.price });
    expect(bid.statusCode, bid.body).toBe(200);
    expect((bid.json() as AmmBidResult).slot.holder).toBe(bobWallet);
    // Alice, outbid in the first interval, gets 95% of what she paid back in LP tokens.
    expect(close((await aliceLp()).minus(before), paid.mul('0.95'), '1e-13', '0')).toBe(true);
    // A price the ledger has moved past since it was shown is refused without a fee of ours.
    const stale = await post('/api/amm-bid', alice, { ...market(aliceWallet), maxPrice: view.price });
    expect(stale.statusCode).toBe(400);
  });
});
