import type { Page } from 'playwright-core';

// Checks every page of the app gets (issue 25): nothing scrolls sideways, no number wraps inside
// itself, and the console stays quiet — no failed request, no error.

/** The page is not wider than its viewport. */
export const noHorizontalScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/**
 * Numeric cells whose text runs over more than one line: each figure's text laid out by the browser
 * (a Range over its contents), its line boxes grouped by their top. One line each, or the figure is
 * named here with what it shows.
 */
export function wrappedNumbers(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = [
      '.figure',
      'td.num',
      '[data-testid="price"]',
      '[data-testid="market-cap"]',
      '[data-testid="change-24h"]',
      '[data-testid="holders"]',
      '[data-testid="live-price"]',
      '[data-testid="bonding-percent"]',
    ].join(',');
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || !el.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(el);
      // Boxes of one line overlap vertically (a subscript digit or another font sits a little lower);
      // boxes of two lines do not.
      const lines: Array<{ top: number; bottom: number }> = [];
      for (const r of Array.from(range.getClientRects())) {
        if (r.width === 0) continue;
        const line = lines.find((l) => r.top < l.bottom - 1 && r.bottom > l.top + 1);
        if (line) {
          line.top = Math.min(line.top, r.top);
          line.bottom = Math.max(line.bottom, r.bottom);
        } else lines.push({ top: r.top, bottom: r.bottom });
      }
      if (lines.length > 1)
        out.push(`${el.tagName.toLowerCase()}.${el.className}: "${el.textContent.trim()}"`);
    }
    return out;
  });
}

export interface ConsoleWatch {
  /** Failed requests, 4xx/5xx answers, console errors and page errors seen so far. */
  problems: string[];
}

/**
 * Collects everything the browser console would show as a problem: requests that failed (a
 * request the page itself aborted while navigating is not a failure), answers of 400 or more,
 * console errors and uncaught page errors.
 */
export function watchConsole(page: Page): ConsoleWatch {
  const watch: ConsoleWatch = { problems: [] };
  const where = () => new URL(page.url()).pathname;
  page.on('console', (m) => {
    if (m.type() === 'error') watch.problems.push(`${where()} console: ${m.text()}`);
  });
  page.on('pageerror', (err) => watch.problems.push(`${where()} page error: ${err.message}`));
  page.on('requestfailed', (r) => {
    const reason = r.failure()?.errorText ?? '';
    if (reason.includes('ERR_ABORTED')) return;
    watch.problems.push(`${where()} failed: ${r.method()} ${new URL(r.url()).pathname} ${reason}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400)
      watch.problems.push(`${where()} ${r.status()}: ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  return watch;
}
