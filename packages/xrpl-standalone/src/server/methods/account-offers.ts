// account_offers: the account's resting offers from its owner directory (rippled AccountOffers.cpp).
import type { JsonObject } from '../../core/contract';
import { qualityRate } from '../../core/book/quality';
import { numberText } from '../../core/book/read';
import type { MethodSpec } from '../context';
import { ownedEntries } from '../owner-dir';
import { pageEntries, readDirMarker } from '../paging';
import { readLimit, requireAccount, resolveLedger } from '../params';
import { readAccountRoot } from './account-info';

export const accountOffersMethod: MethodSpec = {
  handler: ({ node, params }) => {
    const account = requireAccount(params);
    const limit = readLimit(params, { min: 10, default: 200, max: 400 });
    const start = readDirMarker(params);
    const { view, fields } = resolveLedger(node, params);
    readAccountRoot(view, account, fields);
    const page = pageEntries(ownedEntries(view, account), start, limit, (entry) => {
      if (entry.LedgerEntryType !== 'Offer') return undefined;
      const dir = String(entry.BookDirectory);
      const offer: JsonObject = {
        flags: Number(entry.Flags ?? 0),
        seq: Number(entry.Sequence),
        taker_gets: entry.TakerGets,
        taker_pays: entry.TakerPays,
        quality: numberText(qualityRate(BigInt('0x' + dir.slice(48)))),
      };
      if (entry.Expiration !== undefined) offer.expiration = Number(entry.Expiration);
      return offer;
    });
    const result: JsonObject = { account, offers: page.items, ...fields };
    if (params.limit !== undefined) result.limit = limit;
    if (page.marker) result.marker = page.marker;
    return result;
  },
};
