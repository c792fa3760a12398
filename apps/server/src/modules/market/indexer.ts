import {
  CHART_RESOLUTIONS,
  RLUSD_CURRENCY_HEX,
  type NewTrade,
  Decimal,
  dropsToXrp,
  type LedgerAmount,
} from '@ledgerpad/shared';
import { readIssuerFacts, type IssuerFacts } from '../../ledger/account-root';
import { sql } from 'drizzle-orm';
import type { Client } from 'xrpl';
import { bulkInsert, fromExcluded, type BulkColumn } from '../../db/bulk-insert';
import type { Db } from '../../db/client';
import type { IndexedLedger, LedgerHandler } from '../../platform/indexer/follower';
import type { TokenRow } from '../tokens';
import { issuerFacts, marketCandles, marketHolders, marketPools, marketSynced, marketTrades } from './schema';
import { extractTrades, type ExtractedTrade, type MarketIndex, type Quote } from './trades';

// The market handler of the ledger follower: for every validated ledger, the trades of listed tokens
// (and their candles), holders' balances, pool states and issuer facts. Ledger reads happen in
// `prepare` (at that ledger's index, so a replay reads the same state); `write` runs inside the
// follower's transaction; `committed` announces the trades on the live socket.

/** The candle lengths kept: the chart's resolutions, in seconds. */
const RESOLUTIONS = CHART_RESOLUTIONS.map((r) => r.seconds);
/** Ledger reads (pools, issuer facts) of one batch in flight at once. */
const READ_CONCURRENCY = 8;

/** `items.map(fn)` with at most `limit` calls pending at a time; results in the items' order. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

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
  /** Told after a ledger that read tokens in full for the first time (their holders are in). */
  onSynced?: (tokenIds: number[]) => void;
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

/** An issuer's facts as the `issuer_facts` row keeps them (DefaultRipple is not kept). */
interface FactsRow extends Omit<IssuerFacts, 'defaultRipple'> {
  issuerAddress: string;
}

interface Prepared {
  trades: ExtractedTrade[];
  holders: Array<{ tokenId: number; account: string; balance: string }>;
  pools: PoolState[];
  facts: FactsRow[];
  synced: number[];
  tokens: Map<number, { currency: string; issuer: string }>;
  rlusd?: string;
  /** Pools (`${tokenId}:${quote}`) and issuers this ledger touched: read by `readTouched`. */
  touchedPools: Set<string>;
  touchedIssuers: Set<string>;
}

interface TradeRow {
  trade: ExtractedTrade;
  ledgerIndex: number;
  /** The ledger's close, ISO. */
  time: string;
}

const TRADE_COLUMNS: Array<BulkColumn<TradeRow>> = [
  { column: marketTrades.tokenId, type: 'bigint', value: (r) => r.trade.tokenId },
  { column: marketTrades.quote, type: 'text', value: (r) => r.trade.quote },
  { column: marketTrades.ledgerIndex, type: 'integer', value: (r) => r.ledgerIndex },
  { column: marketTrades.txIndex, type: 'integer', value: (r) => r.trade.txIndex },
  { column: marketTrades.hash, type: 'text', value: (r) => r.trade.hash },
  { column: marketTrades.account, type: 'text', value: (r) => r.trade.account },
  { column: marketTrades.side, type: 'text', value: (r) => r.trade.side },
  { column: marketTrades.price, type: 'numeric', value: (r) => r.trade.price },
  { column: marketTrades.tokenAmount, type: 'numeric', value: (r) => r.trade.tokenAmount },
  { column: marketTrades.quoteAmount, type: 'numeric', value: (r) => r.trade.quoteAmount },
  { column: marketTrades.time, type: 'timestamptz', value: (r) => r.time },
];

interface CandleRow {
  tokenId: number;
  quote: Quote;
  resolution: number;
  /** The bucket's start, ISO. */
  bucket: string;
  open: string;
  /** The trade's price text as the ledger gave it, and its value for comparisons. */
  high: { text: string; value: Decimal };
  low: { text: string; value: Decimal };
  close: string;
  volume: Decimal;
  trades: number;
}

const CANDLE_COLUMNS: Array<BulkColumn<CandleRow>> = [
  { column: marketCandles.tokenId, type: 'bigint', value: (c) => c.tokenId },
  { column: marketCandles.quote, type: 'text', value: (c) => c.quote },
  { column: marketCandles.resolution, type: 'integer', value: (c) => c.resolution },
  { column: marketCandles.bucket, type: 'timestamptz', value: (c) => c.bucket },
  { column: marketCandles.open, type: 'numeric', value: (c) => c.open },
  { column: marketCandles.high, type: 'numeric', value: (c) => c.high.text },
  { column: marketCandles.low, type: 'numeric', value: (c) => c.low.text },
  { column: marketCandles.close, type: 'numeric', value: (c) => c.close },
  { column: marketCandles.volume, type: 'numeric', value: (c) => c.volume.toFixed() },
  { column: marketCandles.trades, type: 'integer', value: (c) => c.trades },
];

const HOLDER_COLUMNS: Array<BulkColumn<{ tokenId: number; account: string; balance: string }>> = [
  { column: marketHolders.tokenId, type: 'bigint', value: (h) => h.tokenId },
  { column: marketHolders.account, type: 'text', value: (h) => h.account },
  { column: marketHolders.balance, type: 'numeric', value: (h) => h.balance },
];

type Amount = LedgerAmount;

/** A plain decimal text as the ledger writes one: no exponent, no redundant zeros. */
const PLAIN_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;

/**
 * A balance text, negated or not, as `new Decimal(text).mul(negate ? -1 : 1).toFixed()` gives it —
 * without the decimal arithmetic for the usual plain text (a holder's balance on every trade).
 */
export function signedText(text: string, negate: boolean): string {
  if (!PLAIN_DECIMAL.test(text)) return new Decimal(text).mul(negate ? -1 : 1).toFixed();
  const neg = text.startsWith('-');
  const abs = neg ? text.slice(1) : text;
  if (abs === '0') return '0';
  return neg !== negate ? `-${abs}` : abs;
}

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
  type TokenKeys = Awaited<ReturnType<MarketIndexerDeps['listTokens']>>;
  let cache:
    | {
        rows: TokenKeys;
        /** Derived from `rows` when they are read (not per ledger: there can be thousands). */
        tokens: Prepared['tokens'];
        tokenByKey: Map<string, number>;
        tokenKeyById: Map<number, string>;
        issuers: Set<string>;
        at: number;
        rlusd: string | undefined;
        poolByAccount: Map<string, { tokenId: number; quote: Quote }>;
        synced: Set<number>;
      }
    | undefined;
  const byToken = (rows: TokenKeys) => ({
    rows,
    tokens: new Map(rows.map((t) => [t.id, { currency: t.currency, issuer: t.issuerAddress }])),
    tokenByKey: new Map(rows.map((t) => [`${t.currency}|${t.issuerAddress}`, t.id])),
    tokenKeyById: new Map(rows.map((t) => [t.id, `${t.currency}|${t.issuerAddress}`])),
    issuers: new Set(rows.map((t) => t.issuerAddress)),
  });
  let tokensStale = false;
  deps.onTokensChanged?.(() => (tokensStale = true));
  async function loadCache() {
    if (!cache) {
      const pools = await db.select().from(marketPools);
      cache = {
        ...byToken(await deps.listTokens()),
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
      Object.assign(cache, byToken(await deps.listTokens()));
      cache.at = Date.now();
      cache.rlusd ??= await deps.rlusdIssuer();
    }
    return cache;
  }

  /**
   * The pool and issuer reads of consecutive ledgers: each touched pool and issuer is read once, at
   * the last ledger that touched it, since only its last state is written (`writeLedgers`). For one
   * ledger (following live) that is every pool and issuer it touched, at that ledger.
   */
  async function readTouched(ledgers: Array<{ ledger: IndexedLedger; prepared: Prepared }>) {
    const lastPool = new Map<string, { ledger: IndexedLedger; prepared: Prepared }>();
    const lastIssuer = new Map<string, { ledger: IndexedLedger; prepared: Prepared }>();
    for (const item of ledgers) {
      for (const key of item.prepared.touchedPools) lastPool.set(key, item);
      for (const issuer of item.prepared.touchedIssuers) lastIssuer.set(issuer, item);
    }
    // The reads go out together (a few at a time), not one round trip after another: a ledger that
    // touches several pools waited for each in turn before its transaction and its frames.
    const [pools, facts] = await Promise.all([
      mapLimited([...lastPool], READ_CONCURRENCY, async ([key, { ledger, prepared }]) => {
        const [id, quote] = key.split(':') as [string, Quote];
        const t = prepared.tokens.get(Number(id));
        if (!t) return undefined;
        const pool = await readPool(Number(id), t.currency, t.issuer, quote, prepared.rlusd, ledger.index);
        return pool && { prepared, pool };
      }),
      mapLimited([...lastIssuer], READ_CONCURRENCY, async ([issuer, { ledger, prepared }]) => {
        const f = await readFacts(issuer, ledger.index);
        return f && { prepared, f };
      }),
    ]);
    for (const read of pools) {
      if (!read) continue;
      read.prepared.pools.push(read.pool);
      cache?.poolByAccount.set(read.pool.ammAccount, { tokenId: read.pool.tokenId, quote: read.pool.quote });
    }
    for (const read of facts) if (read) read.prepared.facts.push(read.f);
  }

  /**
   * The writes of consecutive ledgers, one statement per table: what the ledgers leave in the
   * database is what writing them one by one leaves (trades in ledger order, candles merged in ledger
   * order, and the last state of each holder, pool and issuer with the ledger it was read at).
   */
  async function writeLedgers(ledgers: Array<{ ledger: IndexedLedger; prepared: Prepared }>, tx: Db) {
    const trades: TradeRow[] = [];
    // Candles: aggregated per bucket in memory (trades are in ledger order), one upsert for all.
    const buckets = new Map<string, CandleRow>();
    const holders = new Map<string, Prepared['holders'][number]>();
    const pools = new Map<string, PoolState & { ledgerIndex: number }>();
    const facts = new Map<string, FactsRow & { ledgerIndex: number }>();
    const synced = new Map<number, number>();
    for (const { ledger, prepared: p } of ledgers) {
      const time = new Date(ledger.closeTime).toISOString();
      // A ledger's trades share its close time, so one bucket per resolution: aggregate them per
      // token and quote first, then merge that into the six buckets (the per-trade work is one
      // comparison pair and one addition, not six of each).
      const perPair = new Map<string, Omit<CandleRow, 'resolution' | 'bucket'>>();
      for (const t of p.trades) {
        trades.push({ trade: t, ledgerIndex: ledger.index, time });
        const price = new Decimal(t.price);
        const key = `${t.tokenId}:${t.quote}`;
        const a = perPair.get(key);
        if (!a) {
          perPair.set(key, {
            tokenId: t.tokenId,
            quote: t.quote,
            open: t.price,
            high: { text: t.price, value: price },
            low: { text: t.price, value: price },
            close: t.price,
            volume: new Decimal(t.quoteAmount),
            trades: 1,
          });
        } else {
          if (price.gt(a.high.value)) a.high = { text: t.price, value: price };
          if (price.lt(a.low.value)) a.low = { text: t.price, value: price };
          a.close = t.price;
          a.volume = a.volume.plus(t.quoteAmount);
          a.trades += 1;
        }
      }
      for (const a of perPair.values()) {
        for (const res of RESOLUTIONS) {
          const start = Math.floor(ledger.closeTime / (res * 1000)) * res * 1000;
          const key = `${a.tokenId}:${a.quote}:${res}:${start}`;
          const c = buckets.get(key);
          if (!c) {
            buckets.set(key, { ...a, resolution: res, bucket: new Date(start).toISOString() });
          } else {
            if (a.high.value.gt(c.high.value)) c.high = a.high;
            if (a.low.value.lt(c.low.value)) c.low = a.low;
            c.close = a.close;
            c.volume = c.volume.plus(a.volume);
            c.trades += a.trades;
          }
        }
      }
      for (const h of p.holders) holders.set(`${h.tokenId}:${h.account}`, h);
      for (const pool of p.pools)
        pools.set(`${pool.tokenId}:${pool.quote}`, { ...pool, ledgerIndex: ledger.index });
      for (const f of p.facts) facts.set(f.issuerAddress, { ...f, ledgerIndex: ledger.index });
      for (const id of p.synced) if (!synced.has(id)) synced.set(id, ledger.index);
    }
    if (trades.length) {
      await tx.execute(bulkInsert(marketTrades, TRADE_COLUMNS, trades, sql`on conflict do nothing`));
      await tx.execute(
        bulkInsert(
          marketCandles,
          CANDLE_COLUMNS,
          [...buckets.values()],
          // trim_scale: a sum keeps its operands' largest scale ('21.125070'), the batch's own sum
          // (Decimal) none ('21.12507'); one form whichever way the ledgers were grouped.
          sql`on conflict (token_id, quote, resolution, bucket) do update set
            high = greatest(${marketCandles.high}, excluded.high),
            low = least(${marketCandles.low}, excluded.low),
            close = excluded.close,
            volume = trim_scale(${marketCandles.volume} + excluded.volume),
            trades = ${marketCandles.trades} + excluded.trades`,
        ),
      );
    }
    if (holders.size) {
      await tx.execute(
        bulkInsert(
          marketHolders,
          HOLDER_COLUMNS,
          [...holders.values()],
          sql`on conflict (token_id, account) do update set balance = excluded.balance`,
        ),
      );
    }
    if (pools.size) {
      await tx
        .insert(marketPools)
        .values([...pools.values()])
        .onConflictDoUpdate({
          target: [marketPools.tokenId, marketPools.quote],
          set: fromExcluded(marketPools, ['tokenId', 'quote']),
        });
    }
    if (facts.size) {
      await tx
        .insert(issuerFacts)
        .values([...facts.values()])
        .onConflictDoUpdate({
          target: issuerFacts.issuerAddress,
          set: fromExcluded(issuerFacts, ['issuerAddress']),
        });
    }
    if (synced.size) {
      await tx
        .insert(marketSynced)
        .values([...synced].map(([tokenId, ledgerIndex]) => ({ tokenId, ledgerIndex })))
        .onConflictDoNothing();
    }
  }

  return {
    name: 'market',

    reset() {
      cache = undefined;
    },

    async prepare(ledger): Promise<Prepared> {
      const c = await loadCache();
      const { rows, rlusd, tokens, tokenByKey, tokenKeyById, issuers } = c;
      // Pools found in this ledger join the cache at once: the next ledger's `prepare` may run before
      // this one is written (a catch-up batch), and a failed batch resets the cache.
      const poolByAccount = c.poolByAccount;
      const synced = c.synced;

      const touchedPools = new Set<string>();
      const touchedIssuers = new Set<string>();
      const out: Prepared = {
        trades: [],
        holders: [],
        pools: [],
        facts: [],
        synced: [],
        tokens,
        rlusd,
        touchedPools,
        touchedIssuers,
      };

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
        tokenKeyById,
        poolByAccount,
        rlusd: rlusd ? { currency: RLUSD_CURRENCY_HEX, issuer: rlusd } : undefined,
      };
      const holderFinal = new Map<string, { tokenId: number; account: string; balance: string }>();
      // A holder's balance from its side: the line's balance from the low side, negated for the high.
      const holder = (tokenId: number | undefined, account: string, balance: string, negate: boolean) => {
        if (tokenId === undefined) return;
        holderFinal.set(`${tokenId}:${account}`, { tokenId, account, balance: signedText(balance, negate) });
      };
      for (const itx of ledger.transactions) {
        for (const t of extractTrades(itx, index)) out.trades.push(t);
        for (const node of itx.meta.AffectedNodes) {
          const deleted = 'DeletedNode' in node;
          const n = (
            'ModifiedNode' in node
              ? node.ModifiedNode
              : 'CreatedNode' in node
                ? node.CreatedNode
                : node.DeletedNode
          ) as {
            LedgerEntryType: string;
            NewFields?: Record<string, unknown>;
            FinalFields?: Record<string, unknown>;
          };
          const type = n.LedgerEntryType;
          if (type !== 'RippleState' && type !== 'AMM' && type !== 'AccountRoot' && type !== 'SignerList')
            continue;
          const fields = ('CreatedNode' in node ? n.NewFields : n.FinalFields) ?? {};
          if (type === 'RippleState') {
            const low = fields.LowLimit as { issuer: string; currency: string } | undefined;
            const high = fields.HighLimit as { issuer: string } | undefined;
            const bal = fields.Balance as { value: string } | undefined;
            if (!low || !high) continue;
            // A deleted line is a zero balance.
            const balance = deleted || !bal ? '0' : bal.value;
            holder(tokenByKey.get(`${low.currency}|${high.issuer}`), low.issuer, balance, false);
            holder(tokenByKey.get(`${low.currency}|${low.issuer}`), high.issuer, balance, true);
          } else if (type === 'AMM') {
            const account = fields.Account as string | undefined;
            const pool = account ? poolByAccount.get(account) : undefined;
            if (pool) touchedPools.add(`${pool.tokenId}:${pool.quote}`);
          } else if (type === 'AccountRoot') {
            const account = fields.Account as string | undefined;
            if (account && issuers.has(account)) touchedIssuers.add(account);
            const pool = account ? poolByAccount.get(account) : undefined;
            if (pool) touchedPools.add(`${pool.tokenId}:${pool.quote}`);
          } else {
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
        synced.add(row.id);
        touchedIssuers.add(row.issuerAddress);
        for (const h of holders) {
          if (!holderFinal.has(`${h.tokenId}:${h.account}`)) out.holders.push(h);
        }
        // Its pools are read now, not with the batch: the next ledgers' trades need their accounts.
        for (const quote of ['XRP', 'RLUSD'] as const) {
          touchedPools.delete(`${row.id}:${quote}`);
          const pool = await readPool(row.id, row.currency, row.issuerAddress, quote, rlusd, ledger.index);
          if (!pool) continue;
          out.pools.push(pool);
          poolByAccount.set(pool.ammAccount, { tokenId: pool.tokenId, quote: pool.quote });
        }
      }
      return out;
    },

    prepareMany: readTouched,

    write(ledger, tx, prepared) {
      return writeLedgers([{ ledger, prepared }], tx);
    },

    writeMany(ledgers, tx) {
      return writeLedgers(ledgers, tx);
    },

    async committed(ledger, p) {
      // The frames first: what a page refetches on a frame is already in the database.
      // The rebuild waits for the next turn of the event loop: its first database reads run without
      // yielding, so started here they would hold the frames' socket writes back behind them.
      try {
        await announce(ledger, p);
      } finally {
        setImmediate(() => {
          deps.onLedger?.(ledger);
          if (p.synced.length > 0) deps.onSynced?.(p.synced);
        });
      }
    },
  };

  // Every trade of the ledger is published before any is awaited: the bus keeps their order, and
  // on PostgreSQL they leave together instead of one round trip each (realtime/pg-event-bus.ts).
  async function announce(ledger: IndexedLedger, p: Prepared) {
    const published: Array<Promise<void>> = [];
    for (const t of p.trades) {
      const token = p.tokens.get(t.tokenId);
      if (!token) continue;
      published.push(
        deps.publishTrade({
          type: t.side,
          baseCurrency: token.currency,
          baseIssuer: token.issuer,
          quoteCurrency: t.quote === 'XRP' ? 'XRP' : RLUSD_CURRENCY_HEX,
          quoteIssuer: t.quote === 'XRP' ? null : (p.rlusd ?? null),
          price: t.price,
          amount: t.tokenAmount,
          hash: t.hash,
          time: ledger.closeTime,
        }),
      );
    }
    await Promise.all(published);
  }
}
