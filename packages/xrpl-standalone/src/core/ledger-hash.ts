// Hashes of a ledger: state and transaction SHAMap leaves, and the ledger header (rippled
// Ledger::calculateLedgerHash / SHAMapItem hashing with HashPrefix leafNode / txNode).
import { serialize, serializeTransient } from './serializer';
import type { LedgerEntry, LedgerHeader } from './contract';
import { HASH_PREFIX, hex, sha512Half, sha512HalfHex, sha512HalfOf, u32, u64 } from './hash';
import { ShaMap } from './state/shamap';

const LEAF_PREFIX = u32(HASH_PREFIX.leafNode);
const TX_PREFIX = u32(HASH_PREFIX.txNode);

/** Binary form of a ledger entry as stored in the state map (no `index`). */
export function entryBlob(entry: LedgerEntry): Buffer {
  return serialize(entry);
}

// Leaf preimages are assembled in one scratch buffer, hex fields written straight into it, and
// hashed once: no intermediate Buffer per part (every close hashes each changed entry and each
// transaction).
let scratch = Buffer.allocUnsafe(16384);

function room(n: number): void {
  if (n > scratch.length) scratch = Buffer.allocUnsafe(Math.max(n, scratch.length * 2));
}

/** rippled's Serializer::addVL length prefix, written at `pos`; returns the position after it. */
function putVl(pos: number, len: number): number {
  if (len <= 192) {
    scratch[pos] = len;
    return pos + 1;
  }
  if (len <= 12480) {
    const l = len - 193;
    scratch[pos] = 193 + (l >>> 8);
    scratch[pos + 1] = l & 0xff;
    return pos + 2;
  }
  const l = len - 12481;
  scratch[pos] = 241 + (l >>> 16);
  scratch[pos + 1] = (l >>> 8) & 0xff;
  scratch[pos + 2] = l & 0xff;
  return pos + 3;
}

/** Writes hex at `pos` like Buffer.from(h, 'hex') would decode it; returns the position after it. */
function putHex(pos: number, h: string): number {
  return pos + scratch.write(h, pos, 'hex');
}

export function stateLeafHash(key: string, entry: LedgerEntry): Buffer {
  const blob = serializeTransient(entry);
  room(4 + blob.length + (key.length >>> 1));
  scratch.set(LEAF_PREFIX, 0);
  scratch.set(blob, 4);
  return sha512HalfOf(scratch, putHex(4 + blob.length, key));
}

export function newStateMap(): ShaMap<LedgerEntry> {
  return new ShaMap<LedgerEntry>(stateLeafHash);
}

/** rippled's Serializer::addVL length prefix. */
export function vlPrefix(len: number): Buffer {
  if (len <= 192) return Buffer.from([len]);
  if (len <= 12480) {
    const l = len - 193;
    return Buffer.from([193 + (l >>> 8), l & 0xff]);
  }
  const l = len - 12481;
  return Buffer.from([241 + (l >>> 16), (l >>> 8) & 0xff, l & 0xff]);
}

/**
 * The tx-tree leaf hash from the blob (its hex, or its bytes when the caller has them: the submit
 * path decoded them already, so they are copied rather than decoded from the hex again) and the
 * metadata as hex or bytes.
 */
export function txLeafHashOf(key: string, blob: string | Uint8Array, meta: string | Uint8Array): Buffer {
  const txLen = typeof blob === 'string' ? blob.length >>> 1 : blob.length;
  const metaLen = typeof meta === 'string' ? meta.length >>> 1 : meta.length;
  room(4 + 3 + txLen + 3 + metaLen + (key.length >>> 1));
  scratch.set(TX_PREFIX, 0);
  let pos = putVl(4, txLen);
  let txEnd: number;
  if (typeof blob === 'string') {
    txEnd = putHex(pos, blob);
    // Hex with a non-hex pair decodes shorter than its length says, so the VL prefix written above
    // is wrong: redo it from the Buffers that Buffer.from(hex) decodes, as before.
    if (txEnd !== pos + txLen) return txLeafHashSlow(key, hex(blob), meta);
  } else {
    scratch.set(blob, pos);
    txEnd = pos + txLen;
  }
  pos = putVl(txEnd, metaLen);
  let metaEnd: number;
  if (typeof meta === 'string') {
    metaEnd = putHex(pos, meta);
    if (metaEnd !== pos + metaLen)
      return txLeafHashSlow(key, typeof blob === 'string' ? hex(blob) : blob, meta);
  } else {
    scratch.set(meta, pos);
    metaEnd = pos + metaLen;
  }
  return sha512HalfOf(scratch, putHex(metaEnd, key));
}

function txLeafHashSlow(key: string, tx: Uint8Array, metaIn: string | Uint8Array): Buffer {
  const meta = typeof metaIn === 'string' ? hex(metaIn) : metaIn;
  return sha512Half(TX_PREFIX, vlPrefix(tx.length), tx, vlPrefix(meta.length), meta, hex(key));
}

/** The transaction tree's hash, from leaf hashes computed (txLeafHashOf) when each transaction was applied. */
export function transactionTreeHashOfLeaves(txs: ReadonlyArray<{ hash: string; leafHash: Buffer }>): string {
  const map = new ShaMap<{ leafHash: Buffer }>(leafHashOf).withChanges(
    txs.map((t): [string, { leafHash: Buffer }] => [t.hash, t]),
  );
  return map.hashHex();
}

function leafHashOf(_key: string, t: { leafHash: Buffer }): Buffer {
  return t.leafHash;
}

export function ledgerHeaderHash(h: Omit<LedgerHeader, 'ledger_hash'>): string {
  return sha512HalfHex(
    u32(HASH_PREFIX.ledgerMaster),
    u32(h.ledger_index),
    u64(BigInt(h.total_coins)),
    hex(h.parent_hash),
    hex(h.transaction_hash),
    hex(h.account_hash),
    u32(h.parent_close_time),
    u32(h.close_time),
    Buffer.from([h.close_time_resolution, h.close_flags]),
  );
}
