import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// Envelope encryption: every secret is sealed with its own random data key (AES-256-GCM), and the data
// key is sealed with the master key. Rotating the master key then only re-wraps 32-byte data keys and
// never touches (or exposes) the secrets themselves.

const ALGORITHM = 'aes-256-gcm';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

export interface MasterKey {
  /** Short fingerprint of the key, stored beside each wrapped data key to pick the key on decrypt. */
  id: string;
  key: Buffer;
}

/** What is stored per record: base64 fields, none of them secret on its own. */
export interface SealedSecret {
  ciphertext: string;
  nonce: string;
  wrappedKey: string;
  wrappedKeyNonce: string;
  keyId: string;
}

export class KeyCustodyError extends Error {
  readonly code = 'KEY_CUSTODY';
}

export function masterKeyFromBytes(key: Buffer): MasterKey {
  if (key.length !== KEY_BYTES) throw new KeyCustodyError('A master key must be 32 bytes');
  // A fingerprint, not the key: a truncated hash of a 256-bit random key reveals nothing useful.
  const id = createHash('sha256').update('ledgerpad-master-key').update(key).digest('hex').slice(0, 16);
  return { id, key };
}

/** Parses MASTER_KEY: 64 hex characters or base64 of 32 bytes. */
export function parseMasterKey(text: string): MasterKey {
  const trimmed = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed, 'base64');
  if (bytes.length !== KEY_BYTES) {
    throw new KeyCustodyError('MASTER_KEY must be 64 hex characters or base64 of 32 bytes');
  }
  return masterKeyFromBytes(bytes);
}

export function generateMasterKey(): MasterKey {
  return masterKeyFromBytes(randomBytes(KEY_BYTES));
}

function seal(key: Buffer, plaintext: Buffer, aad: string): { ciphertext: string; nonce: string } {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { ciphertext: body.toString('base64'), nonce: nonce.toString('base64') };
}

function open(key: Buffer, ciphertext: string, nonce: string, aad: string): Buffer {
  const body = Buffer.from(ciphertext, 'base64');
  if (body.length < TAG_BYTES) throw new KeyCustodyError('Sealed secret is truncated');
  const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(nonce, 'base64'), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
  } catch {
    // Never echo anything about the content; the message only says which check failed.
    throw new KeyCustodyError('Sealed secret failed authentication');
  }
}

/**
 * The master keys this process knows: `current` seals new records; older ones (a rotation that did
 * not finish) can still open theirs.
 */
export class Keyring {
  private readonly keys = new Map<string, MasterKey>();

  constructor(
    readonly current: MasterKey,
    others: MasterKey[] = [],
  ) {
    for (const k of [current, ...others]) this.keys.set(k.id, k);
  }

  has(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  /** The ids of every key held, the current one first (for messages; ids are fingerprints). */
  ids(): string[] {
    return [...this.keys.keys()];
  }

  private get(keyId: string): MasterKey {
    const key = this.keys.get(keyId);
    if (!key) throw new KeyCustodyError(`Master key ${keyId} is not available`);
    return key;
  }

  /**
   * Seals a secret. `context` (the wallet address) is bound as associated data, so a ciphertext
   * copied onto another record fails to open instead of handing out the wrong key.
   */
  seal(secret: string, context: string): SealedSecret {
    const dataKey = randomBytes(KEY_BYTES);
    try {
      const body = seal(dataKey, Buffer.from(secret, 'utf8'), context);
      const wrapped = seal(this.current.key, dataKey, this.current.id);
      return {
        ciphertext: body.ciphertext,
        nonce: body.nonce,
        wrappedKey: wrapped.ciphertext,
        wrappedKeyNonce: wrapped.nonce,
        keyId: this.current.id,
      };
    } finally {
      dataKey.fill(0);
    }
  }

  open(sealed: SealedSecret, context: string): string {
    const dataKey = this.unwrap(sealed);
    try {
      return open(dataKey, sealed.ciphertext, sealed.nonce, context).toString('utf8');
    } finally {
      dataKey.fill(0);
    }
  }

  private unwrap(sealed: Pick<SealedSecret, 'wrappedKey' | 'wrappedKeyNonce' | 'keyId'>): Buffer {
    const master = this.get(sealed.keyId);
    return open(master.key, sealed.wrappedKey, sealed.wrappedKeyNonce, master.id);
  }

  /** Re-wraps the data key under `target` (rotation); the secret itself is not decrypted. */
  rewrap(sealed: SealedSecret, target: MasterKey): SealedSecret {
    const dataKey = this.unwrap(sealed);
    try {
      const wrapped = seal(target.key, dataKey, target.id);
      return { ...sealed, wrappedKey: wrapped.ciphertext, wrappedKeyNonce: wrapped.nonce, keyId: target.id };
    } finally {
      dataKey.fill(0);
    }
  }
}
