import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatUsd,
  formatPrice,
  RESTRICTED_JURISDICTIONS,
  type DeployResult,
  type PriceRecord,
  type TokenView,
} from '@ledgerpad/shared';
import { ARTIFACTS_DIR, launchBrowser } from '../support/browser';
import { deployAsNewUser } from '../support/deploy';
import { useBrowser } from '../support/fixture';

// The public site in Chromium: the landing sections, the token list's rules on tokens deployed
// through the API once for this file (eleven, so there are two pages), the legal pages' facts, the
// card on-ramp (not configured on this server; its modal checked against a stand-in provider page),
// and 375 px without horizontal scroll.

const MOBILE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 900 };
const LEDGER_WAIT = { timeout: 20_000 };

const run = Date.now().toString(36).slice(-4).toUpperCase();
/** Tickers sort in this order: H<run>A … H<run>K. */
const letters = 'ABCDEFGHIJK'.split('');
const ticker = (l: string) => `H${run}${l}`;
const tokenName = (l: string) => `Homerun ${run} ${l}`;

const noHorizontalScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

async function screenshot(page: Page, name: string) {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `home-${name}.png`), fullPage: true });
}

const tickersShown = (page: Page) => page.getByTestId('token-row').locator('.ticker').allTextContents();

describe('home page in Chromium', () => {
  const t = useBrowser();
  let deployer: Browser;
  const deployed = new Map<string, DeployResult>();

  beforeAll(async () => {
    // Three users (five deploy attempts per user a minute), deploying in parallel.
    deployer = await launchBrowser();
    const batches = [letters.slice(0, 5), letters.slice(5, 10), letters.slice(10)];
    const results = await Promise.all(
      batches.map((batch, i) =>
        deployAsNewUser(
          deployer,
          t.url,
          `home_${run.toLowerCase()}_${i}`,
          batch.map((l) => ({
            name: tokenName(l),
            ticker: ticker(l),
            // J's issuer is blackholed; K is paired with RLUSD.
            blackholeIssuer: l === 'J',
            pair: l === 'K' ? ('RLUSD' as const) : ('XRP' as const),
          })),
        ),
      ),
    );
    for (const r of results.flat()) deployed.set(r.ticker, r);
  }, 180_000);

  afterAll(async () => {
    await deployer?.close();
  });

  it('shows every landing section, five features per row', async () => {
    const { page, url } = t;
    await page.setViewportSize(DESKTOP);
    await page.goto(url);
    expect(await page.title()).toBe('Ledgerpad — launch and trade XRPL tokens');
    await page.getByRole('heading', { level: 1, name: 'Launch and trade XRPL tokens in seconds' }).waitFor();
    expect(await page.getByRole('note').textContent()).toContain('RLUSD');
    await page.getByRole('heading', { name: 'Log in to launch and trade' }).waitFor();
    const list = page.getByRole('region', { name: 'Listed Tokens' });
    expect(await list.getByRole('heading', { name: 'Listed Tokens' }).isVisible()).toBe(true);
    expect(await page.getByPlaceholder('Search tokens by name, ticker, or issuer...').isVisible()).toBe(true);
    // Default order: created_at descending, shown on the Age column.
    expect(await list.locator('th[aria-sort="descending"]').textContent()).toBe('Age▼');
    const headers = await list.locator('thead th').allTextContents();
    expect(headers.map((h) => h.replace(/[▲▼]/g, ''))).toEqual([
      'Logo',
      'Ticker',
      'Price',
      'LP',
      'MC (USD)',
      // Issue 39: what traders scan for.
      '24h',
      'Vol 24h',
      'Liquidity',
      'Age',
      'Issuer',
      'Holders',
      'Links',
    ]);
    // 'Token List' shows on every page except the home page.
    expect(await page.getByRole('link', { name: 'Token List' }).count()).toBe(0);

    const add = page.getByRole('region', { name: "Your Token's Not Here?" });
    expect(await add.textContent()).toContain('Listing is free');
    expect(await add.getByRole('link', { name: 'List your token for free' }).getAttribute('href')).toBe(
      '/list-token',
    );

    const steps = page.getByRole('region', { name: 'How It Works' }).getByRole('listitem');
    expect(await steps.locator('h3').allTextContents()).toEqual([
      'Log in',
      'Deploy tokens',
      'Trade and manage',
    ]);

    const cards = page.getByRole('region', { name: 'Key Features' }).getByRole('listitem');
    expect(await cards.count()).toBe(10);
    // The fees on the landing are the platform's current ones.
    const fees = (await (await page.request.get(`${url}/api/config/fees`)).json()) as {
      trading_fee_percent: string;
      service_fee: string;
    };
    await expect
      .poll(() => cards.filter({ hasText: 'Lowest Fees' }).textContent())
      .toContain(
        `A flat ${fees.trading_fee_percent}% trading fee, ${fees.service_fee} XRP to launch a token`,
      );
    const tops = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => Math.round((await cards.nth(i).boundingBox())!.y)),
    );
    expect(new Set(tops.slice(0, 5)).size).toBe(1);
    expect(new Set(tops.slice(5)).size).toBe(1);
    expect(tops[5]).toBeGreaterThan(tops[0]!);

    const channel = page.getByRole('region', { name: 'Never miss a launch' });
    expect(await channel.getByRole('link', { name: 'Join the channel' }).getAttribute('href')).toMatch(
      /^https:\/\//,
    );
    await screenshot(page, 'desktop');
  });

  it('searches, pages, sorts and formats the deployed tokens', async () => {
    const { page, url } = t;
    await page.setViewportSize(DESKTOP);
    await page.goto(url);
    const search = page.getByPlaceholder('Search tokens by name, ticker, or issuer...');
    const pageText = page.locator('.pagination span');

    // The default order: created_at descending (the three deployers ran in parallel, so the
    // order comes from the server's timestamps).
    const listed = ((await (await page.request.get(`${url}/api/tokens?limit=10000`)).json()) as TokenView[])
      .filter((tk) => tk.name.startsWith(`Homerun ${run} `))
      .sort((x, y) => Date.parse(y.created_at) - Date.parse(x.created_at))
      .map((tk) => tk.ticker);
    expect(listed).toHaveLength(11);

    // Case-insensitive substring of the name: all eleven, ten a page.
    await search.fill(`homerun ${run.toLowerCase()}`);
    await page.getByText('Page 1 / 2').waitFor();
    expect(await page.getByRole('button', { name: 'Prev' }).isDisabled()).toBe(true);
    expect(await tickersShown(page)).toEqual(listed.slice(0, 10));
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await pageText.textContent()).toBe('Page 2 / 2');
    expect(await tickersShown(page)).toEqual(listed.slice(10));
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    // Changing the search goes back to page 1, even when it still matches two pages.
    await search.fill(`Homerun ${run}`);
    expect(await pageText.textContent()).toBe('Page 1 / 2');
    expect(await tickersShown(page)).toEqual(listed.slice(0, 10));

    // A ticker, in lower case.
    await search.fill(ticker('C').toLowerCase());
    expect(await pageText.textContent()).toBe('Page 1 / 1');
    expect(await tickersShown(page)).toEqual([ticker('C')]);
    // And by issuer address.
    await search.fill(deployed.get(ticker('D'))!.issuer_address.slice(3, 20));
    expect(await tickersShown(page)).toEqual([ticker('D')]);

    // Sorting: a new column starts ascending, a second click flips it.
    await search.fill(`homerun ${run}`);
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await pageText.textContent()).toBe('Page 2 / 2');
    await page.getByRole('button', { name: 'Ticker' }).click();
    expect(await page.locator('th[aria-sort="ascending"]').textContent()).toContain('Ticker');
    expect(await tickersShown(page)).toEqual([ticker('K')]);
    await page.getByRole('button', { name: 'Prev' }).click();
    expect(await tickersShown(page)).toEqual(letters.slice(0, 10).map(ticker));
    await page.getByRole('button', { name: 'Ticker' }).click();
    expect(await page.locator('th[aria-sort="descending"]').textContent()).toContain('Ticker');
    expect(await tickersShown(page)).toEqual(letters.slice(1).reverse().map(ticker));

    // Stats arrive (first after 100 ms, then every 5 s): price and market cap as /api/prices has them.
    const rowOf = (l: string) => page.getByTestId('token-row').filter({ hasText: ticker(l) });
    const priceCell = rowOf('B').getByTestId('price');
    await page.waitForFunction(
      (el) => el !== null && el.textContent !== '0.000000',
      await priceCell.elementHandle(),
      LEDGER_WAIT,
    );
    const prices = (await (await page.request.get(`${url}/api/prices`)).json()) as PriceRecord[];
    const b = deployed.get(ticker('B'))!;
    const record = prices.find((p) => p.issuer === b.issuer_address)!;
    expect(await priceCell.textContent()).toBe(formatPrice(record.priceInXRP));
    expect(await rowOf('B').getByTestId('market-cap').textContent()).toBe(formatUsd(record.marketCapInUSD));
    expect(await rowOf('B').getByTestId('age').textContent()).toMatch(/^0h/);
    expect(await rowOf('B').getByRole('img', { name: 'new' }).count()).toBe(1);
    expect(await rowOf('B').getByRole('link', { name: 'Website' }).getAttribute('href')).toBe(
      'https://example.com/',
    );
    expect(await rowOf('J').getByRole('img', { name: 'blackholed' }).count()).toBe(1);
    expect(await rowOf('B').getByRole('img', { name: 'blackholed' }).count()).toBe(0);
    expect(await rowOf('B').locator('.pair').textContent()).toBe('XRP');
    expect(await rowOf('B').getByTestId('holders').textContent()).toMatch(/^\d+$/);

    // Nothing matches: the empty text and still one page.
    await search.fill('no-such-token-anywhere');
    expect(await page.getByText('No tokens found.').isVisible()).toBe(true);
    expect(await pageText.textContent()).toBe('Page 1 / 1');

    // A row opens the token's page.
    await search.fill(ticker('E'));
    await rowOf('E').locator('td.age').click();
    await page.waitForURL(`${url}/token/${deployed.get(ticker('E'))!.issuer_address}`);
  });

  it('shows the RLUSD-paired token with its USD price, in RLUSD', async () => {
    const { page, url } = t;
    await page.goto(url);
    await page.getByPlaceholder('Search tokens by name, ticker, or issuer...').fill(ticker('K'));
    const row = page.getByTestId('token-row');
    expect(await row.locator('.pair').textContent()).toBe('RLUSD');
    const price = row.getByTestId('price');
    await page.waitForFunction(
      (el) => el !== null && el.textContent !== '0.000000',
      await price.elementHandle(),
      LEDGER_WAIT,
    );
    const prices = (await (await page.request.get(`${url}/api/prices`)).json()) as PriceRecord[];
    const record = prices.find((p) => p.issuer === deployed.get(ticker('K'))!.issuer_address)!;
    expect(await price.textContent()).toBe(formatPrice(record.priceInUSD));
    // Named by its quote asset, as on the token page (issue 39).
    expect(await row.locator('.unit').textContent()).toBe('RLUSD');
  });

  it('states every fact of the terms and the privacy policy', async () => {
    const { page, url } = t;
    await page.goto(url);
    await page.getByRole('link', { name: 'Terms of Service' }).click();
    await page.waitForURL(`${url}/terms`);
    await page.getByRole('heading', { name: 'Terms of Service' }).waitFor();
    const terms = (await page.locator('article.legal').textContent()) ?? '';
    for (const fact of [
      'Effective date: February 28, 2025. Last updated: April 30, 2025.',
      'token creation fee of 15 XRP',
      'A trading fee of 0.75% applies to all platform transactions',
      'non-custodial and does not store private keys',
      'at least 18 years old',
      'the following 9 restricted jurisdictions',
      'the fees you paid to the platform in the last six months',
      'filed within one year',
    ]) {
      expect(terms).toContain(fact);
    }
    expect(await page.locator('.jurisdictions li').allTextContents()).toEqual([...RESTRICTED_JURISDICTIONS]);

    await page.getByRole('link', { name: 'Token List' }).click();
    await page.waitForURL(`${url}/`);
    await page.getByRole('heading', { name: 'Listed Tokens' }).waitFor();

    const res = await page.goto(`${url}/privacy-policy`);
    expect(res?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Privacy Policy' }).waitFor();
    const privacy = (await page.locator('article.legal').textContent()) ?? '';
    expect(privacy).toContain('Effective date: February 28, 2025.');
    expect(privacy).toContain('We use essential cookies only');
    expect(privacy).toContain('we collect your messaging ID and username');
    expect(privacy).toContain('we collect your Google ID and email address');
  });

  it('says card purchase is not configured on this server', async () => {
    const { page, url } = t;
    await page.goto(url);
    const buy = page.getByRole('button', { name: 'Buy XRP/Crypto with Card' });
    await page.getByText('Card purchases are not configured on this server.').waitFor();
    expect(await buy.isDisabled()).toBe(true);
    expect(await buy.getAttribute('title')).toBe('Card purchases are not configured on this server');
  });

  it('runs the on-ramp modal against a stand-in provider page: validation, events, three ways to close', async () => {
    const { page, url } = t;
    // The provider's page can't load here: a stand-in answers for it, and the CSP (which frames the
    // provider only when the server has a key) is bypassed for this context.
    const context = await page.context().browser()!.newContext({ bypassCSP: true });
    const p = await context.newPage();
    try {
      let onramp: { apiKey: string; environment: string } = { apiKey: '', environment: 'STAGING' };
      await p.route(`${url}/api/auth/methods`, async (route) => {
        const res = await route.fetch();
        await route.fulfill({ response: res, json: { ...(await res.json()), onramp } });
      });
      const frames: string[] = [];
      await p.route(
        (u) => u.hostname === 'global-stg.transak.com',
        async (route) => {
          frames.push(route.request().url());
          await route.fulfill({
            contentType: 'text/html',
            body: `<!doctype html><body><p>Stand-in widget</p>
            <button id="order" onclick="parent.postMessage({event_id:'TRANSAK_ORDER_SUCCESSFUL',data:{id:1}},'*')">order</button>
            <button id="close" onclick="parent.postMessage({event_id:'TRANSAK_WIDGET_CLOSE'},'*')">close</button>
            <script>parent.postMessage({ event_id: 'TRANSAK_WIDGET_INITIALISED' }, '*');</script></body>`,
          });
        },
      );

      // An empty key: the widget's own message.
      await p.goto(url);
      await p.getByRole('button', { name: 'Buy XRP/Crypto with Card' }).click();
      await p.getByRole('alert').filter({ hasText: 'Please enter your API Key' }).waitFor();
      await p.getByRole('button', { name: 'Close' }).click();

      // A key: the modal with the provider's page, XRP on xrpl, 450 × 600, z-index 9997–9999.
      onramp = { apiKey: 'pk_test_e2e_0001', environment: 'STAGING' };
      await p.setViewportSize(DESKTOP);
      await p.goto(url);
      const buy = p.getByRole('button', { name: 'Buy XRP/Crypto with Card' });
      const modal = p.getByRole('dialog', { name: 'Buy XRP with a card' });
      await buy.click();
      await modal.waitFor();
      await p.getByText('Loading the card payment widget…').waitFor({ state: 'detached' });
      const src = new URL(frames.at(-1)!);
      expect(Object.fromEntries(src.searchParams)).toMatchObject({
        apiKey: 'pk_test_e2e_0001',
        themeColor: '1461db',
        cryptoCurrencyCode: 'XRP',
        network: 'xrpl',
      });
      const box = (await modal.boundingBox())!;
      expect([box.width, box.height]).toEqual([450, 600]);
      const z = await p.evaluate(() =>
        ['.onramp-root', '.onramp-modal', '.onramp-close'].map(
          (s) => getComputedStyle(document.querySelector(s)!).zIndex,
        ),
      );
      expect(z).toEqual(['9997', '9998', '9999']);
      await screenshot(p, 'onramp');

      // An event from the widget reaches the user; the close button closes.
      const widget = p.frameLocator('iframe[title="Card payment"]');
      await widget.locator('#order').click();
      await p.getByText('Card purchase successful: your XRP is on its way.').waitFor();
      await modal.getByRole('button', { name: 'Close' }).click();
      await modal.waitFor({ state: 'detached' });

      // A backdrop click closes.
      await buy.click();
      await modal.waitFor();
      await p.mouse.click(10, 10);
      await modal.waitFor({ state: 'detached' });

      // The widget's close message closes.
      await buy.click();
      await modal.waitFor();
      await widget.locator('#close').click();
      await modal.waitFor({ state: 'detached' });
      expect(await p.evaluate(() => document.activeElement?.textContent)).toBe('Buy XRP/Crypto with Card');

      // At 375 px the frame takes the full width, its close button on screen.
      await p.setViewportSize(MOBILE);
      await buy.click();
      await modal.waitFor();
      expect(Math.round((await modal.boundingBox())!.width)).toBe(MOBILE.width);
      const close = (await modal.getByRole('button', { name: 'Close' }).boundingBox())!;
      expect(close.y).toBeGreaterThanOrEqual(0);
      expect(close.x + close.width).toBeLessThanOrEqual(MOBILE.width);
      expect(await noHorizontalScroll(p)).toBe(true);
      await p.screenshot({ path: path.join(ARTIFACTS_DIR, 'home-onramp-mobile.png') });
      await modal.getByRole('button', { name: 'Close' }).click();
      await modal.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });

  it('shows a token launched in another browser on an open home page within 15 s, without reloading', async () => {
    const { page, url } = t;
    await page.setViewportSize(DESKTOP);
    await page.goto(url);
    const late = `L${run}`;
    await page.getByPlaceholder('Search tokens by name, ticker, or issuer...').fill(late);
    await page.getByText('No tokens found.').waitFor();
    await deployAsNewUser(deployer, url, `home_${run.toLowerCase()}_late`, [
      { name: `Late ${run}`, ticker: late },
    ]);
    const launched = Date.now();
    await page.getByTestId('token-row').filter({ hasText: late }).waitFor({ timeout: 15_000 });
    console.warn(`[e2e] new launch on the open home page after ${Date.now() - launched} ms`);
    expect(Date.now() - launched).toBeLessThanOrEqual(15_000);
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
  });

  it('fits 375 px without horizontal scroll: the list becomes cards with price, MC and 24h change', async () => {
    const { page, url } = t;
    await page.setViewportSize(MOBILE);
    await page.goto(url);
    await page.getByPlaceholder('Search tokens by name, ticker, or issuer...').fill(`homerun ${run}`);
    await page.getByText('Page 1 / 2').waitFor();
    expect(await noHorizontalScroll(page)).toBe(true);
    // No table to scroll sideways: one card per token, each with what a trader scans for.
    expect(await page.getByRole('table').count()).toBe(0);
    const cards = page.getByRole('list', { name: 'Tokens' }).getByRole('listitem');
    expect(await cards.count()).toBe(10);
    for (const id of ['price', 'market-cap', 'change-24h'])
      expect(await cards.first().getByTestId(id).isVisible()).toBe(true);
    await screenshot(page, 'mobile');
    for (const legal of ['terms', 'privacy-policy']) {
      await page.goto(`${url}/${legal}`);
      await page.locator('article.legal h1').waitFor();
      expect(await noHorizontalScroll(page)).toBe(true);
      await screenshot(page, `mobile-${legal}`);
    }
  });
});
