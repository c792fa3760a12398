import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/results';
import { marketCandles, marketTrades } from './schema';

// The list's 24h change (issue 25, the phone list's column): the price 24 hours ago per token, from
// the indexer's 5-minute candles in the token's own pair — the close of the last bar that ended by
// then, or, for a token younger than a day, the open of its first bar (the token page's rule). Read
// at most once a minute: a reference a minute old moves the percentage by nothing anyone can see,
// and the snapshot is rebuilt every ledger.

const BAR_SECONDS = 300;
const DAY_SECONDS = 86_400;
const TTL_MS = 60_000;
/** Tokens without a reference yet (no trades when last read) are looked at again this often. */
const MISSING_TTL_MS = 5_000;

export interface DayChangeToken {
  id: number;
  quote: 'XRP' | 'RLUSD';
}

/** Token id → its price 24 h ago (decimal text) for the tokens that have traded. */
export async function dayReferencePrices(
  db: Db,
  tokens: readonly DayChangeToken[],
  nowMs = Date.now(),
): Promise<Map<number, string>> {
  if (tokens.length === 0) return new Map();
  const at = new Date(nowMs - (DAY_SECONDS + BAR_SECONDS) * 1000);
  const c = marketCandles;
  const res = await db.execute<{ id: number | string; price: string | null }>(sql`
    select v.id as id,
      coalesce(
        (select ${c.close} from ${c}
          where ${c.tokenId} = v.id and ${c.quote} = v.quote and ${c.resolution} = ${BAR_SECONDS}
            and ${c.bucket} <= ${at.toISOString()}::timestamptz
          order by ${c.bucket} desc limit 1),
        (select ${c.open} from ${c}
          where ${c.tokenId} = v.id and ${c.quote} = v.quote and ${c.resolution} = ${BAR_SECONDS}
          order by ${c.bucket} asc limit 1)
      )::text as price
    from (values ${sql.join(
      tokens.map((t) => sql`(${t.id}::bigint, ${t.quote}::text)`),
      sql`, `,
    )}) as v(id, quote)
  `);
  const out = new Map<number, string>();
  for (const r of rowsOf<{ id: number | string; price: string | null }>(res))
    if (r.price !== null) out.set(Number(r.id), r.price);
  return out;
}

/**
 * The references, read again at most once a minute (or when the token set changes); every 5 s while
 * some token has none yet (its first trades are being indexed).
 */
export class DayChanges {
  private cached: { at: number; ids: string; refs: Map<number, string> } | undefined;

  constructor(private readonly db: Db) {}

  async references(tokens: readonly DayChangeToken[]): Promise<Map<number, string>> {
    const ids = tokens.map((t) => `${t.id}:${t.quote}`).join(',');
    const now = Date.now();
    const c = this.cached;
    const fresh = c && c.ids === ids && now - c.at < (c.refs.size < tokens.length ? MISSING_TTL_MS : TTL_MS);
    if (fresh) return c.refs;
    try {
      const refs = await dayReferencePrices(this.db, tokens, now);
      this.cached = { at: now, ids, refs };
      return refs;
    } catch {
      // A failed read shows no change, never a failed price list.
      return this.cached?.refs ?? new Map();
    }
  }
}

/**
 * The list's 24h volume (issue 39): per token and quote asset, the sum of the quote amounts of the
 * indexer's trades whose ledger closed in the last 24 hours — exact `numeric` sums, as text. One
 * statement per snapshot build (the (token, time) index), so a trade shows in the next list.
 */
export async function dayVolumes(
  db: Db,
  tokenIds: readonly number[],
  nowMs = Date.now(),
): Promise<Map<string, string>> {
  if (tokenIds.length === 0) return new Map();
  const t = marketTrades;
  const since = new Date(nowMs - DAY_SECONDS * 1000);
  const res = await db.execute<{ id: number | string; quote: string; volume: string }>(sql`
    select ${t.tokenId} as id, ${t.quote} as quote, sum(${t.quoteAmount})::text as volume
    from ${t}
    where ${t.tokenId} in (${sql.join(
      tokenIds.map((id) => sql`${id}`),
      sql`, `,
    )}) and ${t.time} > ${since.toISOString()}::timestamptz
    group by ${t.tokenId}, ${t.quote}
  `);
  const out = new Map<string, string>();
  for (const r of rowsOf<{ id: number | string; quote: string; volume: string }>(res))
    out.set(volumeKey(Number(r.id), r.quote), r.volume);
  return out;
}

export const volumeKey = (tokenId: number, quote: string) => `${tokenId}|${quote}`;
