import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type {
  DashboardWriteResponse,
  IssuerWalletResponse,
  SyncTrustLinesResponse,
  TrustLinesResponse,
  UserTokensResponse,
} from '@ledgerpad/shared';
import { formatFull, shortAddress as shortenAddress } from '@ledgerpad/shared';
import { apiGet, apiGetAllPages, apiPost, userMessage } from '../../lib/api';
import { runSigned, type SigningWallet } from '../../lib/signer';
import { useLedgerMutation } from '../../lib/ledger-mutation';

// Server state of the dashboard (spec 001 §7 "Dashboard and rewards"). What the issuer and its
// lines look like is read from the ledger by the server on every fetch; after a write the affected
// queries are fetched again, so the page shows the ledger, never a guess.

const KEY = ['dashboard'] as const;
const tokensKey = (userId: number | undefined) => [...KEY, 'tokens', userId] as const;
const issuerKey = (tokenId: number) => [...KEY, 'issuer', tokenId] as const;
const linesKey = (tokenId: number) => [...KEY, 'lines', tokenId] as const;

/** The spec's §8 sentence as the title, the server's reason (what the ledger allows) under it. */
function toastFailure(fallback: string, err: unknown): void {
  toast.error(fallback, { description: userMessage(err) });
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
    // A token's holders are paged (docs/paging.md): every page, joined.
    queryFn: ({ signal }) =>
      apiGetAllPages<TrustLinesResponse, TrustLinesResponse['trustLines'][number]>(
        `/api/dashboard/trust-lines/${tokenId}`,
        (page) => page.trustLines,
        (first, trustLines) => ({ ...first, trustLines }),
        { signal },
      ),
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
 * unless the caller shows the error itself), `done` the success toast. Each click is one action with
 * one Idempotency-Key (the same on a retry after an unknown outcome); a second click while it runs
 * sends nothing. `confirmed` re-reads the ledger after a failure: an irreversible action that did
 * happen (blackhole, disabling RequireAuth) is reported as done, never as failed.
 */
export function useDashboardWrite<V>(
  tokenId: number,
  call: (vars: V, idempotencyKey: string) => Promise<DashboardWriteResponse | SyncTrustLinesResponse>,
  opts: {
    fallback: string;
    done: (vars: V) => string;
    toastErrors?: boolean;
    confirmed?: () => Promise<boolean>;
  },
) {
  const refresh = useRefresh(tokenId);
  return useLedgerMutation(async (vars: V, key) => {
    try {
      const res = await call(vars, key());
      await refresh();
      toast.success(opts.done(vars));
      return res;
    } catch (err) {
      await refresh();
      if (opts.confirmed && (await opts.confirmed().catch(() => false))) {
        toast.success(opts.done(vars));
        return { success: true } as DashboardWriteResponse;
      }
      if (opts.toastErrors !== false) toastFailure(opts.fallback, err);
      throw err;
    }
  });
}

/** The issuer's state as the ledger has it now (after a write: was it done?). */
export function useIssuerNow(tokenId: number) {
  const queryClient = useQueryClient();
  return () =>
    queryClient.fetchQuery({
      queryKey: issuerKey(tokenId),
      queryFn: ({ signal }) =>
        apiGet<IssuerWalletResponse>(`/api/dashboard/issuer-wallet/${tokenId}`, { signal }),
      staleTime: 0,
    });
}

/** The dashboard's writes; each carries its action's Idempotency-Key. */
export const dashboardCalls = {
  freeze: (
    tokenId: number,
    body: { accountAddress: string; currency: string; freeze: boolean },
    idempotencyKey: string,
  ) =>
    apiPost<DashboardWriteResponse>(`/api/dashboard/trust-lines/${tokenId}/freeze`, body, { idempotencyKey }),
  authorize: (tokenId: number, accountAddress: string, idempotencyKey: string) =>
    apiPost<DashboardWriteResponse>(
      `/api/dashboard/trust-lines/${tokenId}/authorize`,
      { accountAddress, authorized: true },
      { idempotencyKey },
    ),
  sync: (tokenId: number, body: { issuerAddress: string; currency: string }, idempotencyKey: string) =>
    apiPost<SyncTrustLinesResponse>(`/api/dashboard/sync-trust-lines/${tokenId}`, body, { idempotencyKey }),
  /** The holder signs its own TrustSet: on the server (custodial) or in the browser / its app. */
  setLimit: (
    body: { issuerAddress: string; holderAddress: string; currency: string; limitAmount: string },
    idempotencyKey: string,
    holder: SigningWallet,
  ) =>
    runSigned<DashboardWriteResponse>(
      holder,
      () => apiPost('/api/dashboard/set-trust-line-limit', body, { idempotencyKey }),
      `${idempotencyKey}.signed`,
    ),
  blackhole: (tokenId: number, idempotencyKey: string) =>
    apiPost<DashboardWriteResponse>(`/api/dashboard/blackhole-issuer/${tokenId}`, {}, { idempotencyKey }),
  disableRequireAuth: (tokenId: number, idempotencyKey: string) =>
    apiPost<DashboardWriteResponse>(`/api/dashboard/disable-require-auth/${tokenId}`, {}, { idempotencyKey }),
};

/** A token amount as the ledger wrote it, grouped for reading (the one number format). */
export function groupDigits(text: string): string {
  return /^-?\d+(\.\d+)?$/.test(text) ? formatFull(text) : text;
}

export const shortAddress = (a: string) => shortenAddress(a);
