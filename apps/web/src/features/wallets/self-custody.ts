import {
  ownershipChallengeSchema,
  walletSchema,
  type WalletApp,
  type WalletSummary,
} from '@ledgerpad/shared';
import { apiPost } from '../../lib/api';
import { keepUnlocked } from '../../lib/signer/lock';
import { calibrateIterations, recordKey, seal, vaultStore } from '../../lib/signer/vault';
import type { ImportInput, KeyMaterial } from '../../lib/signer/keys';

// Adding self-custody wallets (docs/self-custody.md). A browser wallet: its key is made or imported
// here, sealed with the user's passphrase into this browser's IndexedDB (before anything is sent,
// so a failure afterwards never loses a key), then the server's one-time challenge is signed here
// and only the signature goes to the server. A wallet app: connected through xrpl-connect, it signs
// the same challenge. No secret ever leaves the browser.

const keys = () => import('../../lib/signer/keys');

/** Proves ownership of `address` with `sign` and adds the wallet to the user's list. */
async function prove(
  address: string,
  kind: 'browser' | 'external',
  app: WalletApp | null,
  name: string | undefined,
  sign: (tx: Record<string, unknown>) => Promise<string>,
): Promise<WalletSummary> {
  const challenge = ownershipChallengeSchema.parse(
    await apiPost('/api/wallets/challenge', { address, kind, ...(app ? { app } : {}) }),
  );
  const signedTx = await sign(challenge.tx);
  return walletSchema.parse(
    await apiPost('/api/wallets/self-custody', {
      challengeId: challenge.challengeId,
      signedTx,
      ...(name ? { name } : {}),
    }),
  );
}

/** Seals a key under `passphrase` in this browser, proves it to the server, leaves it unlocked. */
export async function addBrowserWallet(
  material: KeyMaterial,
  passphrase: string,
  name?: string,
  onStage?: (stage: 'securing' | 'proving') => void,
): Promise<WalletSummary> {
  onStage?.('securing');
  const iterations = await calibrateIterations();
  const record = await seal(material.address, material.publicKey, material.secret, passphrase, iterations);
  await vaultStore.put(record);
  onStage?.('proving');
  const k = await keys();
  const wallet = await prove(material.address, 'browser', null, name, async (tx) =>
    Promise.resolve(k.signAll(material.secret, material.address, [tx])[0]!),
  );
  keepUnlocked(material.address, await recordKey(record, passphrase));
  return wallet;
}

export async function newKey(): Promise<KeyMaterial> {
  return (await keys()).generateKey();
}

export async function keyFromImport(input: ImportInput): Promise<KeyMaterial> {
  return (await keys()).importKey(input);
}

/** Connects a wallet app, has it sign the challenge, adds it. */
export async function connectWalletApp(
  app: WalletApp,
  network: 'standalone' | 'testnet' | 'mainnet' | undefined,
  name?: string,
): Promise<WalletSummary> {
  const external = await import('../../lib/signer/external');
  const account = await external.connectApp(app, network);
  return prove(account.address, 'external', app, name, async (tx) => {
    const [blob] = await external.signInApp(app, account.address, [tx], network);
    return blob!;
  });
}

/** Whether this browser holds the key of a browser wallet. */
export async function heldHere(address: string): Promise<boolean> {
  return (await vaultStore.get(address)) !== undefined;
}
