import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BURN_MESSAGES,
  burnResultSchema,
  burnWalletsResponseSchema,
  type BurnRequest,
  type BurnResult,
  type BurnWallet,
} from '@ledgerpad/shared';
import { apiGet, apiPost } from '../../lib/api';

// Server state of the burner: the user's wallets with the tokens they hold, and the burn itself.

const BURN_WALLETS_KEY = ['burn-wallets'] as const;

export function useBurnWallets(userId: number | undefined) {
  return useQuery({
    queryKey: [...BURN_WALLETS_KEY, userId ?? 0],
    queryFn: async ({ signal }): Promise<BurnWallet[]> => {
      const parsed = burnWalletsResponseSchema.safeParse(
        await apiGet(`/api/burn/wallets/${userId}`, { signal }),
      );
      if (!parsed.success) throw new Error(BURN_MESSAGES.fetchFailed);
      return parsed.data.wallets;
    },
    enabled: userId !== undefined,
    retry: false,
  });
}

export function useBurn() {
  const queryClient = useQueryClient();
  return useMutation({
    // One key per click: a network retry of the same click can never burn twice.
    mutationFn: async (body: BurnRequest): Promise<BurnResult> => {
      const answer = await apiPost('/api/burn/burn', body, {
        headers: { 'idempotency-key': `burn-${randomKey()}` },
      });
      const parsed = burnResultSchema.safeParse(answer);
      if (!parsed.success) throw new Error(BURN_MESSAGES.burnFailed);
      return parsed.data;
    },
    // Balances changed on the ledger: reload the wallet list (the page re-finds its selection in it).
    onSettled: () => queryClient.invalidateQueries({ queryKey: BURN_WALLETS_KEY }),
  });
}

/** 128 random bits in hex (crypto.randomUUID needs a secure context; plain-http LAN hosts lack it). */
function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
