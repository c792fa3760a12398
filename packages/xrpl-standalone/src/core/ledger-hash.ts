// Hashes of a ledger: state and transaction SHAMap leaves, and the ledger header (rippled
// Ledger::calculateLedgerHash / SHAMapItem hashing with HashPrefix leafNode / txNode).
import { serialize } from './serializer';
import type { LedgerEntry, LedgerHeader } from './contract';
import { HASH_PREFIX, hex, sha512Half, sha512HalfHex, u32, u64 } from './hash';
import { ShaMap } from './state/shamap';

const LEAF_PREFIX = u32(HASH_PREFIX.leafNode);
const TX_PREFIX = u32(HASH_PREFIX.txNode);

/** Binary form of a ledger entry as stored in the state map (no `index`). */
export function entryBlob(entry: LedgerEntry): Buffer {
  return serialize(entry);
}

export function stateLeafHash(key: string, entry: LedgerEntry): Buffer {
  return sha512Half(LEAF_PREFIX, entryBlob(entry), hex(key));
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

export interface TxLeaf {
  blob: string;
  metaBlob: string;
}

export function txLeafHash(key: string, leaf: TxLeaf): Buffer {
  const tx = hex(leaf.blob);
  const meta = hex(leaf.metaBlob);
  return sha512Half(TX_PREFIX, vlPrefix(tx.length), tx, vlPrefix(meta.length), meta, hex(key));
}

export function transactionTreeHash(txs: Array<{ hash: string; blob: string; metaBlob: string }>): string {
  const map = new ShaMap<TxLeaf>(txLeafHash).withChanges(txs.map((t) => [t.hash, t]));
  return map.hashHex();
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
