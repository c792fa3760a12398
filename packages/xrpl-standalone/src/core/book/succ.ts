// rippled's ReadView::succ for the views the engine stacks: the next existing ledger entry index
// after `after` (and not past `before`). Order books need it to find the next quality directory.
// The engine's views do not offer it, so it is computed from what they expose: an ApplyView's
// net changes over its base, the open ledger's overlay over its parent's SHAMap, or an ordered
// `entries(after)` iterator.
import type { LedgerEntry } from '../contract';
import { ApplyView, type StateReader } from '../state/apply-view';

interface OverlayReader {
  overlay: Map<string, LedgerEntry | null>;
  /** The overlay's keys in ascending order, when the view maintains them (the open ledger does). */
  overlayKeys?: string[];
  parent: { state: { entries(after?: string): Iterable<[string, LedgerEntry]> } };
}

interface EntriesReader {
  entries(after?: string): Iterable<LedgerEntry | [string, LedgerEntry]>;
}

// A closed ledger's state never changes, so its sorted key list is computed once per ledger.
const keyCache = new WeakMap<object, string[]>();

function sortedKeys(state: { entries(after?: string): Iterable<[string, LedgerEntry]> }): string[] {
  let keys = keyCache.get(state);
  if (!keys) {
    keys = [];
    for (const [k] of state.entries()) keys.push(k);
    keyCache.set(state, keys);
  }
  return keys;
}

function firstOverlay(
  changes: Iterable<[string, LedgerEntry | null]>,
  after: string,
  before: string,
): string | undefined {
  let best: string | undefined;
  for (const [k, v] of changes) {
    if (v && k > after && k <= before && (best === undefined || k < best)) best = k;
  }
  return best;
}

/** firstOverlay over sorted keys: binary search instead of a scan of the whole open ledger. */
function firstSorted(
  keys: string[],
  entries: Map<string, LedgerEntry | null>,
  after: string,
  before: string,
): string | undefined {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) <= after) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < keys.length; i++) {
    const k = keys[i] as string;
    if (k > before) return undefined;
    if (entries.get(k)) return k;
  }
  return undefined;
}

function baseSucc(
  base: (after: string) => string | undefined,
  deleted: (k: string) => boolean,
  after: string,
  before: string,
): string | undefined {
  let cursor = after;
  for (;;) {
    const k = base(cursor);
    if (k === undefined || k > before) return undefined;
    if (!deleted(k)) return k;
    cursor = k;
  }
}

function min(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a < b ? a : b;
}

export function succ(view: StateReader, after: string, before: string): string | undefined {
  if (view instanceof ApplyView) {
    const fromChanges = view.firstLiveKey(after, before);
    const fromBase = baseSucc(
      (c) => succ(view.base, c, before),
      (k) => view.deletedHere(k),
      after,
      fromChanges ?? before,
    );
    return min(fromChanges, fromBase);
  }
  const o = view as unknown as Partial<OverlayReader>;
  if (o.overlay instanceof Map && o.parent?.state) {
    const overlay = o.overlay;
    const state = o.parent.state;
    const fromOverlay = o.overlayKeys
      ? firstSorted(o.overlayKeys, overlay, after, before)
      : firstOverlay(overlay, after, before);
    const keys = sortedKeys(state);
    const fromBase = baseSucc(
      (c) => {
        // first key > c by binary search over the closed ledger's (cached) sorted keys
        let lo = 0;
        let hi = keys.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if ((keys[mid] as string) <= c) lo = mid + 1;
          else hi = mid;
        }
        return keys[lo];
      },
      (k) => overlay.has(k) && overlay.get(k) === null,
      after,
      fromOverlay ?? before,
    );
    return min(fromOverlay, fromBase);
  }
  const e = view as unknown as Partial<EntriesReader>;
  if (typeof e.entries === 'function') {
    for (const item of e.entries(after)) {
      const k = Array.isArray(item) ? item[0] : item.index;
      return k <= before ? k : undefined;
    }
    return undefined;
  }
  throw new Error('view cannot enumerate entries');
}
