import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curveTokensFor, formatToken, windowCurveParams } from '@ledgerpad/shared';
import { ARTIFACTS_DIR } from '../support/browser';
import { useBrowser } from '../support/fixture';
import { ownerSettings } from '../support/owner';
import { demoSignIn } from '../support/sign-in';

// Issue 37 in Chromium: a deploy through /deploy-list with 'Burn the LP' (on by default) and the
// creator's first buy of 10 XRP, the preview saying so (starting price, market cap, the buy's cost
// and tokens), the two burn steps in the progress modal, then the token page's risk panel reading
// 'LP burned' from the ledger with no pool caution, and the list's 'LP burned' mark. Then the same
// deploy with the anti-sniper window (on by default; the owner sets a 30 s window first): the
// preview's first buy at the ladder's plain price, the token page's panel counting down to the pool,
// and once the window's ledger time is over the pool open with 'LP burned' and no pool caution.

const LEDGER_WAIT = { timeout: 45_000 };
const NO_LOCK = 'None of the pool is locked';
let counter = 0;
const unique = (p: string) => `${p}${Date.now().toString(36).slice(-4)}${++counter}`;

let logoFile: string;
/** The window launch's own logo (issue 35: a logo is one token's). */
let windowLogoFile: string;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ledgerpad-lp-e2e-'));
  logoFile = path.join(dir, 'logo.png');
  // A logo of its own (issue 35: no two tokens share one): a colour no other spec uses.
  const shade = (Date.now() % 200) + 30;
  writeFileSync(
    logoFile,
    await sharp({ create: { width: 128, height: 128, channels: 3, background: { r: 200, g: shade, b: 40 } } })
      .png()
      .toBuffer(),
  );
  windowLogoFile = path.join(dir, 'window-logo.png');
  writeFileSync(
    windowLogoFile,
    await sharp({ create: { width: 128, height: 128, channels: 3, background: { r: 40, g: shade, b: 200 } } })
      .png()
      .toBuffer(),
  );
});

const WINDOW_SECONDS = 30;

async function newFundedWallet(page: Page, url: string): Promise<string> {
  await page.goto(`${url}/wallets`);
  await page.getByRole('heading', { name: 'Wallets', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Create Wallet' }).click();
  const modal = page.getByRole('alertdialog', { name: 'Save your wallet seed' });
  await modal.waitFor();
  const address = (await modal.locator('.seed-wallet .address').textContent())!.trim();
  await modal.getByLabel('I saved it').check();
  await modal.getByRole('button', { name: 'Done' }).click();
  await modal.waitFor({ state: 'detached' });
  const card = page.getByRole('article', { name: 'Wallet 1' });
  await card.getByRole('button', { name: 'Fund with test XRP' }).click();
  await expect
    .poll(() => card.getByTestId('wallet-balance').textContent(), LEDGER_WAIT)
    .toMatch(/^1,000 XRP/);
  return address;
}

describe('launch protection in Chromium', () => {
  const t = useBrowser();

  it("deploys with 'Burn the LP': the risk panel shows 'LP burned' and no pool caution", async () => {
    const { page, url } = t;
    await demoSignIn(page, url, unique('lp_'));
    const address = await newFundedWallet(page, url);
    await page.goto(`${url}/deploy-list`);
    await page.getByRole('heading', { name: 'Deploy and List Token', level: 1 }).waitFor();

    const wallet = page.getByLabel('Wallet');
    const label = new RegExp(address.slice(0, 6));
    await expect
      .poll(async () => (await wallet.locator('option').allTextContents()).some((x) => label.test(x)))
      .toBe(true);
    await wallet.selectOption(
      (await wallet.locator('option', { hasText: label }).first().getAttribute('value'))!,
    );
    const ticker = unique('BR').toUpperCase().slice(0, 8);
    await page.getByLabel('Token name').fill(`Pyre ${ticker}`);
    await page.getByLabel('Ticker').fill(ticker);
    await page.getByLabel('Supply').fill('1000000');
    await page.getByLabel('Dev allocation (%)').fill('0');
    await page.getByLabel('Liquidity amount (XRP)').fill('100');
    await page.getByLabel('AMM fee (%)').fill('0.5');
    await page.getByLabel('Your first buy (XRP, optional)').fill('10');
    await page.getByLabel('Description').fill('Deployed by the launch protection test.');

    // On by default, with what it means; 'Keep' says what buyers will see.
    const burn = page.getByLabel('Burn the LP (recommended)');
    expect(await burn.isChecked()).toBe(true);
    expect(await page.locator('#burn-lp-hint').textContent()).toContain('no key can ever sign for');
    await burn.uncheck();
    expect(await page.locator('#burn-lp-hint').textContent()).toContain(NO_LOCK);
    await burn.check();
    // 'Keep' turned the anti-sniper window off (its pool always burns): this deploy opens its pool at
    // once, with the first buy in the pool's Batch. The window's deploy is the next test.
    expect(await page.getByLabel('Anti-sniper window (recommended)').isChecked()).toBe(false);

    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/upload') && r.ok());
    await page.locator('input[type=file]').setInputFiles(logoFile);
    await uploaded;
    await page.getByAltText('Logo preview').waitFor();
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: 'Token Preview' }).waitFor();
    expect(await page.getByTestId('preview-lp').textContent()).toBe(
      'Burned at launch: no one can ever withdraw the pool',
    );
    // 100 XRP against 1,000,000 tokens: 0.0001 XRP each, 100 XRP of market cap. The first buy: 10 XRP
    // at the pool creator's auction-slot fee (0.5% / 10), 1e6 × (1 − 1e8 / (1e8 + 1e7 × 0.9995)),
    // and the 0.75% platform fee on it.
    expect(await page.getByTestId('start-price').textContent()).toBe(`0.0001 XRP per ${ticker}`);
    expect(await page.getByTestId('market-cap').textContent()).toBe('100 XRP');
    expect(await page.getByTestId('first-buy-cost').textContent()).toContain(
      '10 XRP + 0.075 XRP platform fee (0.75%) = 10.075 XRP',
    );
    expect(await page.getByTestId('first-buy-tokens').textContent()).toBe(`90,867.766716 ${ticker}`);
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();

    const modal = page.getByRole('alertdialog', { name: 'Deploying your token' });
    await modal.waitFor();
    await modal.getByText(`Deployment completed: ${ticker} is live and listed.`).waitFor(LEDGER_WAIT);
    for (const step of [
      'Burn the LP tokens: lock the hot wallet’s regular key',
      'Burn the LP tokens: disable the hot wallet’s master key',
    ]) {
      const line = modal.locator('.deploy-step', { hasText: step });
      expect(await line.getAttribute('data-status')).toBe('done');
    }
    await modal.getByRole('link', { name: 'Open the token page' }).click();

    const panel = page.getByTestId('risk-panel');
    const lp = panel.getByTestId('risk-lp-locked');
    await lp.waitFor(LEDGER_WAIT);
    expect(await lp.locator('dt').textContent()).toBe('LP burned');
    expect(await lp.locator('dd').textContent()).toBe('100%');
    expect(await lp.getAttribute('class')).toContain('good');
    expect(await panel.textContent()).not.toContain(NO_LOCK);
    expect(await panel.getByTestId('risk-verdict').textContent()).not.toContain(NO_LOCK);
    await panel.scrollIntoViewIfNeeded();
    await panel.screenshot({ path: `${ARTIFACTS_DIR}/launch-protection-risk-panel.png` });

    // The list marks it, once its pool's LP holders have been read from the ledger.
    await page.goto(`${url}/`);
    const row = page
      .getByTestId('token-row')
      .filter({ has: page.getByRole('link', { name: ticker, exact: true }) });
    await row.waitFor(LEDGER_WAIT);
    // The list refetches on its 10 s cadence: the mark comes without a reload.
    await expect
      .poll(() => row.getByTestId('lp-burned-mark').count(), { timeout: 45_000, interval: 500 })
      .toBe(1);
    expect(await row.getByTestId('lp-burned-mark').getAttribute('title')).toContain('100%');
  });
});

describe('an instant launch with the anti-sniper window in Chromium', () => {
  const t = useBrowser();

  beforeAll(() => ownerSettings({ anti_sniper_window_seconds: String(WINDOW_SECONDS) }));
  // The shared server's default back for the specs after this one.
  afterAll(() => ownerSettings({ anti_sniper_window_seconds: '120' }));

  it("deploys with LP burn, a first buy and the window: the panel counts down, then the pool opens with 'LP burned'", async () => {
    const { page, url } = t;
    await demoSignIn(page, url, unique('win_'));
    const address = await newFundedWallet(page, url);
    await page.goto(`${url}/deploy-list`);
    await page.getByRole('heading', { name: 'Deploy and List Token', level: 1 }).waitFor();
    const wallet = page.getByLabel('Wallet');
    const label = new RegExp(address.slice(0, 6));
    await expect
      .poll(async () => (await wallet.locator('option').allTextContents()).some((x) => label.test(x)))
      .toBe(true);
    await wallet.selectOption(
      (await wallet.locator('option', { hasText: label }).first().getAttribute('value'))!,
    );
    const ticker = unique('WN').toUpperCase().slice(0, 8);
    await page.getByLabel('Token name').fill(`Window ${ticker}`);
    await page.getByLabel('Ticker').fill(ticker);
    await page.getByLabel('Supply').fill('1000000');
    await page.getByLabel('Dev allocation (%)').fill('0');
    await page.getByLabel('Liquidity amount (XRP)').fill('100');
    await page.getByLabel('AMM fee (%)').fill('0.5');
    await page.getByLabel('Your first buy (XRP, optional)').fill('10');
    await page.getByLabel('Description').fill('Deployed with the anti-sniper window.');
    // On by default for an instant launch, with the LP burn it implies.
    expect(await page.getByLabel('Anti-sniper window (recommended)').isChecked()).toBe(true);
    expect(await page.getByLabel('Burn the LP (recommended)').isChecked()).toBe(true);
    expect(await page.locator('#anti-sniper-hint').textContent()).toContain(
      'When the window ends, the pool opens with your liquidity plus everything the window raised and the tokens not sold, and its LP tokens are burned.',
    );
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/upload') && r.ok());
    await page.locator('input[type=file]').setInputFiles(windowLogoFile);
    await uploaded;
    await page.getByAltText('Logo preview').waitFor();
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: 'Token Preview' }).waitFor();
    expect(await page.getByTestId('preview-window').textContent()).toBe(
      `${WINDOW_SECONDS} seconds, a surcharge from 25% down to 0; then the pool opens with all it raised, its LP burned`,
    );
    expect(await page.getByTestId('preview-lp').textContent()).toBe(
      'Burned when the pool opens: no one can ever withdraw it',
    );
    // The first buy: what 10 XRP buys on the ladder's curve (x0 = 100 XRP, y0 = 1,000,000 tokens, 200
    // steps of B/2) at its plain price, before its first offer.
    const shape = windowCurveParams({
      poolDrops: 100_000_000n,
      poolTokens: '1000000',
      steps: 200,
      fineSteps: 6,
    })!;
    const tokens = curveTokensFor(shape, 0, 10_000_000n, 8)!;
    expect(await page.getByTestId('first-buy-tokens').textContent()).toBe(
      `${formatToken(tokens.toFixed())} ${ticker}`,
    );
    expect(await page.getByTestId('first-buy-cost').textContent()).toContain(
      'at the ladder’s plain price before its first offer: no one can buy before you',
    );
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();

    const modal = page.getByRole('alertdialog', { name: 'Deploying your token' });
    await modal.waitFor();
    await modal.getByText(`Deployment completed: ${ticker} is live and listed.`).waitFor(LEDGER_WAIT);
    await modal.getByRole('link', { name: 'Open the token page' }).click();

    // During the window: the panel says when the pool opens, not a graduation target.
    const curvePanel = page.getByTestId('bonding-panel');
    await curvePanel.getByRole('heading', { name: 'Anti-sniper window' }).waitFor(LEDGER_WAIT);
    await expect
      .poll(() => curvePanel.getByTestId('pool-opens-in').textContent(), LEDGER_WAIT)
      .toMatch(/^Pool opens in 0:[0-3]\d$/);
    await curvePanel.scrollIntoViewIfNeeded();
    await curvePanel.screenshot({ path: `${ARTIFACTS_DIR}/launch-protection-window-panel.png` });

    // After the window (ledger time): the pool opens, its LP burned.
    await curvePanel
      .getByRole('heading', { name: 'The pool is open' })
      .waitFor({ timeout: (WINDOW_SECONDS + 60) * 1000 });
    await page.reload();
    const panel = page.getByTestId('risk-panel');
    const lp = panel.getByTestId('risk-lp-locked');
    await lp.waitFor(LEDGER_WAIT);
    expect(await lp.locator('dt').textContent()).toBe('LP burned');
    expect(await lp.locator('dd').textContent()).toBe('100%');
    expect(await panel.textContent()).not.toContain(NO_LOCK);
    expect(await panel.getByTestId('risk-verdict').textContent()).not.toContain(NO_LOCK);
    await panel.scrollIntoViewIfNeeded();
    await panel.screenshot({ path: `${ARTIFACTS_DIR}/launch-protection-window-risk-panel.png` });
  }, 180_000);
});
