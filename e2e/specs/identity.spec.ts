import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client, type AccountSet } from 'xrpl';
import { IDENTITY_MESSAGES, LISTING_MESSAGES, type ClaimTransaction } from '@ledgerpad/shared';
import { issueToken } from '../../apps/server/test/listing/issuer-fixture';
import { submitAndWait } from '../../apps/server/test/helpers/submit-and-wait';
import { appFundedWallet } from '../support/app-wallet';
import { launchBrowser, screenshotWidths } from '../support/browser';
import { demoSignIn } from '../support/sign-in';
import { useBrowser } from '../support/fixture';

// Token identity in Chromium against the shared server (issue 24): B lists a token whose issuer B
// does not control — the list and the token page mark it 'Unverified' and its links as the
// lister's; the real issuer (its key held outside Ledgerpad, as in Xaman; xrpl.js signs here)
// claims it by sending the claim code the page shows, and its own details replace B's. Screens are
// saved at 1280 and 375 px under e2e/artifacts/identity-*.png.

const DESKTOP = { width: 1280, height: 900 };
const LEDGER_WAIT = { timeout: 20_000 };
const run = Date.now().toString(36).slice(-4).toUpperCase();
const TICKER = `ID${run}`;

let client: Client;
let second: Browser;

beforeAll(async () => {
  client = new Client(inject('ledgerUrl'));
  await client.connect();
  second = await launchBrowser();
});
afterAll(async () => {
  await client?.disconnect();
  await second?.close();
});

const noHorizontalScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('token identity', () => {
  const t = useBrowser();

  it('marks an unverified listing on the list and the token page; the controller claims it', async () => {
    const { page, url } = t;
    await page.setViewportSize(DESKTOP);
    await demoSignIn(page, url, `lister_${run.toLowerCase()}`);
    const funder = await appFundedWallet(page, url);
    const { issuer } = await issueToken(client, { ticker: TICKER, amounts: ['1000'], funder });

    // B lists it with B's own links.
    await page.goto(`${url}/list-token`);
    await page.getByLabel('Issuer address').fill(issuer.address);
    await page.getByRole('button', { name: 'Fetch' }).click();
    await page.getByTestId('listing-ticker').waitFor(LEDGER_WAIT);
    await page.getByLabel('Name').fill('Lister Name');
    await page.getByLabel('Website').fill('https://lister.example');
    await page.getByRole('button', { name: 'List Token' }).click();
    await page.getByRole('heading', { name: 'Token listed' }).waitFor();
    expect(await page.getByTestId('identity-badge').textContent()).toBe('Unverified');

    // The list: the badge beside the ticker and the note under the links.
    await page.goto(url);
    await page.getByPlaceholder('Search tokens by name, ticker, or issuer...').fill(issuer.address);
    const row = page.getByTestId('token-row').filter({ hasText: TICKER });
    await row.waitFor();
    expect(await row.getByTestId('identity-badge').textContent()).toBe('Unverified');
    expect(await row.getByTestId('lister-links-note').textContent()).toBe(IDENTITY_MESSAGES.linksByLister);
    expect(await row.getByRole('link', { name: 'Website' }).getAttribute('href')).toBe(
      'https://lister.example/',
    );
    await screenshotWidths(page, 'identity-list-unverified');

    // The token page: the same marks in the header.
    await page.goto(`${url}/token/${issuer.address}`);
    const header = page.locator('.token-header');
    await header.getByTestId('identity-badge').waitFor();
    expect(await header.getByTestId('identity-badge').textContent()).toBe('Unverified');
    expect(await header.getByTestId('lister-links-note').textContent()).toBe(IDENTITY_MESSAGES.linksByLister);
    await page.getByTestId('risk-verdict').waitFor(LEDGER_WAIT);
    await screenshotWidths(page, 'identity-token-unverified');

    // Listing it again opens 'Token Already Listed', which says how to claim it.
    await page.goto(`${url}/list-token`);
    await page.getByLabel('Issuer address').fill(issuer.address);
    await page.getByRole('button', { name: 'Fetch' }).click();
    const modal = page.getByRole('alertdialog', { name: LISTING_MESSAGES.alreadyListed });
    await modal.waitFor(LEDGER_WAIT);
    await modal.getByText(IDENTITY_MESSAGES.alreadyListedHelp).waitFor();
    expect(await modal.getByRole('link', { name: 'Claim this listing' }).getAttribute('href')).toBe(
      `/list-token?claim=${issuer.address}`,
    );

    // The controller, in its own browser, claims it from the token page.
    const context = await second.newContext({ viewport: DESKTOP });
    try {
      const a = await context.newPage();
      await demoSignIn(a, url, `issuer_${run.toLowerCase()}`);
      await a.goto(`${url}/token/${issuer.address}`);
      await a.getByRole('link', { name: 'Is this your token? Claim this listing' }).click();
      await a.getByRole('heading', { name: 'Claim a Listing', level: 1 }).waitFor();
      const txText = await a.getByTestId('claim-transaction').textContent({ timeout: LEDGER_WAIT.timeout });
      const tx = JSON.parse(txText!) as ClaimTransaction;
      expect(tx).toMatchObject({ TransactionType: 'AccountSet', Account: issuer.address });
      await screenshotWidths(a, 'identity-claim');
      expect(await noHorizontalScroll(a)).toBe(true);

      // What Xaman would do: sign the shown transaction with the issuer's key and submit it.
      const sent = await submitAndWait(client, tx as AccountSet, issuer);
      expect((sent.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');

      await a.getByLabel('Name').fill('Issuer Name');
      await a.getByLabel('Website').fill('https://issuer.example');
      await a.getByRole('button', { name: 'Claim listing' }).click();
      await a.getByRole('heading', { name: 'Listing claimed' }).waitFor(LEDGER_WAIT);

      await a.goto(`${url}/token/${issuer.address}`);
      const claimed = a.locator('.token-header');
      await claimed.getByText('Issuer Name').waitFor();
      expect(await claimed.getByTestId('identity-badge').textContent()).toBe('✓ Verified');
      expect(await claimed.getByTestId('lister-links-note').count()).toBe(0);
      expect(await claimed.getByRole('link', { name: 'Website' }).getAttribute('href')).toBe(
        'https://issuer.example/',
      );
      await a.getByTestId('risk-verdict').waitFor(LEDGER_WAIT);
      await screenshotWidths(a, 'identity-token-verified');
    } finally {
      await context.close();
    }

    // B's page follows: the list row has no Unverified mark and no lister note any more.
    await page.goto(url);
    await page.getByPlaceholder('Search tokens by name, ticker, or issuer...').fill(issuer.address);
    await row.waitFor();
    await expect.poll(() => row.getByTestId('identity-badge').count(), LEDGER_WAIT).toBe(0);
    expect(await row.getByTestId('lister-links-note').count()).toBe(0);
  });
});
