import { walletKeys } from '../../lib/query-keys';

// The Wallets page's query keys. The wallet list is the shared `walletKeys.all()`: refreshing it
// refreshes every wallet read under it (balances, kinds, trust lines).

export const walletPageKeys = {
  list: walletKeys.all,
  trustlines: (walletId: number | undefined) => [...walletKeys.all(), 'trustlines', walletId] as const,
  /** The ledger connection, polled every second on this page. */
  xrplStatus: () => ['xrpl-status'] as const,
};
