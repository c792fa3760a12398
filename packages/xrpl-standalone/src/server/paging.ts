// Owner-directory paging for account_lines / account_objects: the marker names the first entry of
// the next page as "<entry index>,<0>" — rippled's "<index>,<page>" shape, opaque to clients.
import type { JsonObject, LedgerEntry } from '../core/contract';
import { invalidField } from './errors';

export function readDirMarker(params: JsonObject): string | undefined {
  const marker = params.marker;
  if (marker === undefined) return undefined;
  if (typeof marker !== 'string') throw invalidField('marker', 'string');
  const match = /^([0-9A-Fa-f]{64}),\d+$/.exec(marker);
  if (!match) throw invalidField('marker');
  return (match[1] as string).toUpperCase();
}

/** Take up to `limit` matches, starting at the entry named by the marker; say where the next page starts. */
export function pageEntries<T>(
  entries: Iterable<LedgerEntry>,
  start: string | undefined,
  limit: number,
  select: (entry: LedgerEntry) => T | undefined,
): { items: T[]; marker?: string } {
  const items: T[] = [];
  let started = start === undefined;
  for (const entry of entries) {
    if (!started) {
      if (entry.index !== start) continue;
      started = true;
    }
    const item = select(entry);
    if (item === undefined) continue;
    if (items.length >= limit) return { items, marker: `${entry.index},0` };
    items.push(item);
  }
  if (!started) throw invalidField('marker');
  return { items };
}
