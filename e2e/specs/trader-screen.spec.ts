import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import {
  formatFull,
  formatPrice,
  type DeployResult,
  type PriceRecord,
  type QuoteView,
  type TokenStatsView,
} from '@ledgerpad/shared';
import { launchBrowser, screenshotWidths } from '../support/browser';
import { deployWithApi } from '../support/deploy';
import { useBrowser } from '../support/fixture';
import { noHorizontalScroll, watchConsole } from '../support/pages';
import { fundedUser } from '../support/trader';

// The trader's screen (issue 39) in Chromium against the shared server (its demo market trading):
// the desktop list's 24h change, 24h volume and liquidity columns sorted both ways, and the phone's
// cards keeping every figure whole at 375 px; one price (and one 24h change) on the list, the token
// page, the swap box and the API; a buy and a sell from the token page; a double click on Send's
// 'Review' and on a 20%-impact Buy confirms nothing (a deliberate click afterwards does); /api/docs
// is a page.

const run = Date.now().toString(36).slice(-4).toUpperCase();
const TICKER = `T${run}`;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 740 };

/** Records the calls the page makes to one of `paths` (for "sends nothing"). */
function watchCalls(page: Page, paths: string[]): { calls: string[] } {
  const seen = { calls: [] as string[] };
  page.on('request', (r) => {
    const p = new URL(r.url()).pathname;
    if (paths.includes(p) && r.method() !== 'GET') seen.calls.push(p);
  });
  return seen;
}

/** Where each column's figure is read: the cell's text (24h) or its full figure in the tooltip. */
const COLUMNS: Record<string, { testId: string; from: 'text' | 'title' }> = {
  '24h': { testId: 'change-24h', from: 'text' },
  'Vol 24h': { testId: 'volume-24h', from: 'title' },
  Liquidity: { testId: 'liquidity', from: 'title' },
};

/** One column's figures down the shown page, top to bottom; null where missing ('—', no market). */
const columnValues = (page: Page, column: string) =>
  page.evaluate(
    ({ testId, from }) =>
      Array.from(document.querySelectorAll('[data-testid="token-row"]')).map((row) => {
        const cell = row.querySelector(`[data-testid="${testId}"]`);
        const text = (from === 'text' ? cell?.textContent : cell?.getAttribute('title')) ?? '';
        const figure = text.replace(/[$,%+]/g, '').replace(/ XRP$/, '');
        return text === '' || text === '—' ? null : Number(figure);
      }),
    COLUMNS[column]!,
  );

/** Present figures in order (non-decreasing, or non-increasing), and missing ones after them all. */
function sortedWithMissingLast(values: Array<number | null>, direction: 'asc' | 'desc'): boolean {
  const firstMissing = values.indexOf(null);
  const present = firstMissing === -1 ? values : values.slice(0, firstMissing);
  if (values.slice(present.length).some((v) => v !== null)) return false;
  return present.every(
    (v, i) => i === 0 || (direction === 'asc' ? v! >= present[i - 1]! : v! <= present[i - 1]!),
  );
}

describe("the trader's screen in Chromium", () => {
  const t = useBrowser();
  let deployer: Browser;
  let token: DeployResult;
  /** Tokens of the list that traded (1, 0.3 and 0.1 XRP). */
  let traded: DeployResult[];

  beforeAll(async () => {
    deployer = await launchBrowser();
    const context = await deployer.newContext();
    const api = context.request;
    const made = await deployWithApi(api, t.url, `tsdev_${run.toLowerCase()}`, [
      // All three links: the list's Links column at 1280 px keeps each name whole.
      {
        name: `Trader Screen ${run}`,
        ticker: TICKER,
        twitterLink: 'https://x.com/ledgerpad',
        telegramLink: 'https://t.me/ledgerpad',
      },
      ...['A', 'B', 'C'].map((x) => ({ name: `Trader List ${x} ${run}`, ticker: `${x}${run}` })),
    ]);
    token = made.tokens[0]!;
    traded = made.tokens.slice(1);
    // The list's tokens trade different amounts: different volumes, changes and liquidity to sort.
    for (const [i, xrp] of ['1', '0.3', '0.1'].entries()) {
      const listed = made.tokens[i + 1]!;
      const bought = await api.post(`${t.url}/api/swap`, {
        headers: made.headers,
        data: {
          walletAddress: made.wallet.wallet_address,
          issuer: listed.issuer_address,
          token: listed.currency,
          amount: xrp,
          type: 'BUY',
          slippage: '5',
        },
      });
      expect(bought.ok(), await bought.text()).toBe(true);
    }
    await context.close();
  }, 180_000);

  afterAll(async () => {
    await deployer?.close();
  });

  it("sorts the desktop list's 24h change, 24h volume and liquidity both ways; the phone's cards keep every figure", async () => {
    const { page, url } = t;
    const console = watchConsole(page);
    await page.setViewportSize(DESKTOP);
    await page.goto(url);
    await page.getByRole('heading', { name: 'Listed Tokens' }).waitFor();
    // The demo market's figures have arrived (the stats round after the list).
    await expect
      .poll(async () => (await columnValues(page, 'Vol 24h')).filter((v) => v !== null).length, {
        timeout: 20_000,
      })
      .toBeGreaterThan(3);
    await expect
      .poll(async () => (await columnValues(page, 'Vol 24h')).filter((v) => v !== null && v > 0).length, {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(3);
    for (const column of ['24h', 'Vol 24h', 'Liquidity']) {
      const header = page.getByRole('columnheader', { name: column, exact: true });
      const button = header.getByRole('button');
      await button.click();
      expect(await header.getAttribute('aria-sort')).toBe('ascending');
      const up = await columnValues(page, column);
      expect(sortedWithMissingLast(up, 'asc'), `${column} ascending: ${up.join(', ')}`).toBe(true);
      await button.click();
      expect(await header.getAttribute('aria-sort')).toBe('descending');
      const down = await columnValues(page, column);
      expect(sortedWithMissingLast(down, 'desc'), `${column} descending: ${down.join(', ')}`).toBe(true);
      // Some figure is there to sort: not a column of dashes.
      expect(down.some((v) => v !== null)).toBe(true);
    }
    // No word of the table broken over two lines ('Web / site', 'Twitt / er', 'XR / P' at 1280 px
    // before): each link's name and each pair pill is one line box; the token with three links
    // shows all three.
    const broken = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('td.links a, [data-testid="token-row"] .pair'))
        .filter((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          return range.getClientRects().length > 1;
        })
        .map((el) => el.textContent),
    );
    expect(broken).toEqual([]);
    expect(await page.locator('td.links a', { hasText: /^(Twitter|Telegram)$/ }).count()).toBe(2);
    // Biggest volume first, for the screenshots.
    await page.getByRole('columnheader', { name: 'Vol 24h', exact: true }).getByRole('button').click();
    await page.getByRole('columnheader', { name: 'Vol 24h', exact: true }).getByRole('button').click();
    await screenshotWidths(page, 'trader-list');

    await page.setViewportSize(PHONE);
    await page.getByRole('list', { name: 'Tokens' }).waitFor();
    expect(await noHorizontalScroll(page)).toBe(true);
    // Every figure of every card whole: none cut or overflowing its cell.
    const cut = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('.token-card-figures dd'))
        .filter((dd) => dd.scrollWidth > dd.clientWidth + 1)
        .map((dd) => dd.textContent),
    );
    expect(cut).toEqual([]);
    expect(await page.locator('.token-card [data-testid="volume-24h"]').count()).toBeGreaterThan(0);
    expect(console.problems).toEqual([]);
  });

  it('one price: the list, the token page, the swap box and the API agree at 1280 and 375 px; the last trade is labelled', async () => {
    const { page, url } = t;
    const one = traded[0]!;
    await fundedUser(page, url, `tsprice_${run.toLowerCase()}`);
    const stats = (await (
      await page.request.get(`${url}/api/tokens/${one.issuer_address}/stats`)
    ).json()) as TokenStatsView;
    const price = stats.priceInXRP!;
    const records = (await (await page.request.get(`${url}/api/prices`)).json()) as PriceRecord[];
    expect(records.find((r) => r.issuer === one.issuer_address)!.priceInXRP).toBe(price);
    const full = `${formatFull(price)} XRP`;
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto(url);
      await page.getByPlaceholder('Search tokens by name, ticker, or issuer...').fill(one.ticker);
      const listed = page.getByTestId('token-row').getByTestId('price');
      await expect.poll(() => listed.getAttribute('title'), { timeout: 15_000 }).toBe(full);
      // The 24h change is measured from that price too, on the list and on the page.
      const change =
        viewport === DESKTOP
          ? await page.getByTestId('token-row').getByTestId('change-24h').textContent()
          : null;

      await page.goto(`${url}/token/${one.issuer_address}`);
      const headline = page.getByTestId('price');
      await expect
        .poll(() => headline.getAttribute('title'), { timeout: 15_000 })
        .toMatch(new RegExp(`^${full.replace(/[.]/g, '\\.')}:`));
      expect(await headline.locator('.figure').textContent()).toBe(formatPrice(price));
      if (change !== null) {
        expect(change).toMatch(/^[+-]\d+\.\d{2}%$/);
        await expect
          .poll(() => page.getByTestId('change-1d').textContent(), { timeout: 15_000 })
          .toBe(`1d ${change}`);
      }
      // The last trade's own (average) price, beside it and named so: not the token's price.
      const last = page.getByTestId('live-price');
      await expect.poll(() => last.locator('.figure').textContent(), { timeout: 15_000 }).not.toBe('—');
      expect(await page.locator('.token-last').textContent()).toMatch(/^Last trade /);

      await page.goto(`${url}/swap?issuer=${one.issuer_address}&currency=${one.currency}`);
      const swapPrice = page.getByTestId('swap-price');
      await expect.poll(() => swapPrice.getAttribute('title'), { timeout: 15_000 }).toBe(full);
    }
    await page.setViewportSize(DESKTOP);
    await page.goto(`${url}/token/${one.issuer_address}`);
    await page.getByTestId('price').waitFor();
    await screenshotWidths(page, 'trader-token-page');
  });

  it('buys and sells from the token page, beside the chart, with the swap box of /swap', async () => {
    const { page, url } = t;
    const one = traded[1]!;
    await page.setViewportSize(DESKTOP);
    await fundedUser(page, url, `tstp_${run.toLowerCase()}`);
    await page.goto(`${url}/token/${one.issuer_address}`);
    const box = page.getByRole('region', { name: `Trade ${one.ticker}` });
    await box.getByLabel('Amount (XRP)').fill('0.3');
    await box.getByTestId('disclosure').waitFor();
    await screenshotWidths(page, 'trader-token-trade');
    await page.setViewportSize(DESKTOP);
    const bought = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/swap');
    await box.locator('button[type="submit"]').click();
    expect((await bought).status()).toBe(200);
    await box.getByTestId('you-received').waitFor();
    expect(await box.getByTestId('you-received').textContent()).toMatch(
      new RegExp(`^You received .+ ${one.ticker}$`),
    );

    await box.getByRole('tab', { name: 'Sell' }).click();
    await box.getByRole('button', { name: '50%' }).click();
    await box.getByRole('button', { name: 'Sell', exact: true }).waitFor({ timeout: 15_000 });
    const sold = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/swap');
    await box.getByRole('button', { name: 'Sell', exact: true }).click();
    expect((await sold).status()).toBe(200);
    await box.getByTestId('you-received').waitFor();
    expect(await box.getByTestId('you-received').textContent()).toMatch(
      /^You received .+ XRP after the platform fee and network fees$/,
    );
    // What is left of it, on /positions (looked at at both widths).
    await page.goto(`${url}/positions`);
    await page.getByRole('heading', { name: 'Positions', level: 1 }).waitFor();
    await page.getByText(one.ticker).first().waitFor({ timeout: 15_000 });
    await screenshotWidths(page, 'trader-positions');
  });

  it("a double click on Send's 'Review' shows the confirm step and sends nothing; the form is kept", async () => {
    const { page, url } = t;
    await page.setViewportSize(DESKTOP);
    await fundedUser(page, url, `tsrev_${run.toLowerCase()}`);
    const sent = watchCalls(page, ['/api/wallets/transfer']);
    await page.goto(`${url}/wallets`);
    await page.getByRole('heading', { name: 'Wallets', level: 1 }).waitFor();
    await page.getByRole('article').first().getByRole('button', { name: 'Send' }).click();
    const modal = page.getByRole('dialog');
    await modal.getByLabel('Recipient address').fill(Wallet.generate().classicAddress);
    await modal.getByLabel('Amount').fill('1.5');
    await modal.getByRole('button', { name: 'Review' }).dblclick();
    await modal.getByText('You are about to send').waitFor();
    // Until the guard has run out (the confirm button enables): had the second click counted, the
    // transfer would be on its way by then.
    const send = modal.getByRole('button', { name: 'Confirm and send' });
    await expect.poll(() => send.isEnabled()).toBe(true);
    expect(await modal.isVisible()).toBe(true);
    expect(sent.calls).toEqual([]);
    expect(await modal.locator('.review-amount').textContent()).toBe('1.5 XRP');
    await screenshotWidths(page, 'trader-review-step');
    // The form is kept behind the confirm step.
    await modal.getByRole('button', { name: 'Back' }).click();
    expect(await modal.getByLabel('Amount').inputValue()).toBe('1.5');
  });

  it('a double click on a 20%-impact Buy opens its confirmation and sends nothing; a deliberate click sends', async () => {
    const { page, url } = t;
    await page.setViewportSize(DESKTOP);
    await fundedUser(page, url, `tswhale_${run.toLowerCase()}`);
    const sent = watchCalls(page, ['/api/swap']);
    await page.goto(`${url}/swap?issuer=${token.issuer_address}&currency=${token.currency}`);
    const answer = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/amm-info' && r.request().method() === 'POST',
    );
    // 2.2 XRP into a pool of about 10 XRP: about a fifth of it.
    await page.getByLabel('Amount (XRP)').fill('2.2');
    const quote = (await (await answer).json()) as QuoteView;
    const impact = Number(quote.priceImpactPercent);
    expect(impact).toBeGreaterThan(15);
    expect(impact).toBeLessThanOrEqual(50);
    await page
      .getByText(`High price impact: ${quote.priceImpactPercent}%. You will be asked to confirm.`)
      .waitFor();
    await screenshotWidths(page, 'trader-swap-box');
    await page.setViewportSize(DESKTOP);

    const buy = page.locator('.trade-box button[type="submit"]');
    await buy.dblclick();
    const dialog = page.getByRole('alertdialog', { name: 'High price impact' });
    await dialog.waitFor();
    // Until the guard has run out (the confirm button enables): had the second click counted, the
    // swap would be on its way by then.
    await expect
      .poll(() =>
        dialog
          .getByRole('button', { name: `Confirm: buy at ${quote.priceImpactPercent}% price impact` })
          .isEnabled(),
      )
      .toBe(true);
    expect(sent.calls).toEqual([]);
    expect(await dialog.isVisible()).toBe(true);
    await screenshotWidths(page, 'trader-impact-step');
    await page.setViewportSize(DESKTOP);

    const swapped = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/swap');
    await dialog
      .getByRole('button', { name: `Confirm: buy at ${quote.priceImpactPercent}% price impact` })
      .click();
    expect((await swapped).status()).toBe(200);
    await page.getByTestId('you-received').waitFor();
    expect(sent.calls).toEqual(['/api/swap']);
  });

  it('renders /api/docs as a page under the app CSP; the JSON stays at /api/docs/openapi.json', async () => {
    const { page, url } = t;
    const console = watchConsole(page);
    await page.setViewportSize(DESKTOP);
    await page.goto(`${url}/api/docs`);
    await page.getByRole('heading', { name: 'Ledgerpad API', level: 1 }).waitFor();
    await page.getByRole('heading', { name: /^GET \/api\/prices$/ }).waitFor();
    expect(await noHorizontalScroll(page)).toBe(true);
    await screenshotWidths(page, 'trader-api-docs');
    const json = await page.request.get(`${url}/api/docs/openapi.json`);
    expect(((await json.json()) as { openapi: string }).openapi).toBe('3.1.0');
    expect(console.problems).toEqual([]);
  });
});
