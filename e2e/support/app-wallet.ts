import type { Page } from 'playwright-core';
import { Wallet } from 'xrpl';

/**
 * A wallet created and funded through the app (the signed-in user's: Create Wallet returns its
 * seed once), usable by xrpl.js as a funding source for issuers and holders the app has no route
 * to make. Genesis stays the server's (it bootstraps and pays the faucet with it).
 */
export async function appFundedWallet(page: Page, url: string): Promise<Wallet> {
  const { token } = (await (await page.request.get(`${url}/api/csrf-token`)).json()) as { token: string };
  const headers = { 'x-csrf-token': token };
  const created = await page.request.post(`${url}/api/wallets`, { headers, data: {} });
  if (!created.ok()) throw new Error(`create wallet: ${created.status()} ${await created.text()}`);
  const wallet = (await created.json()) as { id: number; wallet_seed: string };
  const funded = await page.request.post(`${url}/api/wallets/${wallet.id}/fund`, { headers, data: {} });
  if (!funded.ok()) throw new Error(`faucet: ${funded.status()} ${await funded.text()}`);
  return Wallet.fromSeed(wallet.wallet_seed);
}
