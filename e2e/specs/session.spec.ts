import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshotOnFailure } from '../support/browser';

describe('signing in and out in Chromium', () => {
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

  it('demo sign-in shows the welcome menu and tools; logout returns to the login box', async () => {
    await page.goto(server.url);
    await page.getByLabel('Demo account (embedded ledger)').fill('alice_e2e');
    await page.getByRole('button', { name: 'Sign in' }).click();

    const welcome = page.getByRole('button', { name: 'Welcome, alice_e2e' });
    await welcome.waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const label of [
      'Deploy and List',
      'Swap',
      'Wallets',
      'Airdrops',
      'Positions',
      'Orders Manager',
      'List Any Token',
    ]) {
      expect(await nav.getByRole('link', { name: label }).isVisible(), label).toBe(true);
    }
    // The login box is gone once signed in; the session survives a reload (cookie).
    expect(await page.getByLabel('Demo account (embedded ledger)').count()).toBe(0);
    await page.reload();
    await welcome.waitFor();

    await welcome.click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByLabel('Demo account (embedded ledger)').waitFor();
    expect(await nav.getByRole('link', { name: 'Swap' }).count()).toBe(0);
    const user = await page.evaluate(
      async () => (await fetch('/api/user', { credentials: 'include' })).status,
    );
    expect(user).toBe(401);
  });

  it('shows the server message when the demo username is invalid', async () => {
    await page.goto(server.url);
    await page.getByLabel('Demo account (embedded ledger)').fill('a!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe(
      'Username must be 3-32 letters, digits or underscores',
    );
  });
});
