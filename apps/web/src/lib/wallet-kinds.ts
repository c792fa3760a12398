import { useQuery } from '@tanstack/react-query';
import { walletListResponseSchema, type WalletApp, type WalletKind } from '@ledgerpad/shared';
import { apiGetAllPages } from './api';
import { walletKeys } from './query-keys';

// Who signs for each of the user's wallets, and its name, by address: screens whose own answers name wallets by
// address only (positions, burner, orders) label them with it (docs/self-custody.md).

export type WalletKinds = Map<string, { kind?: WalletKind; app?: WalletApp | null; name?: string | null }>;

export function useWalletKinds(enabled = true): WalletKinds {
  const { data } = useQuery({
    queryKey: walletKeys.kinds(),
    queryFn: async ({ signal }) =>
      walletListResponseSchema.parse(
        await apiGetAllPages(
          '/api/wallets',
          (page: { wallets: unknown[] }) => page.wallets,
          (first, all) => ({ ...first, wallets: all }),
          { signal },
        ),
      ).wallets,
    enabled,
    staleTime: 60_000,
  });
  return new Map(
    (data ?? []).map((w) => [w.wallet_address, { kind: w.kind, app: w.wallet_app, name: w.wallet_name }]),
  );
}
