import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshotWidths } from '../support/browser';
import { useBrowser } from '../support/fixture';
import { demoSignIn } from '../support/sign-in';

// Issue 28 in Chromium: a deploy with 'Lock the dev allocation' (on by default), the schedule on
// /dashboard with each tranche's status read from the ledger, and the lock on the token page's risk
// panel. Supply 1,000,000, dev 10% = 100,000: 25% = 25,000 after 24 h, then 75,000 over 3 months =
// 25,000 a month.

const LEDGER_WAIT = { timeout: 45_000 };
let logoFile: string;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ledgerpad-vesting-e2e-'));
  logoFile = path.join(dir, 'logo.png');
  writeFileSync(
    logoFile,
    await sharp({ create: { width: 128, height: 128, channels: 3, background: '#2f855a' } })
      .png()
      .toBuffer(),
  );
});

async function newWallet(page: Page, url: string): Promise<string> {
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

describe('a locked dev allocation in Chromium', () => {
  const t = useBrowser();

  it('deploys with the lock, shows the schedule on /dashboard and the lock on the token page', async () => {
    const { page, url } = t;
    await demoSignIn(page, url, `vest_${Date.now().toString(36).slice(-5)}`);
    const address = await newWallet(page, url);
    await page.goto(`${url}/deploy-list`);
    await page.getByRole('heading', { name: 'Deploy and List Token', level: 1 }).waitFor();
    const wallet = page.getByLabel('Wallet');
    await expect
      .poll(async () =>
        (await wallet.locator('option').allTextContents()).some((x) => x.includes(address.slice(0, 6))),
      )
      .toBe(true);
    await wallet.selectOption(
      (await wallet
        .locator('option', { hasText: address.slice(0, 6) })
        .first()
        .getAttribute('value'))!,
    );
    const ticker = `VS${Date.now().toString(36).slice(-4).toUpperCase()}`;
    await page.getByLabel('Token name').fill('Vested Token');
    await page.getByLabel('Ticker').fill(ticker);
    await page.getByLabel('Supply').fill('1000000');
    // No allocation, no lock section; with one, the section is on by default with the figures.
    expect(await page.getByTestId('vesting-section').count()).toBe(0);
    await page.getByLabel('Dev allocation (%)').fill('10');
    const lock = page.getByLabel('Lock the dev allocation');
    expect(await lock.isChecked()).toBe(true);
    expect(await page.getByLabel('Released after the cliff (%)').inputValue()).toBe('25');
    expect(await page.getByLabel('Cliff (hours)').inputValue()).toBe('24');
    expect(await page.getByLabel('The rest monthly over (months, 1–12)').inputValue()).toBe('6');
    await page.getByLabel('The rest monthly over (months, 1–12)').fill('3');
    await page.getByLabel('Liquidity amount (XRP)').fill('100');
    // Its pool opens at once (the figures below): launch-protection.spec.ts deploys with the window.
    await page.getByLabel('Anti-sniper window (recommended)').uncheck();
    await page.getByLabel('AMM fee (%)').fill('0.5');
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/upload') && r.ok());
    await page.locator('input[type=file]').setInputFiles(logoFile);
    await uploaded;
    await screenshotWidths(page, 'vesting-deploy-form');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: 'Token Preview' }).waitFor();
    // 4 escrows: 118.301 XRP of a plain deploy + 4 owner reserves of 0.2 XRP.
    expect(await page.getByTestId('deploy-cost').textContent()).toContain('119.101 XRP');
    const preview = page.getByTestId('vesting-preview');
    expect(await preview.locator('tbody tr').count()).toBe(4);
    expect(await preview.locator('tbody tr').first().textContent()).toContain('25,000');
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();

    const modal = page.getByRole('alertdialog', { name: 'Deploying your token' });
    await modal.getByText(`Deployment completed: ${ticker} is live and listed.`).waitFor(LEDGER_WAIT);
    // 11 steps of a deploy + the issuer's flag + 4 escrows + the LP burn's 2 (on by default) + the
    // wallets and the listing = 20.
    expect(await modal.getByTestId('deploy-count').textContent()).toBe('All 20 steps done');
    const issuer = (await modal.locator('.deploy-result code').first().textContent())!.trim();
    await modal.locator('.modal-actions').getByRole('button', { name: 'Close' }).click();

    await page.goto(`${url}/dashboard`);
    // The schedule sits with the token it belongs to: select it first.
    await page.locator('.token-pick', { hasText: ticker }).click();
    const panel = page.getByTestId('vesting-panel');
    await panel.waitFor(LEDGER_WAIT);
    const rows = panel.locator('tbody tr');
    await expect.poll(() => rows.count(), LEDGER_WAIT).toBe(4);
    expect(await rows.evaluateAll((r) => r.map((x) => x.getAttribute('data-status')))).toEqual([
      'locked',
      'locked',
      'locked',
      'locked',
    ]);
    expect(await rows.first().textContent()).toContain(`25,000 ${ticker}`);
    // Nothing is due yet: no Release button; the automatic release is off until switched on.
    expect(await panel.getByRole('button', { name: 'Release' }).count()).toBe(0);
    expect(await panel.getByRole('switch', { name: 'Release automatically when due' }).isChecked()).toBe(
      false,
    );
    await screenshotWidths(page, 'vesting-dashboard');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Positions: nothing spendable, the whole 100,000 shown as locked.
    await page.goto(`${url}/positions`);
    await expect
      .poll(() => page.locator('.positions-locked').first().textContent(), LEDGER_WAIT)
      .toMatch(/\+ 100(,000|K) locked/);

    await page.goto(`${url}/token/${issuer}`);
    const dev = page.getByTestId('risk-dev-allocation');
    await dev.waitFor(LEDGER_WAIT);
    await expect
      .poll(() => dev.textContent(), LEDGER_WAIT)
      .toMatch(/10% — locked on the ledger until \d{4}-\d{2}-\d{2}/);
    expect(await page.getByTestId('risk-escrows').locator('li').count()).toBe(4);
    await screenshotWidths(page, 'vesting-token-risk');

    // The home list marks the token: 100,000 of 1,000,000 in 4 escrows, the last unlock in the title.
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 375, height: 740 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(url);
      const mark = page.getByTestId('token-row').filter({ hasText: ticker }).getByTestId('lock-mark');
      await mark.waitFor(LEDGER_WAIT);
      expect(await mark.locator('[aria-hidden="true"]').last().textContent()).toBe('10% locked');
      expect(await mark.getAttribute('title')).toMatch(
        /^10% of the supply locked on the ledger in 4 escrows until \d{4}-\d{2}-\d{2} \(first unlock \d{4}-\d{2}-\d{2}\)$/,
      );
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshotWidths(page, 'vesting-token-list');
    // A whole journey with ledger waits: longer than the suite's 60 s default on a loaded machine.
  }, 180_000);
});
