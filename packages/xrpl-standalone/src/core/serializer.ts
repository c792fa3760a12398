// A fast binary serializer for ledger entries and metadata (the hot path of every close: each
// changed entry and each transaction's metadata is hashed). It covers the field types ledger
// entries and metadata use and produces exactly ripple-binary-codec's output; anything it does not
// know (unusual types or values) falls back to the codec for the whole object.
import definitions from 'ripple-binary-codec/dist/enums/definitions.json';
import { encode } from 'ripple-binary-codec';
import { accountIdHex } from './account-id';
import { currencyToHex } from './amount/currency';
import { IouValue } from './amount/iou-value';
import { KeySequenceCache } from './key-sequence-cache';

interface Field {
  name: string;
  header: Uint8Array;
  type: number;
  order: number;
}

const TYPES = definitions.TYPES as Record<string, number>;
const RESULTS = definitions.TRANSACTION_RESULTS as Record<string, number>;
const TX_TYPES = definitions.TRANSACTION_TYPES as Record<string, number>;
const LE_TYPES = definitions.LEDGER_ENTRY_TYPES as Record<string, number>;
/** UInt64 fields whose JSON is base-10 text (MPT amounts), not hex; the decoder reads the same set. */
export const BASE10_U64: ReadonlySet<string> = new Set([
  'MaximumAmount',
  'OutstandingAmount',
  'MPTAmount',
  'LockedAmount',
  'ConfidentialOutstandingAmount',
]);

const FIELDS = new Map<string, Field>();
for (const [name, info] of definitions.FIELDS as Array<
  [string, { nth: number; type: string; isSerialized: boolean }]
>) {
  if (!info.isSerialized) continue;
  const type = TYPES[info.type];
  if (type === undefined || type < 1) continue;
  const nth = info.nth;
  let header: Uint8Array;
  if (type < 16 && nth < 16) header = Uint8Array.of((type << 4) | nth);
  else if (type < 16) header = Uint8Array.of(type << 4, nth);
  else if (nth < 16) header = Uint8Array.of(nth, type);
  else header = Uint8Array.of(0, type, nth);
  FIELDS.set(name, { name, header, type, order: type * 65536 + nth });
}

class Unsupported extends Error {}

// Output goes into one growing scratch buffer instead of a Buffer per field and a concat: the
// serializer runs for every changed entry and every transaction's metadata of every close.
// Serialization is synchronous and never nested, so a single module-level buffer is safe.
let buf = Buffer.allocUnsafe(16384);
let pos = 0;

function ensure(n: number): void {
  if (pos + n <= buf.length) return;
  const bigger = Buffer.allocUnsafe(Math.max(buf.length * 2, pos + n));
  buf.copy(bigger, 0, 0, pos);
  buf = bigger;
}

function putVl(len: number): void {
  ensure(3);
  if (len <= 192) buf[pos++] = len;
  else if (len <= 12480) {
    const l = len - 193;
    buf[pos++] = 193 + (l >>> 8);
    buf[pos++] = l & 0xff;
  } else if (len <= 918744) {
    const l = len - 12481;
    buf[pos++] = 241 + (l >>> 16);
    buf[pos++] = (l >>> 8) & 0xff;
    buf[pos++] = l & 0xff;
  } else throw new Unsupported();
}

/** Hex digits straight into the output; Buffer#write stops at the first non-hex pair, which the length check catches. */
function putHex(v: unknown, size?: number): void {
  if (typeof v !== 'string' || v.length % 2 !== 0) throw new Unsupported();
  const n = v.length / 2;
  if (size !== undefined && n !== size) throw new Unsupported();
  ensure(n);
  if (buf.write(v, pos, 'hex') !== n) throw new Unsupported();
  pos += n;
}

function checkUint(v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new Unsupported();
  return v;
}

/** Account IDs as bytes: copying 20 bytes is cheaper than decoding the cached hex every time. */
const accountBytes = new Map<string, Buffer>();

function accountId(address: string): Buffer {
  let b = accountBytes.get(address);
  if (b === undefined) {
    b = Buffer.from(accountIdHex(address), 'hex');
    if (accountBytes.size > 100_000) accountBytes.clear();
    accountBytes.set(address, b);
  }
  return b;
}

function putAccount(v: unknown): void {
  if (typeof v !== 'string') throw new Unsupported();
  const id = accountId(v);
  ensure(20);
  buf.set(id, pos);
  pos += 20;
}

const XRP_POSITIVE = 0x4000000000000000n;
const DROPS = /^-?\d+$/;

function putAmount(v: unknown): void {
  if (typeof v === 'string') {
    if (!DROPS.test(v)) throw new Unsupported();
    if (v.length <= 15) {
      // Below 10^15 drops a double holds the value exactly: no BigInt (every balance in every
      // transaction's metadata passes here). The same bytes as the BigInt path below.
      let n = Number(v);
      const neg = n < 0;
      if (neg) n = -n;
      ensure(8);
      buf.writeUInt32BE(Math.floor(n / 0x100000000) + (neg ? 0 : 0x40000000), pos);
      buf.writeUInt32BE(n % 0x100000000, pos + 4);
      pos += 8;
      return;
    }
    let drops = BigInt(v);
    const neg = drops < 0n;
    if (neg) drops = -drops;
    ensure(8);
    // Out-of-range drops make writeBigUInt64BE throw a RangeError, as the Buffer version did.
    buf.writeBigUInt64BE(neg ? drops : drops | XRP_POSITIVE, pos);
    pos += 8;
    return;
  }
  if (!v || typeof v !== 'object') throw new Unsupported();
  const o = v as Record<string, unknown>;
  if (
    typeof o.value !== 'string' ||
    typeof o.currency !== 'string' ||
    typeof o.issuer !== 'string' ||
    o.mpt_issuance_id !== undefined
  ) {
    throw new Unsupported();
  }
  const value = IouValue.parse(o.value);
  const cur = currencyToHex(o.currency);
  if (cur === undefined) throw new Unsupported();
  const issuer = accountId(o.issuer);
  let n = 0x8000000000000000n;
  if (!value.isZero()) {
    if (!value.negative) n |= XRP_POSITIVE;
    n |= BigInt(value.exponent + 97) << 54n;
    n |= value.mantissa;
  }
  ensure(48);
  buf.writeBigUInt64BE(n, pos);
  buf.write(cur, pos + 8, 'hex');
  buf.set(issuer, pos + 28);
  pos += 48;
}

function enumValue(name: string, v: unknown): number {
  if (typeof v === 'number') return v;
  const table =
    name === 'TransactionResult'
      ? RESULTS
      : name === 'TransactionType'
        ? TX_TYPES
        : name === 'LedgerEntryType'
          ? LE_TYPES
          : undefined;
  const n = table && typeof v === 'string' ? table[v] : undefined;
  if (n === undefined) throw new Unsupported();
  return n;
}

function byOrder(a: Field, b: Field): number {
  return a.order - b.order;
}

/** Serialization order per key sequence. */
const orders = new KeySequenceCache<Field[]>();

/**
 * The object's fields in serialization order; unknown keys other than `index` send the object to
 * the codec. Cached per key sequence (KeySequenceCache).
 */
function sortedFields(obj: Record<string, unknown>): Field[] {
  return orders.get(obj, computeOrder, allKnown);
}

/** A key unknown to the definitions is only tolerated while undefined: such shapes are re-checked. */
function allKnown(fields: Field[], obj: Record<string, unknown>): boolean {
  return fields.length === Object.keys(obj).length - ('index' in obj ? 1 : 0);
}

function computeOrder(obj: Record<string, unknown>): Field[] {
  const out: Field[] = [];
  for (const k in obj) {
    const f = FIELDS.get(k);
    if (f === undefined) {
      if (k !== 'index' && obj[k] !== undefined) throw new Unsupported();
      continue;
    }
    out.push(f);
  }
  return out.sort(byOrder);
}

function putHeader(header: Uint8Array): void {
  ensure(3);
  for (let i = 0; i < header.length; i++) buf[pos++] = header[i] as number;
}

function writeObject(obj: Record<string, unknown>): void {
  const fields = sortedFields(obj);
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] as Field;
    const name = f.name;
    const v = obj[name];
    if (v === undefined) continue;
    putHeader(f.header);
    switch (f.type) {
      case 1: // UInt16
        ensure(2);
        buf.writeUInt16BE(
          checkUint(name === 'LedgerEntryType' || name === 'TransactionType' ? enumValue(name, v) : v),
          pos,
        );
        pos += 2;
        break;
      case 2: // UInt32
        ensure(4);
        buf.writeUInt32BE(checkUint(v), pos);
        pos += 4;
        break;
      case 3: // UInt64
        if (BASE10_U64.has(name) || typeof v !== 'string' || v.length > 16) throw new Unsupported();
        putHex(v.padStart(16, '0'));
        break;
      case 4:
        putHex(v, 16);
        break;
      case 5:
        putHex(v, 32);
        break;
      case 17:
        putHex(v, 20);
        break;
      case 16: // UInt8
        ensure(1);
        buf.writeUInt8(checkUint(name === 'TransactionResult' ? enumValue(name, v) : v), pos);
        pos += 1;
        break;
      case 6:
        putAmount(v);
        break;
      case 7: {
        if (typeof v !== 'string' || v.length % 2 !== 0) throw new Unsupported();
        putVl(v.length / 2);
        putHex(v);
        break;
      }
      case 8:
        putVl(20);
        putAccount(v);
        break;
      case 19: {
        if (!Array.isArray(v)) throw new Unsupported();
        putVl(v.length * 32);
        for (const h of v) putHex(h, 32);
        break;
      }
      case 14: // STObject
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Unsupported();
        writeObject(v as Record<string, unknown>);
        ensure(1);
        buf[pos++] = 0xe1;
        break;
      case 15: // STArray of { Name: {...} }
        if (!Array.isArray(v)) throw new Unsupported();
        for (const el of v) writeArrayElement(el);
        ensure(1);
        buf[pos++] = 0xf1;
        break;
      default:
        throw new Unsupported();
    }
  }
}

function writeArrayElement(el: unknown): void {
  if (!el || typeof el !== 'object') throw new Unsupported();
  let innerName: string | undefined;
  for (const k in el) {
    if (innerName !== undefined) throw new Unsupported();
    innerName = k;
  }
  if (innerName === undefined) throw new Unsupported();
  const inner = (el as Record<string, unknown>)[innerName];
  const innerField = FIELDS.get(innerName);
  if (!innerField || innerField.type !== 14 || !inner || typeof inner !== 'object') throw new Unsupported();
  putHeader(innerField.header);
  writeObject(inner as Record<string, unknown>);
  ensure(1);
  buf[pos++] = 0xe1;
}

function fallback(obj: Record<string, unknown>): string {
  const { index: _index, ...rest } = obj;
  return encode(rest);
}

/** Writes `obj` into the scratch buffer; false when the codec has to encode it instead. */
function writeFast(obj: Record<string, unknown>): boolean {
  pos = 0;
  try {
    writeObject(obj);
    return true;
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    return false;
  }
}

/** Serialize a JSON object (ledger entry without `index`, or metadata) like ripple-binary-codec. */
export function serialize(obj: Record<string, unknown>): Buffer {
  if (!writeFast(obj)) return Buffer.from(fallback(obj), 'hex');
  const out = Buffer.allocUnsafe(pos);
  buf.copy(out, 0, 0, pos);
  return out;
}

/**
 * Like serialize, but the result is a view of the serializer's scratch buffer: valid only until
 * the next call into this module. For hashing, which copies the bytes at once.
 */
export function serializeTransient(obj: Record<string, unknown>): Buffer {
  if (!writeFast(obj)) return Buffer.from(fallback(obj), 'hex');
  return buf.subarray(0, pos);
}

export function serializeHex(obj: Record<string, unknown>): string {
  if (!writeFast(obj)) return fallback(obj).toUpperCase();
  return buf.toString('hex', 0, pos).toUpperCase();
}

/** serializeHex's own encoding, or undefined where it would hand the object to the codec. */
export function serializeHexFast(obj: Record<string, unknown>): string | undefined {
  return writeFast(obj) ? buf.toString('hex', 0, pos).toUpperCase() : undefined;
}
