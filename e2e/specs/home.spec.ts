import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshotOnFailure } from '../support/browser';

describe('home page in Chromium', () => {
  const server = { url: inject('serverUrl') };
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext();
    page = await context.newPage();
  });
  afterEach(async (ctx) => {
    await screenshotOnFailure(page, ctx.task.name, ctx.task.result?.state === 'fail');
    await context.close();
  });

  it('renders the token list, goes to the terms and comes back', async () => {
    await page.goto(server.url);
    expect(await page.title()).toBe('Ledgerpad — launch and trade XRPL tokens');
    const list = page.getByRole('region', { name: 'Listed Tokens' });
    await list.waitFor();
    expect(await list.getByRole('heading', { name: 'Listed Tokens' }).isVisible()).toBe(true);
    expect(await page.getByPlaceholder('Search tokens by name, ticker, or issuer...').isVisible()).toBe(true);
    expect(await list.getByText('No tokens found.').isVisible()).toBe(true);
    expect(await list.getByText('Page 1 / 1').isVisible()).toBe(true);
    // 'Token List' shows on every page except the home page.
    expect(await page.getByRole('link', { name: 'Token List' }).count()).toBe(0);

    await page.getByRole('link', { name: 'Terms of Service' }).click();
    await page.waitForURL(`${server.url}/terms`);
    await page.getByRole('heading', { name: 'Terms of Service' }).waitFor();
    expect(
      await page.getByText('Effective date: February 28, 2025. Last updated: April 30, 2025.').isVisible(),
    ).toBe(true);

    await page.getByRole('link', { name: 'Token List' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { name: 'Listed Tokens' }).waitFor();
  });

  it('serves deep links directly (SPA fallback)', async () => {
    const res = await page.goto(`${server.url}/privacy-policy`);
    expect(res?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Privacy Policy' }).waitFor();
    expect(await page.getByText('We use essential cookies only', { exact: false }).isVisible()).toBe(true);
  });
});
