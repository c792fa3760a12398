// Walking an order book in rippled's order: book directories sorted by their 64-bit quality (the
// low bits of the directory index), offers within a directory in insertion order.
import type { LedgerEntry } from '../contract';
import type { Issue } from '../../amm/amount';
import { bookBase, directoryOffers, type ReadLedger } from './read';

/** A view that can find the next ledger entry index after a given one (rippled's succ). */
export interface OrderedLedger extends ReadLedger {
  succ(after: string, before: string): string | undefined;
}

export interface BookOffer {
  dirIndex: string;
  quality: bigint;
  index: string;
  offer: LedgerEntry;
}

export function bookEnd(base: string): string {
  return base.slice(0, 48) + 'F'.repeat(16);
}

/**
 * Book directory roots of a book, best quality first; with `from` (a directory of this book), from
 * that one on, for a caller that knows no better one exists.
 */
export function* bookDirectories(
  view: OrderedLedger,
  takerPays: Issue,
  takerGets: Issue,
  from?: string,
): Generator<string> {
  const base = bookBase(takerPays, takerGets);
  const end = bookEnd(base);
  let cursor = base;
  if (from !== undefined && from > base && from <= end) {
    const entry = view.read(from);
    if (entry && entry.LedgerEntryType === 'DirectoryNode' && entry.RootIndex === from) yield from;
    cursor = from;
  }
  for (;;) {
    const next = view.succ(cursor, end);
    if (next === undefined) return;
    const entry = view.read(next);
    if (entry && entry.LedgerEntryType === 'DirectoryNode' && entry.RootIndex === next) yield next;
    cursor = next;
  }
}

/** Every offer of a book, best quality first. */
export function* bookOffers(view: OrderedLedger, takerPays: Issue, takerGets: Issue): Generator<BookOffer> {
  for (const dirIndex of bookDirectories(view, takerPays, takerGets)) {
    const quality = BigInt('0x' + dirIndex.slice(48));
    for (const index of directoryOffers(view, dirIndex)) {
      const offer = view.read(index);
      if (offer) yield { dirIndex, quality, index, offer };
    }
  }
}

/** Adapts a LedgerView (ordered `entries`) to `succ`. */
export function orderedFromEntries(view: {
  read(index: string): LedgerEntry | undefined;
  entries(afterIndex?: string): Iterable<LedgerEntry>;
}): OrderedLedger {
  return {
    read: (i) => view.read(i),
    succ(after, before) {
      for (const e of view.entries(after)) return e.index <= before ? e.index : undefined;
      return undefined;
    },
  };
}
