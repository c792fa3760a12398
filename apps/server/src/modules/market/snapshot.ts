import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import {
  RLUSD_CURRENCY_HEX,
  TOKEN_FETCH_LIMIT,
  type PriceRecord as SharedPriceRecord,
  type TokenView,
  changePercent,
  Decimal,
  dropsToDecimal,
} from '@ledgerpad/shared';
import { sql } from 'drizzle-orm';
import type { Client } from 'xrpl';
import type { Db } from '../../db/client';
import { toTokenView, type TokenRegistry } from '../tokens';
import { DayChanges, dayVolumes, volumeKey } from './day-change';
import type { EscrowLocks } from './escrow-locks';
import type { LpBurns } from './lp-burns';
import { holderNotAmong, platformHolders } from './holders';
import { issuerFacts, marketHolders, marketPools } from './schema';

// The public market data, built once per validated ledger into memory with precomputed compressed
// bodies and ETags: requests for the list and the prices never touch the ledger or the database.

export interface Body {
  json: string;
  gzip: Buffer;
  br: Buffer;
  etag: string;
}

/** The shared price record (spec 000 §3), with the pool's USD value always present here. */
export interface PriceRecord extends SharedPriceRecord {
  /** USD value of the pool (both sides). */
  liquidityUSD: string;
  /** The pool's value (both sides) in its quote asset; a curve's: what it holds for sellers. */
  liquidity: string;
  /** The quote asset traded in the last 24 h (the indexer's trades), exact. */
  volume24h: string;
  /** The same in USD (RLUSD counts as USD), 2 decimals; null without an XRP/USD price. */
  volume24hUSD: string | null;
}

export interface Snapshot {
  ledger: number;
  tokens: TokenView[];
  tokensBody: Body;
  prices: PriceRecord[];
  pricesBody: Body;
  /** Per token: an issuer with several tokens has a row per currency (issue 35). */
  holders: Array<{ issuer_address: string; currency: string; holders_count: number }>;
  holdersBody: Body;
  priceByKey: Map<string, PriceRecord>;
  holdersByToken: Map<number, number>;
  blackholed: Map<string, boolean>;
  xrpUsd: string | null;
}

/** A token trading on its bonding curve, as the market data shows it (prices in the curve's quote asset). */
export interface CurveMarket {
  tokenId: number;
  quote: 'XRP' | 'RLUSD';
  curveAddress: string;
  /** The next token's price on the curve (ex fee). */
  price: string;
  /** What the curve holds for its buyers (the value of the tokens sold). */
  raised: string;
}

export interface CurveMarkets {
  markets(): Promise<CurveMarket[]>;
  /** A curve launched or graduated (its pool opened, then its LP burned). */
  onChange?(listener: () => void): () => void;
}

export function makeBody(value: unknown, previous?: Body): Body {
  const json = JSON.stringify(value);
  const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
  if (previous && previous.etag === etag) return previous;
  const buf = Buffer.from(json);
  return {
    json,
    etag,
    gzip: gzipSync(buf, { level: 6 }),
    // Quality 5: a tenth of the time of the default 11, a few percent larger; rebuilt every ledger.
    br: brotliCompressSync(buf, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: buf.length },
    }),
  };
}

/**
 * A body for an answer kept per ledger (the token page's reads, platform/read-cache.ts): serialized
 * and tagged once, compressed only when a client first asks for that encoding. Visitors then cost
 * a header check and a write each, like the snapshot's lists.
 */
export function lazyBody(value: unknown): Body {
  const json = JSON.stringify(value);
  const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
  let gzip: Buffer | undefined;
  let br: Buffer | undefined;
  return {
    json,
    etag,
    get gzip() {
      return (gzip ??= gzipSync(Buffer.from(json), { level: 6 }));
    },
    get br() {
      return (br ??= brotliCompressSync(Buffer.from(json), {
        params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: json.length },
      }));
    },
  };
}

const key = (currency: string, issuer: string) => `${currency}|${issuer}`;

/** While the indexer catches up, the snapshot is rebuilt at most this often (and at its last ledger). */
const CATCH_UP_REFRESH_MS = 1_000;
/**
 * A ledger without transactions changes nothing the snapshot reads from the ledger; what still moves
 * is time (the 24h change's reference price): such a ledger rebuilds only when the snapshot is this old.
 */
export const EMPTY_LEDGER_REFRESH_MS = 10_000;

/** An amount of the quote asset in USD (RLUSD counts as USD); null without an XRP/USD price. */
function usdOf(amount: Decimal, quote: 'XRP' | 'RLUSD', usd: Decimal | null): Decimal | null {
  return quote === 'RLUSD' ? amount : usd ? amount.mul(usd) : null;
}

/**
 * A token's price record from its spot price in the quote asset (a pool's or its curve's), the
 * XRP/USD price and the USD value of its liquidity; a figure that cannot be known reads '0'.
 */
function priceRecord(
  t: { currency: string; issuerAddress: string; supply: string },
  quote: 'XRP' | 'RLUSD',
  spot: Decimal,
  usd: Decimal | null,
  liquidity: Decimal,
): PriceRecord {
  const liquidityUsd = usdOf(liquidity, quote, usd);
  const inXrp = quote === 'XRP' ? spot : usd && usd.gt(0) ? spot.div(usd) : null;
  const inUsd = usdOf(spot, quote, usd);
  const sig = (d: Decimal | null) => (d ? d.toSignificantDigits(15).toFixed() : '0');
  return {
    tokenCode: t.currency,
    issuer: t.issuerAddress,
    priceInXRP: sig(inXrp),
    priceInUSD: sig(inUsd),
    supply: t.supply,
    marketCapInUSD: inUsd ? inUsd.mul(t.supply).toDecimalPlaces(2).toFixed() : '0',
    liquidityPair: quote,
    liquidityUSD: liquidityUsd ? liquidityUsd.toDecimalPlaces(2).toFixed() : '0',
    liquidity: liquidity.toFixed(),
    // Filled in by the build from the trades (`addDayVolumes`).
    volume24h: '0',
    volume24hUSD: null,
  };
}

export class MarketSnapshot {
  private current: Snapshot | undefined;
  private building: Promise<Snapshot> | undefined;
  private next: Promise<Snapshot> | undefined;
  private readonly dayChanges: DayChanges;
  /**
   * Local token changes counted by `invalidate`; a snapshot (or a running build) answers reads
   * only if it started after the last one. (A bare "stale" flag, cleared when a build starts, let a
   * read between that start and its end return the previous snapshot without the new listing.)
   */
  private wanted = 0;
  private currentVersion = -1;
  private buildingVersion = -1;
  /** A ledger with transactions was indexed after the last build started and no build has followed. */
  private unbuilt = false;
  /** performance.now() when the last build started. */
  private startedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deps: {
      db: Db;
      client: Client | undefined;
      tokens: TokenRegistry;
      rlusdIssuer: () => Promise<string | undefined>;
      ledgerIndex: () => number;
      /** Tokens still on their bonding curve: their price is the curve's, not a pool's. */
      curves?: CurveMarkets;
      /** The list's lock mark: token escrows per issuer, read from the ledger when they change. */
      locks?: EscrowLocks;
      /** The list's 'LP burned' mark: who holds each pool's LP tokens, read from the ledger. */
      lpBurns?: LpBurns;
    },
  ) {
    this.dayChanges = new DayChanges(deps.db);
  }

  /** The snapshot, building the first one on demand (and a fresh one after a local token change). */
  async get(): Promise<Snapshot> {
    if (this.current && this.currentVersion >= this.wanted) return this.current;
    if (this.building && this.buildingVersion >= this.wanted) return this.building;
    return this.refresh();
  }

  /**
   * A ledger was indexed. Live (`behind` 0) every ledger rebuilds; an indexer catching up through
   * many ledgers rebuilds at most every CATCH_UP_REFRESH_MS and once more at its last ledger, instead
   * of rebuilding after each ledger it writes (the builds took half of the catch-up's time).
   */
  ledgerIndexed(behind: number, transactions = 1): Promise<Snapshot> | undefined {
    const age = performance.now() - this.startedAt;
    if (behind > 0 && age < CATCH_UP_REFRESH_MS) {
      // Skipped while catching up: the build at the last ledger must happen even if that one is empty.
      if (transactions > 0) this.unbuilt = true;
      return undefined;
    }
    // An empty ledger (most of them on a quiet market, one a second): the same snapshot at the new
    // ledger index, no database reads (a build is ~10 statements, each blocking the loop while it runs).
    const current = this.current;
    if (
      transactions === 0 &&
      !this.unbuilt &&
      current &&
      !this.building &&
      this.currentVersion >= this.wanted &&
      age < EMPTY_LEDGER_REFRESH_MS
    ) {
      this.current = { ...current, ledger: this.deps.ledgerIndex() };
      return undefined;
    }
    return this.refresh();
  }

  /** A token was listed or changed here: the next read rebuilds first. */
  invalidate(): void {
    this.wanted++;
  }

  /**
   * Rebuilds. Coalesced: calls during a build share one more build after it, so a caller waits for
   * at most the running build and the next one, however often ledgers close meanwhile.
   */
  refresh(): Promise<Snapshot> {
    if (this.building) {
      this.next ??= this.building.then(
        () => this.startNext(),
        () => this.startNext(),
      );
      return this.next;
    }
    const version = this.wanted;
    this.unbuilt = false;
    this.buildingVersion = version;
    this.startedAt = performance.now();
    const build = this.build().then((snap) => {
      if (version >= this.currentVersion) {
        this.current = snap;
        this.currentVersion = version;
      }
      return snap;
    });
    this.building = build.finally(() => {
      if (this.building === guarded) this.building = undefined;
    });
    // Callers get the failure from `build` (or from `building` when they await it); this copy must
    // not count as unhandled when nobody waits on it (a build cut short by shutdown).
    this.building.catch(() => undefined);
    const guarded = this.building;
    return build;
  }

  private startNext(): Promise<Snapshot> {
    this.next = undefined;
    this.building = undefined;
    return this.refresh();
  }

  /** The XRP/USD price of the last snapshot built (USD per XRP), or null: no build yet, or no pool. */
  lastXrpUsd(): string | null {
    return this.current?.xrpUsd ?? null;
  }

  private async xrpUsd(): Promise<string | null> {
    const issuer = await this.deps.rlusdIssuer();
    if (!issuer || !this.deps.client) return null;
    try {
      const r = await this.deps.client.request({
        command: 'amm_info',
        asset: { currency: 'XRP' },
        asset2: { currency: RLUSD_CURRENCY_HEX, issuer },
        ledger_index: 'validated',
      });
      const xrp = dropsToDecimal(r.result.amm.amount as string);
      const rlusd = new Decimal((r.result.amm.amount2 as { value: string }).value);
      return xrp.gt(0) ? rlusd.div(xrp).toSignificantDigits(15).toFixed() : null;
    } catch {
      return null;
    }
  }

  /** Each record's 24h change, in its own pair's unit (RLUSD pairs: the USD price). */
  private async addDayChanges(
    rows: Array<{ id: number; currency: string; issuerAddress: string }>,
    prices: PriceRecord[],
  ): Promise<void> {
    const byKey = new Map(rows.map((t) => [key(t.currency, t.issuerAddress), t.id]));
    const wanted = prices.flatMap((p) => {
      const id = byKey.get(key(p.tokenCode, p.issuer));
      return id === undefined ? [] : [{ id, quote: p.liquidityPair, record: p }];
    });
    const refs = await this.dayChanges.references(wanted.map(({ id, quote }) => ({ id, quote })));
    for (const { id, record } of wanted) {
      const now = record.liquidityPair === 'RLUSD' ? record.priceInUSD : record.priceInXRP;
      record.change24h = changePercent(now, refs.get(id));
    }
  }

  /** Each record's 24h volume in its quote asset and in USD, from the indexer's trades. */
  private async addDayVolumes(
    rows: Array<{ id: number; currency: string; issuerAddress: string }>,
    prices: PriceRecord[],
    usd: Decimal | null,
  ): Promise<void> {
    const idOf = new Map(rows.map((t) => [key(t.currency, t.issuerAddress), t.id]));
    const ids = prices.flatMap((p) => idOf.get(key(p.tokenCode, p.issuer)) ?? []);
    const volumes = await dayVolumes(this.deps.db, ids);
    for (const p of prices) {
      const id = idOf.get(key(p.tokenCode, p.issuer));
      const volume = new Decimal(
        id === undefined ? '0' : (volumes.get(volumeKey(id, p.liquidityPair)) ?? '0'),
      );
      p.volume24h = volume.toFixed();
      p.volume24hUSD = usdOf(volume, p.liquidityPair, usd)?.toDecimalPlaces(2).toFixed() ?? null;
    }
  }

  private async build(): Promise<Snapshot> {
    const prev = this.current;
    const { db } = this.deps;
    const rows = await this.deps.tokens.listActive(TOKEN_FETCH_LIMIT);
    const tokens = rows.map(toTokenView);
    await this.deps.locks?.apply(tokens, rows);
    const pools = await db.select().from(marketPools);
    this.deps.lpBurns?.apply(tokens, rows, pools);
    const facts = await db.select().from(issuerFacts);
    const xrpUsd = await this.xrpUsd();
    const usd = xrpUsd ? new Decimal(xrpUsd) : null;

    const poolsByToken = new Map<number, typeof pools>();
    for (const p of pools) poolsByToken.set(p.tokenId, [...(poolsByToken.get(p.tokenId) ?? []), p]);
    const prices: PriceRecord[] = [];
    const curves = new Map(
      (await (this.deps.curves?.markets() ?? Promise.resolve([]))).map((c) => [c.tokenId, c]),
    );
    const curveAccounts = new Set([...curves.values()].map((c) => c.curveAddress));
    for (const t of rows) {
      const own = poolsByToken.get(t.id) ?? [];
      const curve = curves.get(t.id);
      if (curve) {
        // On its curve: the curve's price; its "liquidity" is what the curve holds for sellers.
        prices.push(priceRecord(t, curve.quote, new Decimal(curve.price), usd, new Decimal(curve.raised)));
        continue;
      }
      // The token's own pair first (the one it launched with), the other as a fallback.
      const pool = own.find((p) => p.quote === t.liquidityPair) ?? own[0];
      if (!pool || new Decimal(pool.tokenAmount).lte(0)) continue;
      const quote = pool.quote === 'RLUSD' ? 'RLUSD' : 'XRP';
      const spot = new Decimal(pool.quoteAmount).div(pool.tokenAmount);
      // Both sides of the pool are worth the same: twice its quote side.
      prices.push(priceRecord(t, quote, spot, usd, new Decimal(pool.quoteAmount).mul(2)));
    }
    await this.addDayChanges(rows, prices);
    await this.addDayVolumes(rows, prices, usd);
    // Holders as the risk panel counts them: AMM pools, curve accounts (the unsold supply is the
    // market, not a holder) and Ledgerpad's own accounts are left out; the issuer has no line.
    const excluded = [...new Set([...(await platformHolders(db)).keys(), ...curveAccounts])];
    const notExcluded = holderNotAmong(excluded);
    const holderCounts = await db
      .select({ tokenId: marketHolders.tokenId, n: sql<number>`count(*)::int` })
      .from(marketHolders)
      .where(
        sql`${marketHolders.balance} > 0 and ${marketHolders.account} not in (select ${marketPools.ammAccount} from ${marketPools})${notExcluded}`,
      )
      .groupBy(marketHolders.tokenId);
    const holdersByToken = new Map(holderCounts.map((h) => [h.tokenId, h.n]));
    const holders = rows.map((t) => ({
      issuer_address: t.issuerAddress,
      currency: t.currency,
      holders_count: holdersByToken.get(t.id) ?? 0,
    }));
    const blackholed = new Map(facts.map((f) => [f.issuerAddress, f.blackholed]));
    // Tokens of an issuer the indexer has not read yet fall back to what was recorded at listing.
    for (const t of tokens) {
      if (!blackholed.has(t.issuer_address)) blackholed.set(t.issuer_address, t.is_blackholed);
      else t.is_blackholed = blackholed.get(t.issuer_address)!;
    }
    return {
      ledger: this.deps.ledgerIndex(),
      tokens,
      tokensBody: makeBody(tokens, prev?.tokensBody),
      prices,
      pricesBody: makeBody(prices, prev?.pricesBody),
      holders,
      holdersBody: makeBody(holders, prev?.holdersBody),
      priceByKey: new Map(prices.map((p) => [key(p.tokenCode, p.issuer), p])),
      holdersByToken,
      blackholed,
      xrpUsd,
    };
  }
}

export const priceKey = key;
