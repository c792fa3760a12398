import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, asc, desc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import {
  MARKET_LIST_PAGE,
  RECENT_TRADES_DEFAULT,
  RLUSD_CURRENCY_HEX,
  blackholedBulkSchema,
  classicAddressSchema,
  priceHistoryQuerySchema,
  recentTradesQuerySchema,
  tokenCodeSchema,
  HISTORY_RESOLUTION_SECONDS,
  rankVerifiedFirst,
  type TokenSuggestion,
  type NewTrade,
  type TokenStatsView,
  type TradeView,
} from '@ledgerpad/shared';
import { identityKey } from '@ledgerpad/shared/lookalike';
import { badRequest, ledgerUnavailable, notFound } from '../../lib/errors';
import { pageOf, sendPageHeaders } from '../../lib/paging';
import { parseInput } from '../../lib/validation';
import type { Platform } from '../../platform';
import { rlusdIssuer } from '../../platform/accounts';
import type { TokenRegistry } from '../tokens';
import { EscrowLocks } from './escrow-locks';
import { LpBurns } from './lp-burns';
import { deployWallets } from '../vesting';
import { createMarketIndexer } from './indexer';
import { ledgerFactsProvider } from './identity-facts';
import { openOrders } from './order-book';
import { RiskReader } from './risk';
import { tokens as tokenRows } from '../tokens/schema';
import { marketCandles, marketTrades } from './schema';
import { lazyBody, makeBody, MarketSnapshot, priceKey, type Body, type CurveMarkets } from './snapshot';
import { documented } from '../../plugins/access';

const MAX_BARS = 5_000;
const SEARCH_MAX = 10;

function sendBody(request: FastifyRequest, reply: FastifyReply, body: Body) {
  reply
    .header('etag', body.etag)
    // Public, and fresh for one ledger at most: caches revalidate with the ETag (304).
    .header('cache-control', 'public, no-cache')
    .header('vary', 'accept-encoding')
    .type('application/json; charset=utf-8');
  if (request.headers['if-none-match'] === body.etag) return reply.code(304).send();
  const accept = String(request.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accept)) return reply.header('content-encoding', 'br').send(body.br);
  if (/\bgzip\b/.test(accept)) return reply.header('content-encoding', 'gzip').send(body.gzip);
  return reply.send(body.json);
}

/** A token code in a query or path: the one shared rule (docs/money.md "Currency codes"). */
const currencyParam = (value: unknown, field: string): string => parseInput(tokenCodeSchema(field), value);

const issuerQuery = (value: unknown, field = 'issuer'): string =>
  parseInput(classicAddressSchema(field), value);

/** A recorded trade as the API answers it. */
function tradeView(r: typeof marketTrades.$inferSelect, quote: 'XRP' | 'RLUSD'): TradeView {
  return {
    hash: r.hash,
    time: r.time.getTime(),
    ledgerIndex: r.ledgerIndex,
    account: r.account,
    side: r.side === 'SELL' ? 'SELL' : 'BUY',
    price: r.price,
    tokenAmount: r.tokenAmount,
    quoteAmount: r.quoteAmount,
    quote,
  };
}

/** How often the same-ticker order is decided again from the moving ledger facts. */
const IDENTITY_REFRESH_MS = 30_000;

/** The market module: the indexer's handler on the platform's ledger follower, and the public market API. */
export function registerMarket(
  app: FastifyInstance,
  deps: {
    platform: Platform;
    tokens: TokenRegistry;
    publishTrade: (trade: NewTrade) => Promise<void>;
    curves?: CurveMarkets;
  },
): MarketSnapshot {
  const { platform, tokens } = deps;
  const db = platform.database.db;
  const rlusd = () => rlusdIssuer(db, platform.config.XRPL_NETWORK);
  const locks = new EscrowLocks(
    platform.connection?.client,
    (err, issuer) => app.log.warn({ err, issuer }, 'escrow read failed'),
    () => snapshot.invalidate(),
    (jobIds) => deployWallets(db, jobIds),
  );
  const lpBurns = new LpBurns(
    platform.connection?.client,
    (err, pool) => app.log.warn({ err, pool }, 'LP holders read failed'),
    () => snapshot.invalidate(),
  );
  // A graduation ends with the LP holder blackholed, after its pool was first read.
  deps.curves?.onChange?.(() => lpBurns.rereadUnburned());
  const snapshot = new MarketSnapshot({
    db,
    client: platform.connection?.client,
    tokens,
    rlusdIssuer: rlusd,
    ledgerIndex: () => platform.indexer?.lastIndexed ?? 0,
    curves: deps.curves,
    locks,
    lpBurns,
  });
  if (platform.indexer && platform.connection) {
    platform.indexer.register(
      createMarketIndexer(
        {
          client: platform.connection.client,
          listTokens: () => tokens.ledgerKeys(),
          rlusdIssuer: rlusd,
          publishTrade: deps.publishTrade,
          // A newly listed token's holders are in: its same-ticker order is decided with them at once.
          onSynced: () => refreshIdentities(true),
          onTokensChanged: (listener) => tokens.onChange(listener),
          // The escrow reads start first: the build the ledger triggers waits for them.
          onLedger: (ledger) => {
            locks.ledgerIndexed(ledger);
            refreshIdentities(false);
            void snapshot
              .ledgerIndexed(platform.indexer?.behind ?? 0, ledger.transactions.length)
              ?.catch((err: unknown) => app.log.warn({ err }, 'snapshot failed'));
          },
        },
        db,
      ),
    );
  }
  tokens.onChange(() => snapshot.invalidate());
  // Tokens sharing a ticker or a name are ordered by the ledger facts this module records (issue 35).
  tokens.useLedgerFacts(ledgerFactsProvider(() => snapshot.lastXrpUsd(), platform.connection?.client));
  // The facts move with the ledger (holders, lines, volume): the order is decided again at most every
  // IDENTITY_REFRESH_MS, one run at a time (idempotent: every instance reaches the same marks).
  let lastIdentityRefresh = 0;
  let identityRefresh: Promise<unknown> | undefined;
  let again = false;
  function refreshIdentities(now: boolean): void {
    if (identityRefresh) {
      again ||= now;
      return;
    }
    if (!now && Date.now() - lastIdentityRefresh < IDENTITY_REFRESH_MS) return;
    lastIdentityRefresh = Date.now();
    identityRefresh = tokens
      .refreshLookalikes()
      .catch((err: unknown) => app.log.warn({ err }, 'identity refresh failed'))
      .finally(() => {
        identityRefresh = undefined;
        if (again) {
          again = false;
          refreshIdentities(true);
        }
      });
  }
  app.addHook('onClose', async () => {
    await identityRefresh;
  });
  // The token page's reads: computed once per indexed ledger, whoever asks (platform/read-cache.ts).
  const cache = platform.readCache;
  // Kept as the serialized body, not the object: a hit is then a header check and a write (no
  // JSON.stringify per visitor), as /api/tokens answers from the snapshot.
  const cached = async (
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    compute: () => Promise<unknown>,
  ) => sendBody(request, reply, await cache.get(`body:${key}`, async () => lazyBody(await compute())));
  const risk = new RiskReader({ db, client: platform.connection?.client, snapshot, rlusdIssuer: rlusd });
  /**
   * A token's id and pair by (issuer, currency), the pair being unique: from the snapshot's list
   * when it holds the token (no statement; the list is rebuilt on every listing or edit here), else
   * from the database (an unlisted or inactive token).
   */
  const tokenKey = async (
    issuer: string,
    currency: string,
  ): Promise<{ id: number; liquidityPair: string } | undefined> => {
    // A snapshot that cannot be built now (the database failing) must not fail these reads too.
    const snap = await snapshot.get().catch(() => undefined);
    const listed = snap?.tokens.find((t) => t.issuer_address === issuer && t.currency === currency);
    return listed
      ? { id: listed.id, liquidityPair: listed.liquidity_pair }
      : tokens.byIssuer(issuer, currency);
  };

  // The market's lists, paged like every list (`?limit=&offset=`, X-Total-Count; docs/paging.md).
  // A page holding the whole list is the body computed once per ledger (ETag, compressed);
  // a smaller page is made for the request.
  const sendList = async <T>(
    request: FastifyRequest,
    reply: FastifyReply,
    pick: (snap: Awaited<ReturnType<MarketSnapshot['get']>>) => { rows: T[]; body: Body },
  ) => {
    const page = pageOf(request, MARKET_LIST_PAGE);
    const { rows, body } = pick(await snapshot.get());
    sendPageHeaders(request, reply, page, rows.length);
    if (page.offset === 0 && page.limit >= rows.length) return sendBody(request, reply, body);
    return sendBody(request, reply, makeBody(rows.slice(page.offset, page.offset + page.limit)));
  };

  app.get('/api/tokens', documented('/api/tokens'), async (request, reply) =>
    sendList(request, reply, (s) => ({ rows: s.tokens, body: s.tokensBody })),
  );

  app.get('/api/prices', documented('/api/prices'), async (request, reply) =>
    sendList(request, reply, (s) => ({ rows: s.prices, body: s.pricesBody })),
  );

  app.get('/api/holders', documented('/api/holders'), async (request, reply) =>
    sendList(request, reply, (s) => ({ rows: s.holders, body: s.holdersBody })),
  );

  app.get<{ Querystring: { tokenCode?: string; issuer?: string } }>(
    '/api/price',
    documented('/api/price'),
    async (request) => {
      const issuer = issuerQuery(request.query.issuer);
      const code = currencyParam(request.query.tokenCode ?? '', 'tokenCode');
      const p = (await snapshot.get()).priceByKey.get(priceKey(code, issuer));
      if (!p) throw notFound('No price for this token yet.');
      return {
        priceInXRP: p.priceInXRP,
        priceInUSD: p.priceInUSD,
        supply: p.supply,
        marketCapInUSD: p.marketCapInUSD,
      };
    },
  );

  // A public read that happens to be a POST (the issuer list is long): no CSRF token even with a
  // session cookie, since it changes nothing (visitors have no token to send).
  app.post(
    '/api/blackhole-status/bulk',
    documented('/api/blackhole-status/bulk', { method: 'post', config: { csrf: false } }),
    async (request) => {
      const { issuers } = parseInput(blackholedBulkSchema, request.body);
      const known = (await snapshot.get()).blackholed;
      return Object.fromEntries(issuers.map((i) => [i, known.get(i) ?? false]));
    },
  );

  app.get('/api/xrp-usd-price', documented('/api/xrp-usd-price'), async () => {
    const price = (await snapshot.get()).xrpUsd;
    if (!price) throw ledgerUnavailable('The XRP/USD price is not available yet.');
    return { price };
  });

  app.get<{ Querystring: { issuer?: string; ticker?: string } }>(
    '/api/amm_info',
    documented('/api/amm_info'),
    async (request, reply) => {
      const issuer = issuerQuery(request.query.issuer);
      const currency = currencyParam(request.query.ticker ?? '', 'ticker');
      const client = platform.connection?.client;
      if (!client) throw ledgerUnavailable();
      return cached(request, reply, `amm:${issuer}:${currency}`, async () => {
        const token = await tokenKey(issuer, currency);
        const quoteIssuer = token?.liquidityPair === 'RLUSD' ? await rlusd() : undefined;
        try {
          const r = await client.request({
            command: 'amm_info',
            asset: quoteIssuer ? { currency: RLUSD_CURRENCY_HEX, issuer: quoteIssuer } : { currency: 'XRP' },
            asset2: { currency, issuer },
            ledger_index: 'validated',
          });
          return { result: { amm: r.result.amm } };
        } catch (err) {
          const name = (err as { data?: { error?: string } }).data?.error;
          if (name === 'actNotFound' || name === 'ammNotFound') throw notFound('This token has no AMM pool.');
          throw err;
        }
      });
    },
  );

  app.get('/api/tradingview/history', documented('/api/tradingview/history'), async (request, reply) => {
    const q = parseInput(priceHistoryQuerySchema, request.query);
    const issuer = issuerQuery(q.issuer);
    const currency = currencyParam(q.symbol, 'symbol');
    const seconds = HISTORY_RESOLUTION_SECONDS[q.resolution];
    if (q.from >= q.to) throw badRequest('from must be before to.');
    if ((q.to - q.from) / seconds > MAX_BARS) {
      throw badRequest(`At most ${MAX_BARS} bars per request: narrow the range.`);
    }
    // Buckets fall on multiples of the resolution, so [from, to] selects what [the first bucket at or
    // after from, the last at or before to] does: visitors asking within one bar share one answer.
    const from = Math.ceil(q.from / seconds) * seconds;
    const to = Math.floor(q.to / seconds) * seconds;
    return cached(request, reply, `history:${issuer}:${currency}:${seconds}:${from}:${to}`, () =>
      history(issuer, currency, seconds, from, to),
    );
  });

  async function history(issuer: string, currency: string, seconds: number, from: number, to: number) {
    const token = await tokenKey(issuer, currency);
    if (!token) throw notFound('Token not found');
    const quote = token.liquidityPair === 'RLUSD' ? 'RLUSD' : 'XRP';
    const where = and(
      eq(marketCandles.tokenId, token.id),
      eq(marketCandles.quote, quote),
      eq(marketCandles.resolution, seconds),
    );
    const bars = await db
      .select()
      .from(marketCandles)
      .where(
        and(
          where,
          gte(marketCandles.bucket, new Date(from * 1000)),
          lte(marketCandles.bucket, new Date(to * 1000)),
        ),
      )
      .orderBy(asc(marketCandles.bucket));
    if (bars.length === 0) {
      const [before] = await db
        .select({ bucket: marketCandles.bucket })
        .from(marketCandles)
        .where(and(where, lt(marketCandles.bucket, new Date(from * 1000))))
        .orderBy(desc(marketCandles.bucket))
        .limit(1);
      return before
        ? { s: 'no_data', nextTime: Math.floor(before.bucket.getTime() / 1000) }
        : { s: 'no_data' };
    }
    // Chart figures only (never charged): numbers, as TradingView's UDF expects.
    return {
      s: 'ok',
      t: bars.map((b) => Math.floor(b.bucket.getTime() / 1000)),
      o: bars.map((b) => Number(b.open)),
      h: bars.map((b) => Number(b.high)),
      l: bars.map((b) => Number(b.low)),
      c: bars.map((b) => Number(b.close)),
      v: bars.map((b) => Number(b.volume)),
    };
  }

  app.get<{ Params: { query: string } }>(
    '/api/swapsearch/search-tokens/:query',
    documented('/api/swapsearch/search-tokens/{query}'),
    async (request) => {
      const raw = request.params.query.trim();
      const q = raw.toLowerCase();
      // eslint-disable-next-line no-control-regex -- refusing control characters is the point
      if (!q || q.length > 64 || /[\u0000-\u001f\u007f]/.test(q)) {
        throw badRequest('query must be 1 to 64 characters of text.');
      }
      // The lookalike fold (issue 35): 'paper moon', 'PaperMoon' and 'P4per M00n' find the same tokens.
      const folded = identityKey(raw);
      const found: TokenSuggestion[] = [];
      for (const t of (await snapshot.get()).tokens) {
        const byText =
          folded !== '' && (identityKey(t.name).includes(folded) || identityKey(t.ticker).includes(folded));
        if (byText || t.issuer_address.toLowerCase().includes(q)) {
          found.push({
            ticker: t.ticker,
            name: t.name,
            issuer_address: t.issuer_address,
            currency: t.currency,
            verified: t.verified,
            verified_by: t.verified_by,
            verified_domain: t.verified_domain ?? null,
            lookalike_of: t.lookalike_of,
            same_as: t.same_as ?? null,
          });
        }
      }
      // A token that gives way to another (same ticker, less ledger history) never comes first.
      return rankVerifiedFirst(found).slice(0, SEARCH_MAX);
    },
  );

  app.get<{ Params: { issuer: string }; Querystring: { currency?: string } }>(
    '/api/tokens/:issuer/stats',
    documented('/api/tokens/{issuer}/stats'),
    async (request): Promise<TokenStatsView> => {
      const issuer = issuerQuery(request.params.issuer, 'issuer');
      const currency =
        request.query.currency === undefined ? undefined : currencyParam(request.query.currency, 'currency');
      const snap = await snapshot.get();
      // The snapshot's tokens are newest first; an issuer's first listed token is the oldest.
      const token = snap.tokens.findLast(
        (t) => t.issuer_address === issuer && (currency === undefined || t.currency === currency),
      );
      if (!token) throw notFound('Token not found');
      const p = snap.priceByKey.get(priceKey(token.currency, issuer));
      const figure = (v: string | undefined) => (v === undefined || v === '0' ? null : v);
      return {
        issuer,
        currency: token.currency,
        liquidityPair: p?.liquidityPair ?? (token.liquidity_pair === 'RLUSD' ? 'RLUSD' : 'XRP'),
        priceInXRP: figure(p?.priceInXRP),
        priceInUSD: figure(p?.priceInUSD),
        marketCapInUSD: figure(p?.marketCapInUSD),
        liquidityUSD: figure(p?.liquidityUSD),
        supply: token.supply,
        holders: snap.holdersByToken.get(token.id) ?? 0,
        ledger: snap.ledger,
      };
    },
  );

  app.get<{ Params: { issuer: string }; Querystring: { currency?: string; limit?: unknown } }>(
    '/api/tokens/:issuer/trades',
    documented('/api/tokens/{issuer}/trades'),
    async (request, reply) => {
      const issuer = issuerQuery(request.params.issuer, 'issuer');
      const { limit = RECENT_TRADES_DEFAULT } = parseInput(recentTradesQuerySchema, {
        limit: request.query.limit,
      });
      if (request.query.currency !== undefined) {
        // One token of an issuer with several (issue 35): its own trades.
        const currency = currencyParam(request.query.currency, 'currency');
        return cached(request, reply, `trades:${issuer}:${currency}:${limit}`, async () =>
          tradesOf(await tokens.resolve(issuer, currency), limit),
        );
      }
      return cached(request, reply, `trades:${issuer}:${limit}`, async () => {
        // One statement: the issuer's token (its first listed, as `byIssuer`) and its pair as two
        // scalar subqueries, evaluated once before the scan (a statement costs ~1 ms on PGlite).
        const first = (column: typeof tokenRows.id | typeof tokenRows.liquidityPair) =>
          sql`(select ${column} from ${tokenRows} where ${tokenRows.issuerAddress} = ${issuer} order by ${tokenRows.id} limit 1)`;
        const rows = await db
          .select({ trade: marketTrades, pair: sql<string>`${first(tokenRows.liquidityPair)}` })
          .from(marketTrades)
          .where(
            and(
              eq(marketTrades.tokenId, sql`${first(tokenRows.id)}`),
              eq(
                marketTrades.quote,
                sql`case when ${first(tokenRows.liquidityPair)} = 'RLUSD' then 'RLUSD' else 'XRP' end`,
              ),
            ),
          )
          // Newest first along the (token, time) index; ledger and tx order break ties within a close.
          .orderBy(desc(marketTrades.time), desc(marketTrades.ledgerIndex), desc(marketTrades.txIndex))
          .limit(limit);
        // No trades: a token without any yet, or no token (the one case that needs a second look).
        if (rows.length === 0 && !(await tokens.byIssuer(issuer))) throw notFound('Token not found');
        const quote = rows[0]?.pair === 'RLUSD' ? 'RLUSD' : 'XRP';
        return rows.map(({ trade }) => tradeView(trade, quote));
      });
    },
  );

  /** One token's recent trades in its own pair, newest first. */
  async function tradesOf(token: { id: number; liquidityPair: string }, limit: number): Promise<TradeView[]> {
    const quote = token.liquidityPair === 'RLUSD' ? 'RLUSD' : 'XRP';
    const rows = await db
      .select()
      .from(marketTrades)
      .where(and(eq(marketTrades.tokenId, token.id), eq(marketTrades.quote, quote)))
      .orderBy(desc(marketTrades.time), desc(marketTrades.ledgerIndex), desc(marketTrades.txIndex))
      .limit(limit);
    return rows.map((r) => tradeView(r, quote));
  }

  // Per token (issue 35): `?currency=` names it; without it, the issuer's only listed token (an
  // issuer with several is asked which: 400), so one token's report never shows as another's.
  app.get<{ Params: { issuer: string }; Querystring: { currency?: string } }>(
    '/api/tokens/:issuer/risk',
    documented('/api/tokens/{issuer}/risk'),
    async (request, reply) => {
      const issuer = issuerQuery(request.params.issuer, 'issuer');
      const currency =
        request.query.currency === undefined ? undefined : currencyParam(request.query.currency, 'currency');
      return cached(request, reply, `risk:${issuer}:${currency ?? ''}`, async () =>
        risk.of(await tokens.resolve(issuer, currency)),
      );
    },
  );

  app.get<{ Params: { issuer: string; ticker: string } }>(
    '/api/wallets/open-orders/:issuer/:ticker',
    documented('/api/wallets/open-orders/{issuer}/{ticker}'),
    async (request, reply) => {
      const issuer = issuerQuery(request.params.issuer, 'issuer');
      const currency = currencyParam(request.params.ticker, 'ticker');
      return cached(request, reply, `book:${issuer}:${currency}`, async () => {
        const token = await tokenKey(issuer, currency);
        const rlusdAt = token?.liquidityPair === 'RLUSD' ? await rlusd() : undefined;
        return await openOrders(
          platform,
          issuer,
          currency,
          rlusdAt ? { currency: RLUSD_CURRENCY_HEX, issuer: rlusdAt } : { currency: 'XRP' },
        );
      });
    },
  );

  return snapshot;
}
