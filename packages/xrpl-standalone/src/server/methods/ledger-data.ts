// ledger_data: the state tree in index order, paged by `marker` (the last index returned).
import type { JsonObject } from '../../core/contract';
import type { MethodSpec } from '../context';
import { invalidField } from '../errors';
import { readTypeFilter } from '../entry-types';
import { ledgerHeaderJson } from '../ledger-info';
import { isHash256, optionalBool, readLimit, resolveLedger } from '../params';
import { entryBlob } from './ledger';

export const ledgerDataMethod: MethodSpec = {
  handler: ({ node, params, apiVersion }) => {
    const { view, fields } = resolveLedger(node, params);
    const binary = optionalBool(params, 'binary');
    const limit = readLimit(
      params,
      binary ? { min: 1, default: 2048, max: 2048 } : { min: 1, default: 256, max: 256 },
    );
    const type = readTypeFilter(params);
    let after: string | undefined;
    if (params.marker !== undefined) {
      if (!isHash256(params.marker)) throw invalidField('marker');
      after = params.marker.toUpperCase();
    }
    const state: JsonObject[] = [];
    let marker: string | undefined;
    for (const entry of view.entries(after)) {
      if (type && entry.LedgerEntryType !== type) continue;
      if (state.length >= limit) {
        marker = state[state.length - 1]?.index as string;
        break;
      }
      state.push(binary ? { data: entryBlob(entry), index: entry.index } : entry);
    }
    const result: JsonObject = { ...fields, state };
    // rippled puts the ledger header on the first page only.
    if (after === undefined) result.ledger = ledgerHeaderJson(view, apiVersion);
    if (marker) result.marker = marker;
    return result;
  },
};
