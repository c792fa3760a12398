import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type {
  ClaimRewardsRequest,
  ClaimRewardsResult,
  ControlLossView,
  DashboardWriteResponse,
  DeployClaimView,
  IssuerWalletResponse,
  RewardClaimTotal,
  RewardPayoutView,
  RewardSplitUpdate,
  RewardSplitView,
  RewardSummaryRow,
  SyncTrustLinesResponse,
  TokenView,
  TrustLinesResponse,
  UserTokensResponse,
  VestingAutoReleaseResult,
  VestingReleaseResult,
  VestingScheduleView,
} from '@ledgerpad/shared';
import { formatFull, shortAddress as shortenAddress } from '@ledgerpad/shared';
import { apiGet, apiGetAll, apiGetAllPages, apiPost, apiPut, hasStatus, userMessage } from '../../lib/api';
import { runSigned, type SigningWallet } from '../../lib/signer';
import { claimAllocation } from '../../lib/dev-allocation';
import { useLedgerMutation } from '../../lib/ledger-mutation';
import { useMyWallets } from '../../lib/my-wallets';
import { dashboardKeys } from './keys';

// Server state of the dashboard (spec 001 §7 "Dashboard and rewards"). What the issuer and its
// lines look like is read from the ledger by the server on every fetch; after a write the affected
// queries are fetched again, so the page shows the ledger, never a guess.

/** The spec's §8 sentence as the title, the server's reason (what the ledger allows) under it. */
function toastFailure(fallback: string, err: unknown): void {
  toast.error(fallback, { description: userMessage(err) });
}

export function useUserTokens(userId: number | undefined) {
  return useQuery({
    queryKey: dashboardKeys.tokensOf(userId),
    queryFn: async ({ signal }) =>
      (await apiGet<UserTokensResponse>(`/api/dashboard/user-tokens/${userId}`, { signal })).tokens,
    enabled: userId !== undefined,
  });
}

export function useIssuerWallet(tokenId: number) {
  return useQuery({
    queryKey: dashboardKeys.issuer(tokenId),
    queryFn: ({ signal }) =>
      apiGet<IssuerWalletResponse>(`/api/dashboard/issuer-wallet/${tokenId}`, { signal }),
    retry: 1,
  });
}

export function useTrustLines(tokenId: number) {
  return useQuery({
    queryKey: dashboardKeys.lines(tokenId),
    // A token's holders are paged (docs/paging.md): every page, joined.
    queryFn: ({ signal }) =>
      apiGetAllPages<TrustLinesResponse, TrustLinesResponse['trustLines'][number]>(
        `/api/dashboard/trust-lines/${tokenId}`,
        (page) => page.trustLines,
        (first, trustLines) => ({ ...first, trustLines }),
        { signal },
      ),
    retry: 1,
  });
}

/** The caller's own wallet addresses: the only holders whose limit the dashboard can set. */
export function useOwnAddresses() {
  return useQuery({
    queryKey: dashboardKeys.ownWallets(),
    queryFn: async ({ signal }) => {
      const res = await apiGet<{ wallets: Array<{ wallet_address: string }> }>('/api/wallets', { signal });
      return new Set(res.wallets.map((w) => w.wallet_address));
    },
  });
}

/** Fetches the token list, the issuer and its lines again after a write. */
function useRefresh(tokenId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: dashboardKeys.tokens() }),
      queryClient.invalidateQueries({ queryKey: dashboardKeys.issuer(tokenId) }),
      queryClient.invalidateQueries({ queryKey: dashboardKeys.lines(tokenId) }),
    ]);
}

/**
 * One dashboard write: `fallback` is the spec's §8 message for it (toasted with the server's reason
 * unless the caller shows the error itself), `done` the success toast. Each click is one action with
 * one Idempotency-Key (the same on a retry after an unknown outcome); a second click while it runs
 * sends nothing. `confirmed` re-reads the ledger after a failure: an irreversible action that did
 * happen (blackhole, disabling RequireAuth) is reported as done, never as failed.
 */
export function useDashboardWrite<V>(
  tokenId: number,
  call: (vars: V, idempotencyKey: string) => Promise<DashboardWriteResponse | SyncTrustLinesResponse>,
  opts: {
    fallback: string;
    done: (vars: V) => string;
    toastErrors?: boolean;
    confirmed?: () => Promise<boolean>;
  },
) {
  const refresh = useRefresh(tokenId);
  return useLedgerMutation(async (vars: V, key) => {
    try {
      const res = await call(vars, key());
      await refresh();
      toast.success(opts.done(vars));
      return res;
    } catch (err) {
      await refresh();
      if (opts.confirmed && (await opts.confirmed().catch(() => false))) {
        toast.success(opts.done(vars));
        return { success: true } as DashboardWriteResponse;
      }
      if (opts.toastErrors !== false) toastFailure(opts.fallback, err);
      throw err;
    }
  });
}

/** The issuer's state as the ledger has it now (after a write: was it done?). */
export function useIssuerNow(tokenId: number) {
  const queryClient = useQueryClient();
  return () =>
    queryClient.fetchQuery({
      queryKey: dashboardKeys.issuer(tokenId),
      queryFn: ({ signal }) =>
        apiGet<IssuerWalletResponse>(`/api/dashboard/issuer-wallet/${tokenId}`, { signal }),
      staleTime: 0,
    });
}

/** The dashboard's writes; each carries its action's Idempotency-Key. */
export const dashboardCalls = {
  freeze: (
    tokenId: number,
    body: { accountAddress: string; currency: string; freeze: boolean },
    idempotencyKey: string,
  ) =>
    apiPost<DashboardWriteResponse>(`/api/dashboard/trust-lines/${tokenId}/freeze`, body, { idempotencyKey }),
  authorize: (tokenId: number, accountAddress: string, idempotencyKey: string) =>
    apiPost<DashboardWriteResponse>(
      `/api/dashboard/trust-lines/${tokenId}/authorize`,
      { accountAddress, authorized: true },
      { idempotencyKey },
    ),
  sync: (tokenId: number, body: { issuerAddress: string; currency: string }, idempotencyKey: string) =>
    apiPost<SyncTrustLinesResponse>(`/api/dashboard/sync-trust-lines/${tokenId}`, body, { idempotencyKey }),
  /** The holder signs its own TrustSet: on the server (custodial) or in the browser / its app. */
  setLimit: (
    body: { issuerAddress: string; holderAddress: string; currency: string; limitAmount: string },
    idempotencyKey: string,
    holder: SigningWallet,
  ) =>
    runSigned<DashboardWriteResponse>(
      holder,
      () => apiPost('/api/dashboard/set-trust-line-limit', body, { idempotencyKey }),
      `${idempotencyKey}.signed`,
    ),
  blackhole: (tokenId: number, idempotencyKey: string) =>
    apiPost<DashboardWriteResponse>(`/api/dashboard/blackhole-issuer/${tokenId}`, {}, { idempotencyKey }),
  disableRequireAuth: (tokenId: number, idempotencyKey: string) =>
    apiPost<DashboardWriteResponse>(`/api/dashboard/disable-require-auth/${tokenId}`, {}, { idempotencyKey }),
};

/** A token amount as the ledger wrote it, grouped for reading (the one number format). */
export function groupDigits(text: string): string {
  return /^-?\d+(\.\d+)?$/.test(text) ? formatFull(text) : text;
}

export const shortAddress = (a: string) => shortenAddress(a);

// Creator rewards of the dashboard (spec 001 §7 "Dashboard and rewards"): the earned and claimed
// totals of the user's tokens, their wallets (the claim's destinations) and the claim itself.
// A 404 on the rewards endpoints is ignored: the token row's own totals stand in.

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
    queryKey: dashboardKeys.rewardSummary(),
    queryFn: ({ signal }) => orNothing(apiGet<RewardSummaryRow[]>('/api/rewards/summary', { signal })),
    retry: false,
  });
  const claimed = useQuery({
    queryKey: dashboardKeys.rewardClaimTotals(),
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
        void queryClient.invalidateQueries({ queryKey: dashboardKeys.rewards() });
        void queryClient.invalidateQueries({ queryKey: dashboardKeys.tokens() });
      },
    },
  );
}

/** The token's reward split (public on the server) and its change history. */
export function useRewardSplit(tokenId: number) {
  return useQuery({
    queryKey: dashboardKeys.rewardSplit(tokenId),
    queryFn: ({ signal }) => apiGet<RewardSplitView>(`/api/rewards/splits/${tokenId}`, { signal }),
  });
}

/** Saves the whole split (an empty list removes it); the split and the claim's view are read again. */
export function useSaveRewardSplit(tokenId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RewardSplitUpdate) => apiPost<RewardSplitView>(`/api/rewards/splits/${tokenId}`, body),
    onSuccess: (view) => queryClient.setQueryData(dashboardKeys.rewardSplit(tokenId), view),
  });
}

/** Every payment of the token's claims, newest first (recipient, amount, transaction, time). */
export function useRewardPayouts(tokenId: number) {
  return useQuery({
    queryKey: dashboardKeys.rewardPayouts(tokenId),
    queryFn: ({ signal }) =>
      apiGetAll<RewardPayoutView>(`/api/rewards/payouts?token_id=${tokenId}`, { signal }),
  });
}

/** The user's vesting schedules (docs/vesting.md); a tranche becomes due with time, so read again now and then. */
export function useVestingSchedule() {
  return useQuery({
    queryKey: dashboardKeys.vesting(),
    queryFn: ({ signal }) => apiGet<VestingScheduleView>('/api/dashboard/vesting', { signal }),
    refetchInterval: 15_000,
  });
}

/** 'Release' on a due tranche (one Idempotency-Key per click); the schedule is read again either way. */
export function useReleaseTranche() {
  const queryClient = useQueryClient();
  return useLedgerMutation(
    (vars: { tokenId: number; escrowSequence: number }, key) =>
      apiPost<VestingReleaseResult>('/api/dashboard/vesting/release', vars, { idempotencyKey: key() }),
    { onSettled: () => void queryClient.invalidateQueries({ queryKey: dashboardKeys.vesting() }) },
  );
}

/** A self-custody creator's unclaimed dev allocation, claimed and locked by its wallet; the schedule read again. */
export function useClaimAllocation() {
  const queryClient = useQueryClient();
  return useLedgerMutation(
    (vars: { jobId: string; wallet: SigningWallet }, key) => claimAllocation(vars.jobId, vars.wallet, key),
    { onSettled: () => void queryClient.invalidateQueries({ queryKey: dashboardKeys.vesting() }) },
  );
}

/**
 * What a self-custody deploy of this token still leaves for its wallet in Checks (the first buy,
 * a dev allocation without vesting), read from the ledger by the server: the dashboard's Claim for
 * a creator who closed the deploy's progress modal without claiming.
 */
export function useDeployClaim(tokenId: number) {
  return useQuery({
    queryKey: dashboardKeys.deployClaim(tokenId),
    queryFn: ({ signal }) => apiGet<DeployClaimView>(`/api/dashboard/deploy-claim/${tokenId}`, { signal }),
  });
}

/** The dashboard's Claim: the deploy modal's very claim (`claimAllocation`); both reads again after. */
export function useClaimDeployChecks(tokenId: number) {
  const queryClient = useQueryClient();
  return useLedgerMutation(
    (vars: { jobId: string; wallet: SigningWallet }, key) => claimAllocation(vars.jobId, vars.wallet, key),
    {
      onSettled: () => {
        void queryClient.invalidateQueries({ queryKey: dashboardKeys.deployClaim(tokenId) });
        void queryClient.invalidateQueries({ queryKey: dashboardKeys.vesting() });
      },
    },
  );
}

/** The 'Release automatically when due' switch of one token: saved, shown at once, then read again. */
export function useSaveAutoRelease(tokenId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      apiPut<VestingAutoReleaseResult>('/api/dashboard/vesting/auto-release', { tokenId, enabled }),
    onSuccess: (r) => {
      queryClient.setQueryData<VestingScheduleView>(dashboardKeys.vesting(), (old) =>
        old
          ? {
              ...old,
              tokens: old.tokens.map((x) =>
                x.tokenId === r.tokenId ? { ...x, autoRelease: r.enabled, autoReleaseError: null } : x,
              ),
            }
          : old,
      );
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.vesting() });
    },
  });
}

/** Listings this user controlled and another user's proof took over (issue 35). */
export function useLostControl(userId: number | undefined) {
  return useQuery({
    queryKey: dashboardKeys.lostControl(userId),
    queryFn: ({ signal }) => apiGet<ControlLossView[]>('/api/listing/lost-control', { signal }),
    enabled: userId !== undefined,
  });
}
