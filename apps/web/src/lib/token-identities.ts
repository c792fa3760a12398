import { useQuery } from '@tanstack/react-query';
import { TOKEN_FETCH_LIMIT, type TokenIdentity, type TokenView } from '@ledgerpad/shared';
import { apiGetAll } from './api';

// The identity of listed tokens by (currency, issuer), for screens that name tokens from the ledger
// (positions, dashboard) and mark them 'Unverified' the same way the list does (issue 24). One
// public read of the token list, shared by those screens and kept a minute.

export type IdentityLookup = (
  currency: string,
  issuer: string,
) => Pick<TokenIdentity, 'verified' | 'lookalike_of'>;

const UNKNOWN = { verified: false, lookalike_of: null } as const;

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
