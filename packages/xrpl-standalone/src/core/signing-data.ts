// Fast path for the single-signature message: for a blob whose fields are in canonical order (at
// every level: inner objects and arrays' objects too), rippled's signing serialization is the blob
// minus its non-signing top-level fields, after the 'STX\0' prefix. Scanning field headers is far
// cheaper than re-encoding the decoded JSON (a Batch's inner transactions above all); any blob the
// scanner does not fully understand falls back to ripple-binary-codec's encodeForSigning.
import definitions from 'ripple-binary-codec/dist/enums/definitions.json';
import { encodeForSigning } from 'ripple-binary-codec';
import type { JsonObject } from './contract';

const FIXED: Record<number, number> = {
  1: 2, // UInt16
  2: 4, // UInt32
  3: 8, // UInt64
  4: 16, // Hash128
  5: 32, // Hash256
  9: 12, // Number
  10: 4, // Int32
  11: 8, // Int64
  16: 1, // UInt8
  17: 20, // Hash160
  20: 12, // UInt96
  21: 24, // Hash192
  22: 48, // Hash384
  23: 64, // Hash512
  26: 20, // Currency
};
const VL_TYPES = new Set([7, 8, 19]);
/**
 * The top-level fields a single signature does not cover (rippled's SField notSigning: the
 * signatures, Signers, BatchSigners...), by type * 65536 + nth, from the codec's definitions.
 */
const NON_SIGNING = new Set<number>();
for (const [, info] of definitions.FIELDS as Array<
  [string, { nth: number; type: string; isSerialized: boolean; isSigningField: boolean }]
>) {
  const type = (definitions.TYPES as Record<string, number>)[info.type];
  if (info.isSerialized && !info.isSigningField && type !== undefined && type > 0)
    NON_SIGNING.add(type * 65536 + info.nth);
}
const STX = '53545800';

function readVl(b: Buffer, i: number): [number, number] | undefined {
  const b0 = b[i];
  if (b0 === undefined) return undefined;
  if (b0 <= 192) return [b0, i + 1];
  const b1 = b[i + 1];
  if (b1 === undefined) return undefined;
  if (b0 <= 240) return [193 + (b0 - 193) * 256 + b1, i + 2];
  const b2 = b[i + 2];
  if (b0 <= 254 && b2 !== undefined) return [12481 + (b0 - 241) * 65536 + b1 * 256 + b2, i + 3];
  return undefined;
}

/** A field header at `i`: its type, its nth and where its value starts; undefined when malformed. */
function readHeader(b: Buffer, i: number): [number, number, number] | undefined {
  const h = b[i++];
  if (h === undefined) return undefined;
  let type = h >> 4;
  let nth = h & 15;
  if (type === 0) {
    type = b[i++] ?? -1;
    if (type < 16) return undefined;
  }
  if (nth === 0) {
    nth = b[i++] ?? -1;
    if (nth < 16) return undefined;
  }
  return [type, nth, i];
}

const OBJECT = 14;
const ARRAY = 15;
const OBJECT_END = 0xe1;
const ARRAY_END = 0xf1;

/** Where the value of a field of `type` starting at `i` ends, or undefined when not scannable. */
function valueEnd(b: Buffer, i: number, type: number): number | undefined {
  const fixed = FIXED[type];
  if (fixed !== undefined) return i + fixed;
  if (VL_TYPES.has(type)) {
    const vl = readVl(b, i);
    return vl && vl[1] + vl[0];
  }
  if (type === 6) {
    const first = b[i];
    if (first === undefined) return undefined;
    return i + ((first & 0x80) !== 0 ? 48 : (first & 0x20) !== 0 ? 33 : 8);
  }
  // An inner object (a Memo, a Batch's RawTransaction): rippled serializes it whole (all its
  // fields, signing or not) in canonical order, so bytes in that order are exactly its encoding.
  if (type === OBJECT) return objectEnd(b, i);
  if (type === ARRAY) {
    for (;;) {
      if (b[i] === ARRAY_END) return i + 1;
      const header = readHeader(b, i);
      if (!header || header[0] !== OBJECT) return undefined;
      const end = objectEnd(b, header[2]);
      if (end === undefined) return undefined;
      i = end;
    }
  }
  return undefined; // paths, issues, bridges: let the codec handle them
}

/**
 * Scans fields from `i`, in canonical order, to the end of the blob (top level) or past an inner
 * object's end marker (`nested`), telling `each` of every field's order and byte range. Returns
 * where it stopped; undefined when something is not scannable.
 */
function scanFields(
  b: Buffer,
  i: number,
  nested: boolean,
  each?: (order: number, start: number, end: number) => void,
): number | undefined {
  let last = -1;
  while (nested || i < b.length) {
    if (nested && b[i] === OBJECT_END) return i + 1;
    const header = readHeader(b, i);
    if (!header) return undefined;
    const [type, nth, at] = header;
    const order = type * 65536 + nth;
    if (order <= last) return undefined;
    last = order;
    const end = valueEnd(b, at, type);
    if (end === undefined || end > b.length) return undefined;
    each?.(order, i, end);
    i = end;
  }
  return i;
}

/** The end (after its end marker) of an inner object whose fields start at `i`. */
function objectEnd(b: Buffer, i: number): number | undefined {
  return scanFields(b, i, true);
}

/** Byte ranges [start, end) of non-signing top-level fields, or undefined when not scannable. */
function nonSigningRanges(b: Buffer): Array<[number, number]> | undefined {
  const ranges: Array<[number, number]> = [];
  const end = scanFields(b, 0, false, (order, start, fieldEnd) => {
    if (NON_SIGNING.has(order)) ranges.push([start, fieldEnd]);
  });
  return end === undefined ? undefined : ranges;
}

const STX_BYTES = Buffer.from(STX, 'hex');

/**
 * The message the single signature covers, as bytes, from the blob's bytes (no hex round trip:
 * the submit path decodes the blob once and verifies these bytes); the codec's encoding when the
 * blob is not scannable.
 */
export function signingDataBytes(b: Buffer, tx: JsonObject): Buffer {
  const ranges = nonSigningRanges(b);
  if (!ranges) return Buffer.from(encodeForSigning(tx), 'hex');
  let size = 4 + b.length;
  for (const [s, e] of ranges) size -= e - s;
  const out = Buffer.allocUnsafe(size);
  STX_BYTES.copy(out, 0);
  let at = 4;
  let pos = 0;
  for (const [s, e] of ranges) {
    at += b.copy(out, at, pos, s);
    pos = e;
  }
  b.copy(out, at, pos);
  return out;
}

/** Hex message the single signature covers. */
export function signingDataHex(blobHex: string, tx: JsonObject): string {
  const b = Buffer.from(blobHex, 'hex');
  const ranges = nonSigningRanges(b);
  if (!ranges) return encodeForSigning(tx);
  let out = STX;
  let pos = 0;
  for (const [s, e] of ranges) {
    out += blobHex.slice(pos * 2, s * 2);
    pos = e;
  }
  out += blobHex.slice(pos * 2);
  return out.toUpperCase();
}
