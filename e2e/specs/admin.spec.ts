import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from '../support/fixture';
import { demoSignIn } from '../support/sign-in';
import { startServer, type RunningServer } from '../support/server';

// The /admin page against the real server: a signed-in non-admin gets the refusal and no admin
// data; the owner (signed in through the one-time owner link the server prints) changes the
// trading fee and finds the change in the Audit tab. Its own server: the owner link is printed
// once per start and is single-use.

const NOT_AN_ADMIN = 'Nice try. This door only opens for admins.';

/** The owner link the server printed at start (the line follows the 'running at' line). */
async function ownerLink(server: RunningServer): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const m = /Owner sign-in[^:]*: (http:\/\/\S+)/.exec(server.output());
    if (m?.[1]) {
      const link = new URL(m[1]);
      return `${server.url}${link.pathname}${link.search}`;
    }
    if (Date.now() > deadline) throw new Error(`no owner link printed:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('admin page', () => {
  const t = useBrowser();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses a signed-in non-admin and asks for no admin data', async () => {
    const page = t.page;
    await demoSignIn(page, server.url, `notadmin_${Date.now().toString(36)}`);
    const adminCalls: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/admin/')) adminCalls.push(path);
    });
    await page.goto(`${server.url}/admin`);
    await page.getByText(NOT_AN_ADMIN).waitFor();
    expect(await page.getByRole('tab').count()).toBe(0);
    await page.waitForTimeout(300);
    expect(adminCalls).toEqual(['/api/admin/check']);
  });

  it('the owner changes the trading fee and sees it in the Audit tab', async () => {
    const page = t.page;
    await page.goto(await ownerLink(server));
    await page.waitForURL((u) => !u.pathname.startsWith('/api/'));
    await page.goto(`${server.url}/admin`);
    await page.getByRole('tab', { name: 'Settings' }).click();

    const fee = page.getByLabel('Trading fee (%)');
    await expect.poll(() => fee.inputValue()).not.toBe('');
    const before = await fee.inputValue();
    const next = before === '0.4321' ? '0.1234' : '0.4321';
    await fee.fill(next);
    const saved = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/admin/fee-config/update');
    await page.getByRole('button', { name: 'Save fee' }).click();
    expect((await saved).ok()).toBe(true);
    await page.getByText(`Trading fee set to ${next}%`).waitFor();

    await page.getByRole('tab', { name: 'Audit' }).click();
    const row = page.getByRole('table', { name: 'Audit trail' }).getByRole('row').nth(1);
    await row.getByText('fee-config.update').waitFor();
    expect(await row.textContent()).toContain(`${before} → ${next}`);
    await page.getByText('Page 1 of 1').waitFor();
  });
});
