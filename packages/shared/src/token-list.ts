import { TOKENS_PER_PAGE } from './constants';
import {
  figureFontClass,
  formatAmount,
  formatFull,
  formatPrice,
  formatUsd,
  formatUsdFull,
  isValidPrice,
  tokenAge,
  toDecimal,
} from './format';
import type { z } from 'zod';
import type { holdersRecordSchema, priceRecordSchema } from './schemas/public-api';
import type { TokenView } from './schemas/tokens';
import { foldIdentity } from './token-identity';

// The public token list's rules (spec 000 §2, §4, §5): rows derived from the token, its price record
// and holders count, search, sorting and pagination. Pure: the web page and tests share them.

/** GET /api/prices, one record per token with a pool (spec 000 §3 "Price record"). */
export type PriceRecord = z.infer<typeof priceRecordSchema>;

/** GET /api/holders: one row per listed token (an issuer with several has a row per currency). */
export type HoldersRecord = z.infer<typeof holdersRecordSchema>;

/** POST /api/blackhole-status/bulk: issuer → blackholed. */
export type BlackholeMap = Record<string, boolean>;

export const priceRecordKey = (tokenCode: string, issuer: string) => `${tokenCode}|${issuer}`;

/**
 * Merges a fresh price list into the known one: a record replaces the previous only when its
 * price (the USD price for RLUSD pairs, else the XRP price) is numeric and greater than zero;
 * otherwise the previous value is kept (spec 000 §5). Returns the same map when nothing changed.
 */
export function mergePrices(
  known: ReadonlyMap<string, PriceRecord>,
  fresh: unknown,
): ReadonlyMap<string, PriceRecord> {
  if (!Array.isArray(fresh)) return known;
  let next: Map<string, PriceRecord> | null = null;
  for (const r of fresh as Partial<PriceRecord>[]) {
    if (!r || typeof r.tokenCode !== 'string' || typeof r.issuer !== 'string') continue;
    const pair = r.liquidityPair === 'RLUSD' ? 'RLUSD' : 'XRP';
    if (!isValidPrice(pair === 'RLUSD' ? r.priceInUSD : r.priceInXRP)) continue;
    const key = priceRecordKey(r.tokenCode, r.issuer);
    const prev = known.get(key);
    if (
      prev &&
      prev.priceInXRP === r.priceInXRP &&
      prev.priceInUSD === r.priceInUSD &&
      prev.marketCapInUSD === r.marketCapInUSD &&
      prev.liquidityPair === pair &&
      prev.liquidityUSD === r.liquidityUSD &&
      prev.liquidity === r.liquidity &&
      prev.volume24h === r.volume24h &&
      prev.volume24hUSD === r.volume24hUSD &&
      prev.change24h === r.change24h
    )
      continue;
    next ??= new Map(known);
    next.set(key, {
      tokenCode: r.tokenCode,
      issuer: r.issuer,
      priceInXRP: String(r.priceInXRP ?? '0'),
      priceInUSD: String(r.priceInUSD ?? '0'),
      supply: String(r.supply ?? '0'),
      marketCapInUSD: String(r.marketCapInUSD ?? '0'),
      liquidityPair: pair,
      liquidityUSD: r.liquidityUSD,
      liquidity: r.liquidity,
      volume24h: r.volume24h,
      volume24hUSD: r.volume24hUSD,
      change24h: typeof r.change24h === 'string' && /^[+-]\d+\.\d{2}$/.test(r.change24h) ? r.change24h : null,
    });
  }
  return next ?? known;
}

/**
 * Holders list → count by token (`priceRecordKey(currency, issuer)`), and by issuer for rows
 * without a currency; anything malformed is dropped. A token reads its own row (issue 35: an
 * issuer's second token never shows the first one's holders).
 */
export function holdersByIssuer(list: unknown): Map<string, number> {
  const out = new Map<string, number>();
  if (!Array.isArray(list)) return out;
  for (const h of list as Partial<HoldersRecord>[]) {
    if (!h || typeof h.issuer_address !== 'string' || !Number.isInteger(h.holders_count)) continue;
    out.set(
      typeof h.currency === 'string' ? priceRecordKey(h.currency, h.issuer_address) : h.issuer_address,
      h.holders_count!,
    );
  }
  return out;
}

/** The bulk blackhole answer, keeping only boolean flags. */
export function blackholeFlags(value: unknown): BlackholeMap {
  const out: BlackholeMap = {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [k, v] of Object.entries(value)) if (typeof v === 'boolean') out[k] = v;
  return out;
}

export type TokenListToken = Pick<
  TokenView,
  'id' | 'name' | 'ticker' | 'currency' | 'issuer_address' | 'created_at' | 'local_image_path' | 'logoUrl'
> &
  Partial<
    Pick<
      TokenView,
      | 'links'
      | 'liquidity_pair'
      | 'is_blackholed'
      | 'verified'
      | 'lookalike_of'
      | 'same_as'
      | 'verified_by'
      | 'verified_domain'
      | 'metadata_by'
      | 'ledger_lock'
      | 'dev_unlocked'
      | 'lp_burned'
    >
  >;

export interface TokenRow {
  token: TokenListToken;
  /** USD price when the pair is RLUSD, else the XRP price; null before a valid price arrives. */
  price: string | null;
  /** The USD price of every row, whatever its pair: the Price column sorts by this one unit. */
  priceUsd: string | null;
  priceFormatted: string;
  /** The price at full precision with its unit (the cell's tooltip). */
  priceFull: string;
  priceFont: '' | 'small' | 'tiny';
  pair: 'XRP' | 'RLUSD';
  marketCap: string | null;
  marketCapFormatted: string;
  marketCapFull: string;
  /** '+1.23%' / '-4.56%', or null (shown as '—'). */
  change24h: string | null;
  /** The 24h change as a number text ('1.23', '-4.56') for sorting; null without one. */
  change24hValue: string | null;
  /** No price record: a listed token with no pool or curve ('no market', issue 39). */
  noMarket: boolean;
  /** The last 24 h's volume in USD and as shown ('$12.3K'; in the pair's unit without a USD price). */
  volumeUsd: string | null;
  /** What the Vol 24h column sorts by: the USD figure, or without one the pair's (see sortTokenRows). */
  volumeSort: string | null;
  volumeFormatted: string;
  volumeFull: string;
  /** The pool's value (both sides) in USD and as shown. */
  liquidityUsd: string | null;
  /** What the Liquidity column sorts by: the USD figure, or without one the pair's. */
  liquiditySort: string | null;
  liquidityFormatted: string;
  liquidityFull: string;
  marketCapFont: '' | 'small' | 'tiny';
  holdersCount: number | null;
  ageFormatted: string;
  ageDays: number;
  createdMs: number;
  isNew: boolean;
  isBlackholed: boolean;
}

/** A decimal figure that is zero or more (a volume may be '0'). */
const isValidFigure = (v: unknown): v is string => {
  const d = typeof v === 'string' ? toDecimal(v) : null;
  return d !== null && !d.isNeg();
};

export function toTokenRow(
  token: TokenListToken,
  stats: {
    prices: ReadonlyMap<string, PriceRecord>;
    holders: ReadonlyMap<string, number>;
    blackholed: BlackholeMap;
  },
  now: number,
): TokenRow {
  const record = stats.prices.get(priceRecordKey(token.currency, token.issuer_address));
  const pair = record?.liquidityPair ?? (token.liquidity_pair === 'RLUSD' ? 'RLUSD' : 'XRP');
  const price = record ? (pair === 'RLUSD' ? record.priceInUSD : record.priceInXRP) : null;
  const marketCap = record ? record.marketCapInUSD : null;
  const priceFormatted = formatPrice(price);
  const marketCapFormatted = formatUsd(marketCap);
  // The quote asset by its name everywhere (issue 39): an RLUSD pair's price reads RLUSD, as on its page.
  const unit = pair;
  const age = tokenAge(token.created_at, now);
  const volumeUsd = record && isValidFigure(record.volume24hUSD) ? record.volume24hUSD! : null;
  const liquidityUsd = record && isValidPrice(record.liquidityUSD) ? record.liquidityUSD! : null;
  // Without an XRP/USD price the figure is still known in the pair's own unit: shown so, with it.
  const inPair = (value: string | undefined): string =>
    isValidFigure(value) ? `${formatAmount(value)} ${pair}` : '—';
  return {
    token,
    price,
    priceUsd: record && isValidPrice(record.priceInUSD) ? record.priceInUSD : null,
    priceFormatted,
    priceFull: price ? `${formatFull(price)} ${unit}` : '',
    priceFont: figureFontClass(priceFormatted),
    pair,
    marketCap,
    marketCapFormatted,
    marketCapFull: marketCap ? formatUsdFull(marketCap) : '',
    change24h: record?.change24h ? `${record.change24h}%` : null,
    change24hValue: record?.change24h ?? null,
    noMarket: !record,
    volumeUsd,
    volumeSort: volumeUsd ?? (record && isValidFigure(record.volume24h) ? record.volume24h! : null),
    volumeFormatted: !record ? '—' : volumeUsd ? formatUsd(volumeUsd) : inPair(record.volume24h),
    volumeFull: volumeUsd
      ? formatUsdFull(volumeUsd)
      : record?.volume24h
        ? `${formatFull(record.volume24h)} ${pair}`
        : '',
    liquidityUsd,
    liquiditySort: liquidityUsd ?? (record && isValidPrice(record.liquidity) ? record.liquidity! : null),
    liquidityFormatted: !record ? '—' : liquidityUsd ? formatUsd(liquidityUsd) : inPair(record.liquidity),
    liquidityFull: liquidityUsd
      ? formatUsdFull(liquidityUsd)
      : record?.liquidity
        ? `${formatFull(record.liquidity)} ${pair}`
        : '',
    marketCapFont: figureFontClass(marketCapFormatted),
    holdersCount:
      stats.holders.get(priceRecordKey(token.currency, token.issuer_address)) ??
      stats.holders.get(token.issuer_address) ??
      null,
    ageFormatted: age.text,
    ageDays: age.days,
    createdMs: Date.parse(token.created_at) || 0,
    isNew: age.isNew,
    isBlackholed: stats.blackholed[token.issuer_address] ?? token.is_blackholed ?? false,
  };
}

/**
 * Case-insensitive substring match over name, ticker and issuer_address (spec 000 §5), names and
 * tickers compared by the lookalike fold (issue 35: 'paper moon' finds 'PaperMoon' and 'P4per M00n').
 */
export function searchTokenRows<
  T extends { token: Pick<TokenListToken, 'name' | 'ticker' | 'issuer_address'> },
>(rows: readonly T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...rows];
  const folded = foldIdentity(q);
  return rows.filter(
    ({ token: t }) =>
      [t.name, t.ticker, t.issuer_address].some((f) => f.toLowerCase().includes(q)) ||
      (folded !== '' && [t.name, t.ticker].some((f) => foldIdentity(f).includes(folded))),
  );
}

/**
 * Search results with every token that gives way to another (`lookalike_of`: same ticker as a token
 * with more ledger history, or a reserved identity) after the rest, each part in its given order:
 * a squatter's ZETA never comes before the one it copies (issue 35).
 */
export function giveWayLast<T extends { token: Pick<TokenListToken, 'lookalike_of'> }>(
  rows: readonly T[],
): T[] {
  return [...rows.filter((r) => !r.token.lookalike_of), ...rows.filter((r) => r.token.lookalike_of)];
}

/** Sortable columns; created_at is the Age column (ascending = oldest first). */
export type TokenSortKey =
  | 'ticker'
  | 'price'
  | 'pair'
  | 'marketCap'
  | 'change24h'
  | 'volume'
  | 'liquidity'
  | 'created_at'
  | 'issuer'
  | 'holders';
export type SortDirection = 'asc' | 'desc';
export interface TokenSort {
  key: TokenSortKey;
  direction: SortDirection;
}

/** Default: newest first (created_at descending). */
export const DEFAULT_TOKEN_SORT: TokenSort = { key: 'created_at', direction: 'desc' };

/** Clicking a column: the same column flips direction; a new column starts ascending. */
export function nextTokenSort(current: TokenSort, key: TokenSortKey): TokenSort {
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: 'asc' };
}

const compareText = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' });

function compareNullableDecimal(a: string | number | null, b: string | number | null): number {
  const da = a === null ? null : toDecimal(a);
  const db = b === null ? null : toDecimal(b);
  if (!da && !db) return 0;
  if (!da) return 1;
  if (!db) return -1;
  return da.comparedTo(db);
}

/**
 * A stable sort by one column. Missing figures (no price yet, unknown holders) sort last in both
 * directions, so flipping never puts empty rows on top. Ties keep newest first.
 */
export function sortTokenRows(rows: readonly TokenRow[], sort: TokenSort): TokenRow[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const missingLast = (a: unknown, b: unknown) => (a === null ? 1 : 0) - (b === null ? 1 : 0);
  const cmp = (a: TokenRow, b: TokenRow): number => {
    switch (sort.key) {
      case 'ticker':
        return sign * compareText(a.token.ticker, b.token.ticker);
      case 'issuer':
        return sign * compareText(a.token.issuer_address, b.token.issuer_address);
      case 'pair':
        return sign * compareText(a.pair, b.pair);
      case 'created_at':
        return sign * (a.createdMs - b.createdMs);
      case 'price':
        // One unit for every row (USD): XRP- and RLUSD-paired prices are never compared as numbers.
        return missingLast(a.priceUsd, b.priceUsd) || sign * compareNullableDecimal(a.priceUsd, b.priceUsd);
      case 'marketCap':
        return (
          missingLast(a.marketCap, b.marketCap) || sign * compareNullableDecimal(a.marketCap, b.marketCap)
        );
      case 'change24h':
        return (
          missingLast(a.change24hValue, b.change24hValue) ||
          sign * compareNullableDecimal(a.change24hValue, b.change24hValue)
        );
      // In USD. Without an XRP/USD price (no XRP/RLUSD pool on the network) the XRP pairs' figures
      // are in XRP and sort by it: the price is missing for every XRP row alike, never for some.
      case 'volume':
        return (
          missingLast(a.volumeSort, b.volumeSort) || sign * compareNullableDecimal(a.volumeSort, b.volumeSort)
        );
      case 'liquidity':
        return (
          missingLast(a.liquiditySort, b.liquiditySort) ||
          sign * compareNullableDecimal(a.liquiditySort, b.liquiditySort)
        );
      case 'holders':
        return (
          missingLast(a.holdersCount, b.holdersCount) ||
          sign * ((a.holdersCount ?? 0) - (b.holdersCount ?? 0))
        );
    }
  };
  return rows
    .map((row, i) => ({ row, i }))
    .sort((x, y) => cmp(x.row, y.row) || y.row.createdMs - x.row.createdMs || x.i - y.i)
    .map((x) => x.row);
}

interface TokenPage<T> {
  rows: T[];
  /** 1-based, clamped to [1, pages]. */
  page: number;
  /** At least 1, even with no rows. */
  pages: number;
}

export function paginate<T>(rows: readonly T[], page: number, perPage = TOKENS_PER_PAGE): TokenPage<T> {
  const pages = Math.max(1, Math.ceil(rows.length / perPage));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  return { rows: rows.slice((current - 1) * perPage, current * perPage), page: current, pages };
}

/**
 * The social links worth showing: the literal text "N/A" (with or without its quotes) or an empty
 * value means no link; only http(s) addresses are kept, so a listing can't inject a script link.
 */
export function tokenLinks(
  links: Partial<Record<'Twitter' | 'Website' | 'Telegram', string | null>> | null | undefined,
): Array<{ label: 'Twitter' | 'Website' | 'Telegram'; url: string }> {
  const out: Array<{ label: 'Twitter' | 'Website' | 'Telegram'; url: string }> = [];
  for (const label of ['Website', 'Twitter', 'Telegram'] as const) {
    const raw = links?.[label]?.trim() ?? '';
    if (!raw || raw.replace(/^"|"$/g, '') === 'N/A') continue;
    try {
      const url = new URL(raw);
      if (url.protocol === 'https:' || url.protocol === 'http:') out.push({ label, url: url.toString() });
    } catch {
      // Not an address: no link.
    }
  }
  return out;
}

/** 'Page X / Y'. */
export const pageLabel = (p: { page: number; pages: number }) => `Page ${p.page} / ${p.pages}`;
