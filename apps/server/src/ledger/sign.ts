import { createHash, createPrivateKey, createPublicKey, sign as nodeSign, type KeyObject } from 'node:crypto';
import BigNumber from 'bignumber.js';
import {
  decodeAccountID,
  decodeSeed,
  encode,
  encodeForSigning,
  GlobalFlags,
  validate,
  ValidationError,
  Wallet,
} from 'xrpl';
import { encodeTransactionFast } from 'xrpl-standalone/codec';

// Ed25519 keys through Node's own crypto (OpenSSL) instead of the pure-JavaScript curve xrpl.js
// uses: opening a wallet from its seed and signing cost about a quarter of the time, which is what
// a burst of a few hundred transactions (an airdrop's claims) spends most of its time on. The
// result is byte for byte what xrpl.js produces — Ed25519 signatures are deterministic — and
// test/ledger/sign.test.ts checks exactly that. secp256k1 keys go through xrpl.js unchanged.

/**
 * A raw 32-byte Ed25519 private key as a key object. Imported as a JWK: Node hands `d` straight to
 * OpenSSL's raw-key constructor (~40 µs), where a PKCS#8 DER wrapper goes through OpenSSL 3's
 * decoder lookup (~400 µs) — per claimer wallet of an airdrop burst, a tenth of its CPU. Node
 * derives the public half from `d` and ignores `x` (the JWK type check wants a string there);
 * sign.test.ts checks the derived key and the signatures against xrpl.js.
 */
const keyObject = (raw: Buffer): KeyObject =>
  createPrivateKey({
    key: { kty: 'OKP', crv: 'Ed25519', d: raw.toString('base64url'), x: '' },
    format: 'jwk',
  });

/**
 * The signing key of a wallet object, made once per object: a batch signs hundreds of transactions
 * with one wallet (an airdrop's payments). Held only as long as the wallet object itself.
 */
const signingKeys = new WeakMap<Wallet, KeyObject>();
function signingKey(wallet: Wallet): KeyObject {
  let key = signingKeys.get(wallet);
  if (!key) {
    key = keyObject(Buffer.from(wallet.privateKey.slice(2), 'hex'));
    signingKeys.set(wallet, key);
  }
  return key;
}

/** Fields left out of the signing data besides TxnSignature and Signers (refused above). */
const OTHER_NON_SIGNING = [
  'Signature',
  'MasterSignature',
  'CounterpartySignature',
  'SponsorSignature',
  'BatchSigners',
];

/** Byte length of a fixed-size field's value, by type code (rippled's serialized types 1–6). */
const FIXED_SIZE: Record<number, number> = { 1: 2, 2: 4, 3: 8, 4: 16, 5: 32 };

/**
 * Where TxnSignature (type 7, field 4) goes in the canonical field order of `body` (the signing
 * data without its prefix: every other field of the transaction, sorted): before the first field
 * that sorts after it. Only fields of types 1–7 are stepped over, all of which carry their size;
 * undefined when something else is met first (the caller encodes the whole transaction instead).
 */
function txnSignatureOffset(body: Buffer): number | undefined {
  let i = 0;
  while (i < body.length) {
    const header = body[i]!;
    const type = header >> 4;
    if (type === 0 || type > 7) return i; // type code 0: ≥ 16 in the next byte, sorts after Blob
    const nth = (header & 15) === 0 ? (body[i + 1] ?? 0) : header & 15;
    if (type === 7 && nth > 4) return i;
    const at = fieldEnd(body, i);
    if (at === undefined) return undefined;
    i = at;
  }
  return i;
}

/**
 * The offset just after the field starting at `i` of serialized `body`, for the types that carry
 * their size: 1–5 fixed, 6 (Amount: XRP 8 bytes, an issued amount 48, MPT 33), 7 and 8 (Blob,
 * AccountID) with a one-byte length up to 192; undefined for any other type, a longer length or a
 * field running past the end.
 */
function fieldEnd(body: Buffer, i: number): number | undefined {
  const header = body[i]!;
  const type = header >> 4;
  let at = i + 1;
  if ((header & 15) === 0) at++;
  const fixed = FIXED_SIZE[type];
  if (fixed !== undefined) at += fixed;
  else if (type === 6) {
    const first = body[at];
    if (first === undefined) return undefined;
    at += (first & 0x80) !== 0 ? 48 : (first & 0x20) !== 0 ? 33 : 8;
  } else if (type === 7 || type === 8) {
    const n = body[at];
    if (n === undefined || n > 192) return undefined;
    at += 1 + n;
  } else return undefined;
  return at > body.length ? undefined : at;
}

const TXN_SIGNATURE_HEADER = Buffer.from([0x74]); // type 7 (Blob), field 4
const TXN_ID_PREFIX = Buffer.from('54584E00', 'hex'); // 'TXN\0'

/**
 * A transaction's ID from its serialized blob: SHA-512Half of 'TXN\0' and the bytes, as
 * `hashes.hashSignedTx` computes it — without that function's decode of the whole blob (only to
 * check it is signed), natively. For blobs made here: signed ones, and a Batch's inner transactions.
 */
export function transactionId(blob: string): string {
  const digest = createHash('sha512').update(TXN_ID_PREFIX).update(Buffer.from(blob, 'hex')).digest();
  return digest.subarray(0, 32).toString('hex').toUpperCase();
}

/** `Wallet.fromSeed`, without xrpl.js's sign-and-verify self-test of the derived key (Ed25519 seeds). */
export function walletFromSeed(seed: string): Wallet {
  const decoded = decodeSeed(seed);
  if (decoded.type !== 'ed25519') return Wallet.fromSeed(seed);
  // ripple-keypairs: the private key is the first half of SHA-512 of the seed's entropy.
  const raw = createHash('sha512').update(Buffer.from(decoded.bytes)).digest().subarray(0, 32);
  const key = keyObject(raw);
  const x = createPublicKey(key).export({ format: 'jwk' }).x;
  if (!x) throw new Error('Ed25519 public key could not be derived');
  const hex = (b: Buffer) => `ED${b.toString('hex').toUpperCase()}`;
  const wallet = new Wallet(hex(Buffer.from(x, 'base64url')), hex(raw), { seed });
  signingKeys.set(wallet, key); // the wallet is opened to sign: its key object is made once
  return wallet;
}

/** Top-level fields whose value is an account (the codec's AccountID type) that our transactions carry. */
const ACCOUNT_FIELDS = ['Account', 'Destination', 'Owner', 'Issuer', 'RegularKey', 'Delegate', 'Holder'];

/** Classic address → its 20 bytes as upper-case hex, for addresses signed for again and again. */
const accountHex = new Map<string, string>();
const ACCOUNT_HEX_MAX = 10_000;

/**
 * The account's ID as the 40 hex digits the binary codec takes as they are; the value unchanged
 * when it is not a classic address (an X-address: the codec handles its tag; garbage: the codec
 * refuses it as before). ripple-binary-codec tries every field's text as an X-address and then
 * decodes a classic address twice more, each a base58 decode with a JavaScript double SHA-256 and
 * two thrown errors: ~2/3 of the ~330 µs `encodeForSigning` took per transaction (issue 40: an
 * airdrop's 500 trust lines and 500 payments spent ~330 ms of the server's thread there).
 */
function asAccountHex(value: unknown): unknown {
  if (typeof value !== 'string' || !value.startsWith('r')) return value;
  let hex = accountHex.get(value);
  if (hex === undefined) {
    try {
      hex = Buffer.from(decodeAccountID(value)).toString('hex').toUpperCase();
    } catch {
      return value;
    }
    if (accountHex.size >= ACCOUNT_HEX_MAX) accountHex.clear();
    accountHex.set(value, hex);
  }
  return hex;
}

/**
 * The transaction as the codec encodes it, with its accounts (top-level ones, and the issuer of an
 * issued amount or an asset) as hex account IDs: the same bytes, fewer base58 decodes.
 */
function withAccountIds(tx: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...tx };
  for (const k of ACCOUNT_FIELDS) if (out[k] !== undefined) out[k] = asAccountHex(out[k]);
  for (const [k, v] of Object.entries(out)) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
    const issued = v as { currency?: unknown; issuer?: unknown };
    if (typeof issued.currency === 'string' && typeof issued.issuer === 'string')
      out[k] = { ...issued, issuer: asAccountHex(issued.issuer) };
  }
  return out;
}

/**
 * `encode(tx)` with the accounts as hex account IDs (`withAccountIds`): the same bytes without the
 * codec's base58 and X-address attempts. For a Batch's inner transactions, serialized once each when
 * their outer is signed (issue 40: two or three per buy of a hot launch, ~40% of their encoding).
 */
export function encodeTx(tx: Record<string, unknown>): string {
  return encodeTransactionFast(tx) ?? encode(withAccountIds(tx) as Parameters<typeof encode>[0]);
}

const TX_SIGNING_PREFIX = Buffer.from('53545800', 'hex'); // 'STX\0'

/**
 * `encodeForSigning(tx)` as bytes: the prefix and the transaction's fields, which are all signing
 * fields when none of the non-signing ones is there (TxnSignature and Signers are refused before).
 * Those bytes come from the stand-alone ledger's serializer when it provably writes the codec's
 * (`encodeTransactionFast`: ~1/10 of the codec's cost for a trade, issue 40); else from the codec.
 */
function signingData(tx: Record<string, unknown>): Buffer {
  const fast = OTHER_NON_SIGNING.some((k) => tx[k] !== undefined) ? undefined : encodeTransactionFast(tx);
  if (fast !== undefined) return Buffer.concat([TX_SIGNING_PREFIX, Buffer.from(fast, 'hex')]);
  return Buffer.from(encodeForSigning(withAccountIds(tx) as Parameters<typeof encodeForSigning>[0]), 'hex');
}

/** RawTransactions (STArray, field 30), each RawTransaction (STObject, field 34), the end markers. */
const RAW_TRANSACTIONS_HEADER = Buffer.from([0xf0, 30]);
const RAW_TRANSACTION_HEADER = Buffer.from([0xe0, 34]);
const OBJECT_END = Buffer.from([0xe1]);
const ARRAY_END = Buffer.from([0xf1]);

/**
 * Where a field of type 15 (STArray) and field code 30 goes in `body` (serialized fields, sorted):
 * the first field that sorts after it, or the end. Steps over types 1–8 only (each carries its
 * size); undefined on anything else, and the caller encodes the whole transaction instead.
 */
function rawTransactionsOffset(body: Buffer): number | undefined {
  let i = 0;
  while (i < body.length) {
    const type = body[i]! >> 4;
    if (type === 0 || type > 8) return undefined;
    const at = fieldEnd(body, i);
    if (at === undefined) return undefined;
    i = at;
  }
  return i;
}

/**
 * The signing data of a Batch whose inner transactions are already serialized (`innerBlobs`, in
 * the order of its RawTransactions): the outer's own fields encoded, the array spliced in from the
 * inner blobs — each was serialized once already, and encoding the Batch whole serialized them
 * again (issue 40: a hot launch's Batches, three inner transactions each, spent more time in the
 * codec than in signing). Undefined when the outer has a field it cannot step over.
 */
function batchSigningData(tx: Record<string, unknown>, innerBlobs: string[]): Buffer | undefined {
  const { RawTransactions: _raw, ...outer } = tx;
  const message = signingData(outer);
  const body = message.subarray(4);
  const at = rawTransactionsOffset(body);
  if (at === undefined) return undefined;
  const array = [RAW_TRANSACTIONS_HEADER];
  for (const blob of innerBlobs) array.push(RAW_TRANSACTION_HEADER, Buffer.from(blob, 'hex'), OBJECT_END);
  array.push(ARRAY_END);
  return Buffer.concat([message.subarray(0, 4), body.subarray(0, at), ...array, body.subarray(at)]);
}

/**
 * `wallet.sign(tx)` (single signature): the same checks, the same bytes, the same hash. A Batch's
 * `innerBlobs`, when given, are its RawTransactions already serialized (`encode` of each, in order).
 */
export function signTransaction(
  wallet: Wallet,
  transaction: Record<string, unknown>,
  innerBlobs?: string[],
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
  const inner =
    typeof flags === 'number' ? (flags & GlobalFlags.tfInnerBatchTxn) !== 0 : flags?.tfInnerBatchTxn === true;
  if (inner) {
    throw new ValidationError('Cannot sign a Batch inner transaction.');
  }
  tx.SigningPubKey = wallet.publicKey;
  const raw = tx.RawTransactions as unknown[] | undefined;
  const message =
    (innerBlobs && raw?.length === innerBlobs.length ? batchSigningData(tx, innerBlobs) : undefined) ??
    signingData(tx);
  const signature = nodeSign(null, message, signingKey(wallet));
  tx.TxnSignature = signature.toString('hex').toUpperCase();
  // The signed blob is the signing data's fields with TxnSignature inserted in canonical order
  // (when every other field is a signing field): one encoding per transaction instead of two, and
  // the ID hashed natively instead of through hashSignedTx's decode. Same bytes (sign.test.ts).
  const body = message.subarray(4);
  const at = OTHER_NON_SIGNING.some((k) => tx[k] !== undefined) ? undefined : txnSignatureOffset(body);
  if (at === undefined) {
    const blob = encode(tx as Parameters<typeof encode>[0]);
    return { tx_blob: blob, hash: transactionId(blob) };
  }
  const bytes = Buffer.concat([
    body.subarray(0, at),
    TXN_SIGNATURE_HEADER,
    Buffer.from([signature.length]),
    signature,
    body.subarray(at),
  ]);
  const hash = createHash('sha512').update(TXN_ID_PREFIX).update(bytes).digest().subarray(0, 32);
  return { tx_blob: bytes.toString('hex').toUpperCase(), hash: hash.toString('hex').toUpperCase() };
}
