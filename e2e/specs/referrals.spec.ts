import { describe, expect, it } from 'vitest';
import { launchBrowser, screenshotWidths } from '../support/browser';
import { useBrowser } from '../support/fixture';
import { demoSignIn } from '../support/sign-in';

// A referral link in Chromium (docs/referrals.md): the referrer finds the link on /referrals and
// copies it; a visitor opens it in another browser, the code leaves the address bar, and their
// first sign-in carries it; the referrer's page then counts them.

const unique = (prefix: string) => `${prefix}_${Date.now().toString(36)}`;

describe('referral link', () => {
  const t = useBrowser();

  it('binds a visitor who opens the link and signs up, and the referrer sees them', async () => {
    const page = t.page;
    await demoSignIn(page, t.url, unique('ref_owner'));
    await page.getByRole('button', { name: 'XRPL Tools' }).click();
    await page.getByRole('menuitem', { name: 'Referrals' }).click();
    const input = page.getByRole('textbox', { name: 'Referral link' });
    await input.waitFor();
    const link = await input.inputValue();
    expect(link).toMatch(new RegExp(`^${t.url}/\\?ref=[a-km-np-z2-9]{8}$`));
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByText('Link copied').waitFor();
    expect(await page.getByTestId('ref-referred').textContent()).toBe('0');
    await screenshotWidths(page, 'referrals-page');

    // Another browser: the visitor follows the link, looks around, then signs up.
    const other = await launchBrowser();
    try {
      const visitor = await (await other.newContext()).newPage();
      await visitor.goto(link);
      await visitor.getByLabel('Demo account (embedded ledger)').waitFor();
      // The code is remembered, and no longer in the address bar.
      await expect.poll(() => new URL(visitor.url()).search).toBe('');
      await visitor.getByLabel('Demo account (embedded ledger)').fill(unique('ref_visitor'));
      const signUp = visitor.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/demo');
      await visitor.getByRole('button', { name: 'Sign in', exact: true }).click();
      const res = await signUp;
      expect(res.ok()).toBe(true);
      expect(new URL(res.url()).searchParams.get('ref')).toBe(new URL(link).searchParams.get('ref'));
      // Spent: the browser forgets the code once signed in.
      await expect.poll(() => visitor.evaluate(() => localStorage.getItem('ledgerpad_ref'))).toBeNull();
    } finally {
      await other.close();
    }

    await page.reload();
    await expect.poll(() => page.getByTestId('ref-referred').textContent()).toBe('1');
  });
});
