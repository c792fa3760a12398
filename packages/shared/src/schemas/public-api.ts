import { z } from 'zod';
import { authMethodsSchema, sessionResponseSchema } from './auth';
import { xrplStatusSchema } from './wallets';
import { classicAddressSchema } from './common';
import { airdropSchema } from './airdrop-view';
import { devLockViewSchema } from './vesting';
import {
  identityEventViewSchema,
  tokenDevUnlockedSchema,
  tokenIdentitySchema,
  tokenLedgerLockSchema,
  tokenLpBurnedSchema,
  tokenSuggestionSchema,
} from './token-identity';

// Response shapes of the public API (issue 29): what integrators and bots read. The server's
// GET /api/docs turns these into an OpenAPI 3.1 document with zod's own z.toJSONSchema, and a test
// checks every public route's real answer against them. Each schema is also its shape's TypeScript
// type (`TokenStatsView = z.infer<...>`, issue 41: one type per shape); where the answer is loose (an
// added field is not a breaking change for a reader) the public schema is the strict shape's
// `.loose()` (tokens, price and holders records, the risk report, fees, airdrops).
// Amounts and prices are decimal strings, never floats (docs/money.md); chart bars are numbers.

const decimal = z.string().describe('A decimal number as a string.');
const address = z.string().describe('A classic XRPL address (r...).');
const pair = z.enum(['XRP', 'RLUSD']);

/**
 * A token as the API returns it (spec 000 §3 "Token", spec 001 §3): one row of GET /api/tokens, and
 * the answer of the listing, admin and dashboard routes that return one. `TokenView` is its type.
 */
export const tokenViewSchema = tokenIdentitySchema.extend({
  id: z.number().int(),
  name: z.string(),
  ticker: z.string(),
  currency: z.string().describe('The ledger currency code (3 characters or 40 hex).'),
  issuer_address: address,
  supply: decimal,
  description: z.string(),
  liquidity_pair: pair,
  /** Last segment of the logo's served URL (spec 000: "the image file name"). */
  local_image_path: z.string().nullable(),
  /** Only ever a path on our own origin (`isOwnImageUrl`): a stored external URL is never shown. */
  logoUrl: z.string().nullable(),
  telegramFileId: z.string().nullable(),
  twitterLink: z.string().nullable(),
  telegramLink: z.string().nullable(),
  websiteLink: z.string().nullable(),
  links: z.object({ Twitter: z.string(), Telegram: z.string(), Website: z.string() }),
  launch_type: z.enum(['amm', 'listing', 'bonding']),
  is_bonding_curve: z.boolean(),
  bonding_active: z.boolean(),
  has_graduated_to_amm: z.boolean(),
  is_new: z.boolean(),
  is_blackholed: z.boolean(),
  require_auth: z.boolean(),
  is_market_listed: z.boolean(),
  is_active: z.boolean(),
  total_reward: decimal,
  reward_currency: z.string(),
  total_claimed: decimal,
  created_at: z.string(),
  /** Escrows of the token by any holder, from the ledger (the list's lock mark); absent: none. */
  ledger_lock: tokenLedgerLockSchema.optional(),
  /** A Ledgerpad deploy's dev allocation not in escrow on the ledger (the list's 'unlocked' mark). */
  dev_unlocked: tokenDevUnlockedSchema.optional(),
  /**
   * The share of the token's pool's LP tokens held by accounts that can never sign, read from the
   * ledger (issue 37: the list's 'LP burned' mark); absent: none burned, no pool, or not read yet.
   */
  lp_burned: tokenLpBurnedSchema.optional(),
});
/**
 * The documented answer is loose (a field added later is not a breaking change for a reader): GET
 * /api/tokens' rows, and the signed-in listing, admin and dashboard routes that answer a TokenView.
 */
export const tokenViewDocumentSchema = tokenViewSchema.loose();
const publicTokenListSchema = z.array(tokenViewDocumentSchema);

/** GET /api/tokens/{issuer}/identity-history (IdentityEventView). */
const publicIdentityHistorySchema = z.array(identityEventViewSchema);

/** One row of GET /api/prices (PriceRecord, spec 000 §3). */

// The public routes' request bodies that live nowhere else (here, not in market.ts: market.ts
// reads its response types from this file, so the import runs one way).
/** Issuers one POST /api/tokens/blackholed may ask about. */
const BLACKHOLED_BULK_MAX = 10_000;

/** POST /api/tokens/blackholed { issuers } */
export const blackholedBulkSchema = z.object({
  issuers: z
    .array(classicAddressSchema('issuers'), { message: 'issuers must be a list of addresses.' })
    .max(BLACKHOLED_BULK_MAX, `issuers can hold at most ${BLACKHOLED_BULK_MAX} addresses.`),
});

export const priceRecordSchema = z.object({
  tokenCode: z.string(),
  issuer: address,
  priceInXRP: decimal,
  priceInUSD: decimal,
  supply: decimal,
  marketCapInUSD: decimal,
  liquidityPair: pair,
  /** USD value of the pool, both sides (this server adds it). */
  liquidityUSD: decimal.optional(),
  /** The pool's value, both sides, in its quote asset (issue 39; a curve's: what it holds). */
  liquidity: decimal.optional(),
  /** The quote asset traded in the last 24 hours, from the indexer's trades (issue 39). */
  volume24h: decimal.optional(),
  /** The same in USD; null without an XRP/USD price (issue 39). */
  volume24hUSD: decimal.nullable().optional(),
  /**
   * Percent change of the price over the last 24 hours ('+1.23', '-4.56'; this server adds it): from
   * the last trade 24 h ago (or the first trade, for a younger token) to the price now; null without
   * trades.
   */
  change24h: z.string().nullable().optional(),
});
// The documented answer is loose: a field added later is not a breaking change for a reader.
export const publicPriceRecordSchema = priceRecordSchema.loose();
const publicPriceListSchema = z.array(publicPriceRecordSchema);

/** GET /api/price?tokenCode=&issuer= */
const publicPriceSchema = z.object({
  priceInXRP: decimal,
  priceInUSD: decimal,
  supply: decimal,
  marketCapInUSD: decimal,
});

/** One row of GET /api/holders (HoldersRecord). */
export const holdersRecordSchema = z.object({
  issuer_address: address,
  /** The token's ledger code (issue 35; servers before it sent one row per issuer, without it). */
  currency: z.string().describe('The token’s ledger currency code (an issuer may list several).'),
  holders_count: z.number().int().nonnegative(),
});
export const publicHoldersRecordSchema = holdersRecordSchema.loose();
const publicHoldersListSchema = z.array(publicHoldersRecordSchema);

/** GET /api/tradingview/history (TradingView UDF; HistoryResponse). */
export const publicHistorySchema = z.union([
  z.object({
    s: z.literal('ok'),
    t: z.array(z.number().int()),
    o: z.array(z.number()),
    h: z.array(z.number()),
    l: z.array(z.number()),
    c: z.array(z.number()),
    v: z.array(z.number()),
  }),
  z.object({ s: z.literal('no_data'), nextTime: z.number().int().optional() }),
]);

const ledgerAmount = z.union([
  z.string().describe('XRP in drops.'),
  z.looseObject({ currency: z.string(), issuer: address, value: decimal }),
]);

/** GET /api/amm_info?issuer=&ticker=: the ledger's amm_info answer, as rippled gives it. */
const publicAmmInfoSchema = z.object({
  result: z.object({
    amm: z.looseObject({
      account: address,
      amount: ledgerAmount,
      amount2: ledgerAmount,
      lp_token: z.looseObject({ currency: z.string(), issuer: address, value: decimal }),
      trading_fee: z.number().int(),
    }),
  }),
});

/** GET /api/tokens/{issuer}/stats (TokenStatsView is its type). */
export const publicTokenStatsSchema = z.object({
  issuer: address,
  currency: z.string(),
  liquidityPair: pair,
  /** Null until the token has a pool with both sides. */
  priceInXRP: decimal.nullable(),
  priceInUSD: decimal.nullable(),
  marketCapInUSD: decimal.nullable(),
  /** USD value of the pool, both sides. */
  liquidityUSD: decimal.nullable(),
  supply: decimal,
  holders: z.number().int().nonnegative(),
  /** The validated ledger these figures are from. */
  ledger: z.number().int(),
});

/** One row of GET /api/tokens/{issuer}/trades (TradeView is its type), newest first. */
export const publicTradeSchema = z.object({
  hash: z.string(),
  time: z.number().int().describe('Unix milliseconds of the ledger close.'),
  ledgerIndex: z.number().int(),
  account: address,
  side: z.enum(['BUY', 'SELL']),
  /** In the quote asset (XRP or RLUSD) per token. */
  price: decimal,
  tokenAmount: decimal,
  quoteAmount: decimal,
  quote: pair,
});
const publicTradeListSchema = z.array(publicTradeSchema);

const severity = z.enum(['danger', 'warn', 'good', 'info']);

/** GET /api/tokens/{issuer}/risk (RiskReport). */
/** GET /api/tokens/{issuer}/risk: what a buyer should know about a token before trading it (RiskReport). */
export const riskReportSchema = z.object({
  issuer: address,
  blackholed: z.boolean(),
  masterDisabled: z.boolean(),
  regularKey: z.string().nullable(),
  hasSignerList: z.boolean(),
  requireAuth: z.boolean(),
  globalFreeze: z.boolean(),
  noFreeze: z.boolean(),
  clawback: z.boolean(),
  /** Transfer fee in percent ('0' when none). */
  transferFeePercent: decimal,
  /** Share of the supply given to the deployer at launch, in percent (null for a listed token). */
  devSharePercent: decimal.nullable(),
  /** The dev allocation's escrows on the ledger (issue 28); null when the token has no deployer. */
  devLock: devLockViewSchema.nullable().optional(),
  /** Holders with a positive balance, the excluded accounts not counted. */
  holders: z.number().int().nonnegative(),
  /**
   * Share of the supply held by the ten largest holders (excluded accounts left out; a cluster of
   * wallets funded together counts as one holder), in percent.
   */
  top10SharePercent: decimal,
  /**
   * Top holders funded together, largest first (absent from servers before issue 35): by the same
   * account within a short span of one another, or by another top holder — likely one owner.
   */
  clusters: z
    .array(
      z.object({
        /** The account that funded most of them (null when they were chained through one another). */
        funder: z.string().nullable(),
        accounts: z.array(address),
        /** Their combined balance (decimal string) and share of the supply (percent). */
        balance: decimal,
        sharePercent: decimal,
        /** When the first and the last of them was funded (ISO). */
        fundedFrom: z.string().nullable(),
        fundedTo: z.string().nullable(),
      }),
    )
    .optional(),
  /** Who was left out of holders and the top 10 (the issuer, AMM pools, the curve, platform accounts). */
  excluded: z.array(
    z.object({
      account: address,
      /** 'Issuer', 'AMM pool', 'Bonding curve' or the platform account's name. */
      label: z.string(),
    }),
  ),
  /** Holder lines the issuer froze, and deep-froze (neither send nor receive). */
  frozenHolders: z.number().int().nonnegative(),
  deepFrozenHolders: z.number().int().nonnegative(),
  /** Share of the pool's LP tokens held by accounts that can never sign (burned), in percent. */
  lpLockedPercent: decimal.nullable(),
  /** The worst signal's severity. */
  level: severity,
  /** The facts of the risk panel, each with one sentence saying what it means for a holder. */
  signals: z.array(
    z.object({
      id: z.enum([
        'issuer-key',
        'require-auth',
        'freeze',
        'frozen-holders',
        'clawback',
        'amm-clawback',
        'transfer-fee',
        'top-holders',
        'holder-clusters',
        'lp-locked',
        'dev-allocation',
      ]),
      severity,
      label: z.string(),
      value: z.string(),
      sentence: z.string(),
    }),
  ),
  /** One line: the worst signal(s), in words. */
  verdict: z.string(),
});
const publicRiskReportSchema = riskReportSchema.loose();

/** GET /api/bonding/{issuer}: a curve's state and progress, quote amounts in the quote asset (BondingView is its type). */
export const publicBondingSchema = z.object({
  token_id: z.number().int(),
  status: z.enum(['active', 'graduating', 'graduated']),
  quote: pair,
  curve_address: address,
  /** Tokens sold on the curve, of `curve_supply`, and the share in percent (2 decimals). */
  sold: decimal,
  curve_supply: decimal,
  percent: decimal,
  /** Raised so far and at graduation. */
  raised: decimal,
  target: decimal,
  /** The next token's price (ex fee) and the price the AMM pool opens at. */
  price: decimal,
  end_price: decimal,
  /** price × the 1,000,000,000 supply, in the quote asset and in USD (null before the XRP/USD price is known). */
  market_cap: decimal,
  market_cap_usd: decimal.nullable(),
  launch_ledger: z.number().int().nullable(),
  /** Until this ledger (exclusive) at most `snipe_tokens` are for sale per ledger. */
  snipe_until_ledger: z.number().int().nullable(),
  snipe_tokens: decimal,
  steps: z.number().int(),
  amm_account: address.nullable(),
  graduated_ledger: z.number().int().nullable(),
  /**
   * 'window': an instant launch's anti-sniper window, its pre-pool ladder (docs/launch-protection.md):
   * its pool opens when the window's ledger time is over, whatever is sold. Absent: a curve launch.
   */
  kind: z.enum(['curve', 'window']).optional(),
  /** A window launch still on its ladder: seconds of ledger time until the pool opens (0: opening). */
  pool_opens_in_seconds: z.number().int().nonnegative().optional(),
});

/** GET /api/pump/bonding/marketcap/{id} (spec 000 §7). */
const publicBondingMarketCapSchema = z.object({ market_cap_usd: decimal });

/** GET /api/xrp-usd-price: the XRP/USD price the USD figures use. */
const publicXrpUsdPriceSchema = z.object({ price: decimal });

/** GET /api/swapsearch/search-tokens/{query}: up to 10 suggestions, verified tokens first (TokenSuggestion). */
export const publicTokenSuggestionListSchema = z.array(tokenSuggestionSchema);

const bookRow = z.object({ price: decimal, amount: decimal });

/** GET /api/wallets/open-orders/{issuer}/{ticker}: the token's order book (OrderBookView). */
export const publicOrderBookSchema = z.object({ buyOrders: z.array(bookRow), sellOrders: z.array(bookRow) });

/** POST /api/blackhole-status/bulk: each asked issuer → whether it is blackholed. */
const publicBlackholeBulkSchema = z.record(z.string(), z.boolean());

/** The curve settings as the deploy preview shows them (GET /api/config/fees → bonding; BondingConfigView). */
export const bondingConfigViewSchema = z.object({
  steps: z.number().int(),
  fine_steps: z.number().int(),
  virtual_xrp: decimal,
  virtual_rlusd: decimal,
  /** Raised when the curve sells out, in the quote asset. */
  graduation_xrp: decimal,
  graduation_rlusd: decimal,
  /** Price of the first token (ex fee), in the quote asset. */
  start_price_xrp: decimal,
  start_price_rlusd: decimal,
  /** XRP the launch puts in the curve account (XRP pair / RLUSD pair). */
  deposit_xrp: decimal,
  deposit_xrp_rlusd_pair: decimal,
  snipe_ledgers: z.number().int(),
  snipe_tokens: decimal,
  /** The anti-sniper window a launch that opts in gets: the surcharge at launch (percent) and seconds. */
  anti_sniper_start_percent: decimal,
  anti_sniper_window_seconds: z.number().int(),
});

/** GET /api/config/fees: what a deploy costs (FeesConfig), from the platform's settings and the ledger. XRP amounts are decimal strings of XRP. */
export const feesConfigSchema = z.object({
  service_fee: decimal,
  issuer_reserve: decimal,
  hot_wallet_reserve: decimal,
  airdrop_fee_xrp: decimal,
  /** The ledger's owner reserve (a trust line the deploy opens in the paying wallet costs one). */
  owner_reserve: decimal,
  /** Transaction fees the deploy's own transactions may burn from the paying wallet, in XRP. */
  network_fee_allowance: decimal,
  /**
   * The platform's trading fee in percent, as the admin set it (the home page, the terms and the
   * swap screen show the current one; a user's own override is in their quotes).
   */
  trading_fee_percent: decimal.optional(),
  /** The ledger's base reserve and the network fee of one ordinary transaction, in XRP. */
  base_reserve: decimal.optional(),
  base_fee: decimal.optional(),
  /** Curve launches: the curve's figures and the deposit a launch puts in the curve account. */
  bonding: bondingConfigViewSchema,
});
export const publicFeesConfigSchema = feesConfigSchema
  .extend({ bonding: bondingConfigViewSchema.loose() })
  .loose();

/** GET /api/config/rlusd: the network's RLUSD (null issuer where it has none). */
const publicRlusdConfigSchema = z.object({ currency: z.string(), issuer: address.nullable() });

/** GET /api/health: 200 `ok` or 503 `degraded`; the details only to admins (or HEALTH_DETAILS=public). */
const publicHealthSchema = z.looseObject({ status: z.enum(['ok', 'degraded']) });

/** GET /api/demo/status: whether this server runs the demo market, and its seed's state. */
const publicDemoStatusSchema = z.object({ demo: z.enum(['off', 'seeding', 'ready', 'failed']) });

/** One row of GET /api/airdrops (Airdrop); `has_claimed` is the signed-in caller's, false for a visitor. */
export const publicAirdropSchema = airdropSchema.loose();
const publicAirdropListSchema = z.array(publicAirdropSchema);

/** The error body every route answers a 4xx/5xx with. */
export const publicErrorSchema = z.looseObject({
  error: z.string().describe('A machine-readable code.'),
  message: z.string().describe('One sentence saying what was wrong.'),
});

/** GET /api/docs/openapi.json: the OpenAPI 3.1 document itself (its parts as OpenAPI defines them). */
export const openApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});

const issuerPath = { name: 'issuer', in: 'path', required: true } as const;
const q = (name: string, required = true) => ({ name, in: 'query', required }) as const;

/**
 * What every /api route declares (issue 41): a one-line summary, its JSON body (where it takes one)
 * and its answer, as zod schemas from packages/shared. The server's OpenAPI document is generated
 * from these declarations, so a route and its document cannot drift.
 */
export interface RouteSchemas {
  summary: string;
  /** A POST/PUT's JSON body. */
  body?: z.ZodType;
  /** The 200 answer. */
  response: z.ZodType;
  /**
   * The 202 answer of a route that starts work and answers at once (a deploy's or an airdrop's
   * job, to follow at GET /api/job-status/{jobId}), besides its 200 answer.
   */
  accepted?: z.ZodType;
  /** Query parameters (path parameters come from the route's own URL). */
  query?: readonly { name: string; required: boolean }[];
  /** Paged with ?limit=&offset= and X-Total-Count (docs/paging.md). */
  paged?: boolean;
}

/** One documented public route: its path, parameters, answer and whether it is a paged list. */
export interface PublicRoute extends Omit<RouteSchemas, 'query'> {
  path: string;
  /** GET unless said. */
  method?: 'get' | 'post' | 'put' | 'patch' | 'delete';
  parameters: readonly { name: string; in: 'path' | 'query'; required: boolean }[];
}

/** The public market API, as GET /api/docs documents it (all GET, all public). */
const PUBLIC_MARKET_ROUTES: readonly PublicRoute[] = [
  {
    path: '/api/tokens',
    summary: 'Every listed token.',
    parameters: [],
    response: publicTokenListSchema,
    paged: true,
  },
  {
    path: '/api/prices',
    summary: 'Price records of tokens with a pool.',
    parameters: [],
    response: publicPriceListSchema,
    paged: true,
  },
  {
    path: '/api/holders',
    summary: 'Holder counts per issuer.',
    parameters: [],
    response: publicHoldersListSchema,
    paged: true,
  },
  {
    path: '/api/price',
    summary: "One token's price.",
    parameters: [q('tokenCode'), q('issuer')],
    response: publicPriceSchema,
  },
  {
    path: '/api/tradingview/history',
    summary: 'Price bars (TradingView UDF).',
    parameters: [q('symbol'), q('issuer'), q('resolution'), q('from'), q('to')],
    response: publicHistorySchema,
  },
  {
    path: '/api/amm_info',
    summary: "The token's AMM pool.",
    parameters: [q('issuer'), q('ticker')],
    response: publicAmmInfoSchema,
  },
  {
    path: '/api/tokens/{issuer}/stats',
    summary: "One token's figures.",
    parameters: [issuerPath, q('currency', false)],
    response: publicTokenStatsSchema,
  },
  {
    path: '/api/tokens/{issuer}/trades',
    summary: 'Recent trades, newest first.',
    parameters: [issuerPath, q('currency', false), q('limit', false)],
    response: publicTradeListSchema,
  },
  {
    path: '/api/tokens/{issuer}/risk',
    summary: 'What a buyer should know before trading (?currency= for an issuer with several tokens).',
    parameters: [issuerPath, q('currency', false)],
    response: publicRiskReportSchema,
  },
  {
    path: '/api/tokens/{issuer}/identity-history',
    summary: 'Every listing, claim, vouch and change of controller of a token, oldest first.',
    parameters: [issuerPath, q('currency', false)],
    response: publicIdentityHistorySchema,
  },
  {
    path: '/api/bonding/{issuer}',
    summary: "A curve's state and progress.",
    parameters: [issuerPath, q('currency', false)],
    response: publicBondingSchema,
  },
  {
    path: '/api/pump/bonding/marketcap/{id}',
    summary: "A bonding token's market cap in USD.",
    parameters: [{ name: 'id', in: 'path', required: true }],
    response: publicBondingMarketCapSchema,
  },
];

/**
 * The other public routes (no session needed): the platform's configuration, search, the order
 * book, the bulk blackhole check, health and the session read. Not documented: the sign-in POSTs,
 * the owner's one-time link, uploaded images, the socket and /metrics (not JSON reads for integrators).
 */
const PUBLIC_PLATFORM_ROUTES: readonly PublicRoute[] = [
  {
    path: '/api/tokens/issuer/{issuerAddress}',
    summary: 'The listed token of an issuer (?currency= names one of several).',
    parameters: [{ name: 'issuerAddress', in: 'path', required: true }, q('currency', false)],
    // One listed token (TokenView), as a row of GET /api/tokens.
    response: tokenViewDocumentSchema,
  },
  {
    path: '/api/tokens/issuer/{issuerAddress}/tokens',
    summary: 'Every listed token of an issuer.',
    parameters: [{ name: 'issuerAddress', in: 'path', required: true }],
    response: publicTokenListSchema,
  },
  {
    path: '/api/swapsearch/search-tokens/{query}',
    summary: 'Tokens whose name, ticker or issuer contains the text (verified first).',
    parameters: [{ name: 'query', in: 'path', required: true }],
    response: publicTokenSuggestionListSchema,
  },
  {
    path: '/api/wallets/open-orders/{issuer}/{ticker}',
    summary: "The token's order book.",
    parameters: [issuerPath, { name: 'ticker', in: 'path', required: true }],
    response: publicOrderBookSchema,
  },
  {
    path: '/api/xrp-usd-price',
    summary: 'The XRP/USD price.',
    parameters: [],
    response: publicXrpUsdPriceSchema,
  },
  {
    path: '/api/blackhole-status/bulk',
    method: 'post',
    summary: 'Whether each issuer is blackholed (a read; no CSRF token needed).',
    parameters: [],
    body: blackholedBulkSchema,
    response: publicBlackholeBulkSchema,
  },
  {
    path: '/api/config/fees',
    summary: 'What a deploy costs, and the platform fees.',
    parameters: [],
    response: publicFeesConfigSchema,
  },
  {
    path: '/api/config/rlusd',
    summary: "The network's RLUSD.",
    parameters: [],
    response: publicRlusdConfigSchema,
  },
  {
    path: '/api/auth/methods',
    summary: 'The sign-in methods this server offers, and its network.',
    parameters: [],
    response: authMethodsSchema,
  },
  {
    path: '/api/session',
    summary: 'The signed-in user, or null for a visitor.',
    parameters: [],
    response: sessionResponseSchema,
  },
  {
    path: '/api/wallets/xrpl/status',
    summary: 'Whether the server is connected to the ledger.',
    parameters: [],
    response: xrplStatusSchema,
  },
  {
    path: '/api/health',
    summary: 'Liveness: ok (200) or degraded (503).',
    parameters: [],
    response: publicHealthSchema,
  },
  {
    path: '/api/demo/status',
    summary: 'Whether this server runs the demo market.',
    parameters: [],
    response: publicDemoStatusSchema,
  },
  {
    path: '/api/airdrops',
    summary: 'Airdrops, newest first.',
    parameters: [],
    response: publicAirdropListSchema,
    paged: true,
  },
];

/** Every route GET /api/docs documents. */
export const PUBLIC_API_ROUTES: readonly PublicRoute[] = [...PUBLIC_MARKET_ROUTES, ...PUBLIC_PLATFORM_ROUTES];

/**
 * The documentation of one public route, for the route to declare (`config: { docs: publicRouteDoc(…) }`):
 * the server's OpenAPI document is generated from the routes that declare one, and a route whose
 * path or method is not its documentation's refuses to register (apps/server/src/plugins/access.ts).
 */
export function publicRouteDoc(path: string, method: 'get' | 'post' = 'get'): PublicRoute {
  const doc = PUBLIC_API_ROUTES.find((r) => r.path === path && (r.method ?? 'get') === method);
  if (!doc) throw new Error(`No public API documentation for ${method.toUpperCase()} ${path}`);
  return doc;
}
