import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeployResult } from '@ledgerpad/shared';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { ammLaunchBody, fundedWallet } from '../helpers/trading-world';
import type { SignedIn } from '../helpers/test-app';
import { testLogo } from '../helpers/test-logo';

// Issue 37, 'The creator buys first': the deploy's AMMCreate and the creator's first buy are inner
// transactions of one tfAllOrNothing Batch of the hot wallet — one ledger, consecutive, nothing of
// anyone else between them. The creator's tokens and the platform fee are worked out here from
// XLS-30's swap formula and the 0.75% trading fee, with decimal.js, and read from the embedded ledger.

Decimal.set({ precision: 60 });

let t: WalletTestApp;
let alice: SignedIn;
let wallet: { id: number; address: string };

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 1000 });
  await t.app.platform.accounts.bootstrapped();
  alice = await t.signIn('alice_first_buy');
  wallet = await fundedWallet(t, alice, 3);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/**
 * XLS-30's swap-out, worked out here (not the shared function under test):
 * out = B × (1 − A / (A + a(1 − f))), A and B the pool's XRP (drops) and tokens, f in 1/100,000.
 */
function xls30Out(poolDrops: Decimal.Value, poolTokens: Decimal.Value, inDrops: Decimal.Value, fee: number) {
  const a = new Decimal(inDrops).mul(new Decimal(1).minus(new Decimal(fee).div(100_000)));
  const A = new Decimal(poolDrops);
  return new Decimal(poolTokens).mul(new Decimal(1).minus(A.div(A.plus(a))));
}

/** The wallet's balance of the deployed token, from the validated ledger. */
async function held(address: string, r: DeployResult): Promise<Decimal> {
  const lines = await t.connection.client.request({
    command: 'account_lines',
    account: address,
    peer: r.issuer_address,
    ledger_index: 'validated',
  });
  return new Decimal(lines.result.lines.find((l) => l.currency === r.currency)!.balance);
}

const digits15 = (d: Decimal) => d.toSignificantDigits(15, Decimal.ROUND_DOWN).toFixed();

interface LedgerTx {
  hash: string;
  TransactionType: string;
  Account: string;
  Destination?: string;
  RawTransactions?: unknown[];
  metaData: {
    TransactionIndex: number;
    TransactionResult: string;
    delivered_amount?: unknown;
    /** An inner transaction's Batch: rippled writes it in the metadata. */
    ParentBatchID?: string;
  };
}

describe('deploy with a first buy (Batch on the ledger)', () => {
  let result: DeployResult;
  let ledgerTxs: LedgerTx[];
  const SUPPLY = new Decimal(1_000_000);
  const DEV = new Decimal(100_000); // 10%
  const POOL_TOKENS = SUPPLY.minus(DEV);
  const POOL_DROPS = new Decimal(100_000_000); // 100 XRP
  const BUY_DROPS = new Decimal(10_000_000); // 10 XRP
  // The pool's fee is 0.3% (TradingFee 300), but AMMCreate gives its creator — the hot wallet that
  // makes the buy — the 24-hour auction slot, whose discounted fee is TradingFee / 10 (XLS-30,
  // rippled AMMCreate.cpp): the buy pays 0.03%.
  const SLOT_FEE = Math.floor(300 / 10);

  beforeAll(async () => {
    expect(await t.app.platform.submissions!.batchEnabled()).toBe(true);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/deploy-token',
      headers: alice.headers,
      payload: {
        ...ammLaunchBody(wallet.id, { name: 'First Buyer', ticker: 'FIRSTB' }),
        devAllocation: '10',
        logoUrl: await testLogo(t.database.db),
        blackholeIssuer: true,
        burnLp: true,
        firstBuyXrp: '10',
      },
    });
    expect(res.statusCode, res.body).toBe(202);
    const jobId = (res.json() as { jobId: string }).jobId;
    const job = await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 120_000 });
    expect(job.status, job.error ?? '').toBe('completed');
    result = job.result as DeployResult;
    const ledger = await t.connection.client.request({
      command: 'ledger',
      ledger_index: result.ledgers!['create-amm']!,
      transactions: true,
      expand: true,
    });
    // API v2 answers { hash, tx_json, meta } per transaction.
    const raw = ledger.result.ledger.transactions as unknown as Array<{
      hash: string;
      tx_json: Omit<LedgerTx, 'hash' | 'metaData'>;
      meta: LedgerTx['metaData'];
    }>;
    ledgerTxs = raw
      .map((x) => ({ ...x.tx_json, hash: x.hash, metaData: x.meta }))
      .sort((a, b) => a.metaData.TransactionIndex - b.metaData.TransactionIndex);
  }, 180_000);

  it('creates the pool and buys in one Batch: same ParentBatchID, consecutive, one ledger', () => {
    const inner = ledgerTxs.filter((x) => x.metaData.ParentBatchID !== undefined);
    const create = inner.find((x) => x.TransactionType === 'AMMCreate');
    const buy = inner.find((x) => x.TransactionType === 'Payment' && x.Destination === wallet.address);
    expect(create).toBeDefined();
    expect(buy).toBeDefined();
    const batch = ledgerTxs.find(
      (x) => x.TransactionType === 'Batch' && x.hash === create!.metaData.ParentBatchID,
    );
    expect(batch, 'the outer Batch is in the same ledger').toBeDefined();
    expect(buy!.metaData.ParentBatchID).toBe(create!.metaData.ParentBatchID);
    expect(create!.Account).toBe(result.hot_wallet_address);
    expect(create!.metaData.TransactionResult).toBe('tesSUCCESS');
    expect(buy!.metaData.TransactionResult).toBe('tesSUCCESS');
    // Nothing between the pool's creation and the buy: the buy is the very next transaction.
    expect(buy!.metaData.TransactionIndex).toBe(create!.metaData.TransactionIndex + 1);
  });

  it("gives the creator the XLS-30 swap-out of the pool's opening reserves", async () => {
    const out = xls30Out(POOL_DROPS, POOL_TOKENS, BUY_DROPS, SLOT_FEE);
    const bought = (await held(wallet.address, result)).minus(DEV);
    // The ledger keeps 16 significant digits and rounds in the pool's favour.
    expect(digits15(bought)).toBe(digits15(out));
    expect(bought.lte(out)).toBe(true);
    // And the pool took exactly the 10 XRP.
    const amm = await t.connection.client.request({
      command: 'amm_info',
      asset: { currency: 'XRP' },
      asset2: { currency: result.currency, issuer: result.issuer_address },
      ledger_index: 'validated',
    });
    expect(String(amm.result.amm.amount)).toBe(POOL_DROPS.plus(BUY_DROPS).toFixed());
  });

  it('charges the 0.75% platform fee on the buy, in the same Batch, to the drop', () => {
    // (the dev allocation is a Payment to the same wallet, outside the Batch)
    const buy = ledgerTxs.find(
      (x) =>
        x.TransactionType === 'Payment' &&
        x.Destination === wallet.address &&
        x.metaData.ParentBatchID !== undefined,
    )!;
    const fee = ledgerTxs.filter(
      (x) =>
        x.metaData.ParentBatchID === buy.metaData.ParentBatchID &&
        x.TransactionType === 'Payment' &&
        x !== buy,
    );
    expect(fee).toHaveLength(1);
    // 0.75% of 10,000,000 drops, rounded down to the drop.
    const expected = BUY_DROPS.mul('0.75').div(100).floor();
    expect(String(fee[0]!.metaData.delivered_amount)).toBe(expected.toFixed());
    expect(expected.toFixed()).toBe('75000');
    expect(fee[0]!.metaData.TransactionIndex).toBe(buy.metaData.TransactionIndex + 1);
  });
});

describe('deploy with a first buy, without Batch on the ledger', () => {
  it('submits the buy and its fee right after AMMCreate, as steps of their own', async () => {
    // The ledger here has Batch; the deploy is told it has not, as on a network without the amendment.
    const submissions = t.app.platform.submissions!;
    const batchEnabled = submissions.batchEnabled.bind(submissions);
    submissions.batchEnabled = () => Promise.resolve(false);
    let result: DeployResult;
    try {
      const bob = await t.signIn('bob_first_buy');
      const w = await fundedWallet(t, bob, 3);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/deploy-token',
        headers: bob.headers,
        payload: {
          ...ammLaunchBody(w.id, { name: 'Second Buyer', ticker: 'SECONDB' }),
          logoUrl: await testLogo(t.database.db),
          firstBuyXrp: '5',
        },
      });
      expect(res.statusCode, res.body).toBe(202);
      const job = await t.app.platform.jobs.waitFor((res.json() as { jobId: string }).jobId, {
        timeoutMs: 120_000,
      });
      expect(job.status, job.error ?? '').toBe('completed');
      result = job.result as DeployResult;
      // No dev allocation: the buy opened the creator's trust line, and it holds the swap-out of
      // 5 XRP into 100 XRP / 1,000,000 tokens at the slot's 0.03%.
      const out = xls30Out(100_000_000, 1_000_000, 5_000_000, 30);
      expect(digits15(await held(w.address, result))).toBe(digits15(out));
    } finally {
      submissions.batchEnabled = batchEnabled;
    }
    const ledgers = result.ledgers!;
    expect(ledgers['first-buy']).toBeGreaterThanOrEqual(ledgers['create-amm']!);
    expect(ledgers['first-buy-fee']).toBeGreaterThanOrEqual(ledgers['first-buy']!);
  }, 180_000);
});
