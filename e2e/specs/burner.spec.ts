import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BURN_MESSAGES,
  burnAmountForPercent,
  type BurnResult,
  type BurnWalletsResponse,
  type DeployResult,
  formatToken,
} from '@ledgerpad/shared';
import { launchBrowser } from '../support/browser';
import { deployAsNewUser } from '../support/deploy';
import { useBrowser } from '../support/fixture';
import { buyToken, fundedUser } from '../support/trader';

// The token burner in Chromium against the real server and ledger: a holder burns 25% of a token
// bought a moment before and sees the success modal; bad input shows the spec's message and sends
// nothing. One launched token for the whole file.

const run = Date.now().toString(36).slice(-4).toUpperCase();
const TICKER = `B${run}`;

/** Signs in a new user with one funded wallet that bought some of the token; answers its address. */
async function holder(page: Page, url: string, name: string, token: DeployResult): Promise<string> {
  const user = await fundedUser(page, url, name);
  const address = user.wallets[0]!.wallet_address;
  await buyToken(page, url, user, address, token, '5');
  return address;
}

async function heldNow(page: Page, url: string, address: string): Promise<string> {
  const { user } = (await (await page.request.get(`${url}/api/user`)).json()) as { user: { id: number } };
  const res = (await (
    await page.request.get(`${url}/api/burn/wallets/${user.id}`)
  ).json()) as BurnWalletsResponse;
  const wallet = res.wallets.find((w) => w.walletAddress === address);
  return wallet?.tokens.find((t) => t.ascii === TICKER)?.balance ?? '0';
}

/** Records whether the page called POST /api/burn/burn (for "sends nothing"). */
function watchBurns(page: Page): { called: boolean } {
  const seen = { called: false };
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/burn/burn') seen.called = true;
  });
  return seen;
}

describe('token burner in Chromium', () => {
  const t = useBrowser();
  let deployer: Browser;
  let token: DeployResult;

  beforeAll(async () => {
    deployer = await launchBrowser();
    [token] = await deployAsNewUser(deployer, t.url, `burndev_${run.toLowerCase()}`, [
      { name: `Burn ${run}`, ticker: TICKER },
    ]);
  }, 120_000);

  afterAll(async () => {
    await deployer?.close();
  });

  it('burns 25% of a holding and shows the success modal; the list reloads with the new balance', async () => {
    const { page, url } = t;
    const address = await holder(page, url, `burner_${run.toLowerCase()}`, token);
    const before = await heldNow(page, url, address);
    const amount = burnAmountForPercent(before, 25);

    await page.goto(`${url}/burner`);
    await page.getByRole('heading', { name: 'Token Burner', level: 1 }).waitFor();
    // Named, not only an address (issue 39).
    const named = (await (await page.request.get(`${url}/api/wallets`)).json()) as {
      wallets: Array<{ wallet_address: string; wallet_name: string | null }>;
    };
    const name = named.wallets.find((w) => w.wallet_address === address)!.wallet_name;
    expect(name).toBe('Wallet 1');
    await page
      .getByRole('button', { name: new RegExp(address) })
      .getByText('Wallet 1', { exact: true })
      .waitFor();
    await page.getByRole('button', { name: new RegExp(address) }).click();
    await page.getByRole('button', { name: new RegExp(TICKER) }).click();
    await page.getByLabel(/Percent of balance/).fill('25');
    expect(await page.getByLabel('Amount to burn').inputValue()).toBe(amount);

    const burned = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/burn/burn');
    await page.getByRole('button', { name: 'Burn Tokens' }).click();
    const answer = await burned;
    expect(answer.status(), await answer.text()).toBe(200);
    const result = (await answer.json()) as BurnResult;
    expect(result).toMatchObject({ status: 'success', burned: amount, token: TICKER });

    const modal = page.getByRole('alertdialog', { name: /Tokens burned/ });
    await modal.waitFor();
    // On screen in the one token format (at most 6 decimals, rounded down).
    expect((await modal.getByTestId('burned-amount').textContent())?.replaceAll(',', '')).toBe(
      `${formatToken(amount).replaceAll(',', '')} ${TICKER}`,
    );
    await modal.getByRole('button', { name: 'Close', exact: true }).last().click();
    await modal.waitFor({ state: 'detached' });

    // The reloaded list shows the balance the ledger now holds, with the token still selected.
    const after = await heldNow(page, url, address);
    const tokenButton = page.getByRole('button', { name: new RegExp(TICKER) });
    await expect
      .poll(async () => (await tokenButton.textContent())?.replaceAll(',', ''), { timeout: 10_000 })
      .toContain(formatToken(after).replaceAll(',', ''));
    expect(await tokenButton.getAttribute('aria-pressed')).toBe('true');
  });

  it('says on the button why it cannot burn yet, with the spec message for bad input, and sends nothing', async () => {
    const { page, url } = t;
    const address = await holder(page, url, `careful_${run.toLowerCase()}`, token);
    const sent = watchBurns(page);
    await page.goto(`${url}/burner`);
    await page.getByRole('heading', { name: 'Token Burner', level: 1 }).waitFor();
    const alert = page.getByRole('alert').filter({ hasText: BURN_MESSAGES.invalidInput });

    // Nothing chosen yet: the red button is disabled and says why.
    expect(await page.getByRole('button', { name: 'Choose a wallet and a token' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: new RegExp(address) }).click();
    await page.getByRole('button', { name: new RegExp(TICKER) }).click();
    expect(await page.getByRole('button', { name: 'Enter an amount' }).isDisabled()).toBe(true);
    for (const bad of ['0', '-1', 'abc', '1.1234567890123456']) {
      await page.getByLabel('Amount to burn').fill(bad);
      await alert.waitFor();
      expect(await page.getByRole('button', { name: 'Enter a valid amount' }).isDisabled()).toBe(true);
    }
    // More than the wallet holds.
    await page.getByLabel('Amount to burn').fill('999999999');
    await page.getByRole('alert').filter({ hasText: BURN_MESSAGES.moreThanHeld }).waitFor();
    expect(await page.getByRole('button', { name: `Insufficient ${TICKER} balance` }).isDisabled()).toBe(
      true,
    );
    expect(sent.called).toBe(false);
  });
});
