// What the rest of the server uses of the market module.
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tokens } from '../tokens/schema';
import { marketTrades } from './schema';

export type { CurveMarket, CurveMarkets, MarketSnapshot, PriceRecord, Snapshot } from './snapshot';

export { priceKey } from './snapshot';
export { platformHolders } from './holders';

/** One trade of an account as positions read it: side, quote asset and both amounts (decimal strings). */
export interface AccountTrade {
  side: 'BUY' | 'SELL';
  quote: 'XRP' | 'RLUSD';
  tokenAmount: string;
  quoteAmount: string;
}

/** An account's trades in one token, in ledger order (ledger, transaction, then insertion). */
export interface AccountTokenTrades {
  account: string;
  currency: string;
  issuer: string;
  trades: Iterable<AccountTrade>;
}

/**
 * Every trade of these accounts the indexer saw (here or elsewhere), grouped per account and token
 * in ledger order. One aggregate pass along the (account, token, ledger, tx) index: each group comes
 * back as one compact string (thousands of rows each would cost more to ship than to compute with).
 */
export async function accountTrades(db: Db, accounts: string[]): Promise<AccountTokenTrades[]> {
  if (accounts.length === 0) return [];
  const t = marketTrades;
  const groups = await db
    .select({
      account: t.account,
      tokenId: t.tokenId,
      // 'BX12.5 3.75': side, quote, token amount, quote amount (numeric's text is never exponential).
      trades: sql<string>`string_agg(
        case when ${t.side} = 'SELL' then 'S' else 'B' end || case when ${t.quote} = 'XRP' then 'X' else 'R' end
          || ${t.tokenAmount}::text || ' ' || ${t.quoteAmount}::text,
        ',' order by ${t.ledgerIndex}, ${t.txIndex}, ${t.id})`,
    })
    .from(t)
    .where(inArray(t.account, accounts))
    .groupBy(t.account, t.tokenId);
  const ids = [...new Set(groups.map((g) => g.tokenId))];
  const keys = ids.length
    ? await db
        .select({ id: tokens.id, currency: tokens.currency, issuer: tokens.issuerAddress })
        .from(tokens)
        .where(inArray(tokens.id, ids))
    : [];
  const byId = new Map(keys.map((k) => [k.id, k]));
  return groups.flatMap((g) => {
    const key = byId.get(g.tokenId);
    return key
      ? [{ account: g.account, currency: key.currency, issuer: key.issuer, trades: decodeTrades(g.trades) }]
      : [];
  });
}

/** Reads the compact form `accountTrades` ships a group's trades in ('BX12.5 3.75,SR…'). */
export function* decodeTrades(encoded: string): Generator<AccountTrade> {
  for (const item of encoded.split(',')) {
    const space = item.indexOf(' ');
    yield {
      side: item[0] === 'S' ? 'SELL' : 'BUY',
      quote: item[1] === 'X' ? 'XRP' : 'RLUSD',
      tokenAmount: item.slice(2, space),
      quoteAmount: item.slice(space + 1),
    };
  }
}
export { registerMarket } from './routes';
