import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client, Wallet, type AccountSet, type EscrowCreate } from 'xrpl';
import { IDENTITY_MESSAGES, LISTING_MESSAGES, type ClaimTransaction } from '@ledgerpad/shared';
import { issueToken } from '../../apps/server/test/listing/issuer-fixture';
import { submitAndWait } from '../../apps/server/test/helpers/submit-and-wait';
import { appFundedWallet } from '../support/app-wallet';
import { deployWithApi } from '../support/deploy';
import { launchBrowser, screenshotWidths } from '../support/browser';
import { demoSignIn } from '../support/sign-in';
import { useBrowser } from '../support/fixture';

// Token identity in Chromium against the shared server (issue 24): B lists a token whose issuer B
// does not control — the list and the token page mark it 'Unverified' and its links as the
// lister's; the real issuer (its key held outside Ledgerpad, as in Xaman; xrpl.js signs here)
// claims it by sending the claim code the page shows, and its own details replace B's. Issue 35:
// a squatter's ZETA, listed first with a proof of its own issuer, reads 'same ticker as ZETA' and
// ranks below the real one (more ledger history); an issuer's two tokens get a chooser; the risk
// panel of a dev allocation in a conditional escrow is not green. Screens are saved at 1280 and
// 375 px under e2e/artifacts/identity-*.png.

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
      expect(await claimed.getByTestId('identity-badge').textContent()).toBe('✓ Controls the issuer');
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

  it('a squatter’s ZETA, listed first with a proof of its own issuer, reads “same ticker as” and ranks below the real one', async () => {
    const { page, url } = t;
    await page.setViewportSize(DESKTOP);
    const zeta = `ZETA${run}`;
    await demoSignIn(page, url, `squatter_${run.toLowerCase()}`);
    const funder = await appFundedWallet(page, url);
    // The real ZETA: four holders. The squatter's: one holder, from an issuer it controls.
    const real = await issueToken(client, { ticker: zeta, amounts: ['10', '20', '30', '40'], funder });
    const squat = await issueToken(client, { ticker: zeta, amounts: ['500'], funder });
    const api = async (who: Page, path: string, data: object) => {
      const { token } = (await (await who.request.get(`${url}/api/csrf-token`)).json()) as { token: string };
      const res = await who.request.post(`${url}${path}`, { headers: { 'x-csrf-token': token }, data });
      expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
      return (await res.json()) as Record<string, unknown>;
    };
    // The squatter imports its issuer (and the holder) and lists first, as 'Zeta Protocol'.
    await api(page, '/api/wallets/import', { seed: squat.issuer.seed });
    await api(page, '/api/wallets/import', { seed: squat.holders[0]!.seed });
    const listing = {
      name: 'Zeta Protocol',
      description: 'The one and only.',
      websiteLink: 'https://zeta.example',
    };
    await api(page, '/api/admin/tokens/add', { issuer_address: squat.issuer.address, ...listing });

    // The real team lists its ZETA afterwards, from its own browser, without a proof yet.
    const context = await second.newContext({ viewport: DESKTOP });
    try {
      const a = await context.newPage();
      await demoSignIn(a, url, `zeta_team_${run.toLowerCase()}`);
      await api(a, '/api/admin/tokens/add', { issuer_address: real.issuer.address, ...listing });
    } finally {
      await context.close();
    }

    // The list: searching ZETA puts the real one first; the squatter's reads 'same ticker as'.
    await page.goto(url);
    await page.getByPlaceholder('Search tokens by name, ticker, or issuer...').fill(zeta.toLowerCase());
    const rows = page.getByTestId('token-row');
    await expect.poll(() => rows.count(), LEDGER_WAIT).toBe(2);
    const issuerOf = (i: number) => rows.nth(i).locator('.issuer').getAttribute('title');
    expect(await issuerOf(0)).toBe(real.issuer.address);
    expect(await issuerOf(1)).toBe(squat.issuer.address);
    expect(await rows.nth(0).getByTestId('lookalike-warning').count()).toBe(0);
    const mark = rows.nth(1).getByTestId('lookalike-warning');
    expect(await mark.textContent()).toBe(`⚠ same ticker as ${zeta}`);
    await screenshotWidths(page, 'identity-same-ticker-list');

    // The squatter's page: its badge says only what it proved, its mark links the real one.
    await page.goto(`${url}/token/${squat.issuer.address}`);
    const header = page.locator('.token-header');
    await header.getByTestId('lookalike-warning').waitFor(LEDGER_WAIT);
    expect(await header.getByTestId('identity-badge').first().textContent()).toBe('✓ Controls the issuer');
    expect(await page.getByTestId('about-panel').getByTestId('lookalike-warning').textContent()).toBe(
      `⚠ same ticker as ${zeta}`,
    );
    await page.getByTestId('risk-verdict').waitFor(LEDGER_WAIT);
    await page.getByTestId('identity-history').locator('summary').click();
    await screenshotWidths(page, 'identity-same-ticker-token');
    await header.getByTestId('same-as-link').click();
    await page.waitForURL(`${url}/token/${real.issuer.address}/${encodeURIComponent(real.currency)}`);
    await page.locator('.token-header').getByTestId('identity-badge').waitFor(LEDGER_WAIT);
    expect(await page.locator('.token-header').getByTestId('lookalike-warning').count()).toBe(0);

    // The squatter's own wallets carry the mark too.
    await page.goto(`${url}/wallets`);
    const wallets = page.getByTestId('lookalike-warning');
    await wallets.first().waitFor(LEDGER_WAIT);
    expect(await wallets.first().textContent()).toBe(`⚠ same ticker as ${zeta}`);
    await screenshotWidths(page, 'identity-wallets-mark');
    expect(await noHorizontalScroll(page)).toBe(true);
  });

  it('asks which token at /token/{issuer} when the issuer lists two', async () => {
    const { page, url } = t;
    await page.setViewportSize(DESKTOP);
    await demoSignIn(page, url, `twocur_${run.toLowerCase()}`);
    const funder = await appFundedWallet(page, url);
    const safe = await issueToken(client, { ticker: `SAFE${run}`, amounts: ['100', '100'], funder });
    const rugg = await issueToken(client, {
      ticker: `RUGG${run}`,
      amounts: ['990'],
      issuer: safe.issuer,
      funder,
    });
    const { token } = (await (await page.request.get(`${url}/api/csrf-token`)).json()) as { token: string };
    for (const [currency, name] of [
      [safe.currency, 'Safe Coin'],
      [rugg.currency, 'Rugg Coin'],
    ]) {
      const res = await page.request.post(`${url}/api/admin/tokens/add`, {
        headers: { 'x-csrf-token': token },
        data: { issuer_address: safe.issuer.address, currency, name, description: '' },
      });
      expect(res.ok(), await res.text()).toBe(true);
    }
    await page.goto(`${url}/token/${safe.issuer.address}`);
    const chooser = page.getByTestId('token-chooser');
    await chooser.waitFor(LEDGER_WAIT);
    expect(await chooser.locator('.chooser-link').count()).toBe(2);
    await screenshotWidths(page, 'identity-token-chooser');
    expect(await noHorizontalScroll(page)).toBe(true);
    await chooser.getByRole('link', { name: new RegExp(`RUGG${run}`) }).click();
    await page.waitForURL(`${url}/token/${safe.issuer.address}/${rugg.currency}`);
    // RUGG's own risk check: one holder, not SAFE's two.
    await page.getByTestId('risk-verdict').waitFor(LEDGER_WAIT);
    expect(await page.locator('.risk-note').textContent()).toMatch(/^Holders: 1,/);
  });

  it('the risk panel of a dev allocation in a conditional escrow is not green', async () => {
    const { page, url } = t;
    await page.setViewportSize(DESKTOP);
    const ticker = `CND${run}`;
    const deployed = await deployWithApi(page.request, url, `escrow_dev_${run.toLowerCase()}`, [
      { name: `Cond Escrow ${run}`, ticker, devAllocation: '10', blackholeIssuer: true },
    ]);
    const token = deployed.tokens[0]!;
    const dev = Wallet.fromSeed(deployed.wallet.wallet_seed);
    // The whole 100,000 into an escrow with a crypto-condition and a five-year CancelAfter, no
    // FinishAfter: its fulfilment can finish it in the next ledger.
    const now = (await client.request({ command: 'ledger', ledger_index: 'validated' })).result.ledger
      .close_time;
    const created = await submitAndWait(
      client,
      {
        TransactionType: 'EscrowCreate',
        Account: dev.address,
        Destination: dev.address,
        Amount: { currency: token.currency, issuer: token.issuer_address, value: '100000' },
        Condition: 'A0258020' + '66687AADF862BD776C8FC18B8E9F8E20089714856EE233B3902A591D0D5F2925' + '810120',
        CancelAfter: now + 5 * 365 * 24 * 3600,
      } as unknown as EscrowCreate,
      dev,
    );
    expect((created.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');

    await page.goto(`${url}/token/${token.issuer_address}`);
    const escrow = page.getByTestId('risk-escrows').locator('li');
    await expect.poll(() => escrow.count(), LEDGER_WAIT).toBe(1);
    expect(await escrow.getAttribute('data-state')).toBe('conditional');
    expect(await escrow.textContent()).toContain(
      'has a crypto-condition: can be finished at any time, not a lock',
    );
    const line = page.getByTestId('risk-dev-allocation');
    expect(await line.getAttribute('class')).toContain('warn');
    expect(await line.getAttribute('class')).not.toContain('good');
    expect(await line.textContent()).toContain('10% — unlocked');
    expect(await page.getByTestId('risk-verdict').getAttribute('data-level')).not.toBe('good');
    await screenshotWidths(page, 'identity-risk-conditional');

    // The list keeps its amber 'unlocked' mark, and shows no green 'locked' one.
    await page.goto(url);
    await page.getByPlaceholder('Search tokens by name, ticker, or issuer...').fill(token.issuer_address);
    const row = page.getByTestId('token-row').filter({ hasText: ticker });
    await row.getByTestId('unlocked-mark').waitFor(LEDGER_WAIT);
    expect(await row.getByTestId('lock-mark').count()).toBe(0);
  });
});
