import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  trustlinesResponseSchema,
  walletListResponseSchema,
  xrplStatusSchema,
  XRPL_STATUS_POLL_MS,
  type Trustline,
  type WalletSummary,
} from '@ledgerpad/shared';
import { apiGet } from '../../lib/api';
import { useWalletBalances as useSharedWalletBalances } from '../../lib/wallet-balances';
import { useLedgerNetwork } from '../../lib/auth-methods';
import { walletPageKeys } from './keys';
import { MESSAGES } from './messages';

// Server state of the Wallets page. Wallet records (GET /api/wallets) work without the ledger;
// balances need it. Keeping them apart lets the cards show even when the ledger is down.

interface Schema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

/** A response of the wrong shape is the spec's 'Invalid API response', not a crash further down. */
function parsed<T>(schema: Schema<T>, data: unknown): T {
  const result = schema.safeParse(data);
  if (!result.success) throw new Error(MESSAGES.invalidResponse);
  return result.data;
}

export function useWalletList() {
  return useQuery({
    queryKey: walletPageKeys.list(),
    queryFn: async ({ signal }): Promise<WalletSummary[]> =>
      parsed(walletListResponseSchema, await apiGet('/api/wallets', { signal })).wallets,
  });
}

export function useWalletBalances(enabled: boolean) {
  return useSharedWalletBalances(enabled, MESSAGES.invalidResponse);
}

/** Refetches the wallet list and every balance (after a create, import, transfer, fund, removal). */
export function useRefreshWallets() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: walletPageKeys.list() }), [queryClient]);
}

/** Polled every second on this page (spec §4); a failed poll reads as disconnected. */
export function useXrplStatus() {
  return useQuery({
    queryKey: walletPageKeys.xrplStatus(),
    queryFn: async ({ signal }) => {
      try {
        return parsed(xrplStatusSchema, await apiGet('/api/wallets/xrpl/status', { signal })).connected;
      } catch (err) {
        if ((err as Error).name === 'AbortError') throw err;
        return false;
      }
    },
    refetchInterval: XRPL_STATUS_POLL_MS,
    retry: false,
  });
}

/** The embedded (stand-alone) ledger: the one with an RLUSD faucet. */
export function useEmbeddedLedger(): boolean {
  return useLedgerNetwork() === 'standalone';
}

export { useLedgerNetwork };

/** A wallet's trust lines with their limits (the Set limit modal shows the current one). */
export function useTrustlines(walletId: number | undefined) {
  return useQuery({
    queryKey: walletPageKeys.trustlines(walletId),
    queryFn: async ({ signal }): Promise<Trustline[]> =>
      parsed(trustlinesResponseSchema, await apiGet(`/api/wallets/${walletId}/trustlines`, { signal }))
        .trustlines,
    enabled: walletId !== undefined,
    staleTime: 0,
  });
}
