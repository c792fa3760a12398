import {
  intentRequiredSchema,
  serverSigns,
  type SigningIntent,
  type WalletApp,
  type WalletKind,
} from '@ledgerpad/shared';
import { apiPost } from '../api';
import { requestUnlock, withSecret } from './lock';

// The signer every ledger action goes through (docs/self-custody.md "Adding an action"):
//
//   custodial → the action's route signs on the server, as before;
//   browser   → the route answers an intent; unlock if needed, sign it here with xrpl.js, post it;
//   external  → the route answers an intent; the wallet app signs it; post it.
//
// `runSigned(wallet, () => apiPost(route, body, { idempotencyKey: key() }), key('signed'))` is the
// whole change an action needs on the web side: the answer is the route's own answer in every case.
// The signing code (xrpl.js, xrpl-connect) is loaded only here, only when a self-custody wallet
// signs: the landing page and custodial users never download it.

export interface SigningWallet {
  wallet_address: string;
  wallet_name?: string | null;
  kind?: WalletKind;
  wallet_app?: WalletApp | null;
}

export type LedgerNetwork = 'standalone' | 'testnet' | 'mainnet';

/** Signs every transaction of an intent with the wallet's own key (browser or wallet app). */
export async function signIntent(
  wallet: SigningWallet,
  intent: SigningIntent,
  network?: LedgerNetwork,
): Promise<string[]> {
  if (intent.account !== wallet.wallet_address) throw new Error('The intent is for another wallet.');
  // A Batch intent is signed as its outer transaction only.
  const txs = intent.mode === 'batch' ? intent.txs.slice(0, 1) : intent.txs;
  if (wallet.kind === 'browser') {
    await requestUnlock(wallet.wallet_address, wallet.wallet_name ?? 'Browser wallet');
    const keys = await import('./keys');
    return withSecret(wallet.wallet_address, (secret) => keys.signAll(secret, wallet.wallet_address, txs));
  }
  if (wallet.kind === 'external' && wallet.wallet_app) {
    const external = await import('./external');
    return external.signInApp(wallet.wallet_app, wallet.wallet_address, txs, network);
  }
  throw new Error('This wallet is signed for on the server.');
}

/**
 * Runs one ledger action of `wallet`: `send` calls the action's route (with the action's
 * Idempotency-Key). A custodial wallet's answer is final; a self-custody wallet's is an intent,
 * signed here and posted to /api/intents/{id}/submit with `submitKey`, whose answer is the
 * route's own answer.
 */
export async function runSigned<T>(
  wallet: SigningWallet,
  send: () => Promise<unknown>,
  submitKey: string,
  network?: LedgerNetwork,
): Promise<T> {
  const answer = await send();
  const needed = intentRequiredSchema.safeParse(answer);
  if (!needed.success) return answer as T;
  if (serverSigns(wallet.kind)) throw new Error('The server asked a custodial wallet to sign.');
  const blobs = await signIntent(wallet, needed.data.intent, network);
  return apiPost<T>(`/api/intents/${needed.data.intent.id}/submit`, { blobs }, { idempotencyKey: submitKey });
}

export { SigningCancelledError } from './lock';
