import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { useBrowser } from '../support/fixture';
import { E2E_GOOGLE } from '../support/google';

/**
 * Routes the browser's Google calls to stand-ins: Google Identity Services' script (the token
 * client API as Google documents it: initTokenClient → requestAccessToken → callback with an
 * access token, only for the configured client id) and the userinfo lookup, answered by the same
 * stand-in Google the server asks (with `dropEmail`, as for an account without the email scope).
 */
async function routeGoogle(page: Page, dropEmail = false) {
  const script = `window.google = { accounts: { oauth2: { initTokenClient(config) {
    window.__gisConfig = { client_id: config.client_id, scope: config.scope };
    return { requestAccessToken() {
      setTimeout(() => config.client_id === ${JSON.stringify(E2E_GOOGLE.clientId)}
        ? config.callback({ access_token: ${JSON.stringify(E2E_GOOGLE.token)}, token_type: 'Bearer', expires_in: 3599, scope: config.scope })
        : config.error_callback && config.error_callback({ type: 'popup_failed_to_open' }), 0);
    } };
  } } } };`;
  await page.route('https://accounts.google.com/gsi/client', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: script }),
  );
  await page.route('https://www.googleapis.com/oauth2/v3/userinfo', async (route) => {
    const res = await fetch(`${inject('fakeGoogleUrl')}/v1/userinfo`, {
      headers: { authorization: route.request().headers().authorization ?? '' },
    });
    const body = (await res.json()) as Record<string, unknown>;
    if (dropEmail) delete body.email;
    await route.fulfill({
      status: res.status,
      contentType: 'application/json',
      headers: { 'access-control-allow-origin': '*' },
      body: JSON.stringify(body),
    });
  });
}

describe('signing in and out in Chromium', () => {
  const t = useBrowser();

  it('demo sign-in shows the welcome menu and tools; logout returns to the login box', async () => {
    await t.page.goto(t.url);
    await t.page.getByLabel('Demo account (embedded ledger)').fill('alice_e2e');
    await t.page.getByRole('button', { name: 'Sign in', exact: true }).click();

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
    await t.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await t.page.getByRole('alert').waitFor();
    expect(await t.page.getByRole('alert').textContent()).toBe(
      'Username must be 3-32 letters, digits or underscores',
    );
  });

  it('signs in with Google: token client, profile lookup, then the server checks the token', async () => {
    const { page, url } = t;
    await routeGoogle(page);
    await page.goto(url);
    const posted = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/auth/google');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    const body = (await posted).postDataJSON() as { token: string; userInfo: { email: string } };
    expect(body.token).toBe(E2E_GOOGLE.token);
    expect(body.userInfo.email).toBe(E2E_GOOGLE.email);
    await page.getByRole('button', { name: 'Welcome, Grace' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __gisConfig: unknown }).__gisConfig)).toEqual({
      client_id: E2E_GOOGLE.clientId,
      scope: 'openid email profile',
    });
    const me = await page.evaluate(async () => (await fetch('/api/user', { credentials: 'include' })).json());
    expect(JSON.stringify(me)).toContain(E2E_GOOGLE.email);
  });

  it('aborts Google sign-in silently when the profile has no email', async () => {
    const { page, url } = t;
    await routeGoogle(page, true);
    await page.goto(url);
    let posted = false;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/auth/google') posted = true;
    });
    const lookup = page.waitForResponse('https://www.googleapis.com/oauth2/v3/userinfo');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await lookup;
    // The button comes back, nobody is signed in, and the server was never asked.
    await page.getByRole('button', { name: 'Sign in with Google' }).and(page.locator(':enabled')).waitFor();
    expect(posted).toBe(false);
    expect(await page.getByRole('button', { name: /^Welcome,/ }).count()).toBe(0);
  });
});
