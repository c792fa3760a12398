import { expect } from 'vitest';
import type { Client } from 'xrpl';
import { RLUSD_CURRENCY_HEX } from '@ledgerpad/shared';
import { json, rlusdIssuerOverHttp, signInOverHttp } from './child-server';
import { until } from './wait';

// What the trading crash tests share: a real server's XRP/RLUSD market (the platform bootstrap's
// pool), traders signed in and funded over HTTP, their RLUSD buys with an Idempotency-Key, and an
// account's history read from the ledger afterwards.

/** One transaction of an account's history (`account_tx`, API v2). */
export interface AccountTx {
  tx_json?: {
    TransactionType: string;
    Account: string;
    Destination?: string;
    Amount?: unknown;
    DeliverMax?: unknown;
  };
  meta?: { TransactionResult: string; ParentBatchID?: string };
  hash?: string;
}

export async function accountHistory(client: Client, account: string): Promise<AccountTx[]> {
  const r = await client.request({ command: 'account_tx', account, limit: 400 });
  return r.result.transactions as unknown as AccountTx[];
}

export interface Trader {
  headers: Record<string, string>;
  address: string;
  post(url: string, body: object): Promise<Response>;
}

/**
 * The RLUSD issuer of a server started with PLATFORM_BOOTSTRAP=on, once its XRP/RLUSD pool answers
 * a quote (the bootstrap funds it shortly after start); `quoter` asks the quote.
 */
export async function rlusdMarket(base: string, quoter: Trader): Promise<string> {
  const rlusd = await rlusdIssuerOverHttp(base);
  await until(
    'an XRP/RLUSD pool that quotes',
    async () =>
      (
        await quoter.post('/api/amm-info', {
          issuer: rlusd,
          token: RLUSD_CURRENCY_HEX,
          amountXrp: '1',
          tradeType: 'BUY',
        })
      ).ok,
    { timeoutMs: 30_000, everyMs: 200 },
  );
  return rlusd;
}

/** `n` users signed in over HTTP (`<prefix>_<i>`), each with a new wallet the faucet funded. */
export function fundedTraders(base: string, prefix: string, n: number): Promise<Trader[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, u) => {
      const headers = await signInOverHttp(base, `${prefix}_${u}`);
      const post = (url: string, body: object) =>
        fetch(`${base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const wallet = await json(await post('/api/wallets', {}));
      const funded = await post(`/api/wallets/${wallet.id}/fund`, {});
      expect(funded.status, await funded.text()).toBe(200);
      return { headers, address: String(wallet.wallet_address), post };
    }),
  );
}

/** POST /api/swap on `base`: a buy of RLUSD for `xrp` XRP at 50% slippage, under `key`. */
export function buyRlusd(base: string, trader: Trader, rlusd: string, xrp: string, key: string) {
  return fetch(`${base}/api/swap`, {
    method: 'POST',
    headers: { ...trader.headers, 'idempotency-key': key },
    body: JSON.stringify({
      walletAddress: trader.address,
      issuer: rlusd,
      token: RLUSD_CURRENCY_HEX,
      amount: xrp,
      type: 'BUY',
      slippage: '50',
      baseAsset: 'XRP',
    }),
  });
}
