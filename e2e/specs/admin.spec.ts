import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'xrpl';
import { failedDeployAsNewUser, type FailedDeploy } from '../support/deploy';
import { useBrowser } from '../support/fixture';
import { demoSignIn } from '../support/sign-in';
import { ownerLink, startServer, type RunningServer } from '../support/server';

// The /admin page against the real server: a signed-in non-admin gets the refusal, no admin data
// and no Admin link; the owner (signed in through the one-time owner link the server prints)
// changes the trading fee, adds and removes an admin, refunds the staged wallet a failed deploy
// left, and finds each action in the Audit tab. Its own server: the owner link is printed once per
// start and is single-use. The failed deploy is made once, before the tests.

const NOT_AN_ADMIN = 'Nice try. This door only opens for admins.';

describe('admin page', () => {
  const t = useBrowser();
  let server: RunningServer;
  let ledgerUrl: string;
  let stranded: FailedDeploy;
  beforeAll(async () => {
    server = await startServer({ PLATFORM_BOOTSTRAP: 'on', DEMO_SEED: 'off' });
    ledgerUrl = /\(ledger: \S+ (wss?:\/\/[^\s)]+)\)/.exec(server.output())?.[1] ?? '';
    if (!ledgerUrl) throw new Error(`the server did not say where its ledger is:\n${server.output()}`);
    stranded = await failedDeployAsNewUser(server.url, ledgerUrl, `stranded_${Date.now().toString(36)}`);
    expect(stranded.error).toMatch(/tecNO_PERMISSION/);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses a signed-in non-admin, shows no Admin link and asks for no admin data', async () => {
    await demoSignIn(t.page, server.url, `notadmin_${Date.now().toString(36)}`);
    // A new tab of the same session: its app asks everything afresh, and only its requests count.
    const page = await t.page.context().newPage();
    const adminCalls: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/admin/')) adminCalls.push(path);
    });
    await page.goto(`${server.url}/admin`);
    await page.getByText(NOT_AN_ADMIN).waitFor();
    expect(await page.getByRole('tab').count()).toBe(0);
    // The menu is there, without an Admin link.
    await page.getByRole('link', { name: 'Wallets' }).waitFor();
    expect(await page.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    // Every read the page started has answered (no request for half a second): the user object says
    // they are no admin, so no admin route was asked (not even the check, whose 403 would be a
    // failed request in their console).
    await page.waitForLoadState('networkidle');
    expect(adminCalls).toEqual([]);
  });

  it('the owner changes the fee, adds and removes an admin, refunds a staged wallet, and sees each in the Audit tab', async () => {
    const page = t.page;
    await page.goto(await ownerLink(server));
    await page.waitForURL((u) => !u.pathname.startsWith('/api/'));
    // Admins get an Admin link in the menu.
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.waitForURL(`${server.url}/admin`);

    // 1. The trading fee.
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

    // 2. An admin added (the stranded deploy's user), then removed.
    await page.getByRole('tab', { name: 'Admins' }).click();
    await page.getByLabel('User ID').fill(String(stranded.userId));
    await page.getByRole('button', { name: 'Add admin' }).click();
    await page.getByText(`User ${stranded.userId} is now an admin`).waitFor();
    const row = page.getByRole('listitem').filter({ hasText: `#${stranded.userId}` });
    await row.getByRole('button', { name: 'Remove' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove admin' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await confirm.waitFor({ state: 'detached' });
    await row.waitFor({ state: 'detached' });
    // The owner has no remove button.
    expect(await page.getByRole('listitem').filter({ hasText: '#1' }).getByRole('button').count()).toBe(0);

    // 3. The failed deploy's issuer: its XRP back to the user's other wallet.
    await page.getByRole('tab', { name: 'Deployment Wallets' }).click();
    const issuer = page
      .getByRole('list', { name: 'Deployment wallets' })
      .getByRole('listitem')
      .filter({ hasText: 'Issuer' })
      .filter({ hasText: `User #${stranded.userId}` });
    const refundXrp = issuer.getByRole('button', { name: 'Refund XRP' });
    await expect.poll(() => refundXrp.isEnabled()).toBe(true);
    await refundXrp.click();
    const dialog = page.getByRole('dialog', { name: 'Refund XRP' });
    await dialog.getByRole('button', { name: 'Review' }).click();
    await dialog.getByText('Choose or enter destination wallet', { exact: true }).last().waitFor();
    await dialog.getByLabel('Destination wallet').selectOption(stranded.other.wallet_address);
    await dialog.getByRole('button', { name: 'Review' }).click();
    const refunded = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/admin/refund');
    await dialog.getByRole('button', { name: 'Confirm refund' }).click();
    const answer = await refunded;
    expect(answer.request().headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    const result = (await answer.json()) as { hash: string; amount: string; method: string };
    expect(answer.status()).toBe(200);
    const done = page.getByRole('dialog', { name: 'Refund sent' });
    expect(await done.getByTestId('refund-hash').textContent()).toBe(result.hash);
    await done.getByRole('button', { name: 'Done' }).click();
    // On the ledger: that transaction, validated, delivering the amount shown to the chosen wallet.
    const client = new Client(ledgerUrl);
    await client.connect();
    try {
      const tx = (await client.request({ command: 'tx', transaction: result.hash })).result as unknown as {
        validated: boolean;
        tx_json: { Destination: string };
        meta: { TransactionResult: string; delivered_amount: string };
      };
      expect(tx.validated).toBe(true);
      expect(tx.meta.TransactionResult).toBe('tesSUCCESS');
      expect(tx.tx_json.Destination).toBe(stranded.other.wallet_address);
      expect(new Decimal(tx.meta.delivered_amount).div(1_000_000).toFixed()).toBe(result.amount);
    } finally {
      await client.disconnect();
    }

    // 4. Each action in the Audit tab, newest first.
    await page.getByRole('tab', { name: 'Audit' }).click();
    const rows = page.getByRole('table', { name: 'Audit trail' }).getByRole('row');
    await rows.nth(1).getByText('refund').waitFor();
    const texts = (await rows.allTextContents()).slice(1);
    expect(texts[0]).toContain(`${result.amount}`);
    expect(texts[0]).toContain(`tx ${result.hash}`);
    expect(texts[1]).toContain('admins.remove');
    expect(texts[2]).toContain('admins.add');
    expect(texts[1]).toContain(String(stranded.userId));
    expect(texts[3]).toContain('fee-config.update');
    expect(texts[3]).toContain(`${before} → ${next}`);
    await page.getByText('Page 1 of 1').waitFor();
  });
});
