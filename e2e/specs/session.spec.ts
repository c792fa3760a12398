import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/fixture';

describe('signing in and out in Chromium', () => {
  const t = useBrowser();

  it('demo sign-in shows the welcome menu and tools; logout returns to the login box', async () => {
    await t.page.goto(t.url);
    await t.page.getByLabel('Demo account (embedded ledger)').fill('alice_e2e');
    await t.page.getByRole('button', { name: 'Sign in' }).click();

    const welcome = t.page.getByRole('button', { name: 'Welcome, alice_e2e' });
    await welcome.waitFor();
    const nav = t.page.getByRole('navigation', { name: 'Main' });
    for (const label of [
      'Deploy and List',
      'Swap',
      'Wallets',
      'Airdrops',
      'Positions',
      'Orders Manager',
      'List Any Token',
    ]) {
      expect(await nav.getByRole('link', { name: label }).isVisible(), label).toBe(true);
    }
    // The login box is gone once signed in; the session survives a reload (cookie).
    expect(await t.page.getByLabel('Demo account (embedded ledger)').count()).toBe(0);
    await t.page.reload();
    await welcome.waitFor();

    await welcome.click();
    await t.page.getByRole('menuitem', { name: 'Logout' }).click();
    await t.page.getByLabel('Demo account (embedded ledger)').waitFor();
    expect(await nav.getByRole('link', { name: 'Swap' }).count()).toBe(0);
    const user = await t.page.evaluate(
      async () => (await fetch('/api/user', { credentials: 'include' })).status,
    );
    expect(user).toBe(401);
  });

  it('shows the server message when the demo username is invalid', async () => {
    await t.page.goto(t.url);
    await t.page.getByLabel('Demo account (embedded ledger)').fill('a!');
    await t.page.getByRole('button', { name: 'Sign in' }).click();
    await t.page.getByRole('alert').waitFor();
    expect(await t.page.getByRole('alert').textContent()).toBe(
      'Username must be 3-32 letters, digits or underscores',
    );
  });
});
