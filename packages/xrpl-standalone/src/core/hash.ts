// SHA-512Half and rippled's hash prefixes (HashPrefix.h).
import { hash } from 'node:crypto';

export const HASH_PREFIX = {
  transactionId: 0x54584e00, // 'TXN\0'
  txNode: 0x534e4400, // 'SND\0'
  leafNode: 0x4d4c4e00, // 'MLN\0'
  innerNode: 0x4d494e00, // 'MIN\0'
  ledgerMaster: 0x4c575200, // 'LWR\0'
  txSign: 0x53545800, // 'STX\0'
} as const;

// The preimage is copied into one scratch buffer and hashed with the one-shot crypto.hash: a
// createHash/update/digest round per call costs more than the copy (it is paid for every SHAMap
// node, transaction ID and leaf of every close).
let scratch = Buffer.allocUnsafe(8192);

// crypto.hash's 'buffer' output costs about twice its 'hex' output on Node 20 (~3 µs against
// ~1.5 µs for a 200-byte preimage: a fresh ArrayBuffer per digest), so digests wanted as hex
// (transaction IDs, ledger hashes) are asked for as hex. (Digests kept as bytes stay Buffers of
// their own: a pooled Buffer would keep its whole 8 KB slab alive for as long as the hash lives.)
function halfHex(data: Uint8Array): string {
  return hash('sha512', data, 'hex').slice(0, 64).toUpperCase();
}

/** Copies the parts one after another into the scratch buffer; returns their total length. */
function gather(parts: Uint8Array[]): number {
  let len = 0;
  for (const p of parts) len += p.length;
  if (len > scratch.length) scratch = Buffer.allocUnsafe(Math.max(len, scratch.length * 2));
  let pos = 0;
  for (const p of parts) {
    scratch.set(p, pos);
    pos += p.length;
  }
  return pos;
}

export function sha512Half(...parts: Uint8Array[]): Buffer {
  if (parts.length === 1) return hash('sha512', parts[0] as Uint8Array, 'buffer').subarray(0, 32);
  const len = gather(parts); // (may replace the scratch buffer: read it after)
  return sha512HalfOf(scratch, len);
}

/** SHA-512Half of the first `len` bytes of `buf` (for callers that assemble the preimage themselves). */
export function sha512HalfOf(buf: Buffer, len: number): Buffer {
  return hash('sha512', len === buf.length ? buf : buf.subarray(0, len), 'buffer').subarray(0, 32);
}

export function sha512HalfHex(...parts: Uint8Array[]): string {
  if (parts.length === 1) return halfHex(parts[0] as Uint8Array);
  const len = gather(parts);
  return halfHex(scratch.subarray(0, len));
}

/**
 * sha512HalfHex(u32(prefix), hex(dataHex)) without decoding the hex into a Buffer of its own first
 * (transaction IDs: HASH_PREFIX.transactionId and the blob). Like Buffer.from(hex), decoding stops
 * at the first pair that is not hex.
 */
export function sha512HalfHexOfHex(prefix: number, dataHex: string): string {
  const len = 4 + (dataHex.length >>> 1);
  if (len > scratch.length) scratch = Buffer.allocUnsafe(Math.max(len, scratch.length * 2));
  scratch.writeUInt32BE(prefix >>> 0, 0);
  const end = 4 + scratch.write(dataHex, 4, 'hex');
  return halfHex(scratch.subarray(0, end));
}

/** sha512HalfHex(u32(prefix), data): transaction IDs from a blob's bytes, through the scratch buffer. */
export function sha512HalfHexOfBytes(prefix: number, data: Uint8Array): string {
  const len = 4 + data.length;
  if (len > scratch.length) scratch = Buffer.allocUnsafe(Math.max(len, scratch.length * 2));
  scratch.writeUInt32BE(prefix >>> 0, 0);
  scratch.set(data, 4);
  return halfHex(scratch.subarray(0, len));
}

export function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

export function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

export function u64(n: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
}

export function hex(h: string): Buffer {
  return Buffer.from(h, 'hex');
}
