import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AIRDROP_MESSAGES, type Airdrop, type DeployResult } from '@ledgerpad/shared';
import { launchBrowser } from '../support/browser';
import { deployAsNewUser } from '../support/deploy';
import { useBrowser } from '../support/fixture';
import { buyToken, fundedUser } from '../support/trader';

// Airdrops in Chromium against the real server and ledger: a holder creates an airdrop through the
// form (the job runs to its end and the page opens the board), a second user claims it from the
// board and then sees the claimed state; a signed-out visitor sees the board and is asked to sign in.

const run = Date.now().toString(36).slice(-4).toUpperCase();
const TICKER = `A${run}`;
const PROJECT = `Drop ${run}`;

/** A signed-in user with one funded wallet; answers the wallet and the CSRF headers. */
async function userWithWallet(page: Page, url: string, name: string) {
  const user = await fundedUser(page, url, name);
  return { ...user, wallet: user.wallets[0]! };
}

describe('airdrops in Chromium', () => {
  const t = useBrowser();
  let deployer: Browser;
  let token: DeployResult;

  beforeAll(async () => {
    deployer = await launchBrowser();
    [token] = await deployAsNewUser(deployer, t.url, `airdev_${run.toLowerCase()}`, [
      { name: `Airdrop ${run}`, ticker: TICKER },
    ]);
  }, 120_000);

  afterAll(async () => {
    await deployer?.close();
  });

  it('creates an airdrop from the form, a second user claims it and sees the claimed state', async () => {
    const { page, url } = t;
    const creator = await userWithWallet(page, url, `aircreator_${run.toLowerCase()}`);
    await buyToken(page, url, creator, creator.wallet.wallet_address, token, '5');

    await page.goto(`${url}/airdrop/create`);
    await page.getByRole('heading', { name: 'Create Airdrop', level: 1 }).waitFor();
    await page.getByLabel('Source wallet').selectOption(String(creator.wallet.id));
    const tokenSelect = page.getByLabel('Token', { exact: true });
    const option = await tokenSelect.locator('option', { hasText: TICKER }).getAttribute('value');
    await tokenSelect.selectOption(option!);
    await page.getByLabel('Project name').fill(PROJECT);
    await page.getByLabel('Tagline').fill('An e2e airdrop');
    // The logo is uploaded like deploy and listing logos (issue 24): only our own URL is kept.
    const logo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#22aa66' } })
      .png()
      .toBuffer();
    await page.getByLabel('Logo').setInputFiles({ name: 'drop.png', mimeType: 'image/png', buffer: logo });
    await page.getByAltText('Logo preview').waitFor();
    await page.getByLabel('Total token amount').fill('100');
    await page.getByLabel('Amount per user').fill('10');
    await expect.poll(() => page.getByTestId('recipients').textContent()).toContain('Max recipients: 10');
    const created = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/airdrops' && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Create Airdrop' }).click();
    const answer = await created;
    expect(answer.status(), await answer.text()).toBe(202);
    await page.waitForURL(`${url}/airdrops`, { timeout: 60_000 });
    const card = page.getByTestId('airdrop-card').filter({ hasText: PROJECT });
    await card.waitFor();
    expect(await card.getByTestId('claimed-count').textContent()).toBe('0 / 10');
    expect(await card.getByTestId('per-claim').textContent()).toBe(`10 ${TICKER}`);

    // A second user, in a fresh context, claims it.
    const other = await page.context().browser()!.newContext();
    try {
      const p2 = await other.newPage();
      const claimer = await userWithWallet(p2, url, `airclaimer_${run.toLowerCase()}`);
      await p2.goto(`${url}/airdrops`);
      const card2 = p2.getByTestId('airdrop-card').filter({ hasText: PROJECT });
      await card2.getByRole('button', { name: 'Claim' }).click();
      const modal = p2.getByRole('dialog', { name: `Claim ${PROJECT}` });
      await modal.getByLabel('Destination wallet').selectOption(String(claimer.wallet.id));
      await modal.getByRole('button', { name: 'Claim', exact: true }).click();
      const done = p2.getByRole('alertdialog', { name: 'Airdrop claimed' });
      await done.getByTestId('claimed-amount').waitFor({ timeout: 70_000 });
      expect(await done.getByTestId('claimed-amount').textContent()).toBe(`10 ${TICKER}`);
      await done.getByRole('button', { name: 'Close', exact: true }).last().click();
      await card2.getByText(AIRDROP_MESSAGES.alreadyClaimed).waitFor();
      expect(await card2.getByRole('button', { name: 'Claim' }).count()).toBe(0);
      expect(await card2.getByTestId('claimed-count').textContent()).toBe('1 / 10');

      const list = (await (await p2.request.get(`${url}/api/airdrops`)).json()) as Airdrop[];
      expect(list.find((a) => a.project_name === PROJECT)).toMatchObject({
        has_claimed: true,
        claimed_count: 1,
      });
    } finally {
      await other.close();
    }
  });

  it('signed out: the board shows, makes no request to another origin, and Claim asks to sign in', async () => {
    const { page, url } = t;
    const origin = new URL(url).origin;
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(`${url}/airdrops`);
    await page.getByRole('heading', { name: 'Airdrops', level: 1 }).waitFor();
    const logo = page.getByTestId('airdrop-card').filter({ hasText: PROJECT }).locator('img.airdrop-logo');
    await logo.waitFor();
    expect(await logo.getAttribute('src')).toMatch(/^\/cdn\/logos\/[a-f0-9]{64}\.png$/);
    await page.waitForLoadState('networkidle');
    // Images only from us: every request of the page (documents, scripts, images, the socket) is ours.
    expect(requested.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin)).toEqual([]);
    expect(requested.length).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: 'Create Airdrop' }).count()).toBe(0);
    const card = page.getByTestId('airdrop-card').filter({ hasText: PROJECT });
    await card.getByRole('button', { name: 'Claim' }).click();
    await page.getByRole('dialog', { name: 'Sign in to claim' }).waitFor();
  });
});
