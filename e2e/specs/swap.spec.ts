import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount, SWAP_MESSAGES, type DeployResult, type QuoteView } from '@ledgerpad/shared';
import { launchBrowser } from '../support/browser';
import { deployAsNewUser } from '../support/deploy';
import { useBrowser } from '../support/fixture';
import { fundedUser } from '../support/trader';

// The swap screen in Chromium against the real server and ledger: a market buy of a freshly
// launched token shows the estimate the ledger then executes and 'You received'; bad input shows
// the spec's message and sends nothing.

const run = Date.now().toString(36).slice(-4).toUpperCase();
const TICKER = `S${run}`;

async function fundedTrader(page: Page, url: string, name: string, wallets = 1): Promise<string[]> {
  return (await fundedUser(page, url, name, wallets)).wallets.map((w) => w.wallet_address);
}

/** Records whether the page called one of `paths` (for "sends nothing"). */
function watchCalls(page: Page, paths: string[]): { called: boolean } {
  const seen = { called: false };
  page.on('request', (r) => {
    if (paths.includes(new URL(r.url()).pathname)) seen.called = true;
  });
  return seen;
}

describe('swap in Chromium', () => {
  const t = useBrowser();
  let deployer: Browser;
  let token: DeployResult;

  beforeAll(async () => {
    deployer = await launchBrowser();
    [token] = await deployAsNewUser(deployer, t.url, `swapdev_${run.toLowerCase()}`, [
      { name: `Swap ${run}`, ticker: TICKER },
    ]);
  }, 120_000);

  afterAll(async () => {
    await deployer?.close();
  });

  it('buys at market: the estimate is what arrives, with "You received"', async () => {
    const { page, url } = t;
    await fundedTrader(page, url, `buyer_${run.toLowerCase()}`);
    await page.goto(`${url}/swap?issuer=${token.issuer_address}&currency=${token.currency}`);
    await page.getByRole('heading', { name: 'Swap', level: 1 }).waitFor();
    const quoted = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/amm-info' && r.request().method() === 'POST',
    );
    await page.getByLabel('Amount (XRP)').fill('5');
    const quote = (await (await quoted).json()) as QuoteView;
    await page.getByTestId('estimate').filter({ hasText: 'You receive' }).waitFor();
    expect(await page.getByTestId('estimate').textContent()).toContain(
      `${formatAmount(quote.receive)} ${TICKER}`,
    );
    const swapped = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/swap');
    await page.getByRole('button', { name: 'Buy', exact: true }).last().click();
    const answer = await swapped;
    expect(answer.status(), await answer.text()).toBe(200);
    const received = page.getByTestId('you-received');
    await received.waitFor();
    expect(await received.textContent()).toBe(`You received ${formatAmount(quote.receive)} ${TICKER}`);
    expect(await page.getByRole('status').textContent()).toBe('✅ 1 swap(s) successful!');
    // The wallet now holds the token: the Sell tab offers it.
    await page.getByRole('tab', { name: 'Sell' }).click();
    await page
      .getByRole('group', { name: 'Tokens in this wallet' })
      .getByRole('button', { name: new RegExp(TICKER) })
      .waitFor();
    // …and /positions shows it with what it is worth (the indexer saw the trade).
    await page.goto(`${url}/positions`);
    const row = page.getByRole('row', { name: `Trade ${TICKER} on the Swap page` });
    await row.waitFor({ timeout: 20_000 });
    expect(await row.textContent()).toContain(formatAmount(quote.receive));
  });

  it('swaps XRP → RLUSD with the spec text', async () => {
    const { page, url } = t;
    await fundedTrader(page, url, `stable_${run.toLowerCase()}`);
    await page.goto(`${url}/swap`);
    await page.getByRole('button', { name: 'XRP ⇄ RLUSD' }).click();
    await page.getByRole('button', { name: 'XRP → RLUSD' }).waitFor();
    await page.getByLabel('Amount (XRP)').fill('3');
    await page.getByTestId('rlusd-estimate').filter({ hasText: 'You receive' }).waitFor();
    await page.getByRole('button', { name: 'Swap', exact: true }).click();
    const status = page.getByRole('status').filter({ hasText: 'Swapped' });
    await status.waitFor({ timeout: 20_000 });
    expect(await status.textContent()).toMatch(/^✅ Swapped 3\.000000 XRP → \d+\.\d{6} RLUSD$/);
  });

  it('shows the spec message for a bad amount and sends nothing', async () => {
    const { page, url } = t;
    await fundedTrader(page, url, `careful_${run.toLowerCase()}`);
    const sent = watchCalls(page, ['/api/swap', '/api/limit-order']);
    await page.goto(`${url}/swap?issuer=${token.issuer_address}&currency=${token.currency}`);
    await page.getByLabel('Amount (XRP)').fill('0');
    await page.getByRole('button', { name: 'Buy', exact: true }).last().click();
    await page.getByRole('alert').filter({ hasText: SWAP_MESSAGES.invalidAmount }).waitFor();
    // The input takes at most 6 decimals: a 7th is not typed in.
    await page.getByLabel('Amount (XRP)').fill('');
    await page.getByLabel('Amount (XRP)').pressSequentially('1.1234567');
    expect(await page.getByLabel('Amount (XRP)').inputValue()).toBe('1.123456');
    // A limit order needs a price.
    await page.getByRole('button', { name: 'Limit', exact: true }).click();
    await page.getByLabel('Amount (XRP)').fill('1');
    await page.getByRole('button', { name: 'Place Buy Order' }).click();
    await page.getByRole('alert').filter({ hasText: SWAP_MESSAGES.limitPrice }).waitFor();
    expect(sent.called).toBe(false);
  });

  it('buys from two wallets at once (multi-wallet), and checks the batch rules first', async () => {
    const { page, url } = t;
    await fundedTrader(page, url, `multi_${run.toLowerCase()}`, 2);
    await page.goto(`${url}/swap?issuer=${token.issuer_address}&currency=${token.currency}`);
    await page.getByLabel('Multi-wallet mode').check();
    await page.getByLabel('Amount (XRP)').fill('2');
    const sent = watchCalls(page, ['/api/swap']);
    await page.getByRole('button', { name: 'Buy (0 wallets)' }).click();
    await page.getByRole('alert').filter({ hasText: SWAP_MESSAGES.selectWallets }).waitFor();
    const ticks = page.getByRole('list', { name: 'Wallets to trade from' }).getByRole('checkbox');
    await ticks.nth(0).check();
    await ticks.nth(1).check();
    // Randomized buys: a range with min ≥ max is refused before anything is sent.
    await page.getByLabel('Randomized buys').check();
    await page.getByLabel('Min (XRP)').fill('3');
    await page.getByLabel('Max (XRP)').fill('2');
    await page.getByRole('button', { name: 'Buy (2 wallets)' }).click();
    await page.getByRole('alert').filter({ hasText: SWAP_MESSAGES.randomRange }).waitFor();
    expect(sent.called).toBe(false);
    await page.getByLabel('Randomized buys').uncheck();
    await page.getByLabel('Amount (XRP)').fill('2');
    await page.getByRole('button', { name: 'Buy (2 wallets)' }).click();
    const status = page.getByRole('status').filter({ hasText: 'swap(s)' });
    await status.waitFor({ timeout: 30_000 });
    expect(await status.textContent()).toBe('✅ 2 swap(s) successful!');
  });

  it('places a limit order, sees it on /orders, and cancels it', async () => {
    const { page, url } = t;
    await fundedTrader(page, url, `limit_${run.toLowerCase()}`);
    await page.goto(`${url}/swap?issuer=${token.issuer_address}&currency=${token.currency}`);
    await page.getByRole('button', { name: 'Limit', exact: true }).click();
    await page.getByTestId('market-price').filter({ hasText: 'XRP' }).waitFor();
    await page.getByLabel('Amount (XRP)').fill('2');
    // A bid far below the market rests on the book.
    await page.getByLabel('Limit price (XRP per token)').fill('0.000001');
    await page
      .getByTestId('estimate')
      .filter({ hasText: `${formatAmount('2000000')} ${TICKER}` })
      .waitFor();
    await page.getByRole('button', { name: 'Place Buy Order' }).click();
    const status = page.getByRole('status').filter({ hasText: 'limit order' });
    await status.waitFor({ timeout: 20_000 });
    expect(await status.textContent()).toBe('📌 1 limit order(s) placed.');

    await page.goto(`${url}/orders`);
    const row = page.getByRole('row').filter({ hasText: TICKER });
    await row.getByText('open', { exact: true }).waitFor();
    const cancelled = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/api/cancel-order/'));
    await row.getByRole('button', { name: 'Cancel' }).click();
    expect((await cancelled).status()).toBe(200);
    await row.getByText('canceled', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
  });
});
