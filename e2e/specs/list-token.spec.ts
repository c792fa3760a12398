import Decimal from 'decimal.js';
import type { Page, Request } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client } from 'xrpl';
import { LISTING_MESSAGES } from '@ledgerpad/shared';
import { issueToken } from '../../apps/server/test/listing/issuer-fixture';
import { appFundedWallet } from '../support/app-wallet';
import { useBrowser } from '../support/fixture';

// /list-token in Chromium against the shared server. The issuers are real accounts on the server's
// embedded ledger. The app funds one wallet per test (Create Wallet's seed, 'Fund with test XRP');
// xrpl.js then uses that wallet to fund an issuer and holders, set DefaultRipple, open the trust
// lines and issue: the app has no route that issues a token outside a deploy. Genesis is left to
// the server (it bootstraps the platform accounts and pays the faucet with it).

const MOBILE = { width: 375, height: 740 };
const LEDGER_WAIT = { timeout: 20_000 };

let client: Client;
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36).slice(-5)}${++counter}`.toUpperCase();

beforeAll(async () => {
  const ledgerUrl = inject('ledgerUrl');
  if (!ledgerUrl) throw new Error('the shared server did not say where its ledger is');
  client = new Client(ledgerUrl);
  await client.connect();
});
afterAll(async () => {
  await client?.disconnect();
});

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Demo account (embedded ledger)').fill(unique('lst_').toLowerCase());
  const signedIn = page.waitForResponse((r) => r.url().endsWith('/api/auth/demo') && r.ok());
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await signedIn;
  await page.waitForURL(`${url}/`);
}

async function fetchIssuer(page: Page, url: string, issuer: string): Promise<void> {
  await page.goto(`${url}/list-token`);
  await page.getByRole('heading', { name: 'List Any Token', level: 1 }).waitFor();
  await page.getByLabel('Issuer address').fill(issuer);
  await page.getByRole('button', { name: 'Fetch' }).click();
}

/** Requests to the listing's write calls (and the ledger read), counted while a test runs. */
function countCalls(page: Page) {
  const calls: string[] = [];
  const listener = (r: Request) => {
    const path = new URL(r.url()).pathname;
    if (['/api/admin/tokens/add', '/api/upload', '/api/gateway-balances'].includes(path)) calls.push(path);
  };
  page.on('request', listener);
  return calls;
}

const png = (width: number, height: number) =>
  // Its own colour: no other token of the shared server shows the same logo (issue 35).
  sharp({ create: { width, height, channels: 3, background: '#3a8c6e' } })
    .png()
    .toBuffer();

const noHorizontalScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('list token', () => {
  const browser = useBrowser();

  it('lists a token by issuer address, shows it on /, and refuses it a second time', async () => {
    const { page, url } = browser;
    const ticker = unique('EL');
    const amounts = ['1500', '250.5'];
    await signIn(page, url);
    const funder = await appFundedWallet(page, url);
    const { issuer } = await issueToken(client, { ticker, amounts, funder });
    const supply = amounts.reduce((a, v) => a.plus(v), new Decimal(0));

    await fetchIssuer(page, url, issuer.address);
    await page.getByTestId('listing-ticker').waitFor(LEDGER_WAIT);
    expect(await page.getByTestId('listing-ticker').textContent()).toBe(ticker);
    // Shown with thousands separators: 1,750.5.
    expect(await page.getByTestId('listing-supply').textContent()).toBe(
      supply.toFixed().replace(/\B(?=(\d{3})+(?!\d))/, ','),
    );
    expect(await page.getByTestId('listing-blackholed').textContent()).toBe('No');

    await page.getByLabel('Name').fill('Listed End To End');
    await page.getByLabel('Description').fill('Listed from the browser.');
    expect(await page.getByText('24/1000').count()).toBe(1);
    await page
      .getByLabel('Logo')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await png(96, 96) });
    // Checked in the browser, uploaded (purpose listing), and shown from its served URL.
    await page.getByAltText('Logo preview').waitFor();
    expect(await page.getByAltText('Logo preview').getAttribute('src')).toMatch(
      /^\/cdn\/logos\/[a-f0-9]{64}\.png$/,
    );
    await page.getByLabel('Website').fill('https://ledgerpad.example');
    await page.getByLabel('Created date').fill('2024-01-15');
    await page.getByRole('button', { name: 'List Token' }).click();

    await page.getByRole('heading', { name: 'Token listed' }).waitFor();
    const link = page.getByRole('link', { name: 'View token page' });
    expect(await link.getAttribute('href')).toBe(`/token/${issuer.address}`);

    await page.getByRole('link', { name: 'All tokens' }).click();
    await page.getByPlaceholder('Search tokens by name, ticker, or issuer...').fill(issuer.address);
    // The ticker's link (the cell also carries the identity badge: this listing is Unverified).
    await page.getByRole('link', { name: ticker, exact: true }).waitFor();

    await fetchIssuer(page, url, issuer.address);
    const modal = page.getByRole('alertdialog', { name: LISTING_MESSAGES.alreadyListed });
    await modal.waitFor(LEDGER_WAIT);
    expect(await modal.getByRole('link', { name: 'View token' }).getAttribute('href')).toBe(
      `/token/${issuer.address}`,
    );
  });

  it('shows the spec messages for invalid input and sends nothing', async () => {
    const { page, url } = browser;
    await signIn(page, url);
    const funder = await appFundedWallet(page, url);
    const { issuer } = await issueToken(client, { ticker: unique('IV'), amounts: ['10'], funder });
    const calls = countCalls(page);

    await fetchIssuer(page, url, 'rNotAnAddress');
    await page.getByText('Issuer address must be a valid XRPL address').waitFor();
    expect(calls).toEqual([]);

    await page.getByLabel('Issuer address').fill(issuer.address);
    await page.getByRole('button', { name: 'Fetch' }).click();
    await page.getByTestId('listing-ticker').waitFor(LEDGER_WAIT);
    expect(calls).toEqual(['/api/gateway-balances']);

    await page.getByLabel('Name').fill('A');
    await page.getByLabel('Description').fill('d'.repeat(1001));
    expect(await page.getByText('1001/1000').count()).toBe(1);
    await page.getByLabel('Twitter').fill('https://facebook.com/ledgerpad');
    await page.getByLabel('Telegram').fill('https://telegram.org/ledgerpad');
    await page.getByLabel('Website').fill('ftp://ledgerpad.example');
    await page.getByRole('button', { name: 'List Token' }).click();
    for (const message of [
      LISTING_MESSAGES.formErrors,
      'Name must be 2-30 characters and only letters, numbers, spaces.',
      'Description must be less than 1000 characters.',
      'Telegram link must be a valid public or invite link starting with https://t.me/',
      'Website must start with http(s):// and be a valid URL.',
    ]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    await page.getByText(/^Twitter link must start with/).waitFor();

    const logo = page.getByLabel('Logo');
    await logo.setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await page.getByText('Only JPEG, PNG, and WebP images are allowed.').waitFor();
    await logo.setInputFiles({
      name: 'big.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
    });
    await page.getByText('Image size must be less than 5MB.').waitFor();
    await logo.setInputFiles({ name: 'wide.png', mimeType: 'image/png', buffer: await png(200, 100) });
    await page.getByText('Image must be square or near-square.').waitFor();

    expect(calls).toEqual(['/api/gateway-balances']);
  });

  it('has no horizontal scroll at 375 px, with a choice of currencies', async () => {
    const { page, url } = browser;
    await page.setViewportSize(MOBILE);
    await signIn(page, url);
    const funder = await appFundedWallet(page, url);
    const { issuer } = await issueToken(client, { ticker: unique('MA'), amounts: ['1'], funder });
    await issueToken(client, { ticker: 'USD', amounts: ['123456789.123'], issuer, funder });
    await fetchIssuer(page, url, issuer.address);
    expect(await noHorizontalScroll(page)).toBe(true);
    await page.getByTestId('listing-ticker').waitFor(LEDGER_WAIT);
    await page.getByRole('radio', { name: 'USD' }).check({ force: true });
    await expect.poll(() => page.getByTestId('listing-supply').textContent()).toBe('123,456,789.123');
    expect(await noHorizontalScroll(page)).toBe(true);
    await page.getByRole('button', { name: 'List Token' }).click();
    await page.getByText(LISTING_MESSAGES.formErrors).waitFor();
    expect(await noHorizontalScroll(page)).toBe(true);
  });
});
