import type { DevLockView } from './vesting';
import { z } from 'zod';
import { CHART_RESOLUTIONS, type ChartResolution } from '../chart';
import { wholeNumberSchema } from './common';
import type {
  publicHistorySchema,
  publicOrderBookSchema,
  publicTokenStatsSchema,
  publicTradeSchema,
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
export type RiskSeverity = 'danger' | 'warn' | 'good' | 'info';

/** One fact of the risk panel, with one sentence saying what it means for a holder. */
export interface RiskSignal {
  id:
    | 'issuer-key'
    | 'require-auth'
    | 'freeze'
    | 'frozen-holders'
    | 'clawback'
    | 'amm-clawback'
    | 'transfer-fee'
    | 'top-holders'
    | 'holder-clusters'
    | 'lp-locked'
    | 'dev-allocation';
  severity: RiskSeverity;
  label: string;
  value: string;
  sentence: string;
}

/**
 * Top holders funded together (issue 35): by the same account within a short span of one another,
 * or by another top holder — likely one owner. The top 10 counts a cluster as one holder.
 */
export interface HolderCluster {
  /** The account that funded most of them (null when they were chained through one another). */
  funder: string | null;
  accounts: string[];
  /** Their combined balance (decimal string) and share of the supply (percent). */
  balance: string;
  sharePercent: string;
  /** When the first and the last of them was funded (ISO). */
  fundedFrom: string | null;
  fundedTo: string | null;
}

/** An account left out of holders and the top 10, and why. */
export interface ExcludedHolder {
  account: string;
  /** 'Issuer', 'AMM pool', 'Bonding curve' or the platform account's name. */
  label: string;
}

/** GET /api/tokens/{issuer}/risk: what a buyer should know about a token before trading it. */
export interface RiskReport {
  issuer: string;
  blackholed: boolean;
  masterDisabled: boolean;
  regularKey: string | null;
  hasSignerList: boolean;
  requireAuth: boolean;
  globalFreeze: boolean;
  noFreeze: boolean;
  clawback: boolean;
  /** Transfer fee in percent ('0' when none). */
  transferFeePercent: string;
  /** Share of the supply given to the deployer at launch, in percent (null for a listed token). */
  devSharePercent: string | null;
  /** The dev allocation's escrows on the ledger (issue 28); null when the token has no deployer. */
  devLock?: DevLockView | null;
  /** Holders with a positive balance, the excluded accounts not counted. */
  holders: number;
  /**
   * Share of the supply held by the ten largest holders (excluded accounts left out; a cluster of
   * wallets funded together counts as one holder), in percent.
   */
  top10SharePercent: string;
  /** Top holders funded together, largest first (absent from servers before issue 35). */
  clusters?: HolderCluster[];
  /** Who was left out of holders and the top 10 (the issuer, AMM pools, the curve, platform accounts). */
  excluded: ExcludedHolder[];
  /** Holder lines the issuer froze, and deep-froze (neither send nor receive). */
  frozenHolders: number;
  deepFrozenHolders: number;
  /** Share of the pool's LP tokens held by accounts that can never sign (burned), in percent. */
  lpLockedPercent: string | null;
  /** The worst signal's severity. */
  level: RiskSeverity;
  signals: RiskSignal[];
  /** One line: the worst signal(s), in words. */
  verdict: string;
}

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
