import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeployResult, type JobStatusView, type RiskReport, type TokenView } from '@ledgerpad/shared';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { ammLaunchBody, fundedWallet, runDeploy } from '../helpers/trading-world';
import type { SignedIn } from '../helpers/test-app';
import { testLogo } from '../helpers/test-logo';
import { until } from '../helpers/wait';
import { LedgerEntry } from 'xrpl';

// Issue 37, 'Burn the LP': a deploy with `burnLp` blackholes the hot wallet that AMMCreate gave every
// LP token to, in the deploy's own persisted steps; 'Keep' leaves them withdrawable and the risk panel
// says so. Checked on the embedded ledger through xrpl.js, against numbers worked out here.

const LSF_DISABLE_MASTER = LedgerEntry.AccountRootFlags.lsfDisableMaster;
/** rippled's ACCOUNT_ONE: the regular key no one holds (docs/launch-protection.md). */
const ACCOUNT_ONE = 'rrrrrrrrrrrrrrrrrrrrBZbvji';
const NO_LOCK = 'None of the pool is locked: its liquidity providers can withdraw all of it.';

let t: WalletTestApp;
let alice: SignedIn;
let wallet: { id: number; address: string };

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 1000 });
  await t.app.platform.accounts.bootstrapped();
  alice = await t.signIn('alice_lp_burn');
  wallet = await fundedWallet(t, alice, 3);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function rootOf(account: string) {
  const r = await t.connection.client.request({
    command: 'account_info',
    account,
    ledger_index: 'validated',
    signer_lists: true,
  });
  return r.result as typeof r.result & {
    account_data: { Flags: number; RegularKey?: string };
    signer_lists?: unknown[];
  };
}

async function signerLists(account: string): Promise<unknown[]> {
  const r = await t.connection.client.request({
    command: 'account_objects',
    account,
    type: 'signer_list',
    ledger_index: 'validated',
  });
  return r.result.account_objects;
}

async function poolOf(result: DeployResult) {
  const r = await t.connection.client.request({
    command: 'amm_info',
    asset: { currency: 'XRP' },
    asset2: { currency: result.currency, issuer: result.issuer_address },
    ledger_index: 'validated',
  });
  const amm = r.result.amm as unknown as { account: string; lp_token: { currency: string; value: string } };
  return amm;
}

/** Every account holding the pool's LP tokens, from the AMM account's trust lines. */
async function lpHolders(amm: { account: string; lp_token: { currency: string } }) {
  const r = await t.connection.client.request({
    command: 'account_lines',
    account: amm.account,
    ledger_index: 'validated',
  });
  return r.result.lines
    .filter((l) => l.currency === amm.lp_token.currency && new Decimal(l.balance).neg().gt(0))
    .map((l) => ({ account: l.account, balance: new Decimal(l.balance).neg().toFixed() }));
}

const riskOf = async (issuer: string) =>
  (await t.app.inject({ url: `/api/tokens/${issuer}/risk` })).json() as RiskReport;

async function walletNames(): Promise<Map<string, string>> {
  const r = (await t.app.inject({ url: '/api/wallets', headers: alice.headers })).json() as {
    wallets: Array<{ wallet_address: string; wallet_name: string }>;
  };
  return new Map(r.wallets.map((w) => [w.wallet_address, w.wallet_name]));
}

/** The list's entry once `ready` holds (the list reads the ledger in the background, per ledger). */
async function listed(issuer: string, ready: (v: TokenView) => boolean): Promise<TokenView | undefined> {
  let found: TokenView | undefined;
  await until(
    async () => {
      const list = (await t.app.inject({ url: '/api/tokens?limit=50' })).json() as TokenView[];
      found = list.find((x) => x.issuer_address === issuer);
      return found && ready(found);
    },
    { timeoutMs: 30_000, everyMs: 250 },
    // Not ready in time: the last entry seen goes back, so the test's assertion shows what it was.
  ).catch(() => undefined);
  return found;
}

describe('deploy with Burn the LP', () => {
  let result: DeployResult;
  let jobId: string;

  beforeAll(async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/deploy-token',
      headers: alice.headers,
      payload: {
        ...ammLaunchBody(wallet.id, { name: 'Burnt Pool', ticker: 'BURNT' }),
        logoUrl: await testLogo(t.database.db),
        blackholeIssuer: true,
        burnLp: true,
      },
    });
    expect(res.statusCode, res.body).toBe(202);
    jobId = (res.json() as { jobId: string }).jobId;
    const job = await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 90_000 });
    expect(job.status, job.error ?? '').toBe('completed');
    result = (job as unknown as JobStatusView<DeployResult>).result!;
  }, 120_000);

  it('burns in two persisted steps of the hot wallet, after the pool and each with its transaction', async () => {
    const status = (
      await t.app.inject({ url: `/api/job-status/${jobId}`, headers: alice.headers })
    ).json() as JobStatusView;
    const names = status.steps.map((s) => s.name);
    expect(names.indexOf('burn-lp-regular-key')).toBeGreaterThan(names.indexOf('create-amm'));
    expect(names.indexOf('burn-lp-disable-master')).toBeGreaterThan(names.indexOf('burn-lp-regular-key'));
    for (const name of ['burn-lp-regular-key', 'burn-lp-disable-master']) {
      const step = status.steps.find((s) => s.name === name)!;
      expect(step.status).toBe('done');
      expect(step.txHash).toMatch(/^[0-9A-F]{64}$/);
    }
  });

  it('leaves every LP token in an account no key can sign for: master disabled, no usable regular key, no signer list', async () => {
    const amm = await poolOf(result);
    // XLS-30: AMMCreate issues sqrt(amount × amount2) LP tokens to its creator, XRP in drops:
    // sqrt(100,000,000 × 1,000,000) = 10,000,000 — the whole supply of LP tokens.
    const expected = new Decimal(100_000_000).mul(1_000_000).sqrt();
    expect(expected.toFixed()).toBe('10000000');
    expect(new Decimal(amm.lp_token.value).minus(expected).abs().lte(expected.mul('1e-14'))).toBe(true);
    // The hot wallet holds all of them, and it is the only holder.
    expect(await lpHolders(amm)).toEqual([
      { account: result.hot_wallet_address, balance: amm.lp_token.value },
    ]);

    const root = await rootOf(result.hot_wallet_address);
    expect(root.account_data.Flags & LSF_DISABLE_MASTER).toBe(LSF_DISABLE_MASTER);
    // rippled refuses asfDisableMaster without an alternative key (tecNO_ALTERNATIVE_KEY): the
    // regular key is ACCOUNT_ONE, whose secret no one has (it is the hash of no public key).
    expect(root.account_data.RegularKey).toBe(ACCOUNT_ONE);
    expect(root.signer_lists ?? []).toEqual([]);
    expect(await signerLists(result.hot_wallet_address)).toEqual([]);
    // The creator's paying wallet holds no LP tokens of the pool.
    expect((await lpHolders(amm)).some((h) => h.account === wallet.address)).toBe(false);
  });

  it('keeps the burned hot wallet out of the creator\u2019s wallets (it can never sign)', async () => {
    const names = await walletNames();
    expect(names.has(result.hot_wallet_address)).toBe(false);
    expect(names.has(result.issuer_address)).toBe(false);
  });

  it("reads 'LP burned' 100% from the ledger on the risk panel, with no pool caution", async () => {
    const risk = await riskOf(result.issuer_address);
    expect(risk.lpLockedPercent).toBe('100');
    expect(risk.signals.find((s) => s.id === 'lp-locked')).toMatchObject({
      severity: 'good',
      label: 'LP burned',
      value: '100%',
      sentence:
        'All of the pool’s LP tokens are burned (held by accounts that can never sign): its liquidity can never be withdrawn.',
    });
    expect(risk.verdict).not.toContain(NO_LOCK);
    expect(risk.signals.some((s) => s.sentence === NO_LOCK)).toBe(false);
  });

  it("marks the token 'LP burned' in the list, read from the ledger", async () => {
    const token = await listed(result.issuer_address, (v) => v.lp_burned !== undefined);
    expect(token?.lp_burned).toEqual({ percent: '100' });
  });
});

describe("deploy with 'Keep'", () => {
  let result: DeployResult;

  beforeAll(async () => {
    result = await runDeploy(
      t,
      alice,
      { ...ammLaunchBody(wallet.id, { name: 'Kept Pool', ticker: 'KEPT' }), burnLp: false },
      90_000,
    );
  }, 120_000);

  it('leaves the LP tokens with the creator’s liquidity wallet, which can still sign', async () => {
    const amm = await poolOf(result);
    expect(await lpHolders(amm)).toEqual([
      { account: result.hot_wallet_address, balance: amm.lp_token.value },
    ]);
    const root = await rootOf(result.hot_wallet_address);
    expect(root.account_data.Flags & LSF_DISABLE_MASTER).toBe(0);
    expect(root.account_data.RegularKey).toBeUndefined();
    expect((await walletNames()).get(result.hot_wallet_address)).toBe('KEPT liquidity');
  });

  it('is marked: the risk panel says none of the pool is locked', async () => {
    const risk = await riskOf(result.issuer_address);
    expect(risk.lpLockedPercent).toBe('0');
    expect(risk.signals.find((s) => s.id === 'lp-locked')).toMatchObject({
      severity: 'warn',
      label: 'LP locked',
      value: '0%',
      sentence: NO_LOCK,
    });
    expect(risk.verdict).toContain(NO_LOCK);
  });
});
