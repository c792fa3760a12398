import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEPLOY_MESSAGES, UPLOAD_MESSAGES } from '@ledgerpad/shared';
import { ARTIFACTS_DIR } from '../support/browser';
import { useBrowser } from '../support/fixture';
import { demoSignIn } from '../support/sign-in';

// /deploy-list in Chromium on the shared server (embedded ledger, platform accounts bootstrapped):
// the whole journey — demo sign-in, a wallet created (seed shown once) and funded, a blackholed
// XRP-pair token with a logo deployed through the preview, the progress modal to 'completed', the
// token on '/', at /api/tokens/issuer/{issuer} and in the dashboard — and every form message
// without a request, the preview's balance warning, and the 375 px layout.

const MOBILE = { width: 375, height: 740 };
const LEDGER_WAIT = { timeout: 30_000 };
let counter = 0;
const unique = (p: string) => `${p}${Date.now().toString(36).slice(-4)}${++counter}`;

let logoFile: string;
let wideLogo: string;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ledgerpad-deploy-e2e-'));
  logoFile = path.join(dir, 'logo.png');
  wideLogo = path.join(dir, 'wide.png');
  writeFileSync(
    logoFile,
    await sharp({ create: { width: 128, height: 128, channels: 3, background: '#1461db' } })
      .png()
      .toBuffer(),
  );
  writeFileSync(
    wideLogo,
    await sharp({ create: { width: 300, height: 100, channels: 3, background: '#e4572e' } })
      .png()
      .toBuffer(),
  );
});

const signIn = (page: Page, url: string) => demoSignIn(page, url, unique('dep_'));

/** Creates a wallet on /wallets (the seed modal closes only after "I saved it"); funds it when asked. */
async function newWallet(page: Page, url: string, fund: boolean): Promise<string> {
  await page.goto(`${url}/wallets`);
  await page.getByRole('heading', { name: 'Wallets', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Create Wallet' }).click();
  const modal = page.getByRole('alertdialog', { name: 'Save your wallet seed' });
  await modal.waitFor();
  const address = (await modal.locator('.seed-wallet .address').textContent())!.trim();
  await modal.getByLabel('I saved it').check();
  await modal.getByRole('button', { name: 'Done' }).click();
  await modal.waitFor({ state: 'detached' });
  if (fund) {
    const card = page.getByRole('article', { name: 'Wallet 1' });
    await card.getByRole('button', { name: 'Fund with test XRP' }).click();
    await expect
      .poll(() => card.getByTestId('wallet-balance').textContent(), LEDGER_WAIT)
      .toMatch(/^1,000 XRP/);
  }
  return address;
}

function countCalls(page: Page) {
  const calls: string[] = [];
  const listener = (r: Request) => {
    const p = new URL(r.url()).pathname;
    if (r.method() === 'POST' && (p === '/api/deploy-token' || p === '/api/upload')) calls.push(p);
  };
  page.on('request', listener);
  return calls;
}

async function openDeploy(page: Page, url: string) {
  await page.goto(`${url}/deploy-list`);
  await page.getByRole('heading', { name: 'Deploy and List Token', level: 1 }).waitFor();
  await expect
    .poll(() => page.getByTestId('fee-notice').textContent())
    .toBe('A fee of 15 XRP is charged to deploy a token.');
}

async function fillForm(page: Page, ticker: string, walletLabel: RegExp) {
  const wallet = page.getByLabel('Wallet');
  await expect
    .poll(async () => (await wallet.locator('option').allTextContents()).some((t) => walletLabel.test(t)))
    .toBe(true);
  const value = await wallet.locator('option', { hasText: walletLabel }).first().getAttribute('value');
  await wallet.selectOption(value!);
  await page.getByLabel('Token name').fill('Journey Token');
  await page.getByLabel('Ticker').fill(ticker);
  await page.getByLabel('Supply').fill('1000000');
  await page.getByLabel('Dev allocation (%)').fill('10');
  await page.getByLabel('Liquidity amount (XRP)').fill('100');
  // Its pool opens at once (the figures below): launch-protection.spec.ts deploys with the window.
  await page.getByLabel('Anti-sniper window (recommended)').uncheck();
  await page.getByLabel('AMM fee (%)').fill('0.5');
  await page.getByLabel('Description').fill('Deployed by the end-to-end test.');
  await page.getByLabel('Twitter link').fill('https://x.com/journey');
  // This journey deploys the allocation unlocked (the figures below); vesting.spec.ts locks it.
  await page.getByLabel('Lock the dev allocation').uncheck();
}

describe('deploy page in Chromium', () => {
  const t = useBrowser();

  it('shows every form message and sends nothing', async () => {
    const { page, url } = t;
    await signIn(page, url);
    await openDeploy(page, url);
    const calls = countCalls(page);
    await page.getByRole('button', { name: 'Preview' }).click();
    const errors = page.getByRole('alert').first();
    await errors.waitFor();
    const text = await page.locator('.deploy-form').textContent();
    for (const m of [
      DEPLOY_MESSAGES.formErrors,
      DEPLOY_MESSAGES.wallet,
      DEPLOY_MESSAGES.name,
      DEPLOY_MESSAGES.ticker,
      DEPLOY_MESSAGES.supply,
      DEPLOY_MESSAGES.liquidity,
      DEPLOY_MESSAGES.logo,
    ]) {
      expect(text).toContain(m);
    }
    await page.getByLabel('AMM fee (%)').fill('2');
    await page.getByLabel('Description').fill('x'.repeat(501));
    await page.getByLabel('Telegram link').fill('https://example.com/chat');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => page.locator('.deploy-form').textContent()).toContain(DEPLOY_MESSAGES.ammFee);
    const after = await page.locator('.deploy-form').textContent();
    expect(after).toContain(DEPLOY_MESSAGES.description);
    expect(after).toContain(DEPLOY_MESSAGES.telegram);
    // A logo of the wrong shape is refused before any upload.
    await page.locator('input[type=file]').setInputFiles(wideLogo);
    await page.getByText(UPLOAD_MESSAGES.aspect).waitFor();
    expect(calls).toEqual([]);
  });

  it('deploys a blackholed XRP-pair token with a logo: progress to completed, then on / and in the dashboard', async () => {
    const { page, url } = t;
    await signIn(page, url);
    const address = await newWallet(page, url, true);
    await openDeploy(page, url);
    const ticker = unique('JY').toUpperCase().slice(0, 8);
    await fillForm(page, ticker, new RegExp(address.slice(0, 6)));
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/upload') && r.ok());
    await page.locator('input[type=file]').setInputFiles(logoFile);
    await uploaded;
    await page.getByAltText('Logo preview').waitFor();
    await page.getByRole('button', { name: 'Preview' }).click();

    const preview = page.getByRole('heading', { name: 'Token Preview' });
    await preview.waitFor();
    // 100 liquidity + 15 fee + 1.1 issuer + 2 hot + 0.2 dev line + 0.001 network fees.
    expect(await page.getByTestId('deploy-cost').textContent()).toContain('118.301 XRP');
    await page.getByRole('button', { name: 'Edit' }).click();
    expect(await page.getByLabel('Ticker').inputValue()).toBe(ticker);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();

    const modal = page.getByRole('alertdialog', { name: 'Deploying your token' });
    await modal.waitFor();
    // Compact: the current step and a count while it runs.
    await expect
      .poll(() => modal.getByTestId('deploy-count').textContent(), LEDGER_WAIT)
      .toMatch(/^Step \d+ of 16: /);
    await modal.getByText(`Deployment completed: ${ticker} is live and listed.`).waitFor(LEDGER_WAIT);
    expect(await modal.getByTestId('deploy-count').textContent()).toBe('All 16 steps done');
    // Steps that run side by side are one line: 16 steps on 13 lines (funding both wallets, the two
    // trust lines, the supply and the dev allocation; the issuer allows token escrow for the dev
    // allocation, and the form burns the LP by default: 2 steps), every line done.
    const steps = modal.locator('.deploy-step');
    expect(await steps.count()).toBe(13);
    expect(await modal.locator('.deploy-step[data-status="done"]').count()).toBe(13);
    expect(await modal.getByText('· 2 of 2, side by side').count()).toBe(3);
    // The embedded ledger has no public explorer: each transaction shows its hash to copy, no link.
    expect(await modal.getByRole('button', { name: 'Copy transaction hash' }).count()).toBe(14);
    expect(await modal.locator('.deploy-step-tx a').count()).toBe(0);
    const issuer = (await modal.locator('.deploy-result code').first().textContent())!.trim();
    // At 375 × 800 the result — the issuer, the links — and Close stay on screen.
    await page.setViewportSize({ width: 375, height: 800 });
    for (const el of [
      modal.locator('.deploy-result code'),
      modal.getByRole('link', { name: 'Open the token page' }),
      modal.locator('.modal-actions').getByRole('button', { name: 'Close' }),
    ]) {
      const box = (await el.boundingBox())!;
      expect(box.y >= 0 && box.y + box.height <= 800 && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    }
    await page.screenshot({ path: `${ARTIFACTS_DIR}/deploy-progress-375.png` });
    await page.setViewportSize({ width: 1280, height: 900 });
    await modal.locator('.modal-actions').getByRole('button', { name: 'Close' }).click();
    await page.waitForURL(`${url}/`);

    // The row by its ticker link: the cell's name also holds the marks, and the 'unlocked' mark
    // comes once the issuer's escrows have been read (in the background, after the first list).
    const row = page
      .getByTestId('token-row')
      .filter({ has: page.getByRole('link', { name: ticker, exact: true }) });
    await row.waitFor(LEDGER_WAIT);
    // This deploy keeps a 10% dev allocation out of escrow: the list says so.
    await row.getByTestId('unlocked-mark').waitFor(LEDGER_WAIT);
    const api = await page.request.get(`${url}/api/tokens/issuer/${issuer}`);
    expect(await api.json()).toMatchObject({
      ticker,
      issuer_address: issuer,
      is_blackholed: true,
      supply: '1000000',
    });

    await page.goto(`${url}/dashboard`);
    await page.getByRole('button', { name: new RegExp(ticker) }).click();
    await expect
      .poll(() => page.locator('.dashboard-lines tbody tr').count(), LEDGER_WAIT)
      .toBeGreaterThanOrEqual(2);
    expect(await page.locator(`tr[data-account="${address}"]`).count()).toBe(1);
  });

  it('warns in the preview when the wallet cannot pay, and fits 375 px', async () => {
    const { page, url } = t;
    await page.setViewportSize(MOBILE);
    await signIn(page, url);
    const address = await newWallet(page, url, false);
    await openDeploy(page, url);
    const scroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await scroll()).toBe(true);
    await fillForm(page, 'POOR', new RegExp(address.slice(0, 6)));
    await page.locator('input[type=file]').setInputFiles(logoFile);
    await page.getByAltText('Logo preview').waitFor(LEDGER_WAIT);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText('Insufficient balance: you have 0 XRP available, this needs 118.301 XRP.').waitFor();
    // The button itself says why.
    expect(await page.getByRole('button', { name: 'Insufficient XRP balance' }).isDisabled()).toBe(true);
    expect(await scroll()).toBe(true);
  });
});
