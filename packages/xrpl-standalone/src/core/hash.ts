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

export function sha512Half(...parts: Uint8Array[]): Buffer {
  if (parts.length === 1) return hash('sha512', parts[0] as Uint8Array, 'buffer').subarray(0, 32);
  let len = 0;
  for (const p of parts) len += p.length;
  if (len > scratch.length) scratch = Buffer.allocUnsafe(Math.max(len, scratch.length * 2));
  let pos = 0;
  for (const p of parts) {
    scratch.set(p, pos);
    pos += p.length;
  }
  return sha512HalfOf(scratch, pos);
}

/** SHA-512Half of the first `len` bytes of `buf` (for callers that assemble the preimage themselves). */
export function sha512HalfOf(buf: Buffer, len: number): Buffer {
  return hash('sha512', len === buf.length ? buf : buf.subarray(0, len), 'buffer').subarray(0, 32);
}

export function sha512HalfHex(...parts: Uint8Array[]): string {
  return sha512Half(...parts)
    .toString('hex')
    .toUpperCase();
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
  return sha512HalfOf(scratch, end).toString('hex').toUpperCase();
}

/** sha512HalfHex(u32(prefix), data): transaction IDs from a blob's bytes, through the scratch buffer. */
export function sha512HalfHexOfBytes(prefix: number, data: Uint8Array): string {
  const len = 4 + data.length;
  if (len > scratch.length) scratch = Buffer.allocUnsafe(Math.max(len, scratch.length * 2));
  scratch.writeUInt32BE(prefix >>> 0, 0);
  scratch.set(data, 4);
  return sha512HalfOf(scratch, len).toString('hex').toUpperCase();
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
