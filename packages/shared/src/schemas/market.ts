import { z } from 'zod';
import { CHART_RESOLUTIONS, type ChartResolution } from '../chart';
import { wholeNumberSchema } from './common';
import type {
  publicHistorySchema,
  publicOrderBookSchema,
  publicTokenStatsSchema,
  publicTradeSchema,
  riskReportSchema,
} from './public-api';

// The token page's public market calls (beside spec 000 §7's): one token's figures, its recent
// trades, its order book and its risk report. Amounts and prices are decimal strings.

// The public answers below are typed from their response schemas (schemas/public-api.ts), one
// type per shape (issue 41): the schema the OpenAPI document and its test use is the type.

/** GET /api/tokens/{issuer}/stats: the token's figures from the per-ledger snapshot. */
export type TokenStatsView = z.infer<typeof publicTokenStatsSchema>;

/** GET /api/tokens/{issuer}/trades: newest first. */
export type TradeView = z.infer<typeof publicTradeSchema>;

export const RECENT_TRADES_DEFAULT = 50;
const RECENT_TRADES_MAX = 200;

/** GET /api/wallets/open-orders/{issuer}/{ticker}: the token's order book. */
export type OrderBookView = z.infer<typeof publicOrderBookSchema>;
/** One side's row of the book: price in the quote asset. */
export type BookRow = OrderBookView['buyOrders'][number];

/** How much a risk signal should worry a buyer: red, amber, green, or plain information. */
export type RiskSeverity = RiskReport['level'];

/** GET /api/tokens/{issuer}/risk: what a buyer should know about a token before trading it. */
export type RiskReport = z.infer<typeof riskReportSchema>;
/** One fact of the risk panel, with one sentence saying what it means for a holder. */
export type RiskSignal = RiskReport['signals'][number];
/** Top holders funded together (issue 35): likely one owner; the top 10 counts them as one holder. */
export type HolderCluster = NonNullable<RiskReport['clusters']>[number];
/** An account left out of holders and the top 10, and why. */
export type ExcludedHolder = RiskReport['excluded'][number];

/** The verdict's opening words by the worst severity. */
export const RISK_LEVEL_TEXT: Record<RiskSeverity, string> = {
  danger: 'High risk',
  warn: 'Caution',
  good: 'No red flags',
  info: 'No red flags',
};

/** The one red signal issue 24 names word for word. */
export const NO_NEW_HOLDERS_SENTENCE = 'No new wallet can ever be authorized to hold this token.';

/** GET /api/tradingview/history (TradingView UDF). */
export type HistoryResponse = z.infer<typeof publicHistorySchema>;

// Query and body shapes of the public market routes, parsed at the route edge. Numbers in queries
// are never coerced ('0x10', '1e3' or '' are not numbers): the shared whole-number rule.

/** The chart resolutions GET /api/history answers: the chart's, and TradingView's 'D' for a day. */
export type HistoryResolution = ChartResolution | 'D';
const HISTORY_RESOLUTIONS: readonly HistoryResolution[] = [...CHART_RESOLUTIONS.map((r) => r.code), 'D'];
/** Each history resolution's length in seconds (CHART_RESOLUTIONS', 'D' as '1D'). */
export const HISTORY_RESOLUTION_SECONDS = Object.fromEntries([
  ...CHART_RESOLUTIONS.map((r) => [r.code, r.seconds]),
  ['D', CHART_RESOLUTIONS.find((r) => r.code === '1D')!.seconds],
]) as Record<HistoryResolution, number>;

/** GET /api/history?symbol=&issuer=&resolution=&from=&to= */
export const priceHistoryQuerySchema = z.object({
  symbol: z.string({ message: 'symbol is required.' }).min(1, 'symbol is required.'),
  issuer: z.string({ message: 'issuer is required.' }),
  resolution: z.enum(HISTORY_RESOLUTIONS, {
    message: `resolution must be one of ${CHART_RESOLUTIONS.map((r) => r.code).join(', ')}.`,
  }),
  from: wholeNumberSchema('from'),
  to: wholeNumberSchema('to'),
});

/** GET /api/tokens/{issuer}/trades?limit= */
export const recentTradesQuerySchema = z.object({
  limit: wholeNumberSchema('limit', { min: 1, max: RECENT_TRADES_MAX }).optional(),
});
