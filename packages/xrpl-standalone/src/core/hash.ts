// SHA-512Half and rippled's hash prefixes (HashPrefix.h).
import { createHash } from 'node:crypto';

export const HASH_PREFIX = {
  transactionId: 0x54584e00, // 'TXN\0'
  txNode: 0x534e4400, // 'SND\0'
  leafNode: 0x4d4c4e00, // 'MLN\0'
  innerNode: 0x4d494e00, // 'MIN\0'
  ledgerMaster: 0x4c575200, // 'LWR\0'
  txSign: 0x53545800, // 'STX\0'
} as const;

export function sha512Half(...parts: Uint8Array[]): Buffer {
  const h = createHash('sha512');
  for (const p of parts) h.update(p);
  return h.digest().subarray(0, 32);
}

export function sha512HalfHex(...parts: Uint8Array[]): string {
  return sha512Half(...parts)
    .toString('hex')
    .toUpperCase();
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
