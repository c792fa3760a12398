import type { IndexedTx } from './follower';
import type { LedgerAmount } from '@ledgerpad/shared';

// What the market indexer (trades) and the positions indexer (fills) both read of a transaction:
// whether it can trade at all, and the offers it consumed, with their owners and asset keys.

/** Only these transactions can trade; deposits and withdrawals change pools but are not trades. */
const TRADING_TYPES = new Set(['Payment', 'OfferCreate', 'CheckCash']);

type Amount = LedgerAmount;
interface OfferFields {
  Account?: string;
  TakerGets?: Amount;
  TakerPays?: Amount;
}

/** An amount's asset as the indexers key it: 'XRP', or `currency|issuer`. */
const assetKey = (a: Amount): string => (typeof a === 'string' ? 'XRP' : `${a.currency}|${a.issuer}`);

/** A validated transaction that can trade (tesSUCCESS, and a Payment, OfferCreate or CheckCash). */
export const canTrade = ({ tx, meta }: IndexedTx): boolean =>
  meta.TransactionResult === 'tesSUCCESS' && TRADING_TYPES.has(tx.TransactionType);

/**
 * The offers the transaction consumed, wholly or partly (a cancelled or expired offer has no
 * previous amounts and is left out): each owner, and the asset keys of its TakerGets and TakerPays.
 */
export function consumedOffers({ meta }: IndexedTx): { account: string; gets: string; pays: string }[] {
  const out: { account: string; gets: string; pays: string }[] = [];
  for (const node of meta.AffectedNodes) {
    const n = (
      'ModifiedNode' in node ? node.ModifiedNode : 'DeletedNode' in node ? node.DeletedNode : undefined
    ) as { LedgerEntryType: string; FinalFields?: OfferFields; PreviousFields?: OfferFields } | undefined;
    if (!n || n.LedgerEntryType !== 'Offer') continue;
    if (!n.PreviousFields?.TakerGets && !n.PreviousFields?.TakerPays) continue;
    const f = n.FinalFields;
    if (!f?.Account || !f.TakerGets || !f.TakerPays) continue;
    out.push({ account: f.Account, gets: assetKey(f.TakerGets), pays: assetKey(f.TakerPays) });
  }
  return out;
}
