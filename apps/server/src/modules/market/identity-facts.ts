import { inArray, sql } from 'drizzle-orm';
import type { Client } from 'xrpl';
import { Decimal } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import type { LedgerFacts, LedgerFactsProvider } from '../tokens';
import { holderNotAmong, platformHolders } from './holders';
import { tokens as tokenRows } from '../tokens/schema';
import { marketHolders, marketPools, marketSynced, marketTrades } from './schema';

/** Pages of an issuer's trust lines read for a token the indexer has not synced yet (400 each). */
const MAX_LINE_PAGES = 10;

/** Holders and trust lines of one token, from the validated ledger (before the indexer has them). */
async function linesFromLedger(
  client: Client,
  issuer: string,
  currency: string,
  excluded: ReadonlySet<string>,
): Promise<Pick<LedgerFacts, 'holders' | 'trustLines'>> {
  let holders = 0;
  let trustLines = 0;
  let marker: unknown;
  for (let page = 0; page < MAX_LINE_PAGES; page++) {
    const r = await client.request({
      command: 'account_lines',
      account: issuer,
      ledger_index: 'validated',
      limit: 400,
      ...(marker ? { marker } : {}),
    });
    for (const l of r.result.lines) {
      if (l.currency !== currency) continue;
      trustLines++;
      // From the issuer's side a holder's balance is negative.
      if (new Decimal(l.balance).lt(0) && !excluded.has(l.account)) holders++;
    }
    marker = r.result.marker;
    if (!marker) break;
  }
  return { holders, trustLines };
}

// The ledger facts that order tokens sharing a ticker or a name (issue 35, tokens/identity-rank.ts),
// from what the market indexer recorded of the ledger: holders (positive balances, AMM pools and
// Ledgerpad's own accounts left out, as the list counts them), trust lines to the issuer for the
// currency (zero balances included), and traded volume in XRP (RLUSD-quoted trades at the ledger's
// own XRP/USD price, when known). The first issuance is the token row's `created_at` (its first
// trust line on the ledger), read by the ranking itself.

/**
 * `xrpUsd`: the latest XRP/USD price from the XRP/RLUSD pool (USD per XRP), or null. `client`: a
 * token listed a moment ago, which the indexer has not read yet, is read from the ledger itself, so
 * its order is right from its first listing (never decided on missing facts).
 */
export function ledgerFactsProvider(xrpUsd: () => string | null, client?: Client): LedgerFactsProvider {
  return async (db: Db, tokenIds: number[]) => {
    const out = new Map<number, LedgerFacts>(
      tokenIds.map((id) => [id, { holders: 0, trustLines: 0, volume: '0' }]),
    );
    if (tokenIds.length === 0) return out;
    const excluded = [...(await platformHolders(db)).keys()];
    const notExcluded = holderNotAmong(excluded);
    const lines = await db
      .select({
        tokenId: marketHolders.tokenId,
        lines: sql<number>`count(*)::int`,
        holders: sql<number>`count(*) filter (where ${marketHolders.balance} > 0 and ${marketHolders.account} not in (select ${marketPools.ammAccount} from ${marketPools})${notExcluded})::int`,
      })
      .from(marketHolders)
      .where(inArray(marketHolders.tokenId, tokenIds))
      .groupBy(marketHolders.tokenId);
    for (const l of lines)
      out.set(l.tokenId, { ...out.get(l.tokenId)!, holders: l.holders, trustLines: l.lines });
    const synced = new Set(
      (
        await db
          .select({ id: marketSynced.tokenId })
          .from(marketSynced)
          .where(inArray(marketSynced.tokenId, tokenIds))
      ).map((r) => r.id),
    );
    const unsynced = tokenIds.filter((id) => !synced.has(id));
    if (client && unsynced.length > 0) {
      const pools = await db.select({ account: marketPools.ammAccount }).from(marketPools);
      const skip = new Set([...excluded, ...pools.map((p) => p.account)]);
      const rows = await db
        .select({ id: tokenRows.id, issuer: tokenRows.issuerAddress, currency: tokenRows.currency })
        .from(tokenRows)
        .where(inArray(tokenRows.id, unsynced));
      for (const r of rows) {
        const read = await linesFromLedger(client, r.issuer, r.currency, skip).catch(() => undefined);
        if (read) out.set(r.id, { ...out.get(r.id)!, ...read });
      }
    }
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
        v.quote === 'XRP'
          ? new Decimal(v.volume)
          : usd && new Decimal(usd).gt(0)
            ? new Decimal(v.volume).div(usd)
            : null;
      if (!inXrp) continue;
      const f = out.get(v.tokenId)!;
      out.set(v.tokenId, { ...f, volume: new Decimal(f.volume).plus(inXrp).toFixed() });
    }
    return out;
  };
}
