import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/fixture';

// The app shell a newcomer meets: header, menus, mobile drawer, sign-in prompt, 404 page, titles.

const MOBILE = { width: 375, height: 740 };
const MENU_LABELS = [
  'Deploy and List',
  'Swap',
  'Wallets',
  'Airdrops',
  'Positions',
  'Orders Manager',
  'List Any Token',
];
const ROUTES = [
  '/',
  '/terms',
  '/privacy-policy',
  '/token/rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
  '/deploy-list',
  '/swap',
  '/wallets',
  '/airdrops',
  '/airdrop/create',
  '/positions',
  '/orders',
  '/list-token',
  '/burner',
  '/dashboard',
  '/admin',
];

let counter = 0;
/** Demo usernames are per test: the shared server keeps every user. */
const uniqueName = () => `shell_${Date.now().toString(36)}_${++counter}`;

/**
 * Demo sign-in on the page already open, waiting for the server's answer: a navigation right after
 * the click would otherwise cancel the request on a busy machine (the menu then never appears).
 */
async function demoSignIn(page: Page, name: string): Promise<void> {
  await page.getByLabel('Demo account (embedded ledger)').fill(name);
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/demo');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const res = await answered;
  if (!res.ok()) throw new Error(`demo sign-in answered ${res.status()}`);
}

/** Client-side navigation, as a link inside the app does it (no request to the server). */
async function clientNavigate(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
const pageHeading = (page: Page) => page.getByRole('main').getByRole('heading', { level: 1 });
/** Radix moves focus between menu items a tick after the key press. */
const focusedText = (page: Page, text: string) =>
  page.waitForFunction((t) => document.activeElement?.textContent === t, text, { timeout: 5_000 });
const menuButton = (page: Page) => page.getByRole('button', { name: 'Menu', exact: true });

describe('app shell in Chromium', () => {
  const t = useBrowser();

  it('no page scrolls sideways at 375 px, signed out or signed in', async () => {
    const page = t.page;
    await page.setViewportSize(MOBILE);
    const check = async (signedIn: boolean) => {
      for (const path of [...ROUTES, '/no-such-page']) {
        if (path === '/no-such-page') {
          await clientNavigate(page, path);
          await page.getByRole('heading', { name: 'Page not found' }).waitFor();
        } else {
          await page.goto(`${t.url}${path}`);
          await pageHeading(page).first().waitFor();
        }
        if (signedIn) await menuButton(page).waitFor();
        expect(await scrollWidth(page), `${path} signed ${signedIn ? 'in' : 'out'}`).toBeLessThanOrEqual(
          MOBILE.width,
        );
        const logo = await page.getByRole('link', { name: 'Ledgerpad home' }).boundingBox();
        expect(logo && logo.x + logo.width <= MOBILE.width, path).toBe(true);
      }
    };
    await check(false);

    await page.goto(t.url);
    await demoSignIn(page, uniqueName());
    await menuButton(page).waitFor();
    await check(true);
    const button = await menuButton(page).boundingBox();
    expect(button && button.x + button.width <= MOBILE.width).toBe(true);
  });

  it('at 375 px the menu button opens a drawer with every item; Escape and navigating close it', async () => {
    const page = t.page;
    await page.setViewportSize(MOBILE);
    const name = uniqueName();
    await page.goto(t.url);
    await demoSignIn(page, name);
    await page.goto(`${t.url}/wallets`);
    await menuButton(page).waitFor();
    // The wide menu bar is not rendered at this width.
    expect(await page.getByRole('button', { name: 'XRPL Tools' }).count()).toBe(0);

    await menuButton(page).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await drawer.waitFor();
    for (const label of ['Token List', ...MENU_LABELS, 'Burner']) {
      expect(await drawer.getByRole('link', { name: label, exact: true }).isVisible(), label).toBe(true);
    }
    expect(await drawer.getByRole('button', { name: 'Buy XRP' }).isVisible()).toBe(true);
    expect(await drawer.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
    expect(await drawer.getByText(`Welcome, ${name}`).isVisible()).toBe(true);
    expect(await drawer.getByRole('link', { name: 'Wallets' }).getAttribute('aria-current')).toBe('page');

    // Focus stays inside the drawer.
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Menu');

    await menuButton(page).click();
    await drawer.getByRole('link', { name: 'Swap' }).click();
    await page.waitForURL(`${t.url}/swap`);
    await drawer.waitFor({ state: 'detached' });
    await pageHeading(page).filter({ hasText: 'Swap' }).waitFor();

    // Buy XRP in the drawer swaps the drawer for the not-configured notice.
    await menuButton(page).click();
    await drawer.getByRole('button', { name: 'Buy XRP' }).click();
    const notice = page.getByRole('dialog', { name: 'Buy XRP with a card' });
    await notice.waitFor();
    await drawer.waitFor({ state: 'detached' });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(MOBILE.width);
    await page.keyboard.press('Escape');
    await notice.waitFor({ state: 'detached' });

    await menuButton(page).click();
    await drawer.getByRole('button', { name: 'Logout' }).click();
    await page.getByLabel('Demo account (embedded ledger)').waitFor();
    expect(await menuButton(page).count()).toBe(0);
  });

  it('at 1280 px XRPL Tools is a real menu: separate items, keyboard, closes on navigation', async () => {
    const page = t.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(t.url);
    await demoSignIn(page, uniqueName());
    const trigger = page.getByRole('button', { name: 'XRPL Tools' });
    await trigger.waitFor();
    expect(await menuButton(page).count()).toBe(0);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(1280);

    await trigger.click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    const items = menu.getByRole('menuitem');
    expect(await items.allTextContents()).toEqual(['Burner', 'Buy XRP']);
    const burnerBox = await items.nth(0).boundingBox();
    const buyBox = await items.nth(1).boundingBox();
    expect(burnerBox && buyBox && burnerBox.y + burnerBox.height <= buyBox.y).toBe(true);
    // Nothing in the menu is the current page on /.
    expect(await menu.locator('[aria-current], .active').count()).toBe(0);
    expect(await trigger.getAttribute('class')).not.toMatch(/\bactive\b/);

    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await focusedText(page, 'XRPL Tools');

    // Keyboard only: Enter opens on the first item, ArrowDown moves, Escape closes.
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await focusedText(page, 'Burner');
    await page.keyboard.press('ArrowDown');
    await focusedText(page, 'Buy XRP');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await focusedText(page, 'XRPL Tools');

    await page.keyboard.press('Enter');
    await menu.waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${t.url}/burner`);
    await menu.waitFor({ state: 'detached' });
    await pageHeading(page).filter({ hasText: 'Token Burner' }).waitFor();
    expect(await trigger.getAttribute('class')).toMatch(/\bactive\b/);

    await trigger.click();
    await menu.waitFor();
    expect(await menu.getByRole('menuitem', { name: 'Burner' }).getAttribute('aria-current')).toBe('page');
    await menu.getByRole('menuitem', { name: 'Buy XRP' }).click();
    const notice = page.getByRole('dialog', { name: 'Buy XRP with a card' });
    await notice.waitFor();
    expect(await notice.getByText('Card purchases are not configured on this server.').isVisible()).toBe(
      true,
    );
    expect(await notice.textContent()).toContain('Fund with test XRP');
    expect(await menu.count()).toBe(0);
    await notice.getByRole('button', { name: 'Close' }).click();
    await notice.waitFor({ state: 'detached' });
    await focusedText(page, 'XRPL Tools');
  });

  it('the user menu closes 300 ms after the pointer leaves it', async () => {
    const page = t.page;
    const name = uniqueName();
    await page.goto(t.url);
    await demoSignIn(page, name);
    const welcome = page.getByRole('button', { name: `Welcome, ${name}` });
    await welcome.click();
    const logout = page.getByRole('menuitem', { name: 'Logout' });
    await logout.waitFor();
    await logout.hover();
    await page.waitForTimeout(400);
    expect(await logout.isVisible()).toBe(true);
    await page.mouse.move(10, 600);
    await logout.waitFor({ state: 'detached', timeout: 2_000 });
  });

  it('an unknown path shows the 404 page inside the layout, with a way home', async () => {
    const page = t.page;
    await page.goto(`${t.url}/terms`);
    await pageHeading(page).waitFor();
    await clientNavigate(page, '/no-such-page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.getByRole('banner').getByRole('link', { name: 'Ledgerpad home' }).isVisible()).toBe(
      true,
    );
    expect(await page.getByRole('contentinfo').isVisible()).toBe(true);
    expect(await page.title()).toBe('Page not found · Ledgerpad');

    await page.getByRole('link', { name: 'Back to the token list' }).click();
    await page.waitForURL(`${t.url}/`);
    await page.getByRole('heading', { name: 'Listed Tokens' }).waitFor();

    // A trailing slash is the same page, under its one address.
    await clientNavigate(page, '/terms/');
    await page.waitForURL(`${t.url}/terms`);
    await pageHeading(page).filter({ hasText: 'Terms of Service' }).waitFor();
  });

  it('a direct load of an unknown path answers 404 and renders the 404 page', async () => {
    const page = t.page;
    const res = await page.goto(`${t.url}/no-such-page`);
    expect(res?.status()).toBe(404);
    // The body must be the app (index.html), not a bare 'Not found'.
    await page.getByRole('heading', { name: 'Page not found' }).waitFor({ timeout: 5_000 });
    expect(await page.getByRole('link', { name: 'Back to the token list' }).isVisible()).toBe(true);
  });

  it('a signed-out visit to a tool asks to log in and stays on that page after signing in', async () => {
    const page = t.page;
    await page.goto(`${t.url}/wallets`);
    await page.getByText('Log in to use this tool.', { exact: false }).waitFor();
    expect(await pageHeading(page).textContent()).toBe('Wallets');
    expect(await page.getByRole('button', { name: 'Create Wallet' }).count()).toBe(0);

    const name = uniqueName();
    await demoSignIn(page, name);
    await page.getByRole('button', { name: `Welcome, ${name}` }).waitFor();
    await page.getByRole('button', { name: 'Create Wallet' }).waitFor();
    expect(page.url()).toBe(`${t.url}/wallets`);
    expect(await page.getByText('Log in to use this tool.', { exact: false }).count()).toBe(0);

    // Signed in, a reload never flashes the prompt while the session loads.
    await page.addInitScript(() => {
      const seen = { prompt: false };
      (window as unknown as { __seen: typeof seen }).__seen = seen;
      new MutationObserver(() => {
        if (document.body?.textContent?.includes('Log in to use this tool')) seen.prompt = true;
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.reload();
    await page.getByRole('button', { name: 'Create Wallet' }).waitFor();
    expect(
      await page.evaluate(() => (window as unknown as { __seen: { prompt: boolean } }).__seen.prompt),
    ).toBe(false);
  });

  it('every route has its own document title', async () => {
    const page = t.page;
    const titles: [string, string][] = [
      ['/', 'Ledgerpad — launch and trade XRPL tokens'],
      ['/terms', 'Terms of Service · Ledgerpad'],
      ['/privacy-policy', 'Privacy Policy · Ledgerpad'],
      ['/token/rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', 'Token · Ledgerpad'],
      ['/wallets', 'Wallets · Ledgerpad'],
      ['/orders', 'Orders Manager · Ledgerpad'],
      ['/burner', 'Token Burner · Ledgerpad'],
    ];
    for (const [path, title] of titles) {
      await page.goto(`${t.url}${path}`);
      await pageHeading(page).first().waitFor();
      expect(await page.title(), path).toBe(title);
    }
    await clientNavigate(page, '/no-such-page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.title()).toBe('Page not found · Ledgerpad');
  });

  it('the landing page downloads the shell and its own chunk only', async () => {
    const page = t.page;
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
    });
    await page.goto(t.url);
    await page.getByRole('heading', { name: 'Listed Tokens' }).waitFor();
    expect(scripts.some((s) => /home-page/.test(s))).toBe(true);
    expect(scripts.filter((s) => /signed-in-nav|terms-page|placeholder-page|not-found-page/.test(s))).toEqual(
      [],
    );
  });
});
