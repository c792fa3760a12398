import type { Browser, Page } from 'playwright-core';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LIQUIDITY_MESSAGES,
  type AddLiquidityResult,
  type DeployResult,
  type LpPriceResult,
  type RemoveLiquidityResult,
  formatMoney,
} from '@ledgerpad/shared';
import { launchBrowser } from '../support/browser';
import { deployAsNewUser } from '../support/deploy';
import { useBrowser } from '../support/fixture';
import { buyToken, fundedUser } from '../support/trader';

// The Liquidity tab of /swap in Chromium against the real server and ledger: both assets added in
// the pool ratio and the position they make, half the LP tokens removed with the expected withdrawal
// shown first, a fee vote, and the auction slot won with a bid at the price shown.

const run = Date.now().toString(36).slice(-4).toUpperCase();
const TICKER = `L${run}`;

/** As the tab shows money (the one number format): XRP to the drop, tokens to 15 digits. */
const exact = (v: string, asset = 'XRP') => formatMoney(v, asset);

const isPost = (path: string) => (r: { url(): string; request(): { method(): string } }) =>
  new URL(r.url()).pathname === path && r.request().method() === 'POST';

/** A signed-in trader with one funded wallet holding some of the token. */
async function trader(page: Page, url: string, token: DeployResult): Promise<string> {
  const user = await fundedUser(page, url, `lp_${run.toLowerCase()}`);
  const address = user.wallets[0]!.wallet_address;
  await buyToken(page, url, user, address, token, '20');
  return address;
}

describe('liquidity in Chromium', () => {
  const t = useBrowser();
  let deployer: Browser;
  let token: DeployResult;

  beforeAll(async () => {
    deployer = await launchBrowser();
    [token] = await deployAsNewUser(deployer, t.url, `lpdev_${run.toLowerCase()}`, [
      { name: `Liquid ${run}`, ticker: TICKER },
    ]);
  }, 120_000);

  afterAll(async () => {
    await deployer?.close();
  });

  it('adds both assets and shows the position, removes 50% with the expected withdrawal, votes, and wins the auction slot', async () => {
    const { page, url } = t;
    await trader(page, url, token);
    await page.goto(`${url}/swap?issuer=${token.issuer_address}&currency=${token.currency}`);
    await page.getByRole('tab', { name: 'Liquidity' }).click();
    await page.getByTestId('lp-balance').filter({ hasText: '0.00' }).waitFor();

    // Both assets: the token amount follows the pool ratio (6 decimals) 300 ms after typing.
    await page.getByRole('button', { name: 'Both Assets' }).click();
    const priced = page.waitForResponse(isPost('/api/get-lp-price'));
    await page.getByRole('textbox', { name: 'Amount (XRP)' }).fill('5');
    const price = (await (await priced).json()) as LpPriceResult;
    const tokenBox = page.getByRole('textbox', { name: `Amount (${TICKER})` });
    await expect.poll(() => tokenBox.inputValue()).not.toBe('');
    const ratio = new Decimal(price.pool.token).div(price.pool.base);
    expect(await tokenBox.inputValue()).toBe(
      new Decimal(5).mul(ratio).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed(),
    );
    // Before adding: both balances, and the LP tokens the deposit will issue.
    expect(await page.getByTestId('liquidity-balances').textContent()).toMatch(
      new RegExp(`^In this wallet: [\\d,.]+ XRP available · [\\d,.]+ ${TICKER}$`),
    );
    const preview = page.getByTestId('lp-to-receive');
    await preview.filter({ hasText: `LP-${TICKER}` }).waitFor();
    const previewed = new Decimal(
      /≈ ([\d,.]+) LP-/.exec((await preview.textContent())!)![1]!.replaceAll(',', ''),
    );
    const added = page.waitForResponse(isPost('/api/add-liquidity'));
    await page.getByRole('button', { name: 'Add Liquidity' }).click();
    const add = await added;
    expect(add.status(), await add.text()).toBe(200);
    const deposit = (await add.json()) as AddLiquidityResult;
    // What it said is what the ledger issued (to the ledger's own rounding).
    expect(previewed.minus(deposit.lpTokens).abs().lte(previewed.mul('1e-9'))).toBe(true);
    expect(deposit.deposited.base).toBe('5');
    await page.getByRole('status').filter({ hasText: LIQUIDITY_MESSAGES.added }).waitFor();

    // Her position: a share of the pool worth what she put in (both sides at the pool's price).
    const share = page.getByTestId('lp-share');
    await share.waitFor({ timeout: 20_000 });
    const lpTotal = new Decimal(price.lpTotal).plus(deposit.lpTokens);
    expect(Number((await share.textContent())!.replace('%', ''))).toBeCloseTo(
      new Decimal(deposit.lpTokens).div(lpTotal).mul(100).toNumber(),
      4,
    );
    expect(await page.getByTestId('lp-value').textContent()).toMatch(/^(9\.99\d*|10(\.0+\d*)?) XRP$/);

    // Remove 50%, both assets: the expected withdrawal shown is what the ledger pays.
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    const balance = page.getByTestId('lp-balance');
    await balance.filter({ hasNotText: /: 0\.00/ }).waitFor();
    await page.getByRole('button', { name: '50%' }).click();
    const lpBox = page.getByRole('textbox', { name: 'LP tokens to withdraw' });
    const half = await lpBox.inputValue();
    expect(new Decimal(half).div(deposit.lpTokens).toDecimalPlaces(6).toFixed()).toBe('0.5');
    const expected = page.getByTestId('expected-withdrawal');
    await expected.filter({ hasText: 'XRP +' }).waitFor();
    const shown = await expected.textContent();
    const removed = page.waitForResponse(isPost('/api/remove-liquidity'));
    await page.getByRole('button', { name: 'Remove Liquidity' }).click();
    const rem = await removed;
    expect(rem.status(), await rem.text()).toBe(200);
    const withdrawal = (await rem.json()) as RemoveLiquidityResult;
    expect(new Decimal(withdrawal.withdrawn.base).minus('2.5').abs().lte('0.000002')).toBe(true);
    expect(shown).toBe(
      `Expected Withdrawal: ${exact(withdrawal.withdrawn.base)} XRP + ${exact(withdrawal.withdrawn.token, TICKER)} ${TICKER}`,
    );
    await page.getByRole('status').filter({ hasText: LIQUIDITY_MESSAGES.removed }).waitFor();

    // Vote: empty is refused on the screen; 0.5% is sent as 500.
    await page.getByRole('button', { name: 'Vote on Fee' }).click();
    // The button itself says what is missing.
    expect(await page.getByRole('button', { name: LIQUIDITY_MESSAGES.fillAll }).isDisabled()).toBe(true);
    await page.getByLabel('Proposed trading fee (%)').fill('0.5');
    const voted = page.waitForResponse(isPost('/api/amm-vote'));
    await page.getByRole('button', { name: 'Submit Vote' }).click();
    const vote = await voted;
    expect(vote.status(), await vote.text()).toBe(200);
    expect(JSON.parse(vote.request().postData() ?? '{}')).toMatchObject({ tradingFee: 500 });
    await page
      .getByRole('status')
      .filter({ hasText: LIQUIDITY_MESSAGES.voteSuccess('0.5') })
      .waitFor();

    // The auction slot: its price shown first, a bid at that price, and she holds it.
    const slotPrice = page.getByTestId('slot-price');
    await slotPrice.waitFor();
    expect(await slotPrice.textContent()).toMatch(/^[\d,.]+ LP$/);
    await page.getByRole('button', { name: 'Bid for the slot' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Bid for the auction slot' });
    await dialog.waitFor();
    const bid = page.waitForResponse(isPost('/api/amm-bid'));
    await dialog.getByRole('button', { name: 'Bid', exact: true }).click();
    const answer = await bid;
    expect(answer.status(), await answer.text()).toBe(200);
    await page.getByRole('status').filter({ hasText: LIQUIDITY_MESSAGES.bidSuccess }).waitFor();
    await page.getByTestId('slot-holder').filter({ hasText: 'You' }).waitFor();
  });
});
