import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLedgerMutation } from '../../lib/ledger-mutation';
import type {
  ClaimRewardsRequest,
  ClaimRewardsResult,
  RewardClaimTotal,
  RewardPayoutView,
  RewardSplitUpdate,
  RewardSplitView,
  RewardSummaryRow,
  TokenView,
} from '@ledgerpad/shared';
import { apiGet, apiGetAll, apiPost, hasStatus } from '../../lib/api';
import { useMyWallets } from '../../lib/my-wallets';

// Creator rewards of the dashboard (spec 001 §7 "Dashboard and rewards"): the earned and claimed
// totals of the user's tokens, their wallets (the claim's destinations) and the claim itself.
// A 404 on the rewards endpoints is ignored: the token row's own totals stand in.

const KEY = ['dashboard', 'rewards'] as const;

/** A read whose 404 means "not available here": no data instead of an error. */
async function orNothing<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (hasStatus(err, 404)) return null;
    throw err;
  }
}

export interface RewardTotals {
  totalReward: string;
  totalClaimed: string;
  currency: string;
}

/** The selected token's totals: the rewards endpoints when they answer, else the token row. */
export function useRewardTotals(token: TokenView): RewardTotals {
  const summary = useQuery({
    queryKey: [...KEY, 'summary'],
    queryFn: ({ signal }) => orNothing(apiGet<RewardSummaryRow[]>('/api/rewards/summary', { signal })),
    retry: false,
  });
  const claimed = useQuery({
    queryKey: [...KEY, 'claim-totals'],
    queryFn: ({ signal }) => orNothing(apiGet<RewardClaimTotal[]>('/api/rewards/claim-totals', { signal })),
    retry: false,
  });
  const s = summary.data?.find((r) => r.id === token.id);
  const c = claimed.data?.find((r) => r.token_id === token.id);
  return {
    totalReward: s?.total_reward ?? token.total_reward,
    totalClaimed: c?.total_claimed ?? token.total_claimed,
    currency: s?.reward_currency ?? token.reward_currency,
  };
}

/** The user's wallets, the places a claim can be paid to. */
export const useClaimWallets = (enabled: boolean) => useMyWallets(enabled);

/** A claim, with one Idempotency-Key per claim: a retried request never pays twice. */
export function useClaimRewards() {
  const queryClient = useQueryClient();
  return useLedgerMutation(
    (body: ClaimRewardsRequest, key) =>
      apiPost<ClaimRewardsResult>('/api/claim-rewards', body, { idempotencyKey: key() }),
    {
      // Claimed or not, the totals moved (a failed claim's reservation is given back): read them again.
      onSettled: () => {
        void queryClient.invalidateQueries({ queryKey: KEY });
        void queryClient.invalidateQueries({ queryKey: ['dashboard', 'tokens'] });
      },
    },
  );
}

const splitKey = (tokenId: number) => [...KEY, 'split', tokenId] as const;
const payoutsKey = (tokenId: number) => [...KEY, 'payouts', tokenId] as const;

/** The token's reward split (public on the server) and its change history. */
export function useRewardSplit(tokenId: number) {
  return useQuery({
    queryKey: splitKey(tokenId),
    queryFn: ({ signal }) => apiGet<RewardSplitView>(`/api/rewards/splits/${tokenId}`, { signal }),
  });
}

/** Saves the whole split (an empty list removes it); the split and the claim's view are read again. */
export function useSaveRewardSplit(tokenId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RewardSplitUpdate) => apiPost<RewardSplitView>(`/api/rewards/splits/${tokenId}`, body),
    onSuccess: (view) => queryClient.setQueryData(splitKey(tokenId), view),
  });
}

/** Every payment of the token's claims, newest first (recipient, amount, transaction, time). */
export function useRewardPayouts(tokenId: number) {
  return useQuery({
    queryKey: payoutsKey(tokenId),
    queryFn: ({ signal }) =>
      apiGetAll<RewardPayoutView>(`/api/rewards/payouts?token_id=${tokenId}`, { signal }),
  });
}
