// Walks an account's owner directory the way rippled's forEachItem does: root page, then IndexNext.
import type { LedgerEntry, LedgerView } from '../core/contract';
import { dirPageIndex, ownerDirIndex } from './keylets';

export function* ownedEntries(view: LedgerView, address: string): Generator<LedgerEntry> {
  const root = ownerDirIndex(address);
  let page = 0n;
  // A directory page chain is finite, but guard against a corrupt loop anyway.
  for (let guard = 0; guard < 1_000_000; guard += 1) {
    const dir = view.read(dirPageIndex(root, page));
    if (!dir) return;
    const indexes = Array.isArray(dir.Indexes) ? (dir.Indexes as string[]) : [];
    for (const index of indexes) {
      const entry = view.read(index);
      if (entry) yield entry;
    }
    const next = dir.IndexNext;
    if (next === undefined) return;
    const nextPage = BigInt('0x' + String(next));
    if (nextPage === 0n) return;
    page = nextPage;
  }
}
