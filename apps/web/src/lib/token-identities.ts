import { useQuery } from '@tanstack/react-query';
import { TOKEN_FETCH_LIMIT, type TokenIdentity, type TokenView } from '@ledgerpad/shared';
import { apiGetAll } from './api';

// The identity of listed tokens by (currency, issuer), for screens that name tokens from the ledger
// (positions, dashboard, wallets, airdrops) and mark them the way the list does (issues 24, 35). One
// public read of the token list, shared by those screens and kept a minute.

export type KnownIdentity = Pick<TokenIdentity, 'verified' | 'lookalike_of'> &
  Partial<Pick<TokenIdentity, 'verified_by' | 'verified_domain' | 'same_as'>>;

export type IdentityLookup = (currency: string, issuer: string) => KnownIdentity;

const UNKNOWN: KnownIdentity = { verified: false, lookalike_of: null };

export function useTokenIdentities(): IdentityLookup {
  const { data } = useQuery({
    queryKey: ['token-identities'],
    queryFn: ({ signal }) =>
      apiGetAll<TokenView>(`/api/tokens?limit=${TOKEN_FETCH_LIMIT}`, { signal, credentials: false }),
    staleTime: 60_000,
  });
  const byKey = new Map((data ?? []).map((t) => [`${t.currency}|${t.issuer_address}`, t]));
  // A token nobody listed is not verified either: nobody proved anything about it.
  return (currency, issuer) => byKey.get(`${currency}|${issuer}`) ?? UNKNOWN;
}
