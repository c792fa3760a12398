import Decimal from 'decimal.js';
import { and, desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalanceChanges, type TransactionMetadata } from 'xrpl';
import {
  SWAP_MESSAGES,
  type DeployResult,
  type QuoteView,
  type ReferralSummary,
  type SwapBatchResult,
  type SwapResult,
} from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { referralAccruals } from '../../src/modules/referrals/schema';
import { tokens as tokensTable } from '../../src/modules/tokens/schema';
import { TRADING_FEE_JOB } from '../../src/modules/trading';
import { tradingTrades } from '../../src/modules/trading/schema';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { platformWallet } from '../../src/platform/custody';
import { jobs } from '../../src/platform/jobs';
import type { SignedIn } from '../helpers/test-app';
import { seed, type TradingWorld } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// A custodial swap through an AMM pair and its platform fee as ONE all-or-nothing Batch (issue 36,
// docs/batch-in-the-app.md): a trade that fails in the Batch charges no fee (the fee wallet's
// balance does not move, no fee is recorded paid); one that fills pays exactly its fee — 0.75% of
// the XRP side, rounded down to the drop, worked out here from the rule — with no fee job, and the
// creator's and the referrer's shares accrued through FeeSettlement.

let t: WalletTestApp;
let w: TradingWorld;
let token: DeployResult;
let alice: SignedIn;
let aliceWallet: string;
let carol: SignedIn;
let feeWallet: string;

const post = (url: string, who: SignedIn, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload });

/** The platform fee rule on an XRP notional in drops: 0.75%, rounded down to the drop. */
const feeOf = (drops: bigint) => (drops * 75n) / 10_000n;

const tx = async (hash: string) =>
  (await w.client.request({ command: 'tx', transaction: hash })).result as unknown as {
    meta: TransactionMetadata & { ParentBatchID?: string };
    validated: boolean;
  };

/** The XRP a transaction moved for `account`, in drops (an inner transaction pays no network fee). */
const xrpMoved = async (hash: string, account: string): Promise<bigint> => {
  const change = getBalanceChanges((await tx(hash)).meta)
    .find((c) => c.account === account)
    ?.balances.find((b) => b.currency === 'XRP');
  return change ? BigInt(new Decimal(change.value).mul(1e6).toFixed(0)) : 0n;
};

const feeJobs = async () =>
  t.database.db
    .select()
    .from(jobs)
    .where(like(jobs.key, `${TRADING_FEE_JOB}:%`));

beforeAll(async () => {
  t = await createWalletTestApp(
    { PLATFORM_BOOTSTRAP: 'on', TRADE_FEE_BATCH: 'on' },
    { closeIntervalMs: 200 },
  );
  w = seed(t);
  await t.app.platform.accounts.bootstrapped();
  feeWallet = (await platformWallet(t.database.db, PLATFORM_ROLES.fee))!.address;
  const owner = await t.signInOwner();
  const ownerWallet = await w.wallet(owner);
  token = await w.deploy(owner, ownerWallet.id, { name: 'Batch Fee Token', ticker: 'BFEE' });
  carol = await t.signIn('batch_carol');
  const code = (
    (
      await t.app.inject({ method: 'GET', url: '/api/referrals/me', headers: { cookie: carol.cookie } })
    ).json() as ReferralSummary
  ).code;
  alice = await t.signIn('batch_alice', code);
  aliceWallet = (await w.wallet(alice, 3)).address;
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('a swap and its platform fee in one all-or-nothing Batch', () => {
  it('knows the embedded ledger has Batch', async () => {
    expect(await t.app.platform.submissions!.batchEnabled()).toBe(true);
  });

  it('a buy that fills pays exactly its fee to the drop, in the same Batch, with no fee job', async () => {
    const base = t.app.platform.submissions!.reserves.baseFee;
    const quote = await post('/api/amm-info', alice, {
      issuer: token.issuer_address,
      token: 'BFEE',
      amountXrp: '10',
      tradeType: 'BUY',
      wallet: aliceWallet,
    });
    expect(quote.statusCode, quote.body).toBe(200);
    const q = quote.json() as QuoteView;
    // The trust line's TrustSet (one base fee) and one Batch of the trade and its fee: twice the
    // base fee plus one for each inner payment (rippled's Batch fee rule).
    const networkDrops = base + (2n * base + base + base);
    expect(q).toMatchObject({ fee: '0.075', opensTrustLine: true });
    expect(q.networkFee).toBe(new Decimal(networkDrops.toString()).div(1e6).toFixed());

    const xrpBefore = await w.xrp(aliceWallet);
    const feeBefore = await w.xrp(feeWallet);
    const jobsBefore = (await feeJobs()).length;
    const res = await post('/api/swap', alice, {
      walletAddress: aliceWallet,
      issuer: token.issuer_address,
      token: 'BFEE',
      amount: '10',
      type: 'BUY',
      slippage: '0.5',
      baseAsset: 'XRP',
    });
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json() as SwapResult;
    // Quote = execution, to the last digit.
    expect(s).toMatchObject({ status: 'success', spent: '10', received: q.receive, fee: '0.075' });

    // The fee the rule gives for what the trade spent on the ledger: 0.75% of 10 XRP = 75,000 drops.
    const spentDrops = -(await xrpMoved(s.hash, aliceWallet));
    expect(spentDrops).toBe(10_000_000n);
    const expectedFee = feeOf(spentDrops);
    expect(expectedFee).toBe(75_000n);
    expect((await w.xrp(feeWallet)) - feeBefore).toBe(expectedFee);
    // What left the wallet: the trade, its fee, the disclosed network fees — nothing else.
    expect(xrpBefore - (await w.xrp(aliceWallet))).toBe(spentDrops + expectedFee + networkDrops);

    // Recorded paid once, by the fee payment of the trade's own Batch; no fee job was made.
    const [trade] = await t.database.db.select().from(tradingTrades).where(eq(tradingTrades.hash, s.hash));
    expect(trade).toMatchObject({ feeStatus: 'paid', fee: '0.075', side: 'BUY', spent: '10' });
    expect((await feeJobs()).length).toBe(jobsBefore);
    const [tradeTx, feeTx] = [await tx(s.hash), await tx(trade!.feeHash!)];
    expect(tradeTx.meta.ParentBatchID).toBeDefined();
    expect(feeTx.meta.ParentBatchID).toBe(tradeTx.meta.ParentBatchID);
    expect(-(await xrpMoved(trade!.feeHash!, aliceWallet))).toBe(expectedFee);
    const [batch] = await t.database.db
      .select()
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.hash, tradeTx.meta.ParentBatchID!));
    expect(batch).toMatchObject({ txType: 'Batch', purpose: 'swap-batch', status: 'success' });

    // The shares of a paid fee accrue through FeeSettlement: the referrer's 20% (floor, in drops)
    // and the creator's third.
    const [accrual] = await t.database.db
      .select()
      .from(referralAccruals)
      .where(eq(referralAccruals.tradeId, trade!.id));
    expect(accrual).toMatchObject({ referrerUserId: carol.user.id, shareBps: 2000 });
    expect(new Decimal(accrual!.amount).mul(1e6).toFixed(0)).toBe(
      ((expectedFee * 2000n) / 10_000n).toString(),
    );
    const [listed] = await t.database.db
      .select()
      .from(tokensTable)
      .where(eq(tokensTable.issuerAddress, token.issuer_address));
    expect(listed).toMatchObject({ totalReward: '0.025', rewardCurrency: 'XRP' });
  }, 120_000);

  it('a sell that fills pays 0.75% of the XRP it received, to the drop', async () => {
    const feeBefore = await w.xrp(feeWallet);
    const held = new Decimal(await w.tokens(aliceWallet, token));
    const amount = held.div(4).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed();
    const res = await post('/api/swap', alice, {
      walletAddress: aliceWallet,
      issuer: token.issuer_address,
      token: 'BFEE',
      amount,
      type: 'SELL',
      slippage: '1',
      baseAsset: 'XRP',
    });
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json() as SwapResult;
    const receivedDrops = await xrpMoved(s.hash, aliceWallet);
    expect(receivedDrops).toBeGreaterThan(0n);
    const expectedFee = feeOf(receivedDrops);
    expect((await w.xrp(feeWallet)) - feeBefore).toBe(expectedFee);
    const [trade] = await t.database.db.select().from(tradingTrades).where(eq(tradingTrades.hash, s.hash));
    expect(trade!.feeStatus).toBe('paid');
    expect(new Decimal(trade!.fee).mul(1e6).toFixed(0)).toBe(expectedFee.toString());
    expect(new Decimal(s.fee).mul(1e6).toFixed(0)).toBe(expectedFee.toString());
  }, 120_000);

  it('a multi-wallet buy (POST /api/swap/batch): each wallet its own Batch, each fee exactly once', async () => {
    const second = await w.wallet(alice, 2);
    const feeBefore = await w.xrp(feeWallet);
    const res = await post('/api/swap/batch', alice, {
      issuer: token.issuer_address,
      token: 'BFEE',
      type: 'BUY',
      slippage: '1',
      baseAsset: 'XRP',
      orders: [
        { walletAddress: aliceWallet, amount: '3' },
        { walletAddress: second.address, amount: '2.5' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const b = res.json() as SwapBatchResult;
    expect(b).toMatchObject({ status: 'success', succeeded: 2, failed: 0 });
    // 0.75% of 3 XRP and of 2.5 XRP: 22,500 + 18,750 drops.
    expect(feeOf(3_000_000n) + feeOf(2_500_000n)).toBe(41_250n);
    expect((await w.xrp(feeWallet)) - feeBefore).toBe(41_250n);
    const parents = new Set<string>();
    for (const item of b.results) {
      const [trade] = await t.database.db
        .select()
        .from(tradingTrades)
        .where(eq(tradingTrades.hash, item.swap!.hash));
      expect(trade!.feeStatus).toBe('paid');
      const parent = (await tx(item.swap!.hash)).meta.ParentBatchID!;
      expect((await tx(trade!.feeHash!)).meta.ParentBatchID).toBe(parent);
      parents.add(parent);
    }
    expect(parents.size).toBe(2);
  }, 120_000);

  it('a new holder’s buy opens its trust line inside the same Batch (one ledger); a trade that fails takes the line back', async () => {
    const base = t.app.platform.submissions!.reserves.baseFee;
    const dave = await t.signIn('batch_dave');
    const daveWallet = (await w.wallet(dave, 3)).address;
    const lines = async () =>
      (await w.client.request({ command: 'account_lines', account: daveWallet })).result.lines;
    expect(await lines()).toEqual([]);
    const q = (
      await post('/api/amm-info', dave, {
        issuer: token.issuer_address,
        token: 'BFEE',
        amountXrp: '5',
        tradeType: 'BUY',
        wallet: daveWallet,
      })
    ).json() as QuoteView;
    // One Batch of the TrustSet, the trade and its fee: twice the base fee plus one per inner one.
    const batchDrops = 2n * base + 3n * base;
    expect(q).toMatchObject({
      opensTrustLine: true,
      networkFee: new Decimal(batchDrops.toString()).div(1e6).toFixed(),
    });
    const swap = (expected?: string) =>
      post('/api/swap', dave, {
        walletAddress: daveWallet,
        issuer: token.issuer_address,
        token: 'BFEE',
        amount: '5',
        type: 'BUY',
        slippage: '0.5',
        baseAsset: 'XRP',
        ...(expected ? { expected } : {}),
      });

    // The floor cannot be met: the Batch rolls back, the line with it; the cause is named from the
    // trade simulated as the quote does (an offer that opens the line), and only the Batch's fee paid.
    const xrpBefore = await w.xrp(daveWallet);
    const refused = await swap(new Decimal(q.receive).mul(2).toFixed());
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.body).toContain(SWAP_MESSAGES.slippageExceeded);
    expect(xrpBefore - (await w.xrp(daveWallet))).toBe(batchDrops);
    expect(await lines()).toEqual([]);
    const [outer] = await t.database.db
      .select()
      .from(ledgerSubmissions)
      .where(and(eq(ledgerSubmissions.txType, 'Batch'), eq(ledgerSubmissions.userId, dave.user.id)))
      .orderBy(desc(ledgerSubmissions.id))
      .limit(1);
    const inner = await t.database.db
      .select()
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.parentHash, outer!.hash))
      .orderBy(ledgerSubmissions.sequence);
    expect(inner.map((r) => [r.purpose, r.txType, r.result])).toEqual([
      ['swap-trustline', 'TrustSet', 'rolled-back'],
      ['swap', 'Payment', 'rolled-back'],
      ['trading-fee', 'Payment', 'rolled-back'],
    ]);

    // Again at the quote: the line, the trade and its fee apply together, in one ledger.
    const before = await w.xrp(daveWallet);
    const res = await swap(q.receive);
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json() as SwapResult;
    expect(s).toMatchObject({ status: 'success', spent: '5', received: q.receive, fee: '0.0375' });
    const [trade] = await t.database.db.select().from(tradingTrades).where(eq(tradingTrades.hash, s.hash));
    const tradeTx = await tx(s.hash);
    const [lineRow] = await t.database.db
      .select()
      .from(ledgerSubmissions)
      .where(
        and(
          eq(ledgerSubmissions.parentHash, tradeTx.meta.ParentBatchID!),
          eq(ledgerSubmissions.txType, 'TrustSet'),
        ),
      );
    expect(lineRow).toMatchObject({ purpose: 'swap-trustline', status: 'success', result: 'tesSUCCESS' });
    expect(lineRow!.ledgerIndex).toBe(trade!.ledgerIndex);
    expect((await lines()).map((l) => l.account)).toEqual([token.issuer_address]);
    // The trade, its fee (0.75% of 5 XRP = 37,500 drops) and the Batch's fee; the line's reserve is locked, not spent.
    expect(before - (await w.xrp(daveWallet))).toBe(5_000_000n + 37_500n + batchDrops);
    expect(trade).toMatchObject({ feeStatus: 'paid', fee: '0.0375' });
  }, 120_000);

  it('a trade that fails in the Batch charges no fee: rolled back with it, only the network fee paid', async () => {
    const base = t.app.platform.submissions!.reserves.baseFee;
    const q = (
      await post('/api/amm-info', alice, {
        issuer: token.issuer_address,
        token: 'BFEE',
        amountXrp: '5',
        tradeType: 'BUY',
        wallet: aliceWallet,
      })
    ).json() as QuoteView;
    const xrpBefore = await w.xrp(aliceWallet);
    const tokensBefore = await w.tokens(aliceWallet, token);
    const feeBefore = await w.xrp(feeWallet);
    const tradesBefore = (await t.database.db.select().from(tradingTrades)).length;
    const accrualsBefore = (await t.database.db.select().from(referralAccruals)).length;
    // A screen that expects twice what the pool gives: the slippage floor (DeliverMin) cannot be met.
    const res = await post('/api/swap', alice, {
      walletAddress: aliceWallet,
      issuer: token.issuer_address,
      token: 'BFEE',
      amount: '5',
      type: 'BUY',
      slippage: '0.5',
      baseAsset: 'XRP',
      expected: new Decimal(q.receive).mul(2).toFixed(),
    });
    expect(res.statusCode, res.body).toBe(400);
    // The cause, from the trade simulated alone; the record's result stays 'rolled-back'.
    expect(res.body).toContain(SWAP_MESSAGES.slippageExceeded);
    expect(res.body).toContain('rolled-back');

    // Nothing traded, nothing charged but the Batch's network fee (2 × base + 2 inner payments).
    expect(await w.xrp(feeWallet)).toBe(feeBefore);
    expect(await w.tokens(aliceWallet, token)).toBe(tokensBefore);
    expect(xrpBefore - (await w.xrp(aliceWallet))).toBe(4n * base);
    expect((await t.database.db.select().from(tradingTrades)).length).toBe(tradesBefore);
    expect((await t.database.db.select().from(referralAccruals)).length).toBe(accrualsBefore);
    // The record says so: the Batch applied, both inner transactions rolled back, none in a ledger.
    const [outer] = await t.database.db
      .select()
      .from(ledgerSubmissions)
      .where(and(eq(ledgerSubmissions.txType, 'Batch'), eq(ledgerSubmissions.userId, alice.user.id)))
      .orderBy(desc(ledgerSubmissions.id))
      .limit(1);
    expect(outer).toMatchObject({ status: 'success', result: 'tesSUCCESS' });
    const inner = await t.database.db
      .select()
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.parentHash, outer!.hash))
      .orderBy(ledgerSubmissions.sequence);
    expect(inner.map((r) => [r.purpose, r.status, r.result])).toEqual([
      ['swap', 'failed', 'rolled-back'],
      ['trading-fee', 'failed', 'rolled-back'],
    ]);
  }, 120_000);
  it('the buys of one ledger, recorded together: each fee paid once, each share rounded as its own', async () => {
    // Three users carol referred buy at once: their Batches validate in the same ledger (or close
    // to it) and are recorded in one transaction, the fees turning paid in one update and the
    // shares accrued in a few statements for all of them (issue 40). The sums must still be the
    // sums of each trade's own rounded shares: 0.75% of 1.001 XRP is 7,507 drops, of 1.0011 XRP
    // 7,508 — neither divides by 3 or 5, so a share taken of the sum would differ by a drop.
    const code = (
      (
        await t.app.inject({ method: 'GET', url: '/api/referrals/me', headers: { cookie: carol.cookie } })
      ).json() as ReferralSummary
    ).code;
    const buyers = await Promise.all(
      ['batch_ledger_a', 'batch_ledger_b', 'batch_ledger_c'].map(async (name) => {
        const who = await t.signIn(name, code);
        return { who, wallet: (await w.wallet(who)).address };
      }),
    );
    const earned = async () => {
      const me = (
        await t.app.inject({ method: 'GET', url: '/api/referrals/me', headers: { cookie: carol.cookie } })
      ).json() as ReferralSummary;
      return new Decimal(me.balances.find((b) => b.currency === 'XRP')!.earned);
    };
    const reward = async () => {
      const [row] = await t.database.db
        .select()
        .from(tokensTable)
        .where(eq(tokensTable.issuerAddress, token.issuer_address));
      return new Decimal(row!.totalReward);
    };
    const [earnedBefore, rewardBefore, feeBefore] = [await earned(), await reward(), await w.xrp(feeWallet)];
    const amounts = ['1.001', '1.0011', '1.001'];
    const answers = await Promise.all(
      buyers.map(({ who, wallet }, i) =>
        post('/api/swap', who, {
          walletAddress: wallet,
          issuer: token.issuer_address,
          token: 'BFEE',
          amount: amounts[i],
          type: 'BUY',
          slippage: '5',
          baseAsset: 'XRP',
        }),
      ),
    );
    let fees = 0n;
    let referrerShares = 0n;
    let creatorShares = 0n;
    const ledgers = new Set<number>();
    for (const [i, res] of answers.entries()) {
      expect(res.statusCode, res.body).toBe(200);
      const s = res.json() as SwapResult;
      const fee = feeOf(-(await xrpMoved(s.hash, buyers[i]!.wallet)));
      const [trade] = await t.database.db.select().from(tradingTrades).where(eq(tradingTrades.hash, s.hash));
      expect(trade).toMatchObject({ feeStatus: 'paid' });
      expect(new Decimal(trade!.fee).mul(1e6).toFixed(0)).toBe(fee.toString());
      expect(-(await xrpMoved(trade!.feeHash!, buyers[i]!.wallet))).toBe(fee);
      const accruals = await t.database.db
        .select()
        .from(referralAccruals)
        .where(eq(referralAccruals.tradeId, trade!.id));
      expect(accruals).toHaveLength(1);
      expect(new Decimal(accruals[0]!.amount).mul(1e6).toFixed(0)).toBe(((fee * 2000n) / 10_000n).toString());
      fees += fee;
      referrerShares += (fee * 2000n) / 10_000n;
      creatorShares += fee / 3n;
      ledgers.add(trade!.ledgerIndex!);
    }
    expect(fees).toBe(7_507n + 7_508n + 7_507n);
    expect((await w.xrp(feeWallet)) - feeBefore).toBe(fees);
    expect((await earned()).minus(earnedBefore).mul(1e6).toFixed(0)).toBe(referrerShares.toString());
    expect((await reward()).minus(rewardBefore).mul(1e6).toFixed(0)).toBe(creatorShares.toString());
    // Summed before rounding, the shares would be a drop more: 4,504 and 7,507 drops.
    expect([referrerShares, creatorShares]).toEqual([4_503n, 7_506n]);
    process.stdout.write(`the three buys validated in ${ledgers.size} ledger(s)\n`);
  }, 120_000);
});
