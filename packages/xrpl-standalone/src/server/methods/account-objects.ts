// account_objects: everything in the owner directory, with type filter and deletion blockers.
import type { JsonObject } from '../../core/contract';
import type { MethodSpec } from '../context';
import { DELETION_BLOCKERS, readTypeFilter } from '../entry-types';
import { ownedEntries } from '../owner-dir';
import { pageEntries, readDirMarker } from '../paging';
import { optionalBool, readLimit, requireAccount, resolveLedger } from '../params';
import { readAccountRoot } from './account-info';

export const accountObjectsMethod: MethodSpec = {
  handler: ({ node, params }) => {
    const account = requireAccount(params);
    const type = readTypeFilter(params);
    const blockersOnly = optionalBool(params, 'deletion_blockers_only');
    const limit = readLimit(params, { min: 10, default: 200, max: 400 });
    const start = readDirMarker(params);
    const { view, fields } = resolveLedger(node, params);
    readAccountRoot(view, account, fields);
    const page = pageEntries(ownedEntries(view, account), start, limit, (entry) => {
      if (type && entry.LedgerEntryType !== type) return undefined;
      if (blockersOnly && !DELETION_BLOCKERS.has(entry.LedgerEntryType)) return undefined;
      return entry;
    });
    const result: JsonObject = { account, account_objects: page.items, ...fields };
    if (params.limit !== undefined) result.limit = limit;
    if (page.marker) result.marker = page.marker;
    return result;
  },
};
