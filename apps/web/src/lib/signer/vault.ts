import { openDB, type IDBPDatabase } from 'idb';
import { VAULT_MIN_ITERATIONS, VAULT_TARGET_MS } from '@ledgerpad/shared';

// The browser vault (docs/self-custody.md): a browser wallet's secret, encrypted with the user's
// passphrase, kept in this browser's IndexedDB and nowhere else — never sent to any server.
//
// Key derivation: PBKDF2-SHA256 with at least 600,000 rounds (OWASP's figure for PBKDF2-SHA256),
// calibrated so one derivation takes about 250 ms on this device; the count is stored with the
// record and used to open it, so a record made on a fast desktop opens on a slow phone (slowly).
// Cipher: AES-256-GCM with a random 96-bit IV; the wallet's address is the additional data, so a
// ciphertext copied onto another record fails instead of opening the wrong key.

/** What is sealed: a family seed (with its algorithm), or a key pair (private-key and BIP39 imports). */
export type VaultSecret =
  | { kind: 'seed'; seed: string; algorithm?: 'ed25519' | 'ecdsa-secp256k1' }
  | { kind: 'keypair'; publicKey: string; privateKey: string };

export interface VaultRecord {
  address: string;
  publicKey: string;
  kdf: { name: 'PBKDF2'; hash: 'SHA-256'; iterations: number; salt: string };
  cipher: { name: 'AES-GCM'; iv: string };
  ciphertext: string;
  createdAt: string;
}

export class WrongPassphraseError extends Error {
  constructor() {
    super('Wrong passphrase.');
    this.name = 'WrongPassphraseError';
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const toB64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));
const fromB64 = (text: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(text), (c) => c.charCodeAt(0)) as Uint8Array<ArrayBuffer>;

/** The AES-GCM key of a passphrase: non-extractable, usable only to encrypt and decrypt. */
export async function deriveKey(
  passphrase: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', encoder.encode(passphrase), 'PBKDF2', false, [
    'deriveKey',
  ]);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/**
 * PBKDF2 rounds that take about `targetMs` here: one timed derivation of `probe` rounds, scaled,
 * never below `min` (600,000) and never above 20 million (a device that reports a very fast probe).
 */
export async function calibrateIterations(
  targetMs = VAULT_TARGET_MS,
  min = VAULT_MIN_ITERATIONS,
  probe = 100_000,
): Promise<number> {
  const base = await crypto.subtle.importKey('raw', encoder.encode('calibration'), 'PBKDF2', false, [
    'deriveBits',
  ]);
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const started = performance.now();
  await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: probe }, base, 256);
  const elapsed = Math.max(1, performance.now() - started);
  const scaled = Math.round((probe * targetMs) / elapsed / 10_000) * 10_000;
  return Math.min(20_000_000, Math.max(min, scaled));
}

/** Encrypts `secret` under a key derived from `passphrase`, bound to `address`. */
export async function seal(
  address: string,
  publicKey: string,
  secret: VaultSecret,
  passphrase: string,
  iterations: number,
): Promise<VaultRecord> {
  if (iterations < VAULT_MIN_ITERATIONS) throw new Error(`At least ${VAULT_MIN_ITERATIONS} PBKDF2 rounds.`);
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await deriveKey(passphrase, salt, iterations);
  const ciphertext = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: encoder.encode(address) },
      key,
      encoder.encode(JSON.stringify(secret)),
    ),
  );
  return {
    address,
    publicKey,
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations, salt: toB64(salt) },
    cipher: { name: 'AES-GCM', iv: toB64(iv) },
    ciphertext: toB64(ciphertext),
    createdAt: new Date().toISOString(),
  };
}

/** The record's key from `passphrase` (its own salt and stored round count). */
export function recordKey(record: VaultRecord, passphrase: string): Promise<CryptoKey> {
  if (record.kdf.iterations < VAULT_MIN_ITERATIONS) throw new WrongPassphraseError();
  return deriveKey(passphrase, fromB64(record.kdf.salt), record.kdf.iterations);
}

/** Decrypts a record with its key; a wrong passphrase (or a tampered record) fails authentication. */
export async function openWithKey(record: VaultRecord, key: CryptoKey): Promise<VaultSecret> {
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromB64(record.cipher.iv), additionalData: encoder.encode(record.address) },
      key,
      fromB64(record.ciphertext),
    );
    return JSON.parse(decoder.decode(plain)) as VaultSecret;
  } catch {
    throw new WrongPassphraseError();
  }
}

export async function open(record: VaultRecord, passphrase: string): Promise<VaultSecret> {
  return openWithKey(record, await recordKey(record, passphrase));
}

// --- the IndexedDB store: one record per address, in this browser only ---

const DB_NAME = 'ledgerpad-vault';
const STORE = 'wallets';

let dbPromise: Promise<IDBPDatabase> | undefined;
function db(): Promise<IDBPDatabase> {
  dbPromise ??= openDB(DB_NAME, 1, {
    upgrade(d) {
      d.createObjectStore(STORE, { keyPath: 'address' });
    },
  });
  return dbPromise;
}

export const vaultStore = {
  async put(record: VaultRecord): Promise<void> {
    await (await db()).put(STORE, record);
  },
  async get(address: string): Promise<VaultRecord | undefined> {
    return (await (await db()).get(STORE, address)) as VaultRecord | undefined;
  },
  async list(): Promise<VaultRecord[]> {
    return (await (await db()).getAll(STORE)) as VaultRecord[];
  },
  async delete(address: string): Promise<void> {
    await (await db()).delete(STORE, address);
  },
};
