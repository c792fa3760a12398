import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type {
  DashboardWriteResponse,
  IssuerWalletResponse,
  SyncTrustLinesResponse,
  TrustLinesResponse,
  UserTokensResponse,
} from '@ledgerpad/shared';
import { ApiError, apiGet, apiPost } from '../../lib/api';

// Server state of the dashboard (spec 001 §7 "Dashboard and rewards"). What the issuer and its
// lines look like is read from the ledger by the server on every fetch; after a write the affected
// queries are fetched again, so the page shows the ledger, never a guess.

const KEY = ['dashboard'] as const;
const tokensKey = (userId: number | undefined) => [...KEY, 'tokens', userId] as const;
const issuerKey = (tokenId: number) => [...KEY, 'issuer', tokenId] as const;
const linesKey = (tokenId: number) => [...KEY, 'lines', tokenId] as const;

/** The server's own sentence for a 4xx (or 502/503: the ledger), when it wrote one for people. */
export function reasonOf(err: unknown): string | undefined {
  if (!(err instanceof ApiError) || !err.message || err.message.startsWith('No API route')) return undefined;
  const readable = (err.status >= 400 && err.status < 500) || err.status === 502 || err.status === 503;
  return readable ? err.message : undefined;
}

/** The spec's §8 sentence as the title, the server's reason (what the ledger allows) under it. */
export function toastFailure(fallback: string, err: unknown): void {
  toast.error(fallback, { description: reasonOf(err) });
}

export function useUserTokens(userId: number | undefined) {
  return useQuery({
    queryKey: tokensKey(userId),
    queryFn: async ({ signal }) =>
      (await apiGet<UserTokensResponse>(`/api/dashboard/user-tokens/${userId}`, { signal })).tokens,
    enabled: userId !== undefined,
  });
}

export function useIssuerWallet(tokenId: number) {
  return useQuery({
    queryKey: issuerKey(tokenId),
    queryFn: ({ signal }) =>
      apiGet<IssuerWalletResponse>(`/api/dashboard/issuer-wallet/${tokenId}`, { signal }),
    retry: 1,
  });
}

export function useTrustLines(tokenId: number) {
  return useQuery({
    queryKey: linesKey(tokenId),
    queryFn: ({ signal }) => apiGet<TrustLinesResponse>(`/api/dashboard/trust-lines/${tokenId}`, { signal }),
    retry: 1,
  });
}

/** The caller's own wallet addresses: the only holders whose limit the dashboard can set. */
export function useOwnAddresses() {
  return useQuery({
    queryKey: [...KEY, 'own-wallets'],
    queryFn: async ({ signal }) => {
      const res = await apiGet<{ wallets: Array<{ wallet_address: string }> }>('/api/wallets', { signal });
      return new Set(res.wallets.map((w) => w.wallet_address));
    },
  });
}

/** Fetches the token list, the issuer and its lines again after a write. */
function useRefresh(tokenId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [...KEY, 'tokens'] }),
      queryClient.invalidateQueries({ queryKey: issuerKey(tokenId) }),
      queryClient.invalidateQueries({ queryKey: linesKey(tokenId) }),
    ]);
}

/**
 * One dashboard write: `fallback` is the spec's §8 message for it (toasted with the server's reason
 * unless the caller shows the error itself), `done` the success toast.
 */
export function useDashboardWrite<V>(
  tokenId: number,
  call: (vars: V) => Promise<DashboardWriteResponse | SyncTrustLinesResponse>,
  opts: { fallback: string; done: (vars: V) => string; toastErrors?: boolean },
) {
  const refresh = useRefresh(tokenId);
  return useMutation({
    mutationFn: call,
    onSuccess: async (_res, vars) => {
      toast.success(opts.done(vars));
      await refresh();
    },
    onError: (err) => {
      if (opts.toastErrors !== false) toastFailure(opts.fallback, err);
    },
  });
}

export const dashboardCalls = {
  freeze: (tokenId: number, body: { accountAddress: string; currency: string; freeze: boolean }) =>
    apiPost<DashboardWriteResponse>(`/api/dashboard/trust-lines/${tokenId}/freeze`, body),
  authorize: (tokenId: number, accountAddress: string) =>
    apiPost<DashboardWriteResponse>(`/api/dashboard/trust-lines/${tokenId}/authorize`, {
      accountAddress,
      authorized: true,
    }),
  sync: (tokenId: number, body: { issuerAddress: string; currency: string }) =>
    apiPost<SyncTrustLinesResponse>(`/api/dashboard/sync-trust-lines/${tokenId}`, body),
  setLimit: (body: { issuerAddress: string; holderAddress: string; currency: string; limitAmount: string }) =>
    apiPost<DashboardWriteResponse>('/api/dashboard/set-trust-line-limit', body),
  blackhole: (tokenId: number) =>
    apiPost<DashboardWriteResponse>(`/api/dashboard/blackhole-issuer/${tokenId}`),
  disableRequireAuth: (tokenId: number) =>
    apiPost<DashboardWriteResponse>(`/api/dashboard/disable-require-auth/${tokenId}`),
};

/** Digits grouped for reading; anything that is not a plain decimal is shown as the ledger wrote it. */
export function groupDigits(text: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  const [whole = '0', frac] = text.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac ? `${grouped}.${frac}` : grouped;
}

export const shortAddress = (a: string) => (a.length > 14 ? `${a.slice(0, 6)}…${a.slice(-6)}` : a);
