import { useQuery } from '@tanstack/react-query';
import { parseXrpDrops, type FeesConfig, type LedgerReserves } from '@ledgerpad/shared';
import { apiGet } from './api';
import { configKeys } from './query-keys';

// GET /api/config/fees: the platform's current fees (what the admin set: the home page, the deploy
// notice, the terms and the swap screen show these, never constants) and the ledger's reserves.

export function usePlatformFees() {
  return useQuery({
    queryKey: configKeys.fees(),
    queryFn: ({ signal }) => apiGet<FeesConfig>('/api/config/fees', { signal, credentials: false }),
    staleTime: 60_000,
  });
}

/** The ledger's fee and reserve figures in drops (the shared money layer's shape), once known. */
export function ledgerReserves(fees: FeesConfig | undefined): LedgerReserves | undefined {
  if (!fees?.base_reserve || !fees.base_fee) return undefined;
  const reserveBase = parseXrpDrops(fees.base_reserve);
  const reserveIncrement = parseXrpDrops(fees.owner_reserve);
  const baseFee = parseXrpDrops(fees.base_fee);
  if (reserveBase === undefined || reserveIncrement === undefined || baseFee === undefined) return undefined;
  return { reserveBase, reserveIncrement, baseFee };
}
