import { useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ReferralClaimRequest,
  ReferralClaimResult,
  ReferralClaimView,
  ReferralEarningView,
  ReferralSummary,
} from '@ledgerpad/shared';
import { apiGet, apiGetAll, apiPost } from '../../lib/api';
import { useLedgerMutation } from '../../lib/ledger-mutation';
import { referralKeys } from './keys';

// Server state of /referrals (docs/referrals.md): the user's code and earnings, their claims and
// accruals, their wallets (where a claim can be paid) and the claim itself.

export const useReferralSummary = () =>
  useQuery({
    queryKey: referralKeys.summary(),
    queryFn: ({ signal }) => apiGet<ReferralSummary>('/api/referrals/me', { signal }),
  });

export const useReferralClaims = () =>
  useQuery({
    queryKey: referralKeys.claims(),
    queryFn: ({ signal }) => apiGetAll<ReferralClaimView>('/api/referrals/claims', { signal }),
  });

export const useReferralEarnings = () =>
  useQuery({
    queryKey: referralKeys.earnings(),
    queryFn: ({ signal }) => apiGetAll<ReferralEarningView>('/api/referrals/earnings', { signal }),
  });

/** A claim with one Idempotency-Key per claim: a retried request never pays twice. */
export function useClaimReferral() {
  const queryClient = useQueryClient();
  return useLedgerMutation(
    (body: ReferralClaimRequest, key) =>
      apiPost<ReferralClaimResult>('/api/referrals/claim', body, { idempotencyKey: key() }),
    // Paid or not, the balances moved (a failed claim's amount is given back): read them again.
    { onSettled: () => void queryClient.invalidateQueries({ queryKey: referralKeys.all() }) },
  );
}
