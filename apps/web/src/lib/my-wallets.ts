import { useQuery } from '@tanstack/react-query';
import type { WalletSummary } from '@ledgerpad/shared';
import { apiGet } from './api';
import { walletKeys } from './query-keys';

/**
 * The signed-in user's wallets (GET /api/wallets): where a reward or referral claim can be paid, and
 * the addresses a reward split offers first.
 */
export function useMyWallets(enabled = true) {
  return useQuery({
    queryKey: walletKeys.mine(),
    queryFn: async ({ signal }) =>
      (await apiGet<{ wallets: WalletSummary[] }>('/api/wallets', { signal })).wallets,
    enabled,
  });
}
