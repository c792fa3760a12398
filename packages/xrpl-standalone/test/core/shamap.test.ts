import { describe, expect, it } from 'vitest';
import { hashes } from 'xrpl';
import { randomBytes } from 'node:crypto';
import { encodeAccountID } from 'ripple-address-codec';
import { newAccountRoot } from '../../src/core/account';
import { newStateMap } from '../../src/core/ledger-hash';
import type { LedgerEntry } from '../../src/core/contract';

describe('persistent SHAMap', () => {
  it('hashes like xrpl.js through inserts, updates and deletes, keeping old versions intact', () => {
    const entries = new Map<string, LedgerEntry>();
    for (let i = 0; i < 600; i++) {
      const e = newAccountRoot(encodeAccountID(randomBytes(20)), BigInt(1_000_000 + i), 3);
      entries.set(e.index, e);
    }
    const v1 = newStateMap().withChanges([...entries].map(([k, e]) => [k, e]));
    const hash1 = v1.hashHex();
    expect(hash1).toBe(hashes.hashStateTree([...entries.values()] as never));

    // Delete a third, modify a third, add some: the new version hashes like a fresh tree.
    const keys = [...entries.keys()];
    const changes: Array<[string, LedgerEntry | null]> = [];
    keys.forEach((k, i) => {
      if (i % 3 === 0) {
        changes.push([k, null]);
        entries.delete(k);
      } else if (i % 3 === 1) {
        const e = { ...(entries.get(k) as LedgerEntry), Balance: '42' };
        changes.push([k, e]);
        entries.set(k, e);
      }
    });
    for (let i = 0; i < 50; i++) {
      const e = newAccountRoot(encodeAccountID(randomBytes(20)), 7n, 9);
      changes.push([e.index, e]);
      entries.set(e.index, e);
    }
    const v2 = v1.withChanges(changes);
    expect(v2.hashHex()).toBe(hashes.hashStateTree([...entries.values()] as never));
    expect(v2.size).toBe(entries.size);
    expect(v1.hashHex()).toBe(hash1);
    expect(v1.size).toBe(600);
    const sorted = [...v2.entries()].map(([k]) => k);
    expect(sorted).toEqual([...entries.keys()].sort());
    const mid = sorted[100] as string;
    expect([...v2.entries(mid)].map(([k]) => k)).toEqual(sorted.slice(101));

    // Deleting everything collapses back to the empty tree (hash zero).
    const v3 = v2.withChanges([...entries.keys()].map((k) => [k, null] as [string, null]));
    expect(v3.hashHex()).toBe('0'.repeat(64));
    expect(v3.size).toBe(0);
  });
});
