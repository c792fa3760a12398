// A fast decoder for the common shape of signed transactions (integers, hashes, blobs, accounts,
// XRP and positive issued amounts, memos). It returns exactly what ripple-binary-codec's decode
// returns and hands anything else (paths, unknown fields, malformed input) to the codec itself.
import definitions from 'ripple-binary-codec/dist/enums/definitions.json';
import { decode } from 'ripple-binary-codec';
import { addressFromHex } from './account-id';
import type { JsonObject } from './contract';
import { BASE10_U64 } from './serializer';

interface FieldDef {
  name: string;
  type: number;
  code: number;
}

const TYPES = definitions.TYPES as Record<string, number>;
const BY_CODE = new Map<number, FieldDef>();
for (const [name, info] of definitions.FIELDS as Array<
  [string, { nth: number; type: string; isSerialized: boolean }]
>) {
  const type = TYPES[info.type];
  if (!info.isSerialized || type === undefined || type < 1) continue;
  BY_CODE.set(type * 65536 + info.nth, { name, type, code: type * 65536 + info.nth });
}
const TX_TYPE_NAMES = new Map<number, string>();
for (const [name, code] of Object.entries(definitions.TRANSACTION_TYPES as Record<string, number>))
  TX_TYPE_NAMES.set(code, name);

class Fallback extends Error {}

/**
 * The canonical serialization (hex) of each inner transaction this decoder read from a Batch's
 * blob, by its JSON object: the engine hashes and checks inner transactions by these bytes, which
 * cost nothing here and a full encode of the JSON otherwise (batch-txs.ts). Weak: it lives as long
 * as the decoded transaction.
 */
const canonicalBlobs = new WeakMap<JsonObject, string>();

/** The canonical blob (hex, as the Batch's blob spelled it) of an inner transaction decoded here, if any. */
export function decodedInnerBlob(tx: JsonObject): string | undefined {
  return canonicalBlobs.get(tx);
}

class Reader {
  pos = 0;
  /** `hex` is the blob `b` was decoded from: hex fields are cut out of it rather than re-encoded. */
  constructor(
    readonly b: Buffer,
    readonly hex: string,
  ) {}
  byte(): number {
    const v = this.b[this.pos++];
    if (v === undefined) throw new Fallback();
    return v;
  }
  take(n: number): Buffer {
    if (this.pos + n > this.b.length) throw new Fallback();
    const out = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  /** The next n bytes as uppercase hex (bytes within `b` are valid hex pairs of `hex`). */
  hexUp(n: number): string {
    const start = this.pos;
    if (start + n > this.b.length) throw new Fallback();
    this.pos = start + n;
    return this.hex.slice(2 * start, 2 * (start + n)).toUpperCase();
  }
  u16(): number {
    if (this.pos + 2 > this.b.length) throw new Fallback();
    const v = this.b.readUInt16BE(this.pos);
    this.pos += 2;
    return v;
  }
  u32(): number {
    if (this.pos + 4 > this.b.length) throw new Fallback();
    const v = this.b.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }
  vl(): number {
    const b0 = this.byte();
    if (b0 <= 192) return b0;
    const b1 = this.byte();
    if (b0 <= 240) return 193 + (b0 - 193) * 256 + b1;
    const b2 = this.byte();
    if (b0 <= 254) return 12481 + (b0 - 241) * 65536 + b1 * 256 + b2;
    throw new Fallback();
  }
  field(): FieldDef {
    const h = this.byte();
    let type = h >> 4;
    let nth = h & 15;
    if (type === 0) {
      type = this.byte();
      if (type < 16) throw new Fallback();
    }
    if (nth === 0) {
      nth = this.byte();
      if (nth < 16) throw new Fallback();
    }
    const def = BY_CODE.get(type * 65536 + nth);
    if (!def) throw new Fallback();
    return def;
  }
}

const hexUp = (b: Buffer): string => b.toString('hex').toUpperCase();

const CODEC_ISO = /^[A-Za-z0-9?!@#$%^&*(){}[\]|]{3}$/;

/** The codec's Currency.toJSON: 'XRP' for zero, the ISO code for the standard format, else hex. */
function currencyJson(b: Buffer): string {
  let standard = true;
  let zero = true;
  for (let i = 0; i < 20; i++) {
    if (b[i] !== 0) {
      zero = false;
      if (i < 12 || i > 14) standard = false;
    }
  }
  if (zero) return 'XRP';
  if (standard) {
    const iso = b.toString('latin1', 12, 15);
    if (iso !== 'XRP' && CODEC_ISO.test(iso)) return iso;
  }
  return hexUp(b);
}

/**
 * A positive, normalized issued amount as the codec prints it: bignumber.js toString, which the
 * codec configures (EXPONENTIAL_AT -112..96) to plain notation for every legal IOU value. Zero,
 * negative or non-canonical values are left to the codec.
 */
function readIssuedAmount(r: Reader): JsonObject {
  const raw = r.take(48);
  const b0 = raw[0] as number;
  const b1 = raw[1] as number;
  if ((b0 & 0x40) === 0) throw new Fallback();
  const exponent = ((b0 & 0x3f) << 2) + (b1 >> 6) - 97;
  const mantissa = raw.readBigUInt64BE(0) & 0x3fffffffffffffn;
  if (
    mantissa < 1_000_000_000_000_000n ||
    mantissa > 9_999_999_999_999_999n ||
    exponent < -96 ||
    exponent > 80
  ) {
    throw new Fallback();
  }
  let digits = mantissa.toString();
  let e = exponent;
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === 48) end -= 1;
  e += digits.length - end;
  digits = digits.slice(0, end);
  const n = digits.length;
  let value: string;
  if (e >= 0) {
    value = digits + '0'.repeat(e);
  } else if (n + e > 0) {
    value = `${digits.slice(0, n + e)}.${digits.slice(n + e)}`;
  } else {
    value = `0.${'0'.repeat(-(n + e))}${digits}`;
  }
  return {
    value,
    currency: currencyJson(raw.subarray(8, 28)),
    issuer: addressFromHex(hexUp(raw.subarray(28, 48))),
  };
}

function readObject(r: Reader, nested: boolean): JsonObject {
  const out: JsonObject = {};
  let last = -1;
  while (r.pos < r.b.length) {
    if (nested && r.b[r.pos] === 0xe1) {
      r.pos++;
      return out;
    }
    const f = r.field();
    if (f.code <= last) throw new Fallback();
    last = f.code;
    switch (f.type) {
      case 1: {
        const v = r.u16();
        if (f.name === 'TransactionType') {
          const name = TX_TYPE_NAMES.get(v);
          if (!name) throw new Fallback();
          out[f.name] = name;
        } else if (f.name === 'LedgerEntryType') throw new Fallback();
        else out[f.name] = v;
        break;
      }
      case 2:
        // A permission's JSON is its name (the codec's table), as for TransactionType.
        if (f.name === 'PermissionValue') throw new Fallback();
        out[f.name] = r.u32();
        break;
      case 16:
        if (f.name === 'TransactionResult') throw new Fallback();
        out[f.name] = r.byte();
        break;
      case 3:
        if (BASE10_U64.has(f.name)) throw new Fallback();
        out[f.name] = r.hexUp(8);
        break;
      case 4:
        out[f.name] = r.hexUp(16);
        break;
      case 5:
        out[f.name] = r.hexUp(32);
        break;
      case 17:
        out[f.name] = r.hexUp(20);
        break;
      case 6: {
        const first = r.b[r.pos];
        if (first !== undefined && (first & 0x80) !== 0) {
          out[f.name] = readIssuedAmount(r);
          break;
        }
        if (first === undefined || (first & 0x20) !== 0) throw new Fallback();
        if (r.pos + 8 > r.b.length) throw new Fallback();
        const positive = first & 0x40;
        const hi = r.b.readUInt32BE(r.pos) & 0x3fffffff;
        // Below 2^53 drops (every real amount) the value is exact as a double: no BigInt.
        const n =
          hi < 0x200000
            ? hi * 0x100000000 + r.b.readUInt32BE(r.pos + 4)
            : r.b.readBigUInt64BE(r.pos) & 0x3fffffffffffffffn;
        r.pos += 8;
        out[f.name] = `${positive ? '' : '-'}${n.toString()}`;
        break;
      }
      case 7:
        out[f.name] = r.hexUp(r.vl());
        break;
      case 8: {
        if (r.vl() !== 20) throw new Fallback();
        out[f.name] = addressFromHex(r.hexUp(20));
        break;
      }
      case 19: {
        const len = r.vl();
        if (len % 32 !== 0) throw new Fallback();
        const list: string[] = [];
        for (let i = 0; i < len; i += 32) list.push(r.hexUp(32));
        out[f.name] = list;
        break;
      }
      case 14:
        out[f.name] = readObject(r, true);
        break;
      case 15: {
        const list: JsonObject[] = [];
        for (;;) {
          if (r.b[r.pos] === 0xf1) {
            r.pos++;
            break;
          }
          const inner = r.field();
          if (inner.type !== 14) throw new Fallback();
          const start = r.pos;
          const object = readObject(r, true);
          // Its fields were read in canonical order and each as the codec writes it, so the bytes
          // before its end marker are its canonical serialization: a Batch's inner transaction.
          if (f.name === 'RawTransactions')
            canonicalBlobs.set(object, r.hex.slice(2 * start, 2 * (r.pos - 1)));
          list.push({ [inner.name]: object });
        }
        out[f.name] = list;
        break;
      }
      default:
        throw new Fallback();
    }
  }
  if (nested) throw new Fallback();
  return out;
}

/**
 * Decode a transaction blob (hex) like ripple-binary-codec's decode. Throws like the codec does.
 * `bytes`, when the caller decoded the hex already, are the same blob's bytes.
 */
export function decodeTransaction(blobHex: string, bytes?: Buffer): JsonObject {
  try {
    return readObject(new Reader(bytes ?? Buffer.from(blobHex, 'hex'), blobHex), false);
  } catch (e) {
    if (!(e instanceof Fallback)) throw e;
    return decode(blobHex) as JsonObject;
  }
}
