// Signature verification through Node's native crypto (OpenSSL), an order of magnitude faster than
// the pure-JS curves in ripple-keypairs, with identical acceptance rules for what rippled signs:
//   - Ed25519 (keys 'ED' + 32 bytes): plain Ed25519 over the signing data.
//   - secp256k1 (compressed keys): DER ECDSA over SHA-512Half of the signing data (OpenSSL's
//     'sha512' digest truncated to the curve order is exactly SHA-512Half), low-S only
//     (rippled requires fully canonical signatures).
// Anything the native path cannot handle falls back to ripple-keypairs.
import { createPublicKey, verify as nodeVerify, type KeyObject } from 'node:crypto';
import { verify as keypairsVerify } from 'ripple-keypairs';

const SECP256K1_SPKI = Buffer.from('3036301006072a8648ce3d020106052b8104000a032200', 'hex');
const SECP256K1_HALF_N = BigInt('0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0');

/** A parsed public key and its number (the signature thread keeps its own copy by that number). */
export interface PublicKey {
  readonly key: KeyObject;
  readonly id: number;
}

const keys = new Map<string, PublicKey | null>();
let nextKeyId = 1;

function publicKey(pubHex: string): PublicKey | null {
  let k = keys.get(pubHex);
  if (k !== undefined) return k;
  try {
    const raw = Buffer.from(pubHex, 'hex');
    // Ed25519 keys import as JWK: several times cheaper than parsing a DER wrapper, and every
    // account's first transaction pays it.
    const key =
      raw.length === 33 && raw[0] === 0xed
        ? createPublicKey({
            key: { kty: 'OKP', crv: 'Ed25519', x: raw.subarray(1).toString('base64url') },
            format: 'jwk',
          })
        : createPublicKey({ key: Buffer.concat([SECP256K1_SPKI, raw]), format: 'der', type: 'spki' });
    k = { key, id: nextKeyId++ };
  } catch {
    k = null;
  }
  if (keys.size > 100_000) keys.clear();
  keys.set(pubHex, k);
  return k;
}

/** Strict DER ECDSA signature with a low S value (rippled's fully canonical rule). */
function isLowSDer(sig: Buffer): boolean {
  if (sig.length < 8 || sig[0] !== 0x30 || sig[1] !== sig.length - 2) return false;
  if (sig[2] !== 0x02) return false;
  const rLen = sig[3] as number;
  const sAt = 4 + rLen;
  if (sig[sAt] !== 0x02) return false;
  const sLen = sig[sAt + 1] as number;
  if (sAt + 2 + sLen !== sig.length || sLen === 0 || sLen > 33) return false;
  const s = BigInt(`0x${sig.subarray(sAt + 2).toString('hex')}`);
  return s > 0n && s <= SECP256K1_HALF_N;
}

export function verifySignature(messageHex: string, signatureHex: string, publicKeyHex: string): boolean {
  return verifyMessage(Buffer.from(messageHex, 'hex'), signatureHex, publicKeyHex);
}

/**
 * What OpenSSL is to check for a signature: the key, the digest ('sha512' for secp256k1, none for
 * Ed25519) and the signature's bytes, its form already accepted. `false`: refused on its form alone.
 * `undefined`: the native path cannot take it; ripple-keypairs decides (verifyWithKeypairs).
 */
export interface NativeCheck {
  readonly key: PublicKey;
  readonly digest: 'sha512' | null;
  readonly signature: Buffer;
}

export function nativeCheckOf(signatureHex: string, publicKeyHex: string): NativeCheck | false | undefined {
  const pub = publicKeyHex.toUpperCase();
  const key = publicKey(pub);
  if (!key) return undefined;
  try {
    const signature = Buffer.from(signatureHex, 'hex');
    if (pub.startsWith('ED')) return signature.length === 64 && { key, digest: null, signature };
    return isLowSDer(signature) && { key, digest: 'sha512', signature };
  } catch {
    return undefined;
  }
}

/** Runs a native check (nativeCheckOf); `undefined` if OpenSSL could not (then ripple-keypairs decides). */
export function runNativeCheck(msg: Buffer, check: NativeCheck): boolean | undefined {
  try {
    return nodeVerify(check.digest, msg, check.key.key, check.signature);
  } catch {
    return undefined;
  }
}

/** The reference implementation, for what the native path cannot take. */
export function verifyWithKeypairs(msg: Buffer, signatureHex: string, publicKeyHex: string): boolean {
  try {
    return keypairsVerify(msg.toString('hex').toUpperCase(), signatureHex, publicKeyHex);
  } catch {
    return false;
  }
}

/** verifySignature over a message already in bytes (the submit path builds it from the blob's bytes). */
export function verifyMessage(msg: Buffer, signatureHex: string, publicKeyHex: string): boolean {
  const check = nativeCheckOf(signatureHex, publicKeyHex);
  if (check === false) return false;
  const verdict = check && runNativeCheck(msg, check);
  return verdict ?? verifyWithKeypairs(msg, signatureHex, publicKeyHex);
}
