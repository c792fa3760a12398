import { useQuery } from '@tanstack/react-query';
import { TOKEN_FETCH_LIMIT, type TokenIdentity, type TokenView } from '@ledgerpad/shared';
import { apiGet, apiGetAll } from './api';
import { configKeys, listedTokenKeys } from './query-keys';

// The identity of listed tokens by (currency, issuer), for screens that name tokens from the ledger
// (positions, dashboard, wallets, airdrops) and mark them the way the list does (issues 24, 35). One
// public read of the token list, shared by those screens and kept a minute.

export type KnownIdentity = Pick<TokenIdentity, 'verified' | 'lookalike_of'> &
  Partial<Pick<TokenIdentity, 'verified_by' | 'verified_domain' | 'same_as'>>;

export type IdentityLookup = (currency: string, issuer: string) => KnownIdentity;

const UNKNOWN: KnownIdentity = { verified: false, lookalike_of: null };

/** The network's RLUSD (GET /api/config/rlusd): one query for the swap's XRP ⇄ RLUSD mode and the identities. */
export function useRlusd() {
  return useQuery({
    queryKey: configKeys.rlusd(),
    queryFn: () =>
      apiGet<{ issuer: string | null; currency: string }>('/api/config/rlusd', { credentials: false }),
    staleTime: Infinity,
  });
}

export function useTokenIdentities(): IdentityLookup {
  const { data } = useQuery({
    queryKey: listedTokenKeys.identities(),
    queryFn: ({ signal }) =>
      apiGetAll<TokenView>(`/api/tokens?limit=${TOKEN_FETCH_LIMIT}`, { signal, credentials: false }),
    staleTime: 60_000,
  });
  // The platform's own RLUSD (the network's, from its configuration) is not a listed token but is
  // the one the platform trades against: verified (issue 39: positions called it 'Unverified').
  const rlusd = useRlusd();
  const byKey = new Map<string, KnownIdentity>(
    (data ?? []).map((t) => [`${t.currency}|${t.issuer_address}`, t]),
  );
  if (rlusd.data?.issuer)
    byKey.set(`${rlusd.data.currency}|${rlusd.data.issuer}`, { verified: true, lookalike_of: null });
  // A token nobody listed is not verified either: nobody proved anything about it.
  return (currency, issuer) => byKey.get(`${currency}|${issuer}`) ?? UNKNOWN;
}
