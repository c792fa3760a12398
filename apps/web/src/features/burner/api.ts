import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BURN_MESSAGES,
  burnResultSchema,
  burnWalletsResponseSchema,
  type BurnRequest,
  type BurnResult,
  type BurnWallet,
} from '@ledgerpad/shared';
import { apiGet, apiPost } from '../../lib/api';
import { useLedgerMutation } from '../../lib/ledger-mutation';
import { runSigned, type SigningWallet } from '../../lib/signer';
import { burnerKeys } from './keys';

// Server state of the burner: the user's wallets with the tokens they hold, and the burn itself.

export function useBurnWallets(userId: number | undefined) {
  return useQuery({
    queryKey: burnerKeys.walletsOf(userId),
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

/** A burn, with one Idempotency-Key per burn: a retry of the same burn can never burn twice. */
export function useBurn() {
  const queryClient = useQueryClient();
  return useLedgerMutation(
    async ({ body, wallet }: { body: BurnRequest; wallet: SigningWallet }, key): Promise<BurnResult> => {
      // A self-custody wallet signs the payment to the issuer itself (lib/signer).
      const answer = await runSigned(
        wallet,
        () => apiPost('/api/burn/burn', body, { idempotencyKey: key() }),
        key('signed'),
      );
      const parsed = burnResultSchema.safeParse(answer);
      if (!parsed.success) throw new Error(BURN_MESSAGES.burnFailed);
      return parsed.data;
    },
    // Balances changed on the ledger: reload the wallet list (the page re-finds its selection in it).
    { onSettled: () => void queryClient.invalidateQueries({ queryKey: burnerKeys.wallets() }) },
  );
}
