import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { Client, Wallet } from 'xrpl';
import { DASHBOARD_MESSAGES, type DeployResult, type JobStatusView } from '@ledgerpad/shared';
import { screenshotWidths } from '../support/browser';
import { uploadLogo } from '../support/deploy';
import { useBrowser } from '../support/fixture';

// /dashboard in Chromium against the shared server: a token deployed through the app's own API
// (a funded wallet, an uploaded logo, POST /api/deploy-token, the job followed to its end), then
// the menu entry, the token, its trust lines read from the ledger, a freeze, and the blackhole with
// its 'RIP Issuer Wallet' notice; at 375 px the lines table scrolls inside its panel.

const MOBILE = { width: 375, height: 740 };
const LEDGER_WAIT = { timeout: 20_000 };

let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36).slice(-4)}${++counter}`.toUpperCase();

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Demo account (embedded ledger)').fill(unique('dsh_').toLowerCase());
  const signedIn = page.waitForResponse((r) => r.url().endsWith('/api/auth/demo') && r.ok());
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await signedIn;
  await page.waitForURL(`${url}/`);
}

/**
 * Deploys a token as the deploy page does (issuer kept, not blackholed, so the dashboard can sign),
 * through the session of `page`. Returns the job's result once the job has completed.
 */
async function deployToken(
  page: Page,
  url: string,
  ticker: string,
  options: { pair?: 'XRP' | 'RLUSD'; requireAuth?: boolean } = {},
): Promise<DeployResult & { payer: string }> {
  const { token } = (await (await page.request.get(`${url}/api/csrf-token`)).json()) as { token: string };
  const headers = { 'x-csrf-token': token };
  const ok = async (what: string, res: Awaited<ReturnType<Page['request']['get']>>) => {
    if (!res.ok()) throw new Error(`${what}: ${res.status()} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const wallet = await ok(
    'create wallet',
    await page.request.post(`${url}/api/wallets`, { headers, data: {} }),
  );
  await ok(
    'faucet',
    await page.request.post(`${url}/api/wallets/${String(wallet.id)}/fund`, { headers, data: {} }),
  );
  if (options.pair === 'RLUSD') {
    await ok(
      'RLUSD faucet',
      await page.request.post(`${url}/api/wallets/${String(wallet.id)}/fund-rlusd`, { headers, data: {} }),
    );
  }
  // A logo of its own: every token needs one (issue 35), and the two tests here deploy two.
  const logoUrl = await uploadLogo(page.request, url, headers);
  const deploy = await ok(
    'deploy',
    await page.request.post(`${url}/api/deploy-token`, {
      headers,
      data: {
        // A name of its own too: the first test's token, blackholed, is protected (issue 35), and a
        // second 'Dash Token' would read as it.
        name: `Dash ${ticker}`,
        ticker,
        description: 'Deployed for the dashboard test',
        supply: '1000000',
        devAllocation: '10',
        liquidityAmount: '50',
        ammFee: '0.5',
        logoUrl,
        twitterLink: '',
        telegramLink: '',
        websiteLink: '',
        blackholeIssuer: false,
        requireAuth: options.requireAuth ?? false,
        liquidityPairType: options.pair ?? 'XRP',
        walletId: wallet.id,
      },
    }),
  );
  const jobId = String(deploy.jobId);
  let status: JobStatusView<DeployResult> | undefined;
  await expect
    .poll(
      async () => {
        status = (await ok('job', await page.request.get(`${url}/api/job-status/${jobId}`))) as never;
        return status!.status;
      },
      { timeout: 60_000, interval: 250 },
    )
    .toMatch(/completed|failed/);
  if (status!.status !== 'completed') throw new Error(`deploy failed: ${status!.error}`);
  return { ...status!.result!, payer: String(wallet.wallet_address) };
}

const noHorizontalScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Counts the page's POSTs to paths starting with `prefix`. */
function countCalls(page: Page, prefix: string): { count: number } {
  const seen = { count: 0 };
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith(prefix)) seen.count++;
  });
  return seen;
}

/** An account's validated transactions on the app's ledger (xrpl.js), oldest first. */
async function accountTransactions(account: string): Promise<Array<Record<string, unknown>>> {
  const client = new Client(inject('ledgerUrl'));
  await client.connect();
  try {
    const r = await client.request({ command: 'account_tx', account, ledger_index_min: -1, forward: true });
    return r.result.transactions.map(
      (t) => (t.tx_json ?? (t as { tx?: unknown }).tx) as Record<string, unknown>,
    );
  } finally {
    await client.disconnect();
  }
}

describe('dashboard', () => {
  const browser = useBrowser();

  it('shows the deployer’s token and its trust lines, freezes a line, and blackholes the issuer', async () => {
    const { page, url } = browser;
    await signIn(page, url);
    const ticker = unique('DB');
    const deployed = await deployToken(page, url, ticker);

    // The menu learns about the deploy on the next load.
    await page.goto(url);
    await page.getByRole('button', { name: 'XRPL Tools' }).click();
    await page.getByRole('menuitem', { name: 'Token Dashboard' }).click();
    await page.waitForURL(`${url}/dashboard`);
    await page.getByRole('heading', { name: 'Token Management', level: 1 }).waitFor();
    await page.getByText(DASHBOARD_MESSAGES.selectToken).waitFor();

    await page.getByRole('button', { name: new RegExp(ticker) }).click();
    expect(await page.getByTestId('require-auth').textContent()).toBe('Disabled');
    await page.getByTestId('issuer-status').waitFor(LEDGER_WAIT);
    expect(await page.getByTestId('issuer-status').textContent()).toBe('Active');

    // Nothing traded yet: the claim modal shows no unclaimed reward and cannot claim.
    await page.getByRole('button', { name: 'Claim Rewards' }).click();
    const claimModal = page.getByRole('dialog', { name: `Claim ${ticker} rewards` });
    await expect.poll(() => claimModal.getByTestId('reward-unclaimed').textContent()).toBe('0 XRP');
    expect(await claimModal.getByTestId('claim-amount').textContent()).toBe('0.000000 XRP');
    expect(await claimModal.getByRole('button', { name: 'Claim', exact: true }).isDisabled()).toBe(true);
    await claimModal.getByRole('button', { name: 'Cancel' }).click();
    await claimModal.waitFor({ state: 'detached' });

    // The deploy opened lines for the hot wallet, the dev allocation and the pool.
    const rows = page.locator('.dashboard-lines tbody tr');
    await expect.poll(() => rows.count(), LEDGER_WAIT).toBeGreaterThanOrEqual(3);
    const hotRow = page.locator(`tr[data-account="${deployed.hot_wallet_address}"]`);
    await hotRow.waitFor();
    expect(await hotRow.locator('td').nth(4).textContent()).toBe('No');
    // The pool's line is labelled, and offers no Freeze or Authorize (issue 24).
    const ammRow = page.locator(`tr[data-account="${deployed.amm_account}"]`);
    await ammRow.waitFor();
    expect(await ammRow.getByTestId('system-account').textContent()).toBe('AMM pool');
    expect(await ammRow.getByRole('button', { name: /Freeze|Authorize/ }).count()).toBe(0);
    await screenshotWidths(page, 'identity-dashboard');

    await hotRow.getByRole('button', { name: 'Freeze' }).click();
    await hotRow.getByRole('button', { name: 'Unfreeze' }).waitFor(LEDGER_WAIT);
    expect(await hotRow.locator('td').nth(4).textContent()).toBe('Frozen');

    // The paying wallet holds the dev allocation: its own limit can be set from here.
    const devRow = page.locator(`tr[data-account="${deployed.payer}"]`);
    await devRow.getByRole('button', { name: 'Set limit' }).click();
    const limitModal = page.getByRole('dialog', { name: `Set ${ticker} limit` });
    await limitModal.getByLabel('New limit').fill('5000000');
    await limitModal.getByRole('button', { name: 'Set limit' }).click();
    await limitModal.waitFor({ state: 'detached', ...LEDGER_WAIT });
    await expect.poll(() => devRow.locator('td').nth(1).textContent(), LEDGER_WAIT).toBe('5,000,000');

    await page.getByRole('button', { name: 'Blackhole Issuer' }).click();
    const modal = page.getByRole('alertdialog', { name: 'Blackhole the issuer wallet?' });
    const confirm = modal.getByRole('button', { name: 'Blackhole Issuer' });
    expect(await confirm.isDisabled()).toBe(true);
    await modal.getByLabel('I understand this cannot be undone.').check();
    // A double click blackholes once: one request, one SetRegularKey and one AccountSet on the ledger.
    const blackholeCalls = countCalls(page, `/api/dashboard/blackhole-issuer/`);
    await confirm.dblclick();
    const rip = page.getByRole('alertdialog', { name: DASHBOARD_MESSAGES.ripIssuer });
    await rip.waitFor(LEDGER_WAIT);
    await rip.locator('.modal-actions').getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByTestId('issuer-status').textContent(), LEDGER_WAIT).toBe('Blackholed');
    await page.getByText(DASHBOARD_MESSAGES.ripIssuer).waitFor();
    expect(await hotRow.getByRole('button', { name: 'Unfreeze' }).isDisabled()).toBe(true);
    expect(blackholeCalls.count).toBe(1);
    const issuerTxs = await accountTransactions(deployed.issuer_address);
    expect(issuerTxs.filter((tx) => tx.TransactionType === 'SetRegularKey')).toHaveLength(1);
    expect(issuerTxs.filter((tx) => tx.TransactionType === 'AccountSet' && tx.SetFlag === 4)).toHaveLength(1);

    // At 375 px each trust line is a card: its actions are on screen, the page never scrolls sideways.
    await page.setViewportSize(MOBILE);
    await page.reload();
    await page.getByRole('button', { name: new RegExp(ticker) }).click();
    await page.locator(`tr[data-account="${deployed.hot_wallet_address}"]`).waitFor(LEDGER_WAIT);
    expect(await noHorizontalScroll(page)).toBe(true);
    const unfreeze = (await hotRow.getByRole('button', { name: 'Unfreeze' }).boundingBox())!;
    expect(unfreeze.x >= 0 && unfreeze.x + unfreeze.width <= MOBILE.width).toBe(true);
    await screenshotWidths(page, 'dashboard-lines');
  });

  it("an RLUSD-paired token with RequireAuth: a holder's new trust line is authorized from the dashboard", async () => {
    const { page, url } = browser;
    await signIn(page, url);
    const ticker = unique('RA');
    const deployed = await deployToken(page, url, ticker, { pair: 'RLUSD', requireAuth: true });

    // A holder outside the app opens a trust line to the token (xrpl.js on the app's ledger); the
    // wallet is made and funded through the app, which hands its seed over once.
    const { token } = (await (await page.request.get(`${url}/api/csrf-token`)).json()) as { token: string };
    const created = (await (
      await page.request.post(`${url}/api/wallets`, { headers: { 'x-csrf-token': token }, data: {} })
    ).json()) as { id: number; wallet_seed: string };
    await page.request.post(`${url}/api/wallets/${created.id}/fund`, {
      headers: { 'x-csrf-token': token },
      data: {},
    });
    const holder = Wallet.fromSeed(created.wallet_seed);
    const client = new Client(inject('ledgerUrl'));
    await client.connect();
    try {
      const res = await client.submitAndWait(
        {
          TransactionType: 'TrustSet',
          Account: holder.classicAddress,
          LimitAmount: { currency: deployed.currency, issuer: deployed.issuer_address, value: '1000' },
        },
        { wallet: holder, autofill: true },
      );
      expect((res.result.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
    } finally {
      await client.disconnect();
    }

    await page.goto(`${url}/dashboard`);
    await page.getByRole('button', { name: new RegExp(ticker) }).click();
    await expect.poll(() => page.getByTestId('require-auth').textContent(), LEDGER_WAIT).toBe('Enabled');
    // The hot wallet's line was authorized by the deploy; the new holder's is not yet.
    const hotRow = page.locator(`tr[data-account="${deployed.hot_wallet_address}"]`);
    await hotRow.waitFor(LEDGER_WAIT);
    expect(await hotRow.locator('td').nth(3).textContent()).toBe('Yes');
    const holderRow = page.locator(`tr[data-account="${holder.classicAddress}"]`);
    await holderRow.waitFor(LEDGER_WAIT);
    expect(await holderRow.locator('td').nth(3).textContent()).toBe('No');
    // A double click authorizes once: one request, one TrustSet of the issuer for this holder.
    const authorizeCalls = countCalls(page, `/api/dashboard/trust-lines/${deployed.token_id}/authorize`);
    await holderRow.getByRole('button', { name: 'Authorize' }).dblclick();
    await expect.poll(() => holderRow.locator('td').nth(3).textContent(), LEDGER_WAIT).toBe('Yes');
    expect(await holderRow.getByRole('button', { name: 'Authorize' }).count()).toBe(0);
    expect(authorizeCalls.count).toBe(1);
    const authorizations = (await accountTransactions(deployed.issuer_address)).filter(
      (tx) =>
        tx.TransactionType === 'TrustSet' &&
        (tx.LimitAmount as { issuer?: string } | undefined)?.issuer === holder.classicAddress,
    );
    expect(authorizations).toHaveLength(1);
  });

  it('keeps the menu entry hidden from users who deployed nothing', async () => {
    const { page, url } = browser;
    await signIn(page, url);
    await page.getByRole('button', { name: 'XRPL Tools' }).click();
    await page.getByRole('menuitem', { name: 'Burner' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Token Dashboard' }).count()).toBe(0);
    await page.goto(`${url}/dashboard`);
    await page.getByText('You have not deployed a token yet.').waitFor();
    await page.getByRole('button', { name: 'Instructions' }).click();
    await page.getByRole('dialog', { name: 'How the dashboard works' }).waitFor();
  });
});
