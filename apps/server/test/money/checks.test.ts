import Decimal from 'decimal.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'xrpl';
import {
  allInDrops,
  dropsToXrp,
  REWARD_MESSAGES,
  spendableXrp,
  xrpToDrops,
  type AmmAuctionView,
  type DeployResult,
  type SwapBatchResult,
  type SwapResult,
  type WalletBalance,
} from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { jobs } from '../../src/platform/jobs';
import { TRADING_FEE_JOB } from '../../src/modules/trading';
import { tradingTrades } from '../../src/modules/trading/schema';
import type { SignedIn } from '../helpers/test-app';
import { deployToken, fundedWallet, seed, type TradingWorld } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { testLogo } from '../helpers/test-logo';

// Checked before signing (issue 23), on the embedded ledger and checked with xrpl.js afterwards:
// every signing route refuses an amount above what the wallet can pay with 400 'Insufficient
// balance: you have X XRP available, this needs Y XRP.' (both figures worked out by hand below),
// and nothing reaches the ledger, not even a trust line. ALL IN from a 100-XRP wallet into a token
// it has no line for: the trade and its exact platform fee both validate.
//
// The 100-XRP wallets are new wallets the owner pays exactly 100 XRP. Reserves: 1 XRP base, 0.2 XRP
// per object; network fee 10 drops.

let t: WalletTestApp;
let world: TradingWorld;
let client: Client;
let owner: SignedIn;
let ownerWallet: { id: number; address: string };
let token: DeployResult;
let rlusd: string;

const post = (
  url: string,
  who: SignedIn,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
) => t.app.inject({ method: 'POST', url, headers: { ...who.headers, ...headers }, payload });

const xrpOf = (address: string): Promise<bigint> => world.xrp(address);

async function sequenceOf(address: string): Promise<number> {
  const r = await client.request({ command: 'account_info', account: address, ledger_index: 'validated' });
  return r.result.account_data.Sequence;
}

async function linesOf(address: string) {
  const r = await client.request({ command: 'account_lines', account: address, ledger_index: 'validated' });
  return r.result.lines;
}

const submissionsOf = (address: string) =>
  t.database.db.select().from(ledgerSubmissions).where(eq(ledgerSubmissions.account, address));

const insufficient = (have: string, needs: string, asset = 'XRP') =>
  `Insufficient balance: you have ${have} ${asset} available, this needs ${needs} ${asset}.`;

/** A new wallet of `who` holding exactly `xrp` XRP (paid by the owner's wallet). */
async function walletWith(who: SignedIn, xrp: string): Promise<{ id: number; address: string }> {
  const created = (await post('/api/wallets', who, {})).json() as { id: number; wallet_address: string };
  const paid = await post('/api/wallets/transfer', owner, {
    walletId: ownerWallet.id,
    recipient: created.wallet_address,
    amount: xrp,
    token: null,
  });
  expect(paid.statusCode, paid.body).toBe(200);
  return { id: created.id, address: created.wallet_address };
}

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  world = seed(t);
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  owner = await t.signInOwner();
  ownerWallet = await fundedWallet(t, owner, 1);
  token = await deployToken(t, owner, ownerWallet.id, { name: 'Check Token', ticker: 'CHK' });
  rlusd = ((await t.app.inject({ url: '/api/config/rlusd' })).json() as { issuer: string }).issuer;
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('ALL IN and the fee', () => {
  it('ALL IN from a 100-XRP wallet into a token it has no line for: the trade and its exact fee both validate', async () => {
    const carol = await t.signIn('carol_allin');
    const w = await walletWith(carol, '100');
    expect(await xrpOf(w.address)).toBe(xrpToDrops('100'));
    // What the screen reads to offer ALL IN: available 100 − 1 reserve = 99; a new line locks 0.2;
    // three transactions (trust line, trade, the fee's payment) cost 30 drops.
    const balances = (
      await post('/api/wallets/balances', carol, { wallets: [w.id] })
    ).json() as WalletBalance[];
    expect(balances[0]!.spendable).toMatchObject({
      ownerCount: 0,
      available: '99',
      committed: '0',
      baseReserve: '1',
      ownerReserve: '0.2',
      networkFee: '0.00001',
      tradingFeePercent: '0.75',
    });
    // Spendable for the trade: 99 − 0.2 − 0.00003 = 98.79997; ALL IN is 99.2% of it:
    // 98.79997 × 0.992 = 98.00957024 → 98.009570 XRP. Its fee: 0.75% = 0.7350717… → 0.735071.
    // Together 98.744641 ≤ 98.79997: the fee always fits.
    const spendable = spendableXrp(xrpToDrops('100'), 0, t.app.platform.funds!.reserves, {
      newObjects: 1,
      transactions: 3,
    });
    expect(spendable).toBe(98_799_970n);
    const allIn = allInDrops(spendable, '0.75');
    expect(allIn).toBe(98_009_570n);

    const res = await post('/api/swap', carol, {
      walletAddress: w.address,
      issuer: token.issuer_address,
      token: 'CHK',
      amount: dropsToXrp(allIn),
      type: 'BUY',
      slippage: '0.50',
    });
    expect(res.statusCode, res.body).toBe(200);
    const swap = res.json() as SwapResult;
    expect([swap.status, swap.spent, swap.fee]).toEqual(['success', '98.00957', '0.735071']);
    const [job] = await t.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `${TRADING_FEE_JOB}:${swap.hash}`));
    expect((await t.app.platform.jobs.waitFor(job!.id, { timeoutMs: 30_000 })).status).toBe('completed');
    const [trade] = await t.database.db.select().from(tradingTrades).where(eq(tradingTrades.hash, swap.hash));
    expect([trade!.feeStatus, trade!.fee]).toEqual(['paid', '0.735071']);
    // On the ledger: 100 − 98.00957 − 0.735071 − 3 × 0.00001 = 1.255329 XRP, above the 1.2 reserve.
    expect(await xrpOf(w.address)).toBe(1_255_329n);
    const fee = await client.request({ command: 'tx', transaction: trade!.feeHash! });
    expect((fee.result as unknown as { meta: { TransactionResult: string } }).meta.TransactionResult).toBe(
      'tesSUCCESS',
    );

    // A claim of the creator's third (0.735071 / 3 = 0.24502366… → 0.245023 XRP) into a wallet that
    // is not activated says why instead of failing on the ledger.
    const empty = (await post('/api/wallets', owner, {})).json() as { wallet_address: string };
    const claim = await post('/api/claim-rewards', owner, {
      wallet: empty.wallet_address,
      token: 'CHK',
      issuer: token.issuer_address,
      percent: 100,
    });
    expect(claim.statusCode, claim.body).toBe(400);
    expect(claim.json().message).toBe(REWARD_MESSAGES.notActivated('0.245023', '1'));
  }, 60_000);
});

describe('checked before signing: nothing reaches the ledger', () => {
  let poor: SignedIn;
  let wallet: { id: number; address: string };
  let sequence: number;

  beforeAll(async () => {
    poor = await t.signIn('poor_trader');
    wallet = await walletWith(poor, '100');
    sequence = await sequenceOf(wallet.address);
  });

  // The poor wallet holds 100 XRP and owns nothing: 99 XRP available.
  const swapBody = (amount: string, extra: Record<string, unknown> = {}) => ({
    walletAddress: wallet.address,
    issuer: token.issuer_address,
    token: 'CHK',
    amount,
    type: 'BUY',
    slippage: '0.50',
    ...extra,
  });

  it('refuses each XRP-paying route with both figures', async () => {
    // BUY 99 XRP: 99 + 0.7425 fee (0.75%) + 0.2 new line + 3 × 0.00001 = 99.94253.
    const buy = insufficient('99', '99.94253');
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/api/swap', swapBody('99'), buy],
      ['/api/swap', { ...swapBody('99'), walletAddress: undefined, wallet: wallet.address }, buy],
      // XRP ⇄ RLUSD: the same buy with RLUSD as the token (its line is new too).
      ['/api/swap', swapBody('99', { token: 'RLUSD', issuer: rlusd }), buy],
      // A limit BUY also locks an owner reserve for the resting offer: 99.94253 + 0.2 = 100.14253.
      ['/api/limit-order', swapBody('99', { price: '0.0001' }), insufficient('99', '100.14253')],
      // A first deposit opens the LP token's line: 99 + 0.2 + 0.00001 = 99.20001.
      [
        '/api/add-liquidity',
        {
          wallet: wallet.address,
          issuer: token.issuer_address,
          token: 'CHK',
          mode: 'single-asset',
          selectedAsset: { currency: 'XRP' },
          amountXrp: '99',
          amountToken: '',
        },
        insufficient('99', '99.20001'),
      ],
      // A transfer: the amount and its network fee, 99.5 + 0.00001.
      [
        '/api/wallets/transfer',
        { walletId: wallet.id, recipient: token.issuer_address, amount: '99.5', token: null },
        insufficient('99', '99.50001'),
      ],
    ];
    for (const [url, body, message] of cases) {
      const res = await post(url, poor, body);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().message, url).toBe(message);
    }
    // The batch route names the wallet and why.
    const batch = await post('/api/swap/batch', poor, {
      issuer: token.issuer_address,
      token: 'CHK',
      type: 'BUY',
      slippage: '0.50',
      orders: [{ walletAddress: wallet.address, amount: '99' }],
    });
    expect(batch.statusCode, batch.body).toBe(200);
    expect(batch.json() as SwapBatchResult).toMatchObject({
      status: 'failed',
      succeeded: 0,
      failed: 1,
      message: '⚠️ 1 swap(s) failed. Check logs.',
      results: [{ walletAddress: wallet.address, status: 'failed', error: buy }],
    });
    // Deploy: 100 liquidity + 15 service fee + 1.1 issuer + 2 hot + 0.2 dev line + 0.001 fees.
    const deploy = await post('/api/deploy-token', poor, {
      name: 'Poor Token',
      ticker: 'POOR',
      description: '',
      supply: '1000000',
      devAllocation: '10',
      liquidityAmount: '100',
      ammFee: '0.3',
      logoUrl: await testLogo(t.database.db),
      blackholeIssuer: false,
      requireAuth: false,
      liquidityPairType: 'XRP',
      walletId: wallet.id,
    });
    expect([deploy.statusCode, deploy.json().message]).toEqual([400, insufficient('99', '118.301')]);
  });

  it('refuses each token-paying route with both figures', async () => {
    const auction = (
      await post('/api/amm-auction', poor, { issuer: token.issuer_address, token: 'CHK' })
    ).json() as AmmAuctionView;
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/api/swap', swapBody('5', { type: 'SELL' }), insufficient('0', '5', 'CHK')],
      ['/api/limit-order', swapBody('5', { type: 'SELL', price: '1' }), insufficient('0', '5', 'CHK')],
      [
        '/api/burn/burn',
        { walletAddress: wallet.address, issuerAddress: token.issuer_address, tokenCode: 'CHK', amount: '5' },
        `You cannot burn more than the wallet holds. ${insufficient('0', '5', 'CHK')}`,
      ],
      [
        '/api/remove-liquidity',
        { wallet: wallet.address, issuer: token.issuer_address, token: 'CHK', mode: 'double', amountLp: '5' },
        `The LP token amount is more than your LP token balance. ${insufficient('0', '5', 'LP-CHK')}`,
      ],
      [
        '/api/amm-bid',
        { wallet: wallet.address, issuer: token.issuer_address, token: 'CHK', maxPrice: auction.price },
        `This wallet holds fewer LP tokens than the auction slot costs. ${insufficient('0', auction.price, 'LP-CHK')}`,
      ],
      [
        '/api/wallets/transfer',
        {
          walletId: wallet.id,
          recipient: token.issuer_address,
          amount: '5',
          token: { currency: 'CHK', issuer: token.issuer_address },
        },
        insufficient('0', '5', 'CHK'),
      ],
    ];
    for (const [url, body, message] of cases) {
      const res = await post(url, poor, body);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().message, url).toBe(message);
    }
    // An airdrop of tokens the wallet does not hold.
    const airdrop = await post('/api/airdrops', poor, {
      sourceWalletId: wallet.id,
      tokenCode: 'CHK',
      issuerAddress: token.issuer_address,
      projectName: 'Poor Drop',
      perUserType: 'fixed',
      totalTokenAmount: '10',
      fixedAmount: '1',
      deadline: new Date(Date.now() + 86_400_000).toISOString(),
      trustlineMode: 'auto',
    });
    expect(airdrop.statusCode, airdrop.body).toBe(400);
    expect(airdrop.json().message).toContain(insufficient('0', '10', 'CHK'));
  });

  it('refuses a buy the market cannot fill before opening its trust line', async () => {
    // A token nobody sells: its issuer is the owner's wallet, with no pool and no offers.
    const res = await post('/api/swap', poor, swapBody('5', { issuer: ownerWallet.address, token: 'NOP' }));
    expect([res.statusCode, res.json().message]).toEqual([400, 'Insufficient Liquidity']);
  });

  it('left the ledger untouched: no transaction signed, no sequence used, no trust line', async () => {
    expect(await submissionsOf(wallet.address)).toEqual([]);
    expect(await sequenceOf(wallet.address)).toBe(sequence);
    expect(await linesOf(wallet.address)).toEqual([]);
    expect(await xrpOf(wallet.address)).toBe(xrpToDrops('100'));
  });

  it('refuses a new reserve when nothing is left above the reserve, and lets a fee come out of it', async () => {
    const dana = await t.signIn('dana_dust');
    // 1 XRP base reserve + 0.2 for one trust line + 10 drops for its TrustSet: after the line,
    // nothing is left above the reserve.
    const w = await walletWith(dana, '1.20001');
    const line = await post('/api/add-trustline', dana, {
      wallet: w.address,
      issuer: token.issuer_address,
      token: 'CHK',
    });
    expect([line.statusCode, line.json().status]).toEqual([200, 'success']);
    expect(await xrpOf(w.address)).toBe(1_200_000n);
    const before = (await submissionsOf(w.address)).length;
    // Another line locks 0.2 more: 0.2 + 0.00001 from 0 available.
    const more = await post('/api/add-trustline', dana, { wallet: w.address, issuer: rlusd, token: 'RLUSD' });
    expect([more.statusCode, more.json().message]).toEqual([400, insufficient('0', '0.20001')]);
    expect(await submissionsOf(w.address)).toHaveLength(before);
    // A network fee alone may come out of the reserve (as the ledger allows): a new limit, then
    // removing the line, which gives its 0.2 XRP reserve back.
    const limit = await post('/api/wallets/set-trustline-limit', dana, {
      walletId: w.id,
      issuer: token.issuer_address,
      currency: 'CHK',
      limit: '5000',
    });
    expect(limit.statusCode, limit.body).toBe(200);
    const removed = await post('/api/wallets/remove-trustline', dana, {
      walletId: w.id,
      issuer: token.issuer_address,
      currency: 'CHK',
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await linesOf(w.address)).toEqual([]);
    // 1.2 − two fees of 10 drops; with the line gone, 0.19998 XRP is above the reserve again.
    expect(await xrpOf(w.address)).toBe(1_199_980n);
  });
});

describe("fees still owed in a token (issue 39: the form uses the server's rule)", () => {
  it("the wallet's balances name the RLUSD fees it owes, and a transfer counts them off as the server does", async () => {
    const w = await walletWith(owner, '30');
    const funded = await post(`/api/wallets/${w.id}/fund-rlusd`, owner, {});
    expect(funded.statusCode, funded.body).toBe(200);
    const rlusdOf = async () =>
      (
        (await post('/api/wallets/balances', owner, { wallets: [w.id] })).json() as WalletBalance[]
      )[0]!.tokens.find((x) => x.issuer === rlusd)!;
    const before = await rlusdOf();
    expect(before.owed).toBeUndefined();
    // A trade of this wallet whose RLUSD fee the fee job has not paid yet (as after an RLUSD buy).
    await t.database.db.insert(tradingTrades).values({
      userId: owner.user.id,
      walletId: w.id,
      walletAddress: w.address,
      issuer: token.issuer_address,
      currency: token.currency,
      quote: 'RLUSD',
      side: 'BUY',
      spent: '25.5',
      received: '100',
      hash: 'AB'.repeat(32),
      fee: '0.19125',
      feeStatus: 'pending',
    });
    const after = await rlusdOf();
    expect(after.value).toBe(before.value);
    expect(after.owed).toBe('0.19125');
    // What a form may offer is value − owed; one unit above it is refused with that figure.
    const available = new Decimal(after.value).minus('0.19125');
    const over = await post('/api/wallets/transfer', owner, {
      walletId: w.id,
      recipient: ownerWallet.address,
      amount: available.plus('0.00001').toFixed(),
      token: { currency: after.currencyCode, issuer: rlusd },
    });
    expect(over.statusCode, over.body).toBe(400);
    expect((over.json() as { available?: string }).available).toBe(available.toFixed());
  });
});
