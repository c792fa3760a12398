import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/fixture';

describe('home page in Chromium', () => {
  const t = useBrowser();

  it('renders the token list, goes to the terms and comes back', async () => {
    await t.page.goto(t.url);
    expect(await t.page.title()).toBe('Ledgerpad — launch and trade XRPL tokens');
    const list = t.page.getByRole('region', { name: 'Listed Tokens' });
    await list.waitFor();
    expect(await list.getByRole('heading', { name: 'Listed Tokens' }).isVisible()).toBe(true);
    expect(await t.page.getByPlaceholder('Search tokens by name, ticker, or issuer...').isVisible()).toBe(
      true,
    );
    expect(await list.getByText('No tokens found.').isVisible()).toBe(true);
    expect(await list.getByText('Page 1 / 1').isVisible()).toBe(true);
    // 'Token List' shows on every t.page except the home t.page.
    expect(await t.page.getByRole('link', { name: 'Token List' }).count()).toBe(0);

    await t.page.getByRole('link', { name: 'Terms of Service' }).click();
    await t.page.waitForURL(`${t.url}/terms`);
    await t.page.getByRole('heading', { name: 'Terms of Service' }).waitFor();
    expect(
      await t.page.getByText('Effective date: February 28, 2025. Last updated: April 30, 2025.').isVisible(),
    ).toBe(true);

    await t.page.getByRole('link', { name: 'Token List' }).click();
    await t.page.waitForURL(`${t.url}/`);
    await t.page.getByRole('heading', { name: 'Listed Tokens' }).waitFor();
  });

  it('serves deep links directly (SPA fallback)', async () => {
    const res = await t.page.goto(`${t.url}/privacy-policy`);
    expect(res?.status()).toBe(200);
    await t.page.getByRole('heading', { name: 'Privacy Policy' }).waitFor();
    expect(await t.page.getByText('We use essential cookies only', { exact: false }).isVisible()).toBe(true);
  });
});
