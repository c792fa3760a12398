import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type Airdrop,
  type AirdropAllocation,
  type ClaimAirdropResult,
  type CreateAirdropRequest,
  type CreateAirdropResult,
} from '@ledgerpad/shared';
import { apiGet, apiPost } from '../../lib/api';
import { useLedgerAction } from '../../lib/ledger-action';
import { runSigned, type SigningWallet } from '../../lib/signer';
import { walletKeys } from '../../lib/query-keys';
import { airdropKeys } from './keys';

// The airdrop pages' calls (docs/airdrops.md): the public board, claims, creation and its job.

/** GET /api/airdrops; keyed by user so a sign-in re-reads has_claimed. */
export function useAirdrops(userId: number | undefined) {
  return useQuery({
    queryKey: airdropKeys.board(userId),
    queryFn: ({ signal }) => apiGet<Airdrop[]>('/api/airdrops', { signal }),
    refetchInterval: 60_000,
  });
}

/** A claim, with one Idempotency-Key per claim (a retried request is the same claim). */
export function useClaim(airdropId: number) {
  const queryClient = useQueryClient();
  return useLedgerAction(async (destination: SigningWallet & { id: number }, key) => {
    try {
      // A self-custody wallet without the token's line signs its TrustSet; the platform pays the claim.
      return await runSigned<ClaimAirdropResult>(
        destination,
        () =>
          apiPost(
            `/api/airdrops/${airdropId}/claim`,
            { destinationWalletId: destination.id },
            { idempotencyKey: key() },
          ),
        key('signed'),
      );
    } finally {
      void queryClient.invalidateQueries({ queryKey: airdropKeys.all() });
      void queryClient.invalidateQueries({ queryKey: walletKeys.balances() });
    }
  });
}

/** What the wallet's live airdrops already hold back of this token. */
export function useAllocated(walletId: string, tokenCode: string | undefined, issuer: string | undefined) {
  return useQuery({
    queryKey: airdropKeys.allocations(walletId, tokenCode, issuer),
    queryFn: ({ signal }) =>
      apiGet<AirdropAllocation>(
        `/api/airdrops/allocations/${encodeURIComponent(walletId)}/${encodeURIComponent(tokenCode!)}/${encodeURIComponent(issuer!)}`,
        { signal },
      ),
    enabled: walletId !== '' && !!tokenCode && !!issuer,
    retry: 1,
  });
}

/**
 * POST /api/airdrops. A self-custody source signs the funding, the fee and the Check of the
 * allocation (one intent, lib/signer); the answer is then the started job, as for a custodial one.
 */
export const createAirdrop = (
  body: CreateAirdropRequest,
  wallet: SigningWallet,
  key: (part?: string) => string,
) =>
  runSigned<CreateAirdropResult>(
    wallet,
    () =>
      apiPost('/api/airdrops', body, {
        signal: AbortSignal.timeout(2 * 60_000),
        idempotencyKey: key(),
      }),
    key('signed'),
  );
