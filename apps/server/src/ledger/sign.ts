import { createHash, createPrivateKey, createPublicKey, sign as nodeSign, type KeyObject } from 'node:crypto';
import BigNumber from 'bignumber.js';
import { decodeSeed, encode, encodeForSigning, hashes, validate, ValidationError, Wallet } from 'xrpl';

// Ed25519 keys through Node's own crypto (OpenSSL) instead of the pure-JavaScript curve xrpl.js
// uses: opening a wallet from its seed and signing cost about a quarter of the time, which is what
// a burst of a few hundred transactions (an airdrop's claims) spends most of its time on. The
// result is byte for byte what xrpl.js produces — Ed25519 signatures are deterministic — and
// test/ledger/sign.test.ts checks exactly that. secp256k1 keys go through xrpl.js unchanged.

/** PKCS#8 DER header of a raw 32-byte Ed25519 private key (RFC 8410). */
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

const keyObject = (raw: Buffer): KeyObject =>
  createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, raw]), format: 'der', type: 'pkcs8' });

/** `Wallet.fromSeed`, without xrpl.js's sign-and-verify self-test of the derived key (Ed25519 seeds). */
export function walletFromSeed(seed: string): Wallet {
  const decoded = decodeSeed(seed);
  if (decoded.type !== 'ed25519') return Wallet.fromSeed(seed);
  // ripple-keypairs: the private key is the first half of SHA-512 of the seed's entropy.
  const raw = createHash('sha512').update(Buffer.from(decoded.bytes)).digest().subarray(0, 32);
  const x = createPublicKey(keyObject(raw)).export({ format: 'jwk' }).x;
  if (!x) throw new Error('Ed25519 public key could not be derived');
  const hex = (b: Buffer) => `ED${b.toString('hex').toUpperCase()}`;
  return new Wallet(hex(Buffer.from(x, 'base64url')), hex(raw), { seed });
}

/** `wallet.sign(tx)` (single signature): the same checks, the same bytes, the same hash. */
export function signTransaction(
  wallet: Wallet,
  transaction: Record<string, unknown>,
): { tx_blob: string; hash: string } {
  if (!wallet.privateKey.startsWith('ED') || wallet.privateKey.length !== 66) {
    return wallet.sign(transaction as Parameters<Wallet['sign']>[0]);
  }
  const tx: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(transaction)) if (v != null) tx[k] = v;
  if (tx.TxnSignature || tx.Signers) {
    throw new ValidationError('txJSON must not contain "TxnSignature" or "Signers" properties');
  }
  // As xrpl.js does: a Payment's issued Amount loses trailing zeros before it is signed.
  const amount = tx.Amount as { value?: string } | string | undefined;
  if (
    tx.TransactionType === 'Payment' &&
    typeof amount === 'object' &&
    amount.value?.includes('.') &&
    amount.value.endsWith('0')
  ) {
    tx.Amount = { ...amount, value: new BigNumber(amount.value).toString() };
  }
  validate(tx);
  const flags = tx.Flags as number | Record<string, boolean> | undefined;
  const inner = typeof flags === 'number' ? (flags & 0x40000000) !== 0 : flags?.tfInnerBatchTxn === true;
  if (inner) {
    throw new ValidationError('Cannot sign a Batch inner transaction.');
  }
  tx.SigningPubKey = wallet.publicKey;
  const message = Buffer.from(encodeForSigning(tx as Parameters<typeof encodeForSigning>[0]), 'hex');
  const key = keyObject(Buffer.from(wallet.privateKey.slice(2), 'hex'));
  tx.TxnSignature = nodeSign(null, message, key).toString('hex').toUpperCase();
  const blob = encode(tx as Parameters<typeof encode>[0]);
  return { tx_blob: blob, hash: hashes.hashSignedTx(blob) };
}
