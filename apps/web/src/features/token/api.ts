import { useQuery } from '@tanstack/react-query';
import {
  LAST_PRICE_RESOLUTION,
  TOKEN_PRICE_REFRESH_MS,
  type BondingView,
  type ChartResolution,
  type HistoryResponse,
  type IdentityEventView,
  type OrderBookView,
  type RewardSplitView,
  type RiskReport,
  type TokenStatsView,
  type TokenView,
  type TradeView,
  LAST_PRICE_LOOKBACK_S,
} from '@ledgerpad/shared';
import { apiGet } from '../../lib/api';
import { tokenKeys } from './keys';
import { inlinedToken, TOKEN_DATA_FRESH_MS } from './token-data';

// The token page's reads: all public calls (no cookies), each its own query so a slow one never
// holds the others back. Figures refresh every 10 s (spec 000 §9) and after every live trade.

const pub = (signal: AbortSignal) => ({ signal, credentials: false as const });
const q = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

/** The token of the page: `currency` names one of the issuer's tokens (`/token/{issuer}/{currency}`). */
export function useTokenDetails(issuer: string, currency?: string) {
  // The page's HTML carries this read (token-data.ts): the first render has the token, no round trip.
  const inlined = inlinedToken(issuer, currency);
  return useQuery({
    queryKey: tokenKeys.detailsOf(issuer, currency),
    initialData: inlined?.token,
    initialDataUpdatedAt: inlined?.at,
    ...(inlined ? { staleTime: TOKEN_DATA_FRESH_MS } : {}),
    queryFn: ({ signal }) =>
      apiGet<TokenView>(`/api/tokens/issuer/${issuer}${currency ? `?${q({ currency })}` : ''}`, pub(signal)),
    // 'Token not found' is an answer, not a hiccup: only retry what may pass the second time.
    retry: (count, error) => count < 1 && (error as { status?: number }).status !== 404,
  });
}

/** Every listed token of the issuer: `/token/{issuer}` asks which one when there are several. */
export function useIssuerTokens(issuer: string, enabled: boolean) {
  const inlined = enabled ? inlinedToken(issuer, undefined)?.issuerTokens : undefined;
  return useQuery({
    queryKey: tokenKeys.issuerTokens(issuer),
    initialData: inlined,
    initialDataUpdatedAt: inlined ? inlinedToken(issuer, undefined)?.at : undefined,
    ...(inlined ? { staleTime: TOKEN_DATA_FRESH_MS } : {}),
    queryFn: ({ signal }) => apiGet<TokenView[]>(`/api/tokens/issuer/${issuer}/tokens`, pub(signal)),
    retry: (count, error) => count < 1 && (error as { status?: number }).status !== 404,
    enabled,
  });
}

/** A token's public identity history (listing, claims, vouches, changes of controller). */
export function useIdentityHistory(issuer: string, currency: string, enabled: boolean) {
  return useQuery({
    queryKey: tokenKeys.identityHistory(issuer, currency),
    queryFn: ({ signal }) =>
      apiGet<IdentityEventView[]>(`/api/tokens/${issuer}/identity-history?${q({ currency })}`, pub(signal)),
    enabled,
  });
}

export function useTokenStats(issuer: string, currency: string) {
  return useQuery({
    // Keyed by currency too (issue 35: an issuer's two tokens never share a figure).
    queryKey: tokenKeys.statsOf(issuer, currency),
    queryFn: ({ signal }) =>
      apiGet<TokenStatsView>(`/api/tokens/${issuer}/stats?${q({ currency })}`, pub(signal)),
    refetchInterval: TOKEN_PRICE_REFRESH_MS,
  });
}

export function useRecentTrades(issuer: string, currency: string) {
  return useQuery({
    queryKey: tokenKeys.tradesOf(issuer, currency),
    queryFn: ({ signal }) =>
      apiGet<TradeView[]>(`/api/tokens/${issuer}/trades?${q({ currency, limit: 30 })}`, pub(signal)),
    refetchInterval: TOKEN_PRICE_REFRESH_MS,
    enabled: currency.length > 0,
  });
}

export function useOrderBook(issuer: string, currency: string) {
  return useQuery({
    queryKey: tokenKeys.bookOf(issuer, currency),
    queryFn: ({ signal }) =>
      apiGet<OrderBookView>(`/api/wallets/open-orders/${issuer}/${currency}`, pub(signal)),
    refetchInterval: TOKEN_PRICE_REFRESH_MS,
  });
}

export function useRisk(issuer: string, currency: string) {
  return useQuery({
    queryKey: tokenKeys.risk(issuer, currency),
    queryFn: ({ signal }) => apiGet<RiskReport>(`/api/tokens/${issuer}/risk?${q({ currency })}`, pub(signal)),
    refetchInterval: 60_000,
  });
}

/** Candles of `resolution` for the last `bars` bars (the UDF history call). */
export function fetchHistory(
  currency: string,
  issuer: string,
  resolution: ChartResolution,
  seconds: number,
  bars: number,
  signal?: AbortSignal,
): Promise<HistoryResponse> {
  const to = Math.floor(Date.now() / 1000);
  const from = to - seconds * bars;
  return apiGet<HistoryResponse>(
    `/api/tradingview/history?${q({ symbol: currency, issuer, resolution, from, to })}`,
    { signal, credentials: false },
  );
}

/** The price-change strip's data: the last day (and one bar) at 5-minute resolution. */
export function useChangeHistory(issuer: string, currency: string) {
  return useQuery({
    queryKey: tokenKeys.changes(issuer, currency),
    queryFn: ({ signal }) =>
      fetchHistory(currency, issuer, LAST_PRICE_RESOLUTION, LAST_PRICE_LOOKBACK_S, 24 * 12 + 2, signal),
    refetchInterval: TOKEN_PRICE_REFRESH_MS,
    // A failed chart call shows N/A (spec 000 §8), not an error.
    retry: false,
  });
}

/** A curve launch's curve and its progress (GET /api/bonding/{issuer}); refreshed with the figures. */
export function useBondingCurve(issuer: string, currency: string, enabled: boolean) {
  return useQuery({
    queryKey: tokenKeys.bondingOf(issuer, currency),
    queryFn: ({ signal }) => apiGet<BondingView>(`/api/bonding/${issuer}?${q({ currency })}`, pub(signal)),
    refetchInterval: TOKEN_PRICE_REFRESH_MS,
    enabled,
  });
}

/**
 * Spec 000 §4: a token on its active curve takes its market cap from the bonding endpoint (the
 * curve's price × the supply, in USD).
 */
export function useBondingMarketCap(tokenId: number, enabled: boolean) {
  return useQuery({
    queryKey: tokenKeys.bondingCap(tokenId),
    queryFn: ({ signal }) =>
      apiGet<{ market_cap_usd: string }>(`/api/pump/bonding/marketcap/${tokenId}`, pub(signal)),
    refetchInterval: TOKEN_PRICE_REFRESH_MS,
    enabled,
  });
}

/** Where the token's creator rewards go (issue 37): public, like the payments it leads to. */
export function useRewardSplit(tokenId: number) {
  return useQuery({
    queryKey: tokenKeys.rewardSplit(tokenId),
    queryFn: ({ signal }) => apiGet<RewardSplitView>(`/api/rewards/splits/${tokenId}`, pub(signal)),
    staleTime: 60_000,
  });
}
