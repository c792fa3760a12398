// Directories exactly as rippled's ApplyView::dirAdd / dirRemove: a root page plus a circular list
// of further pages (IndexNext/IndexPrevious), at most 32 entries per page. Owner directories keep
// each page sorted (dirInsert); order-book directories keep insertion order (dirAppend).
import type { LedgerEntry } from '../contract';
import { dirPageKey } from '../keylets';
import type { ApplyView } from './apply-view';

export const DIR_NODE_MAX_ENTRIES = 32;
export const DIR_NODE_MAX_PAGES = 262_144n;

export function readU64(entry: LedgerEntry | undefined, field: string): bigint {
  const v = entry?.[field];
  return typeof v === 'string' && v !== '' ? BigInt(`0x${v}`) : 0n;
}

/** rippled prints UInt64 fields as unpadded lowercase hex. */
export function u64Json(n: bigint): string {
  return n.toString(16);
}

export type DescribeDir = (page: LedgerEntry) => void;

function dirAdd(
  view: ApplyView,
  rootIndex: string,
  key: string,
  preserveOrder: boolean,
  describe: DescribeDir,
): bigint | undefined {
  const root = view.peek(rootIndex);
  if (!root) {
    const fresh: LedgerEntry = {
      LedgerEntryType: 'DirectoryNode',
      Flags: 0,
      RootIndex: rootIndex,
      Indexes: [key],
      index: rootIndex,
    };
    describe(fresh);
    view.insert(fresh);
    return 0n;
  }
  let page = readU64(root, 'IndexPrevious');
  const node = page === 0n ? root : view.peek(dirPageKey(rootIndex, page));
  if (!node) throw new Error('directory page missing');
  const indexes = (node.Indexes as string[]).slice();
  if (indexes.length < DIR_NODE_MAX_ENTRIES) {
    if (preserveOrder) {
      if (indexes.includes(key)) throw new Error('dirInsert: double insertion');
      indexes.push(key);
    } else {
      indexes.sort();
      let lo = 0;
      while (lo < indexes.length && (indexes[lo] as string) < key) lo++;
      if (indexes[lo] === key) throw new Error('dirInsert: double insertion');
      indexes.splice(lo, 0, key);
    }
    node.Indexes = indexes;
    view.update(node);
    return page;
  }
  if (++page >= DIR_NODE_MAX_PAGES) return undefined;
  node.IndexNext = u64Json(page);
  view.update(node);
  const root2 = node === root ? node : view.peek(rootIndex);
  if (!root2) throw new Error('directory root missing');
  root2.IndexPrevious = u64Json(page);
  view.update(root2);
  const fresh: LedgerEntry = {
    LedgerEntryType: 'DirectoryNode',
    Flags: 0,
    RootIndex: rootIndex,
    Indexes: [key],
    index: dirPageKey(rootIndex, page),
  };
  if (page !== 1n) fresh.IndexPrevious = u64Json(page - 1n);
  describe(fresh);
  view.insert(fresh);
  return page;
}

/** Owner directories (sorted pages). Returns the page number, or undefined when full. */
export function dirInsert(
  view: ApplyView,
  rootIndex: string,
  key: string,
  describe: DescribeDir,
): bigint | undefined {
  return dirAdd(view, rootIndex, key, false, describe);
}

/** Book directories (insertion order kept). */
export function dirAppend(
  view: ApplyView,
  rootIndex: string,
  key: string,
  describe: DescribeDir,
): bigint | undefined {
  return dirAdd(view, rootIndex, key, true, describe);
}

export function dirRemove(
  view: ApplyView,
  rootIndex: string,
  page: bigint,
  key: string,
  keepRoot: boolean,
): boolean {
  const pageKey = dirPageKey(rootIndex, page);
  const node = view.peek(pageKey);
  if (!node) return false;
  const entries = (node.Indexes as string[]).slice();
  const at = entries.indexOf(key);
  if (at < 0) return false;
  entries.splice(at, 1);
  node.Indexes = entries;
  view.update(node);
  if (entries.length > 0) return true;

  let prevPage = readU64(node, 'IndexPrevious');
  let nextPage = readU64(node, 'IndexNext');
  if (page === 0n) {
    if (nextPage === prevPage && nextPage !== page) {
      // A legacy empty last page: drop it.
      const last = view.read(dirPageKey(rootIndex, nextPage));
      if (!last) throw new Error('directory page missing');
      if ((last.Indexes as string[]).length > 0) return true;
      const n2 = view.peek(pageKey) as LedgerEntry;
      n2.IndexNext = u64Json(page);
      n2.IndexPrevious = u64Json(page);
      view.update(n2);
      view.erase(last.index);
      nextPage = page;
      prevPage = page;
    }
    if (keepRoot) return true;
    if (nextPage === page && prevPage === page) view.erase(view.read(pageKey) as LedgerEntry);
    return true;
  }
  if (nextPage === page || prevPage === page) throw new Error('directory list corrupt');
  const prev = view.peek(dirPageKey(rootIndex, prevPage));
  if (!prev) throw new Error('directory page missing');
  prev.IndexNext = u64Json(nextPage);
  view.update(prev);
  const next = view.peek(dirPageKey(rootIndex, nextPage));
  if (!next) throw new Error('directory page missing');
  next.IndexPrevious = u64Json(prevPage);
  view.update(next);
  view.erase(view.read(pageKey) as LedgerEntry);

  if (nextPage !== 0n && readU64(next, 'IndexNext') === 0n && (next.Indexes as string[]).length === 0) {
    view.erase(next);
    const prev2 = view.peek(prev.index) as LedgerEntry;
    prev2.IndexNext = u64Json(0n);
    view.update(prev2);
    const root = view.peek(rootIndex);
    if (!root) throw new Error('directory root missing');
    root.IndexPrevious = u64Json(prevPage);
    view.update(root);
    nextPage = 0n;
  }
  if (!keepRoot && nextPage === 0n && prevPage === 0n) {
    const p = view.read(dirPageKey(rootIndex, prevPage));
    if (p && (p.Indexes as string[]).length === 0) view.erase(p);
  }
  return true;
}

/** Every key in a directory, page by page (for account_objects style walks and deletion checks). */
export function* dirEntries(
  view: { read(index: string): LedgerEntry | undefined },
  rootIndex: string,
): Generator<string> {
  let page = 0n;
  for (;;) {
    const node = view.read(dirPageKey(rootIndex, page));
    if (!node) return;
    yield* node.Indexes as string[];
    page = readU64(node, 'IndexNext');
    if (page === 0n) return;
  }
}
