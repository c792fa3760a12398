import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import { Wallet } from 'xrpl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_MESSAGES,
  RLUSD_CURRENCY_HEX,
  type AuditPage,
  type FeeConfigView,
  type FeesConfig,
  type PlatformConfigEntry,
  type RefundResult,
  type StagedWalletBalance,
  type StagedWalletView,
  type SwapResult,
  type WalletOverview,
} from '@ledgerpad/shared';
import { STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import { stageDeployWallets } from '../../src/platform/custody';
import { jobs } from '../../src/platform/jobs/schema';
import { submitAndWait } from '../helpers/submit-and-wait';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/test-app';
import { fundedWallet } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// The admin panel's server side: settings that take effect at once (on another instance too), admins
// added and removed (never the owner), a fee override changing the fee a trade pays, the overviews,
// and every write in the append-only audit trail. Who may call each admin route at all is the
// route sweep's job (test/security/route-sweep.test.ts), generated from the registered routes.

let t: WalletTestApp;
let second: TestApp;
let owner: SignedIn;
let alice: SignedIn;
let aliceWallet: string;
let rlusd: string;

const call = (who: SignedIn, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

async function audit(): Promise<AuditPage['entries']> {
  const r = await call(owner, 'GET', '/api/admin/audit');
  expect(r.statusCode, r.body).toBe(200);
  return (r.json() as AuditPage).entries;
}

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  await t.app.platform.accounts.bootstrapped();
  owner = await t.signInOwner();
  alice = await t.signIn('alice_admin');
  aliceWallet = (await fundedWallet(t, alice)).address;
  rlusd = ((await t.app.inject({ url: '/api/config/rlusd' })).json() as { issuer: string }).issuer;
  // A second instance on the same database, as behind a load balancer.
  second = await createTestApp({ ledger: 'none', database: t.database });
}, 120_000);

afterAll(async () => {
  await second?.close();
  await t?.close();
});

describe('admin panel', () => {
  it('sets the trading fee (0–10%), shows the fee wallet, refuses to redirect it, and audits the change', async () => {
    const before = (await call(owner, 'GET', '/api/admin/fee-config')).json() as FeeConfigView;
    expect(before.fee_percentage).toBe('0.75');
    expect(before.fee_receiver_wallet).toMatch(/^r/);
    for (const bad of ['11', '-1', 'abc', '0.00001']) {
      const r = await call(owner, 'POST', '/api/admin/fee-config/update', { fee_percentage: bad });
      expect([r.statusCode, r.json().message]).toEqual([400, ADMIN_MESSAGES.feeRange]);
    }
    const moved = await call(owner, 'POST', '/api/admin/fee-config/update', {
      fee_percentage: '1',
      fee_receiver_wallet: aliceWallet,
    });
    expect([moved.statusCode, moved.json().message]).toEqual([400, ADMIN_MESSAGES.feeReceiverFixed]);
    const ok = await call(owner, 'POST', '/api/admin/fee-config/update', { fee_percentage: '1.5' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((ok.json() as FeeConfigView).fee_percentage).toBe('1.5');
    // The public fee figures follow at once (the home page and the terms show the current fee).
    const pub = (await second.app.inject({ url: '/api/config/fees' })).json() as FeesConfig;
    expect(pub.trading_fee_percent).toBe('1.5');
    expect((await audit())[0]).toMatchObject({
      action: 'fee-config.update',
      target: 'trading_fee_percent',
      before: { value: '0.75' },
      after: { value: '1.5' },
      admin_user_id: owner.user.id,
    });
    // Back to the terms' fee for the trades below.
    await call(owner, 'POST', '/api/admin/fee-config/update', { fee_percentage: '0.75' });
  });

  it('changes platform settings, visible at once on another instance and in /api/config/fees', async () => {
    const r = await call(owner, 'POST', '/api/admin/platform-config/update', {
      settings: { service_fee: '20', creator_reward_share: '1/2' },
    });
    expect(r.statusCode, r.body).toBe(200);
    const fees = (await second.app.inject({ url: '/api/config/fees' })).json() as FeesConfig;
    expect(fees.service_fee).toBe('20');
    const other = await second.app.inject({
      url: '/api/admin/platform-config',
      headers: { cookie: owner.cookie },
    });
    expect(other.json() as PlatformConfigEntry[]).toContainEqual({
      key: 'creator_reward_share',
      value: '1/2',
    });
    for (const [key, value] of [
      ['issuer_reserve', '0.5'],
      ['service_fee_destination', 'not-an-address'],
      ['creator_reward_share', '3/2'],
      ['service_fee', '1.1234567'],
    ] as const) {
      const bad = await call(owner, 'POST', '/api/admin/platform-config/update', { key, value });
      expect(bad.statusCode, `${key}=${value}`).toBe(400);
    }
    // The curve's supply in the refusals is BONDING_CURVE_SUPPLY, grouped (not typed again).
    const steps = await call(owner, 'POST', '/api/admin/platform-config/update', {
      key: 'bonding_steps',
      value: '7',
    });
    expect(steps.statusCode).toBe(400);
    expect(steps.json().message).toBe(
      'bonding_steps must divide 793,100,000 and be from 10 to 10,000 (e.g. 100, 200, 500, 1000).',
    );
    // The anti-sniper window's bounds (issue 37): a rate of 0–50%, a window of 0–600 s.
    for (const [key, value, message] of [
      [
        'anti_sniper_start_percent',
        '50.5',
        'anti_sniper_start_percent must be a percent from 0 to 50 with at most 2 decimals.',
      ],
      [
        'anti_sniper_start_percent',
        '-1',
        'anti_sniper_start_percent must be a percent from 0 to 50 with at most 2 decimals.',
      ],
      [
        'anti_sniper_window_seconds',
        '601',
        'anti_sniper_window_seconds must be a whole number of seconds from 0 to 600 (10 minutes).',
      ],
      [
        'anti_sniper_window_seconds',
        '1.5',
        'anti_sniper_window_seconds must be a whole number of seconds from 0 to 600 (10 minutes).',
      ],
    ] as const) {
      const bad = await call(owner, 'POST', '/api/admin/platform-config/update', { key, value });
      expect(bad.statusCode, `${key}=${value}`).toBe(400);
      expect(bad.json().message).toBe(message);
    }
    const sniper = await call(owner, 'POST', '/api/admin/platform-config/update', {
      settings: { anti_sniper_start_percent: '50', anti_sniper_window_seconds: '600' },
    });
    expect(sniper.statusCode, sniper.body).toBe(200);
    const entries = await audit();
    expect(entries.find((e) => e.target === 'service_fee')).toMatchObject({
      before: { value: '15' },
      after: { value: '20' },
    });
    expect(entries.find((e) => e.target === 'creator_reward_share')).toMatchObject({
      before: { value: '1/3' },
      after: { value: '1/2' },
    });
  });

  it('adds and removes an admin; the owner stays; an unknown or malformed id is refused', async () => {
    expect((await call(alice, 'GET', '/api/admin/check')).statusCode).toBe(403);
    const added = await call(owner, 'POST', '/api/admin/admins/add', { userId: alice.user.id });
    expect(added.statusCode, added.body).toBe(200);
    expect((await call(alice, 'GET', '/api/admin/check')).statusCode).toBe(200);
    const removed = await call(owner, 'POST', '/api/admin/admins/remove', { userId: alice.user.id });
    expect(removed.statusCode).toBe(200);
    expect((await call(alice, 'GET', '/api/admin/check')).statusCode).toBe(403);
    const ownerOut = await call(owner, 'POST', '/api/admin/admins/remove', { userId: 1 });
    expect([ownerOut.statusCode, ownerOut.json().message]).toEqual([403, ADMIN_MESSAGES.ownerLocked]);
    for (const userId of ['abc', 999_999]) {
      const bad = await call(owner, 'POST', '/api/admin/admins/add', { userId });
      expect([bad.statusCode, bad.json().message]).toEqual([400, ADMIN_MESSAGES.validUserId]);
    }
    const actions = (await audit()).map((e) => [e.action, e.target, e.after]);
    expect(actions).toContainEqual(['admins.add', String(alice.user.id), { admin: true }]);
    expect(actions).toContainEqual(['admins.remove', String(alice.user.id), { admin: false }]);
  });

  it("a fee override changes the fee the user's next trade pays; null restores the platform's", async () => {
    const swap = async () => {
      const r = await call(alice, 'POST', '/api/swap', {
        walletAddress: aliceWallet,
        issuer: rlusd,
        token: RLUSD_CURRENCY_HEX,
        amount: '10',
        type: 'BUY',
        slippage: '5',
        baseAsset: 'XRP',
      });
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as SwapResult;
    };
    const set = await call(owner, 'POST', '/api/admin/fee-overrides/update', {
      userId: alice.user.id,
      custom_fee_percentage: '0.25',
    });
    expect(set.statusCode, set.body).toBe(200);
    // 0.25% of 10 XRP.
    expect((await swap()).fee).toBe('0.025');
    const listed = (await call(owner, 'GET', `/api/admin/fee-overrides?search=${alice.user.id}`)).json();
    expect(listed).toContainEqual(
      expect.objectContaining({ id: alice.user.id, custom_fee_percentage: '0.25' }),
    );
    await call(owner, 'POST', '/api/admin/fee-overrides/update', {
      userId: alice.user.id,
      custom_fee_percentage: null,
    });
    // Back to 0.75% of 10 XRP.
    expect((await swap()).fee).toBe('0.075');
    expect((await audit()).find((e) => e.action === 'fee-overrides.update')).toMatchObject({
      before: { value: '0.25' },
      after: { value: null },
    });
  });

  it('shows the overviews without secrets', async () => {
    const overview = (await call(owner, 'GET', '/api/admin/wallet-overview')).json() as WalletOverview;
    expect(overview.fee_wallet.address).toMatch(/^r/);
    expect(Number(overview.fee_wallet.balance)).toBeGreaterThan(0);
    let all = await call(owner, 'GET', '/api/admin/all-wallets');
    expect(all.body).toContain(aliceWallet);
    expect(all.body).not.toMatch(/secret|seed|cipher/i);
    // Users' wallets are paged: one a page here, the total and the next page in the headers.
    expect((await call(owner, 'POST', '/api/wallets', {})).statusCode).toBe(200);
    all = await call(owner, 'GET', '/api/admin/all-wallets');
    const users = (all.json() as { user_wallets: unknown[] }).user_wallets.length;
    expect(all.headers['x-total-count']).toBe(String(users));
    const first = await call(owner, 'GET', '/api/admin/all-wallets?limit=1');
    const page = first.json() as { user_wallets: unknown[]; platform_wallets: unknown[] };
    expect(page.user_wallets).toHaveLength(1);
    expect(page.platform_wallets.length).toBeGreaterThan(0);
    expect(users).toBeGreaterThan(1);
    expect(first.headers.link).toBe('</api/admin/all-wallets?limit=1&offset=1>; rel="next"');
    expect((await call(owner, 'GET', '/api/admin/rewards-overview')).statusCode).toBe(200);
  });

  it('keeps the audit trail append-only, even against the database itself', async () => {
    const refusal = async (query: Promise<unknown>) => {
      const err = (await query.then(
        () => null,
        (e: unknown) => e,
      )) as (Error & { cause?: Error }) | null;
      return String(err?.cause?.message ?? err?.message);
    };
    expect(await refusal(t.database.db.execute(sql`update admin_audit set action = 'x'`))).toMatch(
      /append-only/,
    );
    expect(await refusal(t.database.db.execute(sql`delete from admin_audit`))).toMatch(/append-only/);
    expect((await audit()).length).toBeGreaterThan(5);
  });
});

describe('staged deploy wallets and refunds', () => {
  it('lists what a failed deploy left, reads its balances, and refunds its XRP exactly once', async () => {
    const db = t.database.db;
    // What a deploy job that failed after staging leaves: its job row and its two wallets, one funded.
    const [failed] = await db
      .insert(jobs)
      .values({ type: 'deploy-token', status: 'failed', userId: alice.user.id })
      .returning();
    const [running] = await db
      .insert(jobs)
      .values({ type: 'deploy-token', status: 'running', userId: alice.user.id })
      .returning();
    const staged = await stageDeployWallets(db, t.app.platform.keyring, failed!.id, alice.user.id, 'FAIL');
    const busy = await stageDeployWallets(db, t.app.platform.keyring, running!.id, alice.user.id, 'BUSY');
    const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);
    for (const w of [staged.issuer, busy.issuer]) {
      await submitAndWait(
        t.connection.client,
        { TransactionType: 'Payment', Account: genesis.address, Destination: w.address, Amount: '50000000' },
        genesis,
      );
    }

    const list = (await call(owner, 'GET', '/api/admin/staged-wallets')).json() as StagedWalletView[];
    expect(list.map((w) => [w.wallet_address, w.type, w.job_status])).toEqual([
      [staged.issuer.address, 'issuer', 'failed'],
      [staged.hot.address, 'hot', 'failed'],
    ]);
    const balances = (await call(owner, 'GET', '/api/admin/staged-wallets/balances')).json() as Record<
      string,
      StagedWalletBalance
    >;
    expect(balances[staged.issuer.id]).toMatchObject({ xrp: '50', token: '0', rlusd: '0' });
    expect(balances[staged.hot.id]).toMatchObject({ xrp: '0' });

    // Refused: a wallet whose deploy is still running, a user's own wallet, a bad destination.
    const refund = (payload: object, key = randomUUID()) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/refund',
        headers: { ...owner.headers, 'idempotency-key': key },
        payload,
      });
    expect(
      (await refund({ wallet_id: busy.issuer.id, destination_address: aliceWallet, type: 'xrp' })).statusCode,
    ).toBe(400);
    const userWalletId = (
      (await call(alice, 'GET', '/api/wallets')).json() as { wallets: Array<{ id: number }> }
    ).wallets[0]!.id;
    expect(
      (await refund({ wallet_id: userWalletId, destination_address: aliceWallet, type: 'xrp' })).statusCode,
    ).toBe(404);
    const noDest = await refund({ wallet_id: staged.issuer.id, destination_address: 'nowhere', type: 'xrp' });
    expect([noDest.statusCode, noDest.json().message]).toEqual([400, ADMIN_MESSAGES.chooseDestination]);

    const balance = async (address: string) =>
      BigInt(
        (
          await t.connection.client.request({
            command: 'account_info',
            account: address,
            ledger_index: 'validated',
          })
        ).result.account_data.Balance,
      );
    const before = await balance(aliceWallet);
    const first = await refund(
      { wallet_id: staged.issuer.id, destination_address: aliceWallet, type: 'xrp' },
      '6f1c2a9e-1b2c-4d3e-8f40-5a6b7c8d9e0f',
    );
    expect(first.statusCode, first.body).toBe(200);
    // All but the 1 XRP base reserve (no owned objects) and two network fees' worth kept for the fee.
    const { baseFee } = t.app.platform.submissions!.reserves;
    const expected = 50_000_000n - 1_000_000n - 2n * baseFee;
    expect((first.json() as RefundResult).amount).toBe(new Decimal(expected.toString()).div(1e6).toFixed());
    // Its sequence is a few ledgers old: rippled would refuse an AccountDelete (tecTOO_SOON).
    expect((first.json() as RefundResult).method).toBe('payment');
    expect((await balance(aliceWallet)) - before).toBe(expected);
    // The same request again (its Idempotency-Key): the same transaction, nothing sent twice.
    const again = await refund(
      { wallet_id: staged.issuer.id, destination_address: aliceWallet, type: 'xrp' },
      '6f1c2a9e-1b2c-4d3e-8f40-5a6b7c8d9e0f',
    );
    expect((again.json() as RefundResult).hash).toBe((first.json() as RefundResult).hash);
    expect((await balance(aliceWallet)) - before).toBe(expected);
    const refunds = (await audit()).filter((e) => e.action === 'refund');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      tx_hash: (first.json() as RefundResult).hash,
      before: { value: '50' },
      after: {
        value: new Decimal(expected.toString()).div(1e6).toFixed(),
        to: aliceWallet,
        method: 'payment',
      },
    });
  });

  it('deletes the account instead once its sequence is 256 ledgers old: the reserves come back too', async () => {
    const db = t.database.db;
    const client = t.connection.client;
    const [failed] = await db
      .insert(jobs)
      .values({ type: 'deploy-token', status: 'failed', userId: alice.user.id })
      .returning();
    const staged = await stageDeployWallets(db, t.app.platform.keyring, failed!.id, alice.user.id, 'OLD');
    const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);
    await submitAndWait(
      client,
      {
        TransactionType: 'Payment',
        Account: genesis.address,
        Destination: staged.hot.address,
        Amount: '30000000',
      },
      genesis,
    );
    const info = async (account: string) =>
      (await client.request({ command: 'account_info', account, ledger_index: 'validated' })).result;
    const created = await info(staged.hot.address);
    // rippled's DeleteAccount refuses while Sequence + 255 > the ledger it applies in. Close ledgers
    // until the validated one is Sequence + 255 (the transaction then applies in a later one).
    while ((await info(staged.hot.address)).ledger_index! < created.account_data.Sequence + 255)
      await client.request({ command: 'ledger_accept' } as never);

    const before = BigInt((await info(aliceWallet)).account_data.Balance);
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/admin/refund',
      headers: { ...owner.headers, 'idempotency-key': randomUUID() },
      payload: { wallet_id: staged.hot.id, destination_address: aliceWallet, type: 'xrp' },
    });
    expect(r.statusCode, r.body).toBe(200);
    const result = r.json() as RefundResult;
    // Everything but the AccountDelete fee, which is one owner reserve (0.2 XRP), not the base fee.
    const { reserveIncrement } = t.app.platform.submissions!.reserves;
    expect(reserveIncrement).toBe(200_000n);
    const expected = 30_000_000n - reserveIncrement;
    expect(result).toMatchObject({
      method: 'account-delete',
      amount: new Decimal(expected.toString()).div(1e6).toFixed(),
    });
    expect(BigInt((await info(aliceWallet)).account_data.Balance) - before).toBe(expected);
    // The account is gone from the ledger.
    const gone = await client
      .request({ command: 'account_info', account: staged.hot.address, ledger_index: 'validated' })
      .then(
        () => 'found',
        (e: Error & { data?: { error?: string } }) => e.data?.error,
      );
    expect(gone).toBe('actNotFound');
    const balances = (await call(owner, 'GET', '/api/admin/staged-wallets/balances')).json() as Record<
      string,
      StagedWalletBalance
    >;
    expect(balances[staged.hot.id]).toMatchObject({ xrp: '0', active: false });
    expect((await audit()).find((e) => e.tx_hash === result.hash)).toMatchObject({
      action: 'refund',
      before: { value: '30' },
      after: {
        value: new Decimal(expected.toString()).div(1e6).toFixed(),
        to: aliceWallet,
        method: 'account-delete',
      },
    });
  }, 120_000);
});
