import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { Wallet, type ECDSA } from 'xrpl';
import { mnemonicWords } from '@ledgerpad/shared';
import type { VaultSecret } from './vault';

// The browser's key code: xrpl.js (~400 kB) and the curves, in their own chunk, loaded only when a
// self-custody wallet is created, imported or signs (signer/index.ts imports this lazily). The
// import rules mirror the custodial import's (apps/server/src/modules/wallets/keys-import.ts):
// seed, BIP39 or RFC-1751 words, or a private key.

const SECP256K1 = 'ecdsa-secp256k1' as ECDSA;
const ED25519 = 'ed25519' as ECDSA;

export type ImportInput =
  | { type: 'seed'; seed: string }
  | { type: 'mnemonic'; mnemonic: string }
  | { type: 'privateKey'; privateKey: string };

export interface KeyMaterial {
  address: string;
  publicKey: string;
  secret: VaultSecret;
}

export class InvalidKeyError extends Error {
  constructor(what: string) {
    // Never repeats the input: it is a secret.
    super(`Invalid ${what}. Please check it and try again.`);
    this.name = 'InvalidKeyError';
  }
}

const hexOf = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
const bytesOf = (hex: string): Uint8Array => Uint8Array.from(hex.match(/../g)!.map((h) => parseInt(h, 16)));

function material(wallet: Wallet, secret: VaultSecret): KeyMaterial {
  return { address: wallet.classicAddress, publicKey: wallet.publicKey, secret };
}

/** A new key (ed25519, as xrpl.js generates), its seed sealed. */
export function generateKey(): KeyMaterial {
  const wallet = Wallet.generate();
  return material(wallet, { kind: 'seed', seed: wallet.seed!, algorithm: 'ed25519' });
}

/** What the user pasted, as a key: the same modes as the custodial import. */
export function importKey(input: ImportInput): KeyMaterial {
  if (input.type === 'seed') {
    try {
      const wallet = Wallet.fromSeed(input.seed.trim());
      return material(wallet, { kind: 'seed', seed: wallet.seed! });
    } catch {
      throw new InvalidKeyError('seed');
    }
  }
  if (input.type === 'privateKey') {
    const hex = input.privateKey.trim().toUpperCase();
    try {
      if (/^ED[0-9A-F]{64}$/.test(hex)) {
        const publicKey = `ED${hexOf(ed25519.getPublicKey(bytesOf(hex.slice(2))))}`;
        return material(new Wallet(publicKey, hex), { kind: 'keypair', publicKey, privateKey: hex });
      }
      const m = /^(00)?([0-9A-F]{64})$/.exec(hex);
      if (!m) throw new Error('format');
      const publicKey = hexOf(secp256k1.getPublicKey(bytesOf(m[2]!), true));
      const privateKey = `00${m[2]}`;
      return material(new Wallet(publicKey, privateKey), { kind: 'keypair', publicKey, privateKey });
    } catch {
      throw new InvalidKeyError('private key');
    }
  }
  const mnemonic = mnemonicWords(input.mnemonic).join(' ');
  // BIP39 has a checksum, so it is never mistaken for RFC-1751 words; those are read as rippled's
  // wallet_propose writes them (secp256k1).
  try {
    const wallet = Wallet.fromMnemonic(mnemonic.toLowerCase(), { mnemonicEncoding: 'bip39' });
    return material(wallet, { kind: 'keypair', publicKey: wallet.publicKey, privateKey: wallet.privateKey });
  } catch {
    try {
      const wallet = Wallet.fromMnemonic(mnemonic.toUpperCase(), {
        mnemonicEncoding: 'rfc1751',
        algorithm: SECP256K1,
      });
      return material(wallet, { kind: 'seed', seed: wallet.seed!, algorithm: 'ecdsa-secp256k1' });
    } catch {
      throw new InvalidKeyError('mnemonic');
    }
  }
}

/** The wallet of a sealed secret, for one signature. */
export function walletOf(secret: VaultSecret): Wallet {
  if (secret.kind === 'keypair') return new Wallet(secret.publicKey, secret.privateKey);
  return Wallet.fromSeed(
    secret.seed,
    secret.algorithm ? { algorithm: secret.algorithm === 'ed25519' ? ED25519 : SECP256K1 } : {},
  );
}

/** Signs each transaction exactly as given (the server checks it is exactly what it prepared). */
export function signAll(secret: VaultSecret, address: string, txs: Array<Record<string, unknown>>): string[] {
  const wallet = walletOf(secret);
  if (wallet.classicAddress !== address) throw new Error('This key does not belong to the wallet.');
  return txs.map((tx) => wallet.sign(tx as never).tx_blob);
}
