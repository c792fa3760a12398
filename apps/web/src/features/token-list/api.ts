import { useQuery } from '@tanstack/react-query';
import { TOKEN_FETCH_LIMIT, TOKEN_PRICE_REFRESH_MS, type TokenView } from '@ledgerpad/shared';
import { apiGet, apiGetAll } from '../../lib/api';
import { landingData } from '../../lib/landing-data';
import { listedTokenKeys } from '../../lib/query-keys';
import { homeKeys } from './keys';

// The home page's reads, all public (no cookies): the token list and the demo market's state.

/**
 * The listed tokens. A failed fetch keeps what was shown, silently (spec §8). The list refreshes on
 * the price cadence (10 s): a token launched anywhere appears without a reload, and a visitor who
 * opens the page while the first start seeds the market sees its tokens arrive.
 */
export function useListedTokens() {
  return useQuery({
    queryKey: listedTokenKeys.all(),
    refetchInterval: TOKEN_PRICE_REFRESH_MS,
    // A failed first load shows the empty list; a failed refresh keeps the rows it had.
    retry: 1,
    // On a fresh load of `/` the server embedded this very read: rows with the first render. It is
    // stale at once, so the usual fetch follows and replaces it.
    initialData: () => {
      const embedded = landingData('tokens');
      return Array.isArray(embedded) ? (embedded as TokenView[]) : undefined;
    },
    initialDataUpdatedAt: 0,
    queryFn: async ({ signal }) => {
      const list = await apiGetAll<TokenView>(`/api/tokens?limit=${TOKEN_FETCH_LIMIT}`, {
        signal,
        credentials: false,
      });
      return Array.isArray(list) ? list : [];
    },
  });
}

/** Whether the embedded ledger runs the demo market ('seeding' while the first start builds it). */
export function useDemoStatus() {
  return useQuery({
    queryKey: homeKeys.demoStatus(),
    queryFn: () =>
      apiGet<{ demo: 'off' | 'seeding' | 'ready' | 'failed' }>('/api/demo/status', { credentials: false }),
    staleTime: 60_000,
    // While the first start seeds the market, ask again with the list's cadence until it is ready.
    refetchInterval: (query) => (query.state.data?.demo === 'seeding' ? TOKEN_PRICE_REFRESH_MS : false),
  });
}
