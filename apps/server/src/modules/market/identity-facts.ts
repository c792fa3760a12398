import { inArray, sql } from 'drizzle-orm';
import { Decimal } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import type { LedgerFacts, LedgerFactsProvider } from '../tokens';
import { platformHolders } from './holders';
import { marketHolders, marketPools, marketTrades } from './schema';

// The ledger facts that order tokens sharing a ticker or a name (issue 35, tokens/identity-rank.ts),
// from what the market indexer recorded of the ledger: holders (positive balances, AMM pools and
// Ledgerpad's own accounts left out, as the list counts them), trust lines to the issuer for the
// currency (zero balances included), and traded volume in XRP (RLUSD-quoted trades at the ledger's
// own XRP/USD price, when known). The first issuance is the token row's `created_at` (its first
// trust line on the ledger), read by the ranking itself.

/** `xrpUsd`: the latest XRP/USD price from the XRP/RLUSD pool (USD per XRP), or null. */
export function ledgerFactsProvider(xrpUsd: () => string | null): LedgerFactsProvider {
  return async (db: Db, tokenIds: number[]) => {
    const out = new Map<number, LedgerFacts>(tokenIds.map((id) => [id, { holders: 0, trustLines: 0, volume: '0' }]));
    if (tokenIds.length === 0) return out;
    const excluded = [...(await platformHolders(db)).keys()];
    const notExcluded = excluded.length
      ? sql` and ${marketHolders.account} not in (${sql.join(
          excluded.map((a) => sql`${a}`),
          sql`, `,
        )})`
      : sql``;
    const lines = await db
      .select({
        tokenId: marketHolders.tokenId,
        lines: sql<number>`count(*)::int`,
        holders: sql<number>`count(*) filter (where ${marketHolders.balance} > 0 and ${marketHolders.account} not in (select ${marketPools.ammAccount} from ${marketPools})${notExcluded})::int`,
      })
      .from(marketHolders)
      .where(inArray(marketHolders.tokenId, tokenIds))
      .groupBy(marketHolders.tokenId);
    for (const l of lines) out.set(l.tokenId, { ...out.get(l.tokenId)!, holders: l.holders, trustLines: l.lines });
    const volumes = await db
      .select({
        tokenId: marketTrades.tokenId,
        quote: marketTrades.quote,
        volume: sql<string>`coalesce(sum(${marketTrades.quoteAmount}), 0)::text`,
      })
      .from(marketTrades)
      .where(inArray(marketTrades.tokenId, tokenIds))
      .groupBy(marketTrades.tokenId, marketTrades.quote);
    const usd = xrpUsd();
    for (const v of volumes) {
      const inXrp =
        v.quote === 'XRP' ? new Decimal(v.volume) : usd && new Decimal(usd).gt(0) ? new Decimal(v.volume).div(usd) : null;
      if (!inXrp) continue;
      const f = out.get(v.tokenId)!;
      out.set(v.tokenId, { ...f, volume: new Decimal(f.volume).plus(inXrp).toFixed() });
    }
    return out;
  };
}
