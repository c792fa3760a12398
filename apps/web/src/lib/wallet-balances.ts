import { useQuery } from '@tanstack/react-query';
import {
  shortAddress,
  walletBalanceSchema,
  walletKindLabel,
  type WalletApp,
  type WalletBalance,
  type WalletKind,
} from '@ledgerpad/shared';
import { apiPost } from './api';
import { walletKeys } from './query-keys';

// The signed-in user's wallets with their ledger balances (POST /api/wallets/balances): one query,
// shared by the Wallets page and the Swap screen.

/** Balances refresh on their own now and then: payments can arrive from outside the app. */
const BALANCES_REFRESH_MS = 30_000;

export function useWalletBalances(enabled = true, parseError = 'Invalid API response') {
  return useQuery({
    queryKey: walletKeys.balances(),
    queryFn: async ({ signal }): Promise<WalletBalance[]> => {
      const parsed = walletBalanceSchema
        .array()
        .safeParse(await apiPost('/api/wallets/balances', {}, { signal }));
      if (!parsed.success) throw new Error(parseError);
      return parsed.data;
    },
    enabled,
    refetchInterval: BALANCES_REFRESH_MS,
    retry: 1,
  });
}

/**
 * How lists name a wallet: its name with the short address, or the short address, and who signs
 * for it when known ('Main (rAbCdE…WxYz) · Browser key'): every picker says which wallets the
 * server signs for and which sign in the browser or a wallet app (docs/self-custody.md).
 */
export function walletLabel(w: {
  wallet_address: string;
  wallet_name?: string | null;
  kind?: WalletKind;
  wallet_app?: WalletApp | null;
}): string {
  const name = w.wallet_name
    ? `${w.wallet_name} (${shortAddress(w.wallet_address)})`
    : shortAddress(w.wallet_address);
  return w.kind ? `${name} · ${walletKindLabel(w.kind, w.wallet_app)}` : name;
}
