import { useQuery } from '@tanstack/react-query';
import type { QuoteView, TokenStatsView, TokenSuggestion } from '@ledgerpad/shared';
import { apiGet, apiPost } from '../../lib/api';

// The swap screen's reads: token search (debounced by the caller), the estimate (the server
// simulates the very trade on the ledger), and the token's market figures.

export type { TokenSuggestion };

export function useTokenSearch(query: string) {
  return useQuery({
    queryKey: ['swap', 'search', query],
    queryFn: ({ signal }) =>
      apiGet<TokenSuggestion[]>(`/api/swapsearch/search-tokens/${encodeURIComponent(query)}`, {
        signal,
        credentials: false,
      }),
    enabled: query.length > 0,
    staleTime: 30_000,
  });
}

export interface QuoteInput {
  wallet: string;
  issuer: string;
  token: string;
  side: 'BUY' | 'SELL';
  amount: string;
}

export function useQuote(input: QuoteInput | null) {
  return useQuery({
    queryKey: ['swap', 'quote', input],
    queryFn: ({ signal }) =>
      apiPost<QuoteView>(
        '/api/amm-info',
        {
          issuer: input!.issuer,
          token: input!.token,
          tradeType: input!.side,
          wallet: input!.wallet,
          ...(input!.side === 'BUY' ? { amountXrp: input!.amount } : { amountToken: input!.amount }),
        },
        { signal },
      ),
    enabled: input !== null,
    retry: false,
    // The market moves with every ledger: an estimate older than a few seconds is asked again.
    refetchInterval: 5_000,
  });
}

export function useMarketStats(issuer: string | null, currency: string | null) {
  return useQuery({
    queryKey: ['swap', 'stats', issuer, currency],
    queryFn: ({ signal }) =>
      apiGet<TokenStatsView>(`/api/tokens/${issuer}/stats?currency=${currency}`, {
        signal,
        credentials: false,
      }),
    enabled: Boolean(issuer && currency),
    retry: false,
    refetchInterval: 10_000,
  });
}
