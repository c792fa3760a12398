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

const keys = new Map<string, KeyObject | null>();

function keyObject(pubHex: string): KeyObject | null {
  let k = keys.get(pubHex);
  if (k !== undefined) return k;
  try {
    const raw = Buffer.from(pubHex, 'hex');
    // Ed25519 keys import as JWK: several times cheaper than parsing a DER wrapper, and every
    // account's first transaction pays it.
    k =
      raw.length === 33 && raw[0] === 0xed
        ? createPublicKey({
            key: { kty: 'OKP', crv: 'Ed25519', x: raw.subarray(1).toString('base64url') },
            format: 'jwk',
          })
        : createPublicKey({ key: Buffer.concat([SECP256K1_SPKI, raw]), format: 'der', type: 'spki' });
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

/** verifySignature over a message already in bytes (the submit path builds it from the blob's bytes). */
export function verifyMessage(msg: Buffer, signatureHex: string, publicKeyHex: string): boolean {
  const pub = publicKeyHex.toUpperCase();
  const key = keyObject(pub);
  if (key) {
    try {
      const sig = Buffer.from(signatureHex, 'hex');
      if (pub.startsWith('ED')) return sig.length === 64 && nodeVerify(null, msg, key, sig);
      return isLowSDer(sig) && nodeVerify('sha512', msg, key, sig);
    } catch {
      // fall through to the reference implementation
    }
  }
  try {
    return keypairsVerify(msg.toString('hex').toUpperCase(), signatureHex, publicKeyHex);
  } catch {
    return false;
  }
}
