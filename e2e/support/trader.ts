import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { DeployResult } from '@ledgerpad/shared';
import { demoSignIn } from './sign-in';

// The worlds the trading specs build through the app's own API, in the page's session: a new demo
// user with funded wallets, and a market buy of a token from one of them.

export interface FundedUser {
  /** The CSRF header for the page's session. */
  headers: Record<string, string>;
  wallets: Array<{ id: number; wallet_address: string }>;
}

export async function fundedUser(page: Page, url: string, name: string, count = 1): Promise<FundedUser> {
  await demoSignIn(page, url, name);
  const { token } = (await (await page.request.get(`${url}/api/csrf-token`)).json()) as { token: string };
  const headers = { 'x-csrf-token': token };
  const wallets: FundedUser['wallets'] = [];
  for (let i = 0; i < count; i++) {
    const wallet = (await (await page.request.post(`${url}/api/wallets`, { headers, data: {} })).json()) as {
      id: number;
      wallet_address: string;
    };
    const funded = await page.request.post(`${url}/api/wallets/${wallet.id}/fund`, { headers, data: {} });
    expect(funded.ok(), await funded.text()).toBe(true);
    wallets.push(wallet);
  }
  return { headers, wallets };
}

/** A market buy of `token` for `xrp` XRP from `walletAddress`. */
export async function buyToken(
  page: Page,
  url: string,
  user: FundedUser,
  walletAddress: string,
  token: DeployResult,
  xrp: string,
): Promise<void> {
  const bought = await page.request.post(`${url}/api/swap`, {
    headers: user.headers,
    data: {
      walletAddress,
      issuer: token.issuer_address,
      token: token.currency,
      amount: xrp,
      type: 'BUY',
      slippage: '5',
    },
  });
  expect(bought.ok(), await bought.text()).toBe(true);
}
