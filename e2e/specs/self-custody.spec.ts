import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, Wallet } from 'xrpl';
import { type DeployResult } from '@ledgerpad/shared';
import { ARTIFACTS_DIR, launchBrowser, screenshotWidths } from '../support/browser';
import { deployAsNewUser } from '../support/deploy';
import { installFakeGemWallet } from '../support/fake-gemwallet';
import { useBrowser } from '../support/fixture';
import { startServer, type RunningServer } from '../support/server';
import { demoSignIn } from '../support/sign-in';
import { buyToken, fundedUser } from '../support/trader';
import sharp from 'sharp';

// Self-custody wallets in Chromium against the real server and ledger (docs/self-custody.md): a
// browser wallet created in the page signs a market buy, a sell and a transfer; its seed is in no
// request the page sends; a signed blob changed on the way (re-signed with the right key) is
// refused by the intent check; a wallet app (a protocol-faithful GemWallet stand-in) connects,
// proves ownership, signs a transfer and swaps — its Batch signed, or refused and replaced by the
// same transactions one by one, or rejected by its user; a browser wallet funds a deploy with one
// signed intent and claims an airdrop into itself.

const run = Date.now().toString(36).slice(-4).toUpperCase();
const TICKER = `K${run}`;
const PASSPHRASE = 'a long test passphrase';
const LEDGER_WAIT = { timeout: 30_000 };

let server: RunningServer;
let deployer: Browser;
let token: DeployResult;

/** Every URL and body the page sends, for "the seed appears in no request". */
function captureRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => seen.push(`${r.method()} ${r.url()}\n${r.postData() ?? ''}`));
  return seen;
}

const card = (page: Page, name: RegExp | string) => page.getByRole('article', { name });

async function openWallets(page: Page, user: string): Promise<void> {
  await demoSignIn(page, server.url, user);
  await page.goto(`${server.url}/wallets`);
  await page.getByRole('heading', { name: 'Wallets', level: 1 }).waitFor();
}

async function fundXrp(page: Page, name: string): Promise<void> {
  await card(page, name).getByRole('button', { name: 'Fund with test XRP' }).click();
  await expect
    .poll(() => card(page, name).getByTestId('wallet-balance').textContent(), LEDGER_WAIT)
    .toMatch(/^1,000 XRP/);
}

/** Send → Review → Confirm; answers the unlock prompt when one opens. Returns the dialog. */
async function send(page: Page, walletName: string, to: string, amount: string, unlock?: string) {
  await card(page, walletName).getByRole('button', { name: 'Send' }).click();
  const modal = page.getByRole('dialog', { name: 'Send' });
  await modal.getByLabel('Recipient address').fill(to);
  await modal.getByLabel('Amount').fill(amount);
  await modal.getByRole('button', { name: 'Review' }).click();
  await page.getByRole('button', { name: 'Confirm and send' }).click();
  if (unlock) {
    const prompt = page.getByRole('dialog', { name: new RegExp(`^Unlock ${walletName}`) });
    await prompt.waitFor();
    await screenshotWidths(page, 'self-custody-unlock-prompt');
    await prompt.getByLabel('Passphrase').fill(unlock);
    await prompt.getByRole('button', { name: 'Unlock' }).click();
  }
}

beforeAll(async () => {
  // Its own server with the platform accounts (fee wallet, RLUSD), as `npm start` runs, and the
  // platform fee in the trade's own Batch as `npm start` has it on a ledger with Batch (the test
  // runner's NODE_ENV=test would turn its `auto` off).
  server = await startServer({ PLATFORM_BOOTSTRAP: 'on', TRADE_FEE_BATCH: 'on' });
  deployer = await launchBrowser();
  [token] = await deployAsNewUser(deployer, server.url, `scdev_${run.toLowerCase()}`, [
    { name: `Keys ${run}`, ticker: TICKER },
  ]);
}, 240_000);

afterAll(async () => {
  await deployer?.close();
  await server?.stop();
});

describe('self-custody wallets in Chromium', () => {
  const t = useBrowser();

  it('a browser wallet made in the page buys, sells and transfers; its seed is in no request', async () => {
    const { page } = t;
    const requests = captureRequests(page);
    await openWallets(page, `keeper_${run.toLowerCase()}`);

    await page.getByRole('button', { name: 'Create browser wallet' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a browser wallet' });
    await dialog.getByLabel('Name (optional)').fill('Pocket');
    await dialog.getByLabel('Passphrase', { exact: true }).fill(PASSPHRASE);
    await dialog.getByLabel('Repeat the passphrase').fill(PASSPHRASE);
    await screenshotWidths(page, 'self-custody-create-dialog');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const backup = page.getByRole('alertdialog', { name: 'Back up your browser wallet' });
    await backup.waitFor({ timeout: 30_000 });
    const seed = (await backup.getByLabel('Wallet seed').textContent())!.trim();
    expect(seed).toMatch(/^sEd/);
    const address = Wallet.fromSeed(seed).classicAddress;
    await backup.getByLabel('I saved it').check();
    await backup.getByRole('button', { name: 'Done' }).click();

    const pocket = card(page, 'Pocket');
    await pocket.getByTestId('wallet-kind').filter({ hasText: 'Browser key' }).waitFor();
    await pocket.getByText('Unlocked in this browser').waitFor();
    await fundXrp(page, 'Pocket');
    // A custodial wallet beside it, labelled as such.
    await page.getByRole('button', { name: 'Create Wallet' }).click();
    const seedModal = page.getByRole('alertdialog', { name: 'Save your wallet seed' });
    await seedModal.getByLabel('I saved it').check();
    await seedModal.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('wallet-kind').filter({ hasText: 'Custodial' }).first().waitFor();
    await screenshotWidths(page, 'self-custody-wallets-page');

    // Buy on the swap page from the browser wallet: it signs here, the server checks and submits.
    await page.goto(`${server.url}/swap?issuer=${token.issuer_address}&currency=${token.currency}`);
    const select = page.getByLabel('Wallet', { exact: true });
    const option = select.locator('option', { hasText: 'Pocket' });
    expect(await option.textContent()).toContain('Browser key');
    await select.selectOption((await option.getAttribute('value'))!);
    const quoted = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/amm-info');
    // The token's pool holds 10 XRP: 0.2 XRP moves its price by a few percent.
    await page.getByLabel('Amount (XRP)').fill('0.2');
    await quoted;
    await page.getByTestId('disclosure').waitFor();
    const submitted = page.waitForResponse((r) =>
      /\/api\/intents\/[^/]+\/submit$/.test(new URL(r.url()).pathname),
    );
    await page.locator('.trade-box button[type="submit"]').click();
    // A new page load starts locked (unlocked keys live in the tab's memory only): the prompt.
    const prompt = page.getByRole('dialog', { name: 'Unlock Pocket' });
    await prompt.getByLabel('Passphrase').fill(PASSPHRASE);
    await prompt.getByRole('button', { name: 'Unlock' }).click();
    expect((await submitted).status()).toBe(200);
    await page.getByTestId('you-received').waitFor(LEDGER_WAIT);
    expect(await page.getByTestId('trade-status').textContent()).toBe('✅ 1 swap(s) successful!');

    // Sell all of it.
    await page.getByRole('tab', { name: 'Sell' }).click();
    await page
      .getByRole('group', { name: 'Tokens in this wallet' })
      .getByRole('button', { name: new RegExp(TICKER) })
      .click();
    const sellQuote = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/amm-info');
    await page.getByRole('button', { name: '100%' }).click();
    await sellQuote;
    const sold = page.waitForResponse((r) =>
      /\/api\/intents\/[^/]+\/submit$/.test(new URL(r.url()).pathname),
    );
    await page.locator('.trade-box button[type="submit"]').click();
    expect((await sold).status()).toBe(200);
    await expect
      .poll(() => page.getByTestId('trade-status').textContent(), LEDGER_WAIT)
      .toBe('✅ 1 swap(s) successful!');

    // Lock, then transfer XRP: the passphrase prompt opens before the wallet signs.
    await page.goto(`${server.url}/wallets`);
    await page.getByRole('button', { name: 'Lock all now' }).click();
    await card(page, 'Pocket').getByText('Locked', { exact: true }).waitFor();
    const recipient = Wallet.generate().classicAddress;
    await send(page, 'Pocket', recipient, '2', PASSPHRASE);
    await page.getByRole('dialog', { name: 'Transfer sent' }).waitFor(LEDGER_WAIT);

    // Neither the seed, its key, nor the passphrase was in any request the page sent.
    const wallet = Wallet.fromSeed(seed);
    expect(requests.length).toBeGreaterThan(20);
    for (const secret of [seed, wallet.privateKey, PASSPHRASE])
      expect(requests.filter((r) => r.includes(secret))).toEqual([]);
    // …while the address went to the server (the ownership proof, the trades).
    expect(requests.some((r) => r.includes(address))).toBe(true);
  }, 240_000);

  it('a browser wallet deploys a token (one signed funding), claims an airdrop into itself, creates one, and places a delegated limit order', async () => {
    const { page } = t;
    const project = `SC drop ${run}`;
    // An airdrop of the suite's token, made through the API by a custodial holder elsewhere.
    const other = await page.context().browser()!.newContext();
    try {
      const p2 = await other.newPage();
      const holder = await fundedUser(p2, server.url, `scholder_${run.toLowerCase()}`);
      await buyToken(p2, server.url, holder, holder.wallets[0]!.wallet_address, token, '2');
      const made = await p2.request.post(`${server.url}/api/airdrops`, {
        headers: holder.headers,
        data: {
          sourceWalletId: holder.wallets[0]!.id,
          tokenCode: token.currency,
          issuerAddress: token.issuer_address,
          projectName: project,
          tagline: 'For browser wallets',
          logoUrl: '',
          description: 'An e2e airdrop',
          perUserType: 'fixed',
          totalTokenAmount: '100',
          fixedAmount: '50',
          deadline: new Date(Date.now() + 3600_000).toISOString(),
          website: '',
          twitter: '',
          trustlineMode: 'auto',
        },
      });
      expect(made.status(), await made.text()).toBe(202);
    } finally {
      await other.close();
    }

    const requests = captureRequests(page);
    await openWallets(page, `launcher_${run.toLowerCase()}`);
    await page.getByRole('button', { name: 'Create browser wallet' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a browser wallet' });
    await dialog.getByLabel('Name (optional)').fill('Launcher');
    await dialog.getByLabel('Passphrase', { exact: true }).fill(PASSPHRASE);
    await dialog.getByLabel('Repeat the passphrase').fill(PASSPHRASE);
    await dialog.getByRole('button', { name: 'Create' }).click();
    const backup = page.getByRole('alertdialog', { name: 'Back up your browser wallet' });
    await backup.waitFor({ timeout: 30_000 });
    const seed = (await backup.getByLabel('Wallet seed').textContent())!.trim();
    await backup.getByLabel('I saved it').check();
    await backup.getByRole('button', { name: 'Done' }).click();
    await fundXrp(page, 'Launcher');

    // Deploy from it: the page asks the passphrase, the wallet signs the two fundings, the
    // platform's job launches the token.
    const ticker = `L${run}`;
    await page.goto(`${server.url}/deploy-list`);
    await page.getByRole('heading', { name: 'Deploy and List Token', level: 1 }).waitFor();
    const walletSelect = page.getByLabel('Wallet');
    await expect
      .poll(async () =>
        (await walletSelect.locator('option').allTextContents()).some((o) => o.includes('Launcher')),
      )
      .toBe(true);
    await walletSelect.selectOption(
      (await walletSelect.locator('option', { hasText: 'Launcher' }).first().getAttribute('value'))!,
    );
    // A dev allocation is offered (issue 38): the issuer writes a Check of it, the wallet claims it
    // after the launch (the lock section's defaults: 25% after 24 h, the rest over months).
    await page.getByLabel('Dev allocation (%)').fill('10');
    await page.getByLabel('Token name').fill(`Launch ${run}`);
    await page.getByLabel('Ticker').fill(ticker);
    await page.getByLabel('Supply').fill('1000000');
    await page.getByLabel('Liquidity amount (XRP)').fill('10');
    await page.getByLabel('AMM fee (%)').fill('0.5');
    // A first buy is offered too: the hot wallet buys in the pool's Batch, a Check brings the tokens.
    await page.getByLabel('Your first buy (XRP, optional)').fill('1');
    await page.getByLabel('Description').fill('Deployed from a browser wallet.');
    const logo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/upload') && r.ok());
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'l.png', mimeType: 'image/png', buffer: logo });
    await uploaded;
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: 'Token Preview' }).waitFor();
    const funded = page.waitForResponse((r) =>
      /\/api\/intents\/[^/]+\/submit$/.test(new URL(r.url()).pathname),
    );
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const prompt = page.getByRole('dialog', { name: 'Unlock Launcher' });
    await prompt.getByLabel('Passphrase').fill(PASSPHRASE);
    await prompt.getByRole('button', { name: 'Unlock' }).click();
    expect((await funded).status()).toBe(200);
    const progress = page.getByRole('alertdialog', { name: 'Deploying your token' });
    await progress
      .getByText(`Deployment completed: ${ticker} is live and listed.`)
      .waitFor({ timeout: 120_000 });
    // The allocation waits in the issuer's Check, not locked, and the modal says so; one more
    // signature claims it and locks it in the wallet's own escrows.
    const claimBox = progress.getByTestId('allocation-claim');
    await claimBox.getByText('it is not locked', { exact: false }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS_DIR}/self-custody-allocation-claim.png` });
    const claimed = page.waitForResponse((r) =>
      /\/api\/intents\/[^/]+\/submit$/.test(new URL(r.url()).pathname),
    );
    await claimBox.getByText('first buy', { exact: false }).waitFor();
    // The dev allocation and the first buy's swap-out, one claim: XLS-30 with the pool's 10 XRP and
    // 900,000 tokens, 1 XRP in at the auction slot's 0.05% (0.5% / 10):
    // 900,000 × (1 − 10 / (10 + 1 × 0.9995)) = 81,780.990045002… tokens.
    await claimBox
      .getByRole('button', { name: new RegExp(`^Claim 181,780\\.99\\d* ${ticker}, locking 100,000$`) })
      .click();
    // The vault may still be open from the deploy's signature a moment ago: a prompt only if not.
    const unlockClaim = page.getByRole('dialog', { name: 'Unlock Launcher' });
    const first = await Promise.race([
      claimed.then(() => 'sent' as const),
      unlockClaim.waitFor().then(() => 'prompt' as const),
    ]);
    if (first === 'prompt') {
      await unlockClaim.getByLabel('Passphrase').fill(PASSPHRASE);
      await unlockClaim.getByRole('button', { name: 'Unlock' }).click();
    }
    expect((await claimed).status()).toBe(200);
    await expect
      .poll(() => progress.getByTestId('allocation-claimed').textContent(), LEDGER_WAIT)
      .toMatch(
        /^Dev allocation claimed: 100,000 L\w+, 7 tranche\(s\) locked on the ledger\. First buy claimed: 81,780\.99\d* L\w+\.$/,
      );
    await page.screenshot({ path: `${ARTIFACTS_DIR}/self-custody-allocation-claimed.png` });

    // Claim the airdrop into the same wallet: it signs only its trust line; the platform pays.
    await page.goto(`${server.url}/airdrops`);
    const drop = page.getByTestId('airdrop-card').filter({ hasText: project });
    await drop.getByRole('button', { name: 'Claim' }).click({ timeout: 60_000 });
    const modal = page.getByRole('dialog', { name: `Claim ${project}` });
    const destination = modal.getByLabel('Destination wallet');
    await destination.selectOption(
      (await destination.locator('option', { hasText: 'Launcher' }).first().getAttribute('value'))!,
    );
    await modal.getByRole('button', { name: 'Claim', exact: true }).click();
    const again = page.getByRole('dialog', { name: 'Unlock Launcher' });
    await again.getByLabel('Passphrase').fill(PASSPHRASE);
    await again.getByRole('button', { name: 'Unlock' }).click();
    const done = page.getByRole('alertdialog', { name: 'Airdrop claimed' });
    await done.getByTestId('claimed-amount').waitFor({ timeout: 70_000 });
    expect(await done.getByTestId('claimed-amount').textContent()).toBe(`50 ${TICKER}`);

    await done.getByRole('button', { name: 'Close', exact: true }).last().click();

    // And airdrops 20 of them from the form: the wallet signs the airdrop wallet's funding, the
    // fee and a Check of the 20; the job cashes it and the airdrop opens.
    const ownDrop = `SC own ${run}`;
    await page.goto(`${server.url}/airdrop/create`);
    await page.getByRole('heading', { name: 'Create Airdrop', level: 1 }).waitFor();
    const source = page.getByLabel('Source wallet');
    await expect
      .poll(async () =>
        (await source.locator('option').allTextContents()).some((o) => o.includes('Launcher')),
      )
      .toBe(true);
    await source.selectOption(
      (await source.locator('option', { hasText: 'Launcher' }).first().getAttribute('value'))!,
    );
    const tokenSelect = page.getByLabel('Token', { exact: true });
    await expect.poll(() => tokenSelect.locator('option', { hasText: TICKER }).count()).toBe(1);
    await tokenSelect.selectOption(
      (await tokenSelect.locator('option', { hasText: TICKER }).getAttribute('value'))!,
    );
    await page.getByLabel('Project name').fill(ownDrop);
    await page.getByLabel('Tagline').fill('From a browser wallet');
    await page.getByLabel('Total token amount').fill('20');
    await page.getByLabel('Amount per user').fill('10');
    const signedDrop = page.waitForResponse((r) =>
      /\/api\/intents\/[^/]+\/submit$/.test(new URL(r.url()).pathname),
    );
    await page.getByRole('button', { name: 'Create Airdrop' }).click();
    const third = page.getByRole('dialog', { name: 'Unlock Launcher' });
    await third.getByLabel('Passphrase').fill(PASSPHRASE);
    await third.getByRole('button', { name: 'Unlock' }).click();
    const signedAnswer = await signedDrop;
    expect(signedAnswer.status(), await signedAnswer.text()).toBe(200);
    await page.waitForURL(`${server.url}/airdrops`, { timeout: 60_000 });
    const ownCard = page.getByTestId('airdrop-card').filter({ hasText: ownDrop });
    await ownCard.waitFor(LEDGER_WAIT);
    expect(await ownCard.getByTestId('per-claim').textContent()).toBe(`10 ${TICKER}`);

    // Delegated trading on (one DelegateSet signed here), then a limit order with no signature:
    // the page loads locked, and no passphrase prompt opens — Ledgerpad's delegate signs it.
    await page.goto(`${server.url}/wallets`);
    const launcher = card(page, 'Launcher');
    await launcher.getByRole('button', { name: 'Enable delegated trading' }).click();
    const fourth = page.getByRole('dialog', { name: 'Unlock Launcher' });
    await fourth.getByLabel('Passphrase').fill(PASSPHRASE);
    await fourth.getByRole('button', { name: 'Unlock' }).click();
    await launcher.getByText(/^Delegated trading is on/).waitFor(LEDGER_WAIT);
    await page.goto(`${server.url}/swap?issuer=${token.issuer_address}&currency=${token.currency}`);
    const select = page.getByLabel('Wallet', { exact: true });
    await select.selectOption(
      (await select.locator('option', { hasText: 'Launcher' }).first().getAttribute('value'))!,
    );
    const submits = requests.length;
    await page.getByRole('button', { name: 'Limit', exact: true }).click();
    await page.getByTestId('market-price').filter({ hasText: 'XRP' }).waitFor();
    await page.getByLabel('Amount (XRP)').fill('2');
    // A bid far below the market rests on the book.
    await page.getByLabel('Limit price (XRP per token)').fill('0.000001');
    const placed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/limit-order');
    await page.getByRole('button', { name: 'Place Buy Order' }).click();
    expect((await placed).status()).toBe(200);
    const status = page.getByTestId('trade-status').filter({ hasText: 'limit order' });
    await status.waitFor({ timeout: 20_000 });
    expect(await status.textContent()).toBe('📌 1 limit order(s) placed.');
    expect(await page.getByRole('dialog', { name: 'Unlock Launcher' }).count()).toBe(0);
    expect(requests.slice(submits).filter((r) => /\/api\/intents\/[^/]+\/submit/.test(r))).toEqual([]);

    // Neither the seed, its key, nor the passphrase was in any request the page sent.
    const wallet = Wallet.fromSeed(seed);
    for (const secret of [seed, wallet.privateKey, PASSPHRASE])
      expect(requests.filter((r) => r.includes(secret))).toEqual([]);
  }, 300_000);

  it('refuses a blob changed on the way (re-signed with the right key) with the sentence; nothing moves', async () => {
    const { page } = t;
    const requests = captureRequests(page);
    const key = Wallet.generate();
    await openWallets(page, `tamper_${run.toLowerCase()}`);
    // Import an existing key into this browser only.
    await page.getByRole('button', { name: 'Import Wallet' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Wallet' });
    await dialog.getByText('Only in this browser').click();
    await dialog.getByTestId('custody-note').filter({ hasText: 'never sent to the server' }).waitFor();
    await dialog.getByRole('textbox', { name: 'Seed' }).fill(key.seed!);
    await dialog.getByLabel('Name (optional)').fill('Imported');
    await dialog.getByLabel('Passphrase', { exact: true }).fill(PASSPHRASE);
    await dialog.getByLabel('Repeat the passphrase').fill(PASSPHRASE);
    await screenshotWidths(page, 'self-custody-import-dialog');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await card(page, 'Imported')
      .getByTestId('wallet-kind')
      .filter({ hasText: 'Browser key' })
      .waitFor(LEDGER_WAIT);
    await fundXrp(page, 'Imported');

    // The attacker's proxy: the signed payment's Amount raised, then signed again with the wallet's
    // own key — only the server's comparison with what it prepared can catch it.
    const recipient = Wallet.generate().classicAddress;
    let altered = false;
    await page.route('**/api/intents/*/submit', async (route: Route) => {
      const body = route.request().postDataJSON() as { blobs: string[] };
      const tx = decode(body.blobs[0]!) as Record<string, unknown>;
      delete tx.TxnSignature;
      delete tx.SigningPubKey;
      const changed = key.sign({ ...tx, Amount: String(Number(tx.Amount) * 10) } as never).tx_blob;
      altered = true;
      await route.continue({ postData: JSON.stringify({ blobs: [changed] }) });
    });
    await send(page, 'Imported', recipient, '3');
    const failed = page.getByRole('dialog', { name: 'Transfer failed' });
    await failed.waitFor(LEDGER_WAIT);
    expect(altered).toBe(true);
    expect(await failed.getByRole('alert').textContent()).toBe(
      'The signed transaction does not match what was prepared: Amount differs.',
    );
    // Nothing was sent: the recipient does not exist on the ledger.
    const info = await page.request.post(`${server.url}/api/wallets/balances`, {
      headers: { 'x-csrf-token': await csrf(page) },
      data: {},
    });
    const imported = ((await info.json()) as Array<{ wallet_address: string; balance: string }>).find(
      (w) => w.wallet_address === key.classicAddress,
    );
    expect(imported?.balance).toBe('1000');
    expect(requests.filter((r) => r.includes(key.seed!) || r.includes(PASSPHRASE))).toEqual([]);
  }, 180_000);

  it('connects a wallet app through xrpl-connect (GemWallet), proves ownership, signs a transfer there and swaps (its Batch refused: one by one)', async () => {
    const { page } = t;
    const app = Wallet.generate();
    // This GemWallet cannot sign a Batch: it answers the request with an error.
    const gem = await installFakeGemWallet(page.context(), app, { refuseBatch: true });
    await openWallets(page, `gem_${run.toLowerCase()}`);
    await page.getByRole('button', { name: 'Connect wallet app' }).click();
    await page
      .getByRole('dialog', { name: 'Connect a wallet app' })
      .getByRole('button', { name: 'GemWallet' })
      .click();
    const appCard = card(page, /Wallet 1/);
    await appCard.getByTestId('wallet-kind').filter({ hasText: 'GemWallet' }).waitFor(LEDGER_WAIT);
    await appCard.getByText(app.classicAddress).waitFor();
    // Connected (installed? then the account), then the ownership challenge signed in the app.
    expect(gem.requests.slice(0, 2)).toEqual(['REQUEST_IS_INSTALLED/V3', 'REQUEST_GET_PUBLIC_KEY/V3']);
    expect(gem.requests).toContain('REQUEST_SIGN_TRANSACTION/V3');
    expect(gem.signed[0]).toMatchObject({
      TransactionType: 'AccountSet',
      Account: app.classicAddress,
      Sequence: 0,
    });

    await fundXrp(page, 'Wallet 1');
    const recipient = Wallet.generate().classicAddress;
    await send(page, 'Wallet 1', recipient, '4');
    await page.getByRole('dialog', { name: 'Transfer sent' }).waitFor(LEDGER_WAIT);
    await page.getByRole('button', { name: 'Done' }).click();
    await screenshotWidths(page, 'self-custody-wallet-app');
    const payment = gem.signed.at(-1)!;
    expect(payment).toMatchObject({
      TransactionType: 'Payment',
      Account: app.classicAddress,
      Destination: recipient,
      Amount: '4000000',
    });

    // A buy: the app is asked for the Batch (trust line, trade and fee, all or nothing) and refuses
    // it, so the page asks for the same transactions one by one and the app signs those.
    const buy = () => appBuy(page, 'Wallet 1');
    const signedBefore = gem.signed.length;
    const { calls: first } = await buy();
    expect(first.map((p) => p.replace(/[0-9a-f-]{36}/, '{id}'))).toEqual([
      '/api/swap',
      '/api/intents/{id}/sequence',
      '/api/intents/{id}/submit',
    ]);
    expect(gem.refused.map((tx) => tx.TransactionType)).toEqual(['Batch']);
    const [refused] = gem.refused;
    const inner = (refused!.RawTransactions as Array<{ RawTransaction: Record<string, unknown> }>).map(
      (r) => r.RawTransaction,
    );
    // The fee disclosed (0.75% of 0.2 XRP: 1,500 drops) inside the refused Batch, then signed
    // on its own after the trust line and the trade, to the same fee wallet.
    const signedNow = gem.signed.slice(signedBefore);
    expect(signedNow.map((tx) => tx.TransactionType)).toEqual(['TrustSet', 'Payment', 'Payment']);
    expect(signedNow[2]).toMatchObject({ Amount: '1500', Destination: inner[2]!.Destination });
    expect(inner[2]).toMatchObject({ Amount: '1500' });
    // The Batch's own sequence: the ledger can take only one of the two.
    expect(signedNow[0]!.Sequence).toBe(refused!.Sequence);

    // The next buy in this session: the app is not asked for a Batch again.
    const { calls: second } = await buy();
    expect(second).toHaveLength(3);
    expect(gem.refused).toHaveLength(1);
    expect(gem.signed.slice(signedBefore + 3).map((tx) => tx.TransactionType)).toEqual([
      'Payment',
      'Payment',
    ]);
  }, 240_000);

  it("a wallet app that signs the Batch: one blob, the fee inside it; its user's reject ends a swap", async () => {
    const { page } = t;
    const app = Wallet.generate();
    const gem = await installFakeGemWallet(page.context(), app);
    await openWallets(page, `gemb_${run.toLowerCase()}`);
    await page.getByRole('button', { name: 'Connect wallet app' }).click();
    await page
      .getByRole('dialog', { name: 'Connect a wallet app' })
      .getByRole('button', { name: 'GemWallet' })
      .click();
    await card(page, /Wallet 1/)
      .getByTestId('wallet-kind')
      .filter({ hasText: 'GemWallet' })
      .waitFor(LEDGER_WAIT);
    await fundXrp(page, 'Wallet 1');

    const { calls } = await appBuy(page, 'Wallet 1');
    expect(calls.map((p) => p.replace(/[0-9a-f-]{36}/, '{id}'))).toEqual([
      '/api/swap',
      '/api/intents/{id}/submit',
    ]);
    // One signature: the outer Batch, carrying the trust line, the trade and the 1,500-drop fee.
    const batch = gem.signed.at(-1)!;
    expect(batch).toMatchObject({ TransactionType: 'Batch', Account: app.classicAddress });
    const inner = (batch.RawTransactions as Array<{ RawTransaction: Record<string, unknown> }>).map(
      (r) => r.RawTransaction,
    );
    expect(inner.map((tx) => tx.TransactionType)).toEqual(['TrustSet', 'Payment', 'Payment']);
    expect(inner[2]).toMatchObject({ Amount: '1500' });
    expect(gem.refused).toEqual([]);

    // Its user says no: the swap ends with the sentence; nothing replaced, nothing sent.
    gem.reject = true;
    const { calls: rejected } = await appBuy(page, 'Wallet 1', 'The request was rejected in the wallet app.');
    expect(rejected).toEqual(['/api/swap']);
    expect(gem.refused.map((tx) => tx.TransactionType)).toEqual(['Batch']);
  }, 240_000);
});

/**
 * A 0.2 XRP buy of the spec's token on the swap page from `wallet` (a wallet app's): the API calls
 * of the swap itself, once the box shows the outcome (`failure`: that sentence instead of success).
 */
async function appBuy(page: Page, wallet: string, failure?: string): Promise<{ calls: string[] }> {
  await page.goto(`${server.url}/swap?issuer=${token.issuer_address}&currency=${token.currency}`);
  const select = page.getByLabel('Wallet', { exact: true });
  const option = select.locator('option', { hasText: wallet });
  expect(await option.textContent()).toContain('GemWallet');
  await select.selectOption((await option.getAttribute('value'))!);
  const quoted = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/amm-info');
  await page.getByLabel('Amount (XRP)').fill('0.2');
  await quoted;
  await page.getByTestId('disclosure').waitFor();
  const asked: string[] = [];
  const listen = (r: { url(): string }) => asked.push(new URL(r.url()).pathname);
  page.on('request', listen);
  await page.locator('.trade-box button[type="submit"]').click();
  if (failure) await page.getByText(failure).first().waitFor(LEDGER_WAIT);
  else
    await expect
      .poll(() => page.getByTestId('trade-status').textContent(), LEDGER_WAIT)
      .toBe('✅ 1 swap(s) successful!');
  page.off('request', listen);
  return { calls: asked.filter((p) => p === '/api/swap' || p.startsWith('/api/intents/')) };
}

async function csrf(page: Page): Promise<string> {
  return ((await (await page.request.get(`${server.url}/api/csrf-token`)).json()) as { token: string }).token;
}
