// A fast binary serializer for ledger entries and metadata (the hot path of every close: each
// changed entry and each transaction's metadata is hashed). It covers the field types ledger
// entries and metadata use and produces exactly ripple-binary-codec's output; anything it does not
// know (unusual types or values) falls back to the codec for the whole object.
import definitions from 'ripple-binary-codec/dist/enums/definitions.json';
import { encode } from 'ripple-binary-codec';
import { accountIdHex } from './account-id';
import { currencyToHex } from './amount/currency';
import { IouValue } from './amount/iou-value';

interface Field {
  header: Buffer;
  type: number;
  order: number;
}

const TYPES = definitions.TYPES as Record<string, number>;
const RESULTS = definitions.TRANSACTION_RESULTS as Record<string, number>;
const TX_TYPES = definitions.TRANSACTION_TYPES as Record<string, number>;
const LE_TYPES = definitions.LEDGER_ENTRY_TYPES as Record<string, number>;
const BASE10_U64 = new Set([
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
  let header: Buffer;
  if (type < 16 && nth < 16) header = Buffer.from([(type << 4) | nth]);
  else if (type < 16) header = Buffer.from([type << 4, nth]);
  else if (nth < 16) header = Buffer.from([nth, type]);
  else header = Buffer.from([0, type, nth]);
  FIELDS.set(name, { header, type, order: type * 65536 + nth });
}

class Unsupported extends Error {}

const OBJECT_END = Buffer.from([0xe1]);
const ARRAY_END = Buffer.from([0xf1]);
const HEX = /^[0-9A-Fa-f]*$/;

function vl(len: number): Buffer {
  if (len <= 192) return Buffer.from([len]);
  if (len <= 12480) {
    const l = len - 193;
    return Buffer.from([193 + (l >>> 8), l & 0xff]);
  }
  if (len <= 918744) {
    const l = len - 12481;
    return Buffer.from([241 + (l >>> 16), (l >>> 8) & 0xff, l & 0xff]);
  }
  throw new Unsupported();
}

function hexBytes(v: unknown, size?: number): Buffer {
  if (typeof v !== 'string' || !HEX.test(v) || v.length % 2 !== 0) throw new Unsupported();
  const b = Buffer.from(v, 'hex');
  if (size !== undefined && b.length !== size) throw new Unsupported();
  return b;
}

function uint(v: unknown, bytes: number): Buffer {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new Unsupported();
  const b = Buffer.alloc(bytes);
  b.writeUIntBE(v, 0, bytes);
  return b;
}

function account(v: unknown): Buffer {
  if (typeof v !== 'string') throw new Unsupported();
  return Buffer.from(accountIdHex(v), 'hex');
}

const XRP_POSITIVE = 0x4000000000000000n;

function amount(v: unknown): Buffer {
  if (typeof v === 'string') {
    if (!/^-?\d+$/.test(v)) throw new Unsupported();
    let drops = BigInt(v);
    const neg = drops < 0n;
    if (neg) drops = -drops;
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(neg ? drops : drops | XRP_POSITIVE);
    return b;
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
  const head = Buffer.alloc(8);
  if (value.isZero()) head.writeBigUInt64BE(0x8000000000000000n);
  else {
    let n = 0x8000000000000000n;
    if (!value.negative) n |= XRP_POSITIVE;
    n |= BigInt(value.exponent + 97) << 54n;
    n |= value.mantissa;
    head.writeBigUInt64BE(n);
  }
  return Buffer.concat([head, Buffer.from(cur, 'hex'), account(o.issuer)]);
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

const orderCache = new Map<string, string[]>();

function sortedKeys(obj: Record<string, unknown>): string[] {
  const keys = Object.keys(obj);
  const sig = keys.join(',');
  let order = orderCache.get(sig);
  if (!order) {
    const known = keys.filter((k) => FIELDS.has(k));
    for (const k of keys)
      if (!FIELDS.has(k) && k !== 'index' && obj[k] !== undefined) throw new Unsupported();
    order = known.sort((a, b) => (FIELDS.get(a) as Field).order - (FIELDS.get(b) as Field).order);
    if (orderCache.size > 5000) orderCache.clear();
    orderCache.set(sig, order);
  }
  return order;
}

function writeObject(obj: Record<string, unknown>, out: Buffer[]): void {
  for (const name of sortedKeys(obj)) {
    const v = obj[name];
    if (v === undefined) continue;
    const f = FIELDS.get(name) as Field;
    out.push(f.header);
    switch (f.type) {
      case 1: // UInt16
        out.push(uint(name === 'LedgerEntryType' || name === 'TransactionType' ? enumValue(name, v) : v, 2));
        break;
      case 2: // UInt32
        out.push(uint(v, 4));
        break;
      case 3: // UInt64
        if (BASE10_U64.has(name) || typeof v !== 'string' || !HEX.test(v) || v.length > 16)
          throw new Unsupported();
        out.push(Buffer.from(v.padStart(16, '0'), 'hex'));
        break;
      case 4:
        out.push(hexBytes(v, 16));
        break;
      case 5:
        out.push(hexBytes(v, 32));
        break;
      case 17:
        out.push(hexBytes(v, 20));
        break;
      case 16: // UInt8
        out.push(uint(name === 'TransactionResult' ? enumValue(name, v) : v, 1));
        break;
      case 6:
        out.push(amount(v));
        break;
      case 7: {
        const b = hexBytes(v);
        out.push(vl(b.length), b);
        break;
      }
      case 8: {
        const b = account(v);
        out.push(vl(20), b);
        break;
      }
      case 19: {
        if (!Array.isArray(v)) throw new Unsupported();
        const b = Buffer.concat(v.map((h) => hexBytes(h, 32)));
        out.push(vl(b.length), b);
        break;
      }
      case 14: // STObject
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Unsupported();
        writeObject(v as Record<string, unknown>, out);
        out.push(OBJECT_END);
        break;
      case 15: // STArray of { Name: {...} }
        if (!Array.isArray(v)) throw new Unsupported();
        for (const el of v) {
          const entries = el && typeof el === 'object' ? Object.entries(el as object) : [];
          if (entries.length !== 1) throw new Unsupported();
          const [innerName, inner] = entries[0] as [string, unknown];
          const innerField = FIELDS.get(innerName);
          if (!innerField || innerField.type !== 14 || !inner || typeof inner !== 'object')
            throw new Unsupported();
          out.push(innerField.header);
          writeObject(inner as Record<string, unknown>, out);
          out.push(OBJECT_END);
        }
        out.push(ARRAY_END);
        break;
      default:
        throw new Unsupported();
    }
  }
}

/** Serialize a JSON object (ledger entry without `index`, or metadata) like ripple-binary-codec. */
export function serialize(obj: Record<string, unknown>): Buffer {
  const out: Buffer[] = [];
  try {
    writeObject(obj, out);
    return Buffer.concat(out);
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    const { index: _index, ...rest } = obj;
    return Buffer.from(encode(rest), 'hex');
  }
}

export function serializeHex(obj: Record<string, unknown>): string {
  return serialize(obj).toString('hex').toUpperCase();
}
