import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { launchBrowser, screenshotOnFailure } from './browser';

export interface E2eFixture {
  /** Base URL of the shared server started by global-setup.ts. */
  readonly url: string;
  /** A fresh page in a fresh browser context (own cookies) for the current test. */
  readonly page: Page;
}

/**
 * Registers the hooks every spec file needs: one Chromium per file, a new context per test (so
 * sessions never leak between tests), and a screenshot under e2e/artifacts/ when a test fails.
 */
export function useBrowser(): E2eFixture {
  const url = inject('serverUrl');
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
    // Server errors and page errors go to the log, so a failure in CI can be read afterwards (4xx
    // answers are expected in many tests: signed-out probes, validation).
    page.on('response', (r) => {
      if (r.status() >= 500 && new URL(r.url()).pathname.startsWith('/api/'))
        console.error(`[e2e] ${r.request().method()} ${new URL(r.url()).pathname} -> ${r.status()}`);
    });
    page.on('pageerror', (err) => console.error(`[e2e] page error: ${err.message}`));
  });
  afterEach(async (ctx) => {
    await screenshotOnFailure(page, ctx.task.name, ctx.task.result?.state === 'fail');
    await context.close();
  });

  return {
    url,
    get page() {
      return page;
    },
  };
}
