import type { WalletApp } from '@ledgerpad/shared';
import type { WalletManager, XrplConnectNetwork } from 'xrpl-connect';

// Wallet apps through xrpl-connect (docs/self-custody.md): connect, sign each transaction in the
// app. xrpl-connect (1.2 MB with every adapter) is imported only when a wallet app is used, never
// on page load. Xaman needs an API key and WalletConnect a project id (neither is configured by
// this server yet), so the apps that work without one are offered: GemWallet, Crossmark, Ledger.

export { READY_APPS, UNCONFIGURED_APPS } from './external-apps';

/**
 * Why the app did not sign: its user said no ('rejected'); the app failed or refused while signing
 * ('sign-failed': its adapter's error, an empty answer); or something before signing ('other':
 * not connected, another account).
 */
export type WalletAppFailure = 'rejected' | 'sign-failed' | 'other';

export class WalletAppError extends Error {
  constructor(
    message: string,
    readonly failure: WalletAppFailure = 'other',
  ) {
    super(message);
    this.name = 'WalletAppError';
  }
}

let manager: { app: WalletApp; wm: WalletManager } | undefined;

function networkOf(network: 'standalone' | 'testnet' | 'mainnet' | undefined): string | XrplConnectNetwork {
  if (network === 'testnet' || network === 'mainnet') return network;
  // The embedded ledger: no public endpoint; the adapters sign offline and never submit here.
  return {
    id: 'standalone',
    name: 'Ledgerpad stand-alone',
    wss: `${location.origin.replace('http', 'ws')}/ws`,
  };
}

async function managerFor(
  app: WalletApp,
  network?: 'standalone' | 'testnet' | 'mainnet',
): Promise<WalletManager> {
  if (manager?.app === app) return manager.wm;
  if (manager) await manager.wm.disconnect().catch(() => undefined);
  const lib = await import('xrpl-connect');
  const adapter =
    app === 'gemwallet'
      ? new lib.GemWalletAdapter()
      : app === 'crossmark'
        ? new lib.CrossmarkAdapter()
        : app === 'ledger'
          ? new lib.LedgerAdapter()
          : undefined;
  if (!adapter) throw new WalletAppError('This wallet app is not set up on this server yet.');
  const wm = new lib.WalletManager({ adapters: [adapter], network: networkOf(network), autoConnect: false });
  manager = { app, wm };
  return wm;
}

/** Connects the app: the account it offers (the ownership proof follows). */
export async function connectApp(
  app: WalletApp,
  network?: 'standalone' | 'testnet' | 'mainnet',
): Promise<{ address: string; publicKey?: string }> {
  const wm = await managerFor(app, network);
  try {
    const account = wm.account ?? (await wm.connect(app));
    return { address: account.address, publicKey: account.publicKey };
  } catch (err) {
    throw new WalletAppError(
      appFailure(err, `Could not connect to the wallet app. Is it installed and unlocked?`),
    );
  }
}

/** Signs each transaction in the wallet app, in order (one approval each). */
export async function signInApp(
  app: WalletApp,
  address: string,
  txs: Array<Record<string, unknown>>,
  network?: 'standalone' | 'testnet' | 'mainnet',
): Promise<string[]> {
  const wm = await managerFor(app, network);
  const account = wm.account ?? (await connectApp(app, network).then(() => wm.account));
  if (account?.address !== address)
    throw new WalletAppError(
      `Switch the wallet app to ${address}: it is connected to ${account?.address ?? 'no account'}.`,
    );
  const blobs: string[] = [];
  for (const tx of txs) {
    try {
      const signed = await wm.sign(tx);
      if (!signed.tx_blob) throw new Error('no signed transaction');
      blobs.push(signed.tx_blob);
    } catch (err) {
      throw new WalletAppError(
        appFailure(err, 'The wallet app did not sign the transaction.'),
        rejectedByUser(err) ? 'rejected' : 'sign-failed',
      );
    }
  }
  return blobs;
}

/**
 * The app's user said no: xrpl-connect's SIGN_REJECTED (or a message saying so), or GemWallet's own
 * rejection — an answer with neither a result nor an error, which @gemwallet/api reads as
 * `type: 'reject'` and xrpl-connect's GemWalletAdapter turns into this Error of its own.
 */
function rejectedByUser(cause: unknown): boolean {
  const err = cause as { code?: string; message?: string; originalError?: { message?: string } } | null;
  if (err?.code === 'SIGN_REJECTED' || /reject/i.test(String(err?.message ?? ''))) return true;
  return (err?.originalError?.message ?? err?.message) === GEMWALLET_REJECTED;
}
const GEMWALLET_REJECTED = 'Failed to sign transaction with GemWallet';

function appFailure(cause: unknown, otherwise: string): string {
  // The wallet app's refusal, in our words; anything else reads as `otherwise` (the app's own
  // texts are not written for this screen).
  if (rejectedByUser(cause)) return 'The request was rejected in the wallet app.';
  return otherwise;
}
