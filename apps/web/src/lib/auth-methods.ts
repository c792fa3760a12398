import { useQuery } from '@tanstack/react-query';
import type { AuthMethods } from '@ledgerpad/shared';
import { apiGet } from './api';
import { configKeys } from './query-keys';

/**
 * The public sign-in methods call (GET /api/auth/methods): one cached query for the login box, the
 * card on-ramp, the faucet buttons and the transaction links.
 */
const authMethodsQuery = {
  queryKey: configKeys.authMethods(),
  queryFn: () => apiGet<AuthMethods>('/api/auth/methods', { credentials: false }),
  staleTime: Infinity,
} as const;

export const useAuthMethods = () => useQuery(authMethodsQuery);

export type LedgerNetwork = AuthMethods['network'];

/** The server's ledger network (undefined while loading). */
export const useLedgerNetwork = (): LedgerNetwork | undefined => useAuthMethods().data?.network;

const EXPLORERS: Record<LedgerNetwork, string | null> = {
  mainnet: 'https://livenet.xrpl.org',
  testnet: 'https://testnet.xrpl.org',
  // The embedded stand-alone ledger has no public explorer.
  standalone: null,
};

/** A transaction's page on the network's public explorer; null when there is none. */
export function explorerTxUrl(network: LedgerNetwork | undefined, hash: string): string | null {
  const base = network ? EXPLORERS[network] : null;
  return base ? `${base}/transactions/${hash}` : null;
}
