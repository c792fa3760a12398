import {
  intentRequiredSchema,
  type SequenceFallbackRequest,
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
//
// A Batch intent (a swap and its platform fee, all or nothing) goes to a wallet app too. When the
// app cannot sign it — its adapter fails, it refuses other than by its user's own "reject", or it
// answers with something that is not that Batch — the web asks the server for the same
// transactions one by one (POST /api/intents/{id}/sequence: the Batch is voided first) and the app
// signs those; the app is remembered for the session, so its next swaps go straight there. The
// user's own rejection ends the action: nothing is asked again.

export interface SigningWallet {
  wallet_address: string;
  wallet_name?: string | null;
  kind?: WalletKind;
  wallet_app?: WalletApp | null;
}

export type LedgerNetwork = 'standalone' | 'testnet' | 'mainnet';

/** The wallet app could not sign a Batch (not its user's rejection): its sequence version may. */
export class BatchRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BatchRefusedError';
  }
}

// The wallet apps that could not sign a Batch in this session (tab): their Batch intents are
// replaced by the sequence version without asking the app first.
const WITHOUT_BATCH_KEY = 'ledgerpad.apps-without-batch';
const withoutBatch = new Set<string>();

function appSignsBatch(app: WalletApp): boolean {
  try {
    const kept = JSON.parse(sessionStorage.getItem(WITHOUT_BATCH_KEY) ?? '[]') as unknown;
    if (Array.isArray(kept)) for (const a of kept) if (typeof a === 'string') withoutBatch.add(a);
  } catch {
    // No session storage (a private mode): this page's memory is the session.
  }
  return !withoutBatch.has(app);
}

function rememberWithoutBatch(app: WalletApp): void {
  withoutBatch.add(app);
  try {
    sessionStorage.setItem(WITHOUT_BATCH_KEY, JSON.stringify([...withoutBatch]));
  } catch {
    // Kept in this page's memory only.
  }
}

/** Forgets which wallet apps could not sign a Batch (a new session; tests). */
export function forgetAppsWithoutBatch(): void {
  withoutBatch.clear();
  try {
    sessionStorage.removeItem(WITHOUT_BATCH_KEY);
  } catch {
    // Nothing kept.
  }
}

/** Is `blob` the outer Batch that was asked for, signed (the server checks every field after)? */
async function isTheBatch(blob: string | undefined, outer: Record<string, unknown>): Promise<boolean> {
  if (!blob) return false;
  try {
    const { decode } = await import('xrpl');
    const tx = decode(blob) as Record<string, unknown>;
    const raw = tx.RawTransactions;
    return (
      tx.TransactionType === 'Batch' &&
      tx.Account === outer.Account &&
      tx.Sequence === outer.Sequence &&
      Array.isArray(raw) &&
      raw.length === (outer.RawTransactions as unknown[]).length &&
      typeof tx.TxnSignature === 'string'
    );
  } catch {
    return false;
  }
}

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
    if (intent.mode !== 'batch')
      return external.signInApp(wallet.wallet_app, wallet.wallet_address, txs, network);
    let blobs: string[];
    try {
      blobs = await external.signInApp(wallet.wallet_app, wallet.wallet_address, txs, network);
    } catch (err) {
      // The app failed while signing (not its user's "reject", not a wrong account): a Batch it
      // cannot sign.
      if (err instanceof external.WalletAppError && err.failure === 'sign-failed')
        throw new BatchRefusedError(err.message);
      throw err;
    }
    if (!(await isTheBatch(blobs[0], txs[0]!)))
      throw new BatchRefusedError('The wallet app did not answer with the Batch it was asked to sign.');
    return blobs;
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
  const intent = needed.data.intent;
  const submit = (id: string, blobs: string[]) =>
    apiPost<T>(`/api/intents/${id}/submit`, { blobs }, { idempotencyKey: submitKey });
  const app = wallet.kind === 'external' ? wallet.wallet_app : undefined;
  if (intent.mode !== 'batch' || !app) return submit(intent.id, await signIntent(wallet, intent, network));
  if (appSignsBatch(app)) {
    try {
      return submit(intent.id, await signIntent(wallet, intent, network));
    } catch (err) {
      if (!(err instanceof BatchRefusedError)) throw err;
      rememberWithoutBatch(app);
    }
  }
  // The same transactions one by one, the Batch voided first (the server records why).
  const body: SequenceFallbackRequest = { reason: 'app-cannot-sign-batch' };
  const replaced = intentRequiredSchema.parse(
    await apiPost(`/api/intents/${intent.id}/sequence`, body, { idempotencyKey: `${submitKey}.sequence` }),
  ).intent;
  if (replaced.mode === 'batch') throw new Error('The server answered a Batch again.');
  return submit(replaced.id, await signIntent(wallet, replaced, network));
}

export { SigningCancelledError } from './lock';
