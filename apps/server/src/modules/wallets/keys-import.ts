import { createECDH, createPrivateKey, createPublicKey } from 'node:crypto';
import { Wallet, type ECDSA } from 'xrpl';
import { mnemonicWords, type ImportWalletRequest } from '@ledgerpad/shared';
import { badRequest } from '../../lib/errors';

// Turning what a user pastes into a key pair. Error messages never repeat the input: it is a secret.

// xrpl's ECDSA enum is not a named export of its ESM entry at run time; these are its values.
const SECP256K1 = 'ecdsa-secp256k1' as ECDSA;
const ED25519 = 'ed25519' as ECDSA;

const invalid = (what: string) => badRequest(`Invalid ${what}. Please check it and try again.`);

/** Derives the XRPL public key for a private key (ED-prefixed ed25519 or secp256k1, 00-prefixed or bare). */
function publicKeyFor(privateKey: string): { publicKey: string; privateKey: string } {
  const hex = privateKey.trim().toUpperCase();
  if (/^ED[0-9A-F]{64}$/.test(hex)) {
    // Node derives ed25519 public keys from a PKCS#8 wrapping of the 32-byte seed.
    const der = Buffer.concat([
      Buffer.from('302e020100300506032b657004220420', 'hex'),
      Buffer.from(hex.slice(2), 'hex'),
    ]);
    const pub = createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }))
      .export({ format: 'der', type: 'spki' })
      .subarray(-32);
    return { publicKey: `ED${pub.toString('hex').toUpperCase()}`, privateKey: hex };
  }
  const m = /^(00)?([0-9A-F]{64})$/.exec(hex);
  if (!m) throw invalid('private key');
  const ecdh = createECDH('secp256k1');
  try {
    ecdh.setPrivateKey(Buffer.from(m[2]!, 'hex'));
  } catch {
    throw invalid('private key');
  }
  return {
    publicKey: ecdh.getPublicKey('hex', 'compressed').toUpperCase(),
    privateKey: `00${m[2]}`,
  };
}

/**
 * The key pairs an import may mean, most likely first. Only RFC-1751 words are ambiguous: the words
 * encode a bare seed, used with secp256k1 by rippled's wallet_propose and with ed25519 by xrpl.js, so
 * both are returned and the caller prefers the one that exists on the ledger.
 */
export function walletsFromImport(body: ImportWalletRequest): Wallet[] {
  const type =
    body.type ??
    (body.mnemonic !== undefined ? 'mnemonic' : body.privateKey !== undefined ? 'privateKey' : 'seed');
  if (type === 'seed') {
    try {
      return [Wallet.fromSeed(body.seed ?? '')];
    } catch {
      throw invalid('seed');
    }
  }
  if (type === 'privateKey') {
    const { publicKey, privateKey } = publicKeyFor(body.privateKey ?? '');
    return [new Wallet(publicKey, privateKey)];
  }
  const mnemonic = mnemonicWords(body.mnemonic ?? '').join(' ');
  // BIP39 carries a checksum, so a valid BIP39 phrase is never mistaken for RFC-1751 words; the
  // RFC-1751 form (xrpl.js, rippled's wallet_propose key words) is tried second.
  try {
    return [Wallet.fromMnemonic(mnemonic.toLowerCase(), { mnemonicEncoding: 'bip39' })];
  } catch {
    try {
      const words = mnemonic.toUpperCase();
      return [
        Wallet.fromMnemonic(words, { mnemonicEncoding: 'rfc1751', algorithm: SECP256K1 }),
        Wallet.fromMnemonic(words, { mnemonicEncoding: 'rfc1751', algorithm: ED25519 }),
      ];
    } catch {
      throw invalid('mnemonic');
    }
  }
}
