import type { Page } from 'playwright-core';

/**
 * Demo sign-in from the home page's login box. Waits for the server's answer (the session cookie)
 * before returning: the page is already at '/', so waiting for the URL alone would let the next
 * navigation cancel the sign-in request on a busy machine.
 */
export async function demoSignIn(page: Page, url: string, username: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Demo account (embedded ledger)').fill(username);
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/demo');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const res = await answered;
  if (!res.ok()) throw new Error(`demo sign-in answered ${res.status()}: ${await res.text()}`);
  await page.waitForURL(`${url}/`);
}
