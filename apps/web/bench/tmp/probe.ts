import { chromium } from 'playwright-core';
import { startServer } from '../../../../e2e/support/server';
const outDir = process.argv[2]!;
const server = await startServer({ WEB_DIST_DIR: outDir, PLATFORM_BOOTSTRAP: 'on', DEMO_SEED: 'on', DEMO_TRADE_INTERVAL_MS: '0' });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
try {
  for (;;) { const { demo } = (await (await fetch(`${server.url}/api/demo/status`)).json()) as { demo: string }; if (demo === 'ready') break; await new Promise((r) => setTimeout(r, 500)); }
  const list = (await (await fetch(`${server.url}/api/tokens`)).json()) as Array<{ issuer_address: string; currency: string; launch_type: string }>;
  const token = list.find((t) => t.launch_type === 'amm') ?? list[0]!;
  const url = `${server.url}/token/${token.issuer_address}/${token.currency}`;
  for (let i = 0; i < 3; i++) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await page.addInitScript(() => {
      const w = window as any; w.__lcps = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries() as any[]) w.__lcps.push({ t: Math.round(e.startTime), size: e.size, el: e.element ? `${e.element.tagName}.${e.element.className} "${(e.element.textContent ?? '').slice(0, 60)}"` : String(e.url) }); }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    await page.goto(url, { waitUntil: 'commit' });
    await page.locator('[data-testid="chart"][data-state="ok"]').waitFor({ timeout: 15000 });
    await page.waitForTimeout(500);
    console.log(JSON.stringify(await page.evaluate(() => ({ lcps: (window as any).__lcps, fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime })), null, 1));
    if (i === 0) await page.screenshot({ path: '/tmp/tokenpage.png' });
    await ctx.close();
  }
} finally { await browser.close(); await server.stop(); }
