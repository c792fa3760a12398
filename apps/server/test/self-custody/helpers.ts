import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Wallet } from 'xrpl';
import { decode } from 'xrpl';
import type { SigningIntent, WalletSummary } from '@ledgerpad/shared';
import type { SignedIn } from '../helpers/test-app';

// The "browser" of the self-custody tests: a real xrpl.js Wallet held by the test signs what the
// server prepared, as the web app's vault does (apps/web/src/lib/signer).

export async function call(
  app: FastifyInstance,
  who: SignedIn | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method,
    url,
    headers: { ...(who ? who.headers : {}), ...headers },
    ...(payload ? { payload } : {}),
  });
}

/** Proves ownership of `wallet` (signing the server's challenge with it) and adds it to `who`'s wallets. */
export async function addSelfCustody(
  app: FastifyInstance,
  who: SignedIn,
  wallet: Wallet,
  opts: { kind?: 'browser' | 'external'; app?: string; signer?: Wallet; name?: string } = {},
): Promise<WalletSummary> {
  const kind = opts.kind ?? 'browser';
  const ch = await call(app, who, 'POST', '/api/wallets/challenge', {
    address: wallet.classicAddress,
    kind,
    ...(opts.app ? { app: opts.app } : {}),
  });
  expect(ch.statusCode, ch.body).toBe(200);
  const { challengeId, tx } = ch.json() as { challengeId: string; tx: Record<string, unknown> };
  const signed = (opts.signer ?? wallet).sign(tx as never);
  const res = await call(app, who, 'POST', '/api/wallets/self-custody', {
    challengeId,
    signedTx: signed.tx_blob,
    ...(opts.name ? { name: opts.name } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as WalletSummary;
}

/** Signs each of the intent's transactions as prepared, or as `change` rewrites them (re-signed). */
export function signIntent(
  wallet: Wallet,
  intent: SigningIntent,
  change?: (tx: Record<string, unknown>, i: number) => Record<string, unknown>,
): string[] {
  return intent.txs.map((tx, i) => {
    const json = change ? change({ ...tx }, i) : tx;
    return wallet.sign(json as never).tx_blob;
  });
}

/** The intent an action on a self-custody wallet answers with. */
export function intentOf(res: { statusCode: number; body: string; json(): unknown }): SigningIntent {
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { status?: string; intent?: SigningIntent };
  expect(body.status).toBe('sign');
  return body.intent!;
}

/** A blob's fields, as the ledger reads it. */
export const fieldsOf = (blob: string) => decode(blob) as Record<string, unknown>;
