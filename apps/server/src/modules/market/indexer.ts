import { RLUSD_CURRENCY_HEX, type NewTrade, Decimal, dropsToXrp } from '@ledgerpad/shared';
import { readIssuerFacts } from '../../ledger/account-root';
import { sql } from 'drizzle-orm';
import type { Client } from 'xrpl';
import type { Db } from '../../db/client';
import type { IndexedLedger, LedgerHandler } from '../../platform/indexer/follower';
import type { TokenRow } from '../tokens';
import { issuerFacts, marketCandles, marketHolders, marketPools, marketSynced, marketTrades } from './schema';
import { extractTrades, type ExtractedTrade, type MarketIndex, type Quote } from './trades';

// The market handler of the ledger follower: for every validated ledger, the trades of listed tokens
// (and their candles), holders' balances, pool states and issuer facts. Ledger reads happen in
// `prepare` (at that ledger's index, so a replay reads the same state); `write` runs inside the
// follower's transaction; `committed` announces the trades on the live socket.

export const RESOLUTIONS = [60, 300, 900, 3600, 14_400, 86_400] as const;
/** Listings made on other instances reach this one's indexer within this time. */
const TOKEN_LIST_TTL_MS = 5_000;

export interface MarketIndexerDeps {
  client: Client;
  /** Listed tokens (read once per ledger). */
  listTokens: () => Promise<Array<Pick<TokenRow, 'id' | 'currency' | 'issuerAddress'>>>;
  /** The network's RLUSD issuer, if any. */
  rlusdIssuer: () => Promise<string | undefined>;
  publishTrade: (trade: NewTrade) => Promise<void>;
  /** Read model the routes serve from; told after each committed ledger. */
  onLedger?: (ledger: IndexedLedger) => void;
  /** Told when this instance lists or changes a token. */
  onTokensChanged?: (listener: () => void) => void;
}

interface PoolState {
  tokenId: number;
  quote: Quote;
  ammAccount: string;
  tokenAmount: string;
  quoteAmount: string;
  lpSupply: string;
  lpCurrency: string;
  tradingFee: number;
}

interface FactsRow {
  issuerAddress: string;
  masterDisabled: boolean;
  regularKey: string | null;
  hasSignerList: boolean;
  blackholed: boolean;
  requireAuth: boolean;
  globalFreeze: boolean;
  noFreeze: boolean;
  clawback: boolean;
  transferRate: number | null;
}

interface Prepared {
  trades: ExtractedTrade[];
  holders: Array<{ tokenId: number; account: string; balance: string }>;
  pools: PoolState[];
  facts: FactsRow[];
  synced: number[];
  tokens: Map<number, { currency: string; issuer: string }>;
  rlusd?: string;
}

type Amount = string | { currency: string; issuer: string; value: string };
const valueOf = (a: Amount) => (typeof a === 'string' ? dropsToXrp(a) : a.value);

export function createMarketIndexer(deps: MarketIndexerDeps, db: Db): LedgerHandler<Prepared> {
  const { client } = deps;

  async function readPool(
    tokenId: number,
    currency: string,
    issuer: string,
    quote: Quote,
    rlusd: string | undefined,
    ledger: number,
  ) {
    if (quote === 'RLUSD' && !rlusd) return undefined;
    try {
      const r = await client.request({
        command: 'amm_info',
        asset: quote === 'XRP' ? { currency: 'XRP' } : { currency: RLUSD_CURRENCY_HEX, issuer: rlusd! },
        asset2: { currency, issuer },
        ledger_index: ledger,
      });
      const amm = r.result.amm as unknown as {
        account: string;
        amount: Amount;
        amount2: Amount;
        lp_token: { currency: string; value: string };
        trading_fee: number;
      };
      const tokenFirst =
        typeof amm.amount !== 'string' && amm.amount.currency === currency && amm.amount.issuer === issuer;
      return {
        tokenId,
        quote,
        ammAccount: amm.account,
        tokenAmount: valueOf(tokenFirst ? amm.amount : amm.amount2),
        quoteAmount: valueOf(tokenFirst ? amm.amount2 : amm.amount),
        lpSupply: amm.lp_token.value,
        lpCurrency: amm.lp_token.currency,
        tradingFee: amm.trading_fee,
      } satisfies PoolState;
    } catch {
      return undefined; // no pool (actNotFound) — or not yet
    }
  }

  async function readFacts(issuer: string, ledger: number): Promise<FactsRow | undefined> {
    try {
      const { defaultRipple: _ignored, ...f } = await readIssuerFacts(client, issuer, ledger);
      return { issuerAddress: issuer, ...f };
    } catch {
      return undefined;
    }
  }

  async function readHolders(tokenId: number, currency: string, issuer: string, ledger: number) {
    const out: Prepared['holders'] = [];
    let marker: unknown;
    do {
      const r = await client.request({
        command: 'account_lines',
        account: issuer,
        ledger_index: ledger,
        limit: 400,
        ...(marker ? { marker } : {}),
      });
      for (const line of r.result.lines) {
        if (line.currency !== currency) continue;
        // From the issuer's side a holder's balance is negative.
        out.push({ tokenId, account: line.account, balance: new Decimal(line.balance).neg().toFixed() });
      }
      marker = r.result.marker;
    } while (marker);
    return out;
  }

  // What every ledger needs, kept in memory while this instance follows: the listed tokens (re-read
  // after a local listing, and at least every few seconds for listings made on other instances),
  // the known pools and the synced tokens (updated as this instance writes them). A new claim of the
  // follower starts from the database again (`reset`).
  let cache:
    | {
        rows: Awaited<ReturnType<MarketIndexerDeps['listTokens']>>;
        at: number;
        rlusd: string | undefined;
        poolByAccount: Map<string, { tokenId: number; quote: Quote }>;
        synced: Set<number>;
      }
    | undefined;
  let tokensStale = false;
  deps.onTokensChanged?.(() => (tokensStale = true));
  async function loadCache() {
    if (!cache) {
      const pools = await db.select().from(marketPools);
      cache = {
        rows: await deps.listTokens(),
        at: Date.now(),
        rlusd: await deps.rlusdIssuer(),
        poolByAccount: new Map(
          pools.map((p) => [p.ammAccount, { tokenId: p.tokenId, quote: p.quote as Quote }]),
        ),
        synced: new Set((await db.select({ id: marketSynced.tokenId }).from(marketSynced)).map((r) => r.id)),
      };
      tokensStale = false;
    } else if (tokensStale || Date.now() - cache.at > TOKEN_LIST_TTL_MS) {
      tokensStale = false;
      cache.rows = await deps.listTokens();
      cache.at = Date.now();
      cache.rlusd ??= await deps.rlusdIssuer();
    }
    return cache;
  }

  return {
    name: 'market',

    reset() {
      cache = undefined;
    },

    async prepare(ledger): Promise<Prepared> {
      const c = await loadCache();
      const rows = c.rows;
      const rlusd = c.rlusd;
      const tokens = new Map(rows.map((t) => [t.id, { currency: t.currency, issuer: t.issuerAddress }]));
      const tokenByKey = new Map(rows.map((t) => [`${t.currency}|${t.issuerAddress}`, t.id]));
      const poolByAccount = new Map(c.poolByAccount);
      const synced = c.synced;
      const issuers = new Set(rows.map((t) => t.issuerAddress));

      const out: Prepared = { trades: [], holders: [], pools: [], facts: [], synced: [], tokens, rlusd };
      const touchedPools = new Set<string>(); // `${tokenId}:${quote}`
      const touchedIssuers = new Set<string>();

      // New pools created in this ledger join the index before its trades are read.
      for (const itx of ledger.transactions) {
        for (const node of itx.meta.AffectedNodes) {
          const created = 'CreatedNode' in node ? node.CreatedNode : undefined;
          if (created?.LedgerEntryType !== 'AMM') continue;
          const f = created.NewFields as {
            Account: string;
            Asset: { currency: string; issuer?: string };
            Asset2: { currency: string; issuer?: string };
          };
          const pairs: Array<[typeof f.Asset, typeof f.Asset]> = [
            [f.Asset2, f.Asset],
            [f.Asset, f.Asset2],
          ];
          for (const [t, q] of pairs) {
            const tokenId = tokenByKey.get(`${t.currency}|${t.issuer}`);
            const quote: Quote | undefined =
              q.currency === 'XRP'
                ? 'XRP'
                : q.currency === RLUSD_CURRENCY_HEX && q.issuer === rlusd
                  ? 'RLUSD'
                  : undefined;
            if (tokenId !== undefined && quote) {
              poolByAccount.set(f.Account, { tokenId, quote });
              touchedPools.add(`${tokenId}:${quote}`);
            }
          }
        }
      }

      const index: MarketIndex = {
        tokenByKey,
        poolByAccount,
        rlusd: rlusd ? { currency: RLUSD_CURRENCY_HEX, issuer: rlusd } : undefined,
      };
      const holderFinal = new Map<string, { tokenId: number; account: string; balance: string }>();
      for (const itx of ledger.transactions) {
        out.trades.push(...extractTrades(itx, index));
        for (const node of itx.meta.AffectedNodes) {
          const kind = 'CreatedNode' in node ? 'created' : 'ModifiedNode' in node ? 'modified' : 'deleted';
          const n = (
            'CreatedNode' in node
              ? node.CreatedNode
              : 'ModifiedNode' in node
                ? node.ModifiedNode
                : node.DeletedNode
          ) as {
            LedgerEntryType: string;
            NewFields?: Record<string, unknown>;
            FinalFields?: Record<string, unknown>;
          };
          const fields = (kind === 'created' ? n.NewFields : n.FinalFields) ?? {};
          if (n.LedgerEntryType === 'RippleState') {
            const low = fields.LowLimit as { issuer: string; currency: string } | undefined;
            const high = fields.HighLimit as { issuer: string } | undefined;
            const bal = fields.Balance as { value: string } | undefined;
            if (!low || !high) continue;
            for (const [holder, issuer, sign] of [
              [low.issuer, high.issuer, 1],
              [high.issuer, low.issuer, -1],
            ] as const) {
              const tokenId = tokenByKey.get(`${low.currency}|${issuer}`);
              if (tokenId === undefined) continue;
              const balance = kind === 'deleted' || !bal ? '0' : new Decimal(bal.value).mul(sign).toFixed();
              holderFinal.set(`${tokenId}:${holder}`, { tokenId, account: holder, balance });
            }
          } else if (n.LedgerEntryType === 'AMM') {
            const account = fields.Account as string | undefined;
            const pool = account ? poolByAccount.get(account) : undefined;
            if (pool) touchedPools.add(`${pool.tokenId}:${pool.quote}`);
          } else if (n.LedgerEntryType === 'AccountRoot') {
            const account = fields.Account as string | undefined;
            if (account && issuers.has(account)) touchedIssuers.add(account);
            const pool = account ? poolByAccount.get(account) : undefined;
            if (pool) touchedPools.add(`${pool.tokenId}:${pool.quote}`);
          } else if (n.LedgerEntryType === 'SignerList') {
            const owner = fields.Owner as string | undefined;
            if (owner && issuers.has(owner)) touchedIssuers.add(owner);
          }
        }
      }
      // A trade moves the pool's balances through trust lines even when the AMM node is untouched.
      for (const t of out.trades) touchedPools.add(`${t.tokenId}:${t.quote}`);
      out.holders = [...holderFinal.values()];

      // First sight of a token: its pools, holders and issuer facts, read in full.
      for (const row of rows) {
        if (synced.has(row.id)) continue;
        let holders: Prepared['holders'];
        try {
          holders = await readHolders(row.id, row.currency, row.issuerAddress, ledger.index);
        } catch (err) {
          // A follower behind the deploy that listed the token reads a ledger from before its issuer
          // existed: nothing to sync yet; it is synced at the first ledger that has it.
          if ((err as { data?: { error?: string } }).data?.error === 'actNotFound') continue;
          throw err;
        }
        out.synced.push(row.id);
        touchedIssuers.add(row.issuerAddress);
        touchedPools.add(`${row.id}:XRP`);
        touchedPools.add(`${row.id}:RLUSD`);
        for (const h of holders) {
          if (!holderFinal.has(`${h.tokenId}:${h.account}`)) out.holders.push(h);
        }
      }
      for (const key of touchedPools) {
        const [id, quote] = key.split(':') as [string, Quote];
        const t = tokens.get(Number(id));
        if (!t) continue;
        const pool = await readPool(Number(id), t.currency, t.issuer, quote, rlusd, ledger.index);
        if (pool) out.pools.push(pool);
      }
      for (const issuer of touchedIssuers) {
        const f = await readFacts(issuer, ledger.index);
        if (f) out.facts.push(f);
      }
      return out;
    },

    async write(ledger, tx, p) {
      const time = new Date(ledger.closeTime);
      if (p.trades.length) {
        await tx
          .insert(marketTrades)
          .values(
            p.trades.map((t) => ({
              tokenId: t.tokenId,
              quote: t.quote,
              ledgerIndex: ledger.index,
              txIndex: t.txIndex,
              hash: t.hash,
              account: t.account,
              side: t.side,
              price: t.price,
              tokenAmount: t.tokenAmount,
              quoteAmount: t.quoteAmount,
              time,
            })),
          )
          .onConflictDoNothing();
        // Candles: aggregated per bucket in memory (trades are in ledger order), one upsert each.
        const buckets = new Map<string, typeof marketCandles.$inferInsert>();
        for (const t of p.trades) {
          for (const res of RESOLUTIONS) {
            const bucket = new Date(Math.floor(ledger.closeTime / (res * 1000)) * res * 1000);
            const key = `${t.tokenId}:${t.quote}:${res}`;
            const c = buckets.get(key);
            if (!c) {
              buckets.set(key, {
                tokenId: t.tokenId,
                quote: t.quote,
                resolution: res,
                bucket,
                open: t.price,
                high: t.price,
                low: t.price,
                close: t.price,
                volume: t.quoteAmount,
                trades: 1,
              });
            } else {
              if (new Decimal(t.price).gt(c.high)) c.high = t.price;
              if (new Decimal(t.price).lt(c.low)) c.low = t.price;
              c.close = t.price;
              c.volume = new Decimal(c.volume).plus(t.quoteAmount).toFixed();
              c.trades = (c.trades ?? 0) + 1;
            }
          }
        }
        await tx
          .insert(marketCandles)
          .values([...buckets.values()])
          .onConflictDoUpdate({
            target: [
              marketCandles.tokenId,
              marketCandles.quote,
              marketCandles.resolution,
              marketCandles.bucket,
            ],
            set: {
              high: sql`greatest(${marketCandles.high}, excluded.high)`,
              low: sql`least(${marketCandles.low}, excluded.low)`,
              close: sql`excluded.close`,
              volume: sql`${marketCandles.volume} + excluded.volume`,
              trades: sql`${marketCandles.trades} + excluded.trades`,
            },
          });
      }
      if (p.holders.length) {
        await tx
          .insert(marketHolders)
          .values(p.holders)
          .onConflictDoUpdate({
            target: [marketHolders.tokenId, marketHolders.account],
            set: { balance: sql`excluded.balance` },
          });
      }
      for (const pool of p.pools) {
        await tx
          .insert(marketPools)
          .values({ ...pool, ledgerIndex: ledger.index })
          .onConflictDoUpdate({
            target: [marketPools.tokenId, marketPools.quote],
            set: { ...pool, ledgerIndex: ledger.index },
          });
      }
      for (const f of p.facts) {
        await tx
          .insert(issuerFacts)
          .values({ ...f, ledgerIndex: ledger.index })
          .onConflictDoUpdate({
            target: issuerFacts.issuerAddress,
            set: { ...f, ledgerIndex: ledger.index },
          });
      }
      if (p.synced.length) {
        await tx
          .insert(marketSynced)
          .values(p.synced.map((tokenId) => ({ tokenId, ledgerIndex: ledger.index })))
          .onConflictDoNothing();
      }
    },

    async committed(ledger, p) {
      if (cache) {
        for (const pool of p.pools)
          cache.poolByAccount.set(pool.ammAccount, { tokenId: pool.tokenId, quote: pool.quote });
        for (const id of p.synced) cache.synced.add(id);
      }
      deps.onLedger?.(ledger);
      for (const t of p.trades) {
        const token = p.tokens.get(t.tokenId);
        if (!token) continue;
        await deps.publishTrade({
          type: t.side,
          baseCurrency: token.currency,
          baseIssuer: token.issuer,
          quoteCurrency: t.quote === 'XRP' ? 'XRP' : RLUSD_CURRENCY_HEX,
          quoteIssuer: t.quote === 'XRP' ? null : (p.rlusd ?? null),
          price: t.price,
          amount: t.tokenAmount,
          hash: t.hash,
          time: ledger.closeTime,
        });
      }
    },
  };
}
