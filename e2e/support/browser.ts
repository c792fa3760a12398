import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../apps/server/test/helpers/browser';

export const ARTIFACTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts');

/** Debian's Chromium; nothing downloads a browser. CHROMIUM_PATH overrides for other machines. */
export function launchBrowser(): Promise<Browser> {
  return launchChromium();
}

/** Saves a full-page screenshot named after the failing test under e2e/artifacts/. */
export async function screenshotOnFailure(
  page: Page | undefined,
  testName: string,
  failed: boolean,
): Promise<void> {
  if (!failed || !page) return;
  // CI keeps only the log: say what the page showed, not just where the screenshot went.
  const text = await page
    .evaluate(() => document.body?.innerText ?? '')
    .catch((err: unknown) => `(page text unavailable: ${String(err)})`);
  console.error(
    `[e2e] "${testName}" failed at ${page.url()}\n--- page text ---\n${text.slice(0, 2000)}\n---`,
  );
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${testName.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`);
  await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
}

/** Full-page screenshots of the current page at 1280 and 375 px wide: e2e/artifacts/{name}-{width}.png. */
export async function screenshotWidths(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 375, height: 740 },
  ]) {
    await page.setViewportSize(viewport);
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await page.screenshot({
      path: path.join(ARTIFACTS_DIR, `${name}-${viewport.width}.png`),
      fullPage: true,
    });
  }
  if (before) await page.setViewportSize(before);
}
