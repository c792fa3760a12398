// Classic address <-> 20-byte account ID, cached because addresses are decoded on every read.
import { createHash } from 'node:crypto';
import { decodeAccountID, encodeAccountID, isValidClassicAddress } from 'ripple-address-codec';

const toHex = new Map<string, string>();
const toAddress = new Map<string, string>();
const CACHE_LIMIT = 200_000;

/** 40 uppercase hex digits of an account ID; throws on invalid address. */
export function accountIdHex(address: string): string {
  let hex = toHex.get(address);
  if (hex === undefined) {
    hex = Buffer.from(decodeAccountID(address)).toString('hex').toUpperCase();
    if (toHex.size > CACHE_LIMIT) toHex.clear();
    toHex.set(address, hex);
  }
  return hex;
}

export function addressFromHex(hex: string): string {
  let a = toAddress.get(hex);
  if (a === undefined) {
    a = encodeAccountID(Buffer.from(hex, 'hex'));
    if (toAddress.size > CACHE_LIMIT) toAddress.clear();
    toAddress.set(hex, a);
  }
  return a;
}

export function isValidAddress(address: unknown): address is string {
  if (typeof address !== 'string') return false;
  if (toHex.has(address)) return true;
  if (!isValidClassicAddress(address)) return false;
  accountIdHex(address);
  return true;
}

/** rippled orders accounts by their 160-bit value (low/high side of trust lines). */
export function compareAccounts(a: string, b: string): number {
  const x = accountIdHex(a);
  const y = accountIdHex(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** AccountID 0: rippled's xrpAccount(). */
export const ACCOUNT_ZERO = 'rrrrrrrrrrrrrrrrrrrrrhoLvTp';
/** AccountID 1: rippled's noAccount(), used as the issuer of trust-line balances. */
export const ACCOUNT_ONE = 'rrrrrrrrrrrrrrrrrrrrBZbvji';

const signerCache = new Map<string, string>();

/**
 * Account of a public key (cached: computed for every signed transaction): RIPEMD-160 of SHA-256
 * of the key bytes, as ripple-keypairs' deriveAddress, with Node's native hashes because every new
 * account's first transaction pays it.
 */
export function addressOfPublicKey(publicKey: string): string {
  // Decoded transactions carry upper-case keys: look the key up as given before upper-casing it
  // (a new string, hashed again, for every transaction).
  const cached = signerCache.get(publicKey);
  if (cached !== undefined) return cached;
  const key = publicKey.toUpperCase();
  let a = signerCache.get(key);
  if (a === undefined) {
    const sha = createHash('sha256').update(Buffer.from(key, 'hex')).digest();
    a = encodeAccountID(createHash('ripemd160').update(sha).digest());
    if (signerCache.size > CACHE_LIMIT) signerCache.clear();
    signerCache.set(key, a);
  }
  return a;
}
