import Decimal from 'decimal.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatMoney,
  formatToken,
  formatXrp,
  SWAP_MESSAGES,
  type DeployResult,
  type QuoteView,
} from '@ledgerpad/shared';
import { launchBrowser, screenshotWidths } from '../support/browser';
import { deployAsNewUser } from '../support/deploy';
import { useBrowser } from '../support/fixture';
import { buyToken, fundedUser } from '../support/trader';

// The swap screen in Chromium against the real server and ledger (a token with a 10 XRP pool,
// launched for this file): the box discloses before the click what then happens; a 20% impact buy
// asks twice; more than the wallet holds is refused on the button itself (Buy, Sell, limit,
// liquidity) and nothing is sent; three wallets buy at the default slippage; bad input sends nothing.

const run = Date.now().toString(36).slice(-4).toUpperCase();
const TICKER = `S${run}`;

async function fundedTrader(page: Page, url: string, name: string, wallets = 1): Promise<string[]> {
  return (await fundedUser(page, url, name, wallets)).wallets.map((w) => w.wallet_address);
}

/** Records every call the page makes to one of `paths` (for "sends nothing"). */
function watchCalls(page: Page, paths: string[]): { calls: string[] } {
  const seen = { calls: [] as string[] };
  page.on('request', (r) => {
    const p = new URL(r.url()).pathname;
    if (paths.includes(p)) seen.calls.push(p);
  });
  return seen;
}

const submit = (page: Page) => page.locator('.trade-box button[type="submit"]');
const quoted = (page: Page) =>
  page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/amm-info' && r.request().method() === 'POST',
  );

describe('swap in Chromium', () => {
  const t = useBrowser();
  let deployer: Browser;
  let token: DeployResult;
  const swapUrl = () => `${t.url}/swap?issuer=${token.issuer_address}&currency=${token.currency}`;

  beforeAll(async () => {
    deployer = await launchBrowser();
    [token] = await deployAsNewUser(deployer, t.url, `swapdev_${run.toLowerCase()}`, [
      { name: `Swap ${run}`, ticker: TICKER },
    ]);
  }, 120_000);

  afterAll(async () => {
    await deployer?.close();
  });

  it('discloses what a buy pays and gets before the click, and that is what happens', async () => {
    const { page, url } = t;
    await fundedTrader(page, url, `buyer_${run.toLowerCase()}`);
    await page.goto(swapUrl());
    await page.getByRole('heading', { name: 'Swap', level: 1 }).waitFor();
    const answer = quoted(page);
    await page.getByLabel('Amount (XRP)').fill('0.2');
    const quote = (await (await answer).json()) as QuoteView;
    await page.getByTestId('disclosure').waitFor();
    // Worked out from the quote's parts: amount + platform fee + network fees + the new trust
    // line's reserve (the wallet has no line yet).
    expect(quote.opensTrustLine).toBe(true);
    // The reserve is locked, not paid: its own line (issue 39).
    const pay = new Decimal(quote.spend).plus(quote.fee).plus(quote.networkFee!);
    expect(await page.getByTestId('you-pay').textContent()).toBe(`${formatXrp(pay.toFixed())} XRP`);
    expect(await page.getByTestId('reserve').textContent()).toContain(`${formatXrp(quote.reserve!)} XRP`);
    expect(await page.getByTestId('platform-fee').textContent()).toBe(`${formatXrp(quote.fee)} XRP`);
    expect(await page.getByTestId('you-receive').textContent()).toBe(
      `≈ ${formatToken(quote.receive)} ${TICKER}`,
    );
    // At the default 0.50%, as the ledger's DeliverMin (15 significant digits, rounded down).
    const floor = new Decimal(quote.receive).mul('0.995').toSignificantDigits(15, Decimal.ROUND_DOWN);
    expect(await page.getByTestId('minimum-received').textContent()).toBe(
      `${formatToken(floor.toFixed())} ${TICKER}`,
    );
    expect(await page.getByTestId('rate').textContent()).toContain(`1 ${TICKER} = `);
    await screenshotWidths(page, 'swap-box');

    const swapped = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/swap');
    await submit(page).click();
    const res = await swapped;
    expect(res.status(), await res.text()).toBe(200);
    const received = page.getByTestId('you-received');
    await received.waitFor();
    expect(await received.textContent()).toBe(`You received ${formatToken(quote.receive)} ${TICKER}`);
    expect(await page.getByTestId('trade-status').textContent()).toBe('✅ 1 swap(s) successful!');
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
  });

  it('asks for a second, explicit confirmation naming the impact of a 20% buy, in its own step', async () => {
    const { page, url } = t;
    await fundedTrader(page, url, `whale_${run.toLowerCase()}`);
    const sent = watchCalls(page, ['/api/swap']);
    await page.goto(swapUrl());
    const answer = quoted(page);
    // 2.2 XRP into a pool of about 10 XRP: about a fifth of it.
    await page.getByLabel('Amount (XRP)').fill('2.2');
    const quote = (await (await answer).json()) as QuoteView;
    const impact = Number(quote.priceImpactPercent);
    expect(impact).toBeGreaterThan(15);
    expect(impact).toBeLessThanOrEqual(50);
    await page.getByTestId('disclosure').waitFor();
    expect(await page.getByTestId('price-impact').textContent()).toBe(`${quote.priceImpactPercent}%`);
    await page
      .getByText(`High price impact: ${quote.priceImpactPercent}%. You will be asked to confirm.`)
      .waitFor();
    await submit(page).click();
    const confirm = page.getByRole('button', {
      name: `Confirm: buy at ${quote.priceImpactPercent}% price impact`,
    });
    await confirm.waitFor();
    // Its own step (issue 39): a dialog naming the impact, whose button takes a deliberate click.
    await page
      .getByRole('alertdialog', { name: 'High price impact' })
      .getByText(`This trade moves the price by ${quote.priceImpactPercent}%`)
      .waitFor();
    expect(sent.calls).toEqual([]);
    const swapped = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/swap');
    await confirm.click();
    expect((await swapped).status()).toBe(200);
    await page.getByTestId('you-received').waitFor();
    expect(sent.calls).toEqual(['/api/swap']);
  });

  it('refuses more than the wallet holds on the button itself, on Buy, Sell, limit and liquidity, and sends nothing', async () => {
    const { page, url } = t;
    const user = await fundedUser(page, url, `broke_${run.toLowerCase()}`);
    await buyToken(page, url, user, user.wallets[0]!.wallet_address, token, '0.1');
    const sent = watchCalls(page, ['/api/swap', '/api/limit-order', '/api/add-liquidity', '/api/amm-info']);
    await page.goto(swapUrl());
    await page.getByRole('heading', { name: 'Swap', level: 1 }).waitFor();
    // The faucet's 1,000 XRP, less the reserves: 2,000 is more than the wallet has.
    await page.getByLabel('Amount (XRP)').fill('2000');
    await page.getByRole('button', { name: 'Insufficient XRP balance' }).waitFor();
    expect(await submit(page).isDisabled()).toBe(true);
    // 2,000 + the 0.75% fee (15) + the network fees of the trade and the fee payment (2 × 0.00001).
    expect(await page.getByTestId('submit-detail').textContent()).toMatch(
      /^Insufficient balance: you have [\d.]+ XRP available, this needs 2015\.00002 XRP\.$/,
    );

    // Sell: one more token than the wallet holds.
    await page.getByRole('tab', { name: 'Sell' }).click();
    const held = page.getByRole('group', { name: 'Tokens in this wallet' }).getByRole('button', {
      name: new RegExp(TICKER),
    });
    await held.click();
    const balance = (await page.getByTestId('swap-amount-balance').textContent())!;
    const holding = new Decimal(/Balance: ([\d,.]+)/.exec(balance)![1]!.replaceAll(',', ''));
    await page.getByLabel(`Amount (${TICKER})`).fill(holding.plus(1).toFixed());
    await page.getByRole('button', { name: `Insufficient ${TICKER} balance` }).waitFor();

    // A limit buy of 2,000 XRP.
    await page.getByRole('tab', { name: 'Buy' }).click();
    await page.getByRole('button', { name: 'Limit', exact: true }).click();
    await page.getByLabel('Amount (XRP)').fill('2000');
    await page.getByLabel('Limit price (XRP per token)').fill('0.001');
    await page.getByRole('button', { name: 'Insufficient XRP balance' }).waitFor();

    // Liquidity: 2,000 XRP into the pool.
    await page.getByRole('tab', { name: 'Liquidity' }).click();
    await page.getByTestId('liquidity-balances').waitFor();
    await page.getByRole('textbox', { name: 'Amount (XRP)' }).fill('2000');
    await page.getByRole('button', { name: 'Insufficient XRP balance' }).waitFor();
    expect(await page.getByRole('button', { name: 'Insufficient XRP balance' }).isDisabled()).toBe(true);

    // Nothing was sent, not even a quote of an amount the wallet cannot pay.
    expect(sent.calls.filter((c) => c !== '/api/amm-info')).toEqual([]);
    expect(sent.calls).toEqual([]);
  });

  it('buys from three wallets at once at the default slippage, naming each wallet', async () => {
    const { page, url } = t;
    await fundedTrader(page, url, `multi_${run.toLowerCase()}`, 3);
    await page.goto(swapUrl());
    await page.getByLabel('Multi-wallet mode').check();
    const sent = watchCalls(page, ['/api/swap']);
    await page.getByLabel('Amount (XRP)').fill('0.1');
    await page.getByRole('button', { name: SWAP_MESSAGES.selectWallets }).waitFor();
    const ticks = page.getByRole('list', { name: 'Wallets to trade from' }).getByRole('checkbox');
    for (let i = 0; i < 3; i++) await ticks.nth(i).check();
    // Randomized buys: a range with min ≥ max is refused before anything is sent.
    await page.getByLabel('Randomized buys').check();
    await page.getByLabel('Min (XRP)').fill('3');
    await page.getByLabel('Max (XRP)').fill('2');
    await page.getByRole('button', { name: SWAP_MESSAGES.randomRange }).waitFor();
    expect(sent.calls).toEqual([]);
    await page.getByLabel('Randomized buys').uncheck();
    await page.getByLabel('Amount (XRP)').fill('0.1');
    expect(await page.getByLabel('Slippage (%)').inputValue()).toBe('0.50');
    // Each wallet's own line (issue 39): its amount, fee, floor and trust line before the click.
    const rows = page.getByTestId('batch-disclosure').getByTestId('batch-wallet');
    await expect.poll(() => rows.count()).toBe(3);
    await page.getByRole('button', { name: 'Buy (3 wallets)' }).click();
    const results = page.getByTestId('trade-results');
    // The wallets trade one after another (issue 39: each signs the floor it was shown), each
    // waiting for its ledger: three trust lines and three swaps in turn.
    await results.waitFor({ timeout: 100_000 });
    expect(await results.locator('.trade-results-summary').textContent()).toBe('✅ 3 swap(s) successful!');
    const lines = await results.getByRole('listitem').allTextContents();
    expect(lines).toHaveLength(3);
    for (const line of lines)
      expect(line).toMatch(new RegExp(`spent 0\\.1 XRP, received [\\d,.]+ ${TICKER}$`));
    expect(sent.calls).toHaveLength(3);
  }, 150_000);

  it('says what is missing on the button for bad input, keeps 6 of 7 pasted decimals, and sends nothing', async () => {
    const { page, url } = t;
    await fundedTrader(page, url, `careful_${run.toLowerCase()}`);
    const sent = watchCalls(page, ['/api/swap', '/api/limit-order']);
    await page.goto(swapUrl());
    await page.getByLabel('Amount (XRP)').fill('0');
    await page.getByRole('button', { name: SWAP_MESSAGES.invalidAmount }).waitFor();
    // Pasting 7 decimals keeps 6; the stale reason goes as the amount becomes valid.
    await page.getByLabel('Amount (XRP)').fill('0.1234567');
    expect(await page.getByLabel('Amount (XRP)').inputValue()).toBe('0.123456');
    await page.getByRole('button', { name: 'Buy', exact: true }).waitFor();
    // A limit order needs a price.
    await page.getByRole('button', { name: 'Limit', exact: true }).click();
    await page.getByLabel('Amount (XRP)').fill('1');
    await page.getByRole('button', { name: SWAP_MESSAGES.limitPrice }).waitFor();
    expect(sent.calls).toEqual([]);
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
    const status = page.getByTestId('trade-status').filter({ hasText: 'Swapped' });
    await status.waitFor({ timeout: 20_000 });
    expect(await status.textContent()).toMatch(/^✅ Swapped 3\.000000 XRP → \d+\.\d{6} RLUSD$/);
  });

  it('places a limit order, sees it on /orders, and cancels it', async () => {
    const { page, url } = t;
    await fundedTrader(page, url, `limit_${run.toLowerCase()}`);
    await page.goto(swapUrl());
    await page.getByRole('button', { name: 'Limit', exact: true }).click();
    await page.getByTestId('market-price').filter({ hasText: 'XRP' }).waitFor();
    await page.getByLabel('Amount (XRP)').fill('2');
    // A bid far below the market rests on the book.
    await page.getByLabel('Limit price (XRP per token)').fill('0.000001');
    await page
      .getByTestId('estimate')
      .filter({ hasText: `${formatMoney('2000000', TICKER)} ${TICKER}` })
      .waitFor();
    await page.getByRole('button', { name: 'Place Buy Order' }).click();
    const status = page.getByTestId('trade-status').filter({ hasText: 'limit order' });
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
