import { useQuery } from '@tanstack/react-query';
import type {
  AdminView,
  AdminWalletRow,
  AuditPage,
  FeeConfigView,
  FeeOverrideView,
  PlatformConfigEntry,
  PlatformConfigKey,
  ReferralsOverview,
  RefundResult,
  RewardsOverviewRow,
  StagedWalletBalance,
  StagedWalletView,
  TokenView,
  WalletOverview,
} from '@ledgerpad/shared';
import { apiGet, apiGetAll, apiPost } from '../../lib/api';
import { adminKeys } from './keys';

// Server state of the /admin page (spec 001 §2 Admin, §8). Every call is admin-only on the server;
// the page asks for nothing but the credential check until that check says yes.

export interface AllWallets {
  user_wallets: AdminWalletRow[];
  platform_wallets: AdminWalletRow[];
}

export const useRewardsOverview = () =>
  useQuery({
    queryKey: adminKeys.rewards(),
    queryFn: ({ signal }) => apiGet<RewardsOverviewRow[]>('/api/admin/rewards-overview', { signal }),
  });

export const useReferralsOverview = () =>
  useQuery({
    queryKey: adminKeys.referrals(),
    queryFn: ({ signal }) => apiGet<ReferralsOverview>('/api/admin/referrals', { signal }),
  });

export const useFeeConfig = () =>
  useQuery({
    queryKey: adminKeys.feeConfig(),
    queryFn: ({ signal }) => apiGet<FeeConfigView>('/api/admin/fee-config', { signal }),
  });

export const usePlatformConfig = () =>
  useQuery({
    queryKey: adminKeys.platformConfig(),
    queryFn: ({ signal }) => apiGet<PlatformConfigEntry[]>('/api/admin/platform-config', { signal }),
  });

export const useFeeOverrides = (search: string) =>
  useQuery({
    queryKey: adminKeys.feeOverridesFor(search),
    queryFn: ({ signal }) =>
      apiGet<FeeOverrideView[]>(
        `/api/admin/fee-overrides${search ? `?search=${encodeURIComponent(search)}` : ''}`,
        { signal },
      ),
    placeholderData: (prev) => prev,
  });

export const useAdmins = () =>
  useQuery({
    queryKey: adminKeys.admins(),
    queryFn: ({ signal }) => apiGet<AdminView[]>('/api/admin/admins', { signal }),
  });

export const useWalletOverview = () =>
  useQuery({
    queryKey: adminKeys.walletOverview(),
    queryFn: ({ signal }) => apiGet<WalletOverview>('/api/admin/wallet-overview', { signal }),
  });

export const useAllWallets = () =>
  useQuery({
    queryKey: adminKeys.allWallets(),
    queryFn: ({ signal }) => apiGet<AllWallets>('/api/admin/all-wallets', { signal }),
  });

export const useAudit = (page: number) =>
  useQuery({
    queryKey: adminKeys.auditPage(page),
    queryFn: ({ signal }) => apiGet<AuditPage>(`/api/admin/audit?page=${page}`, { signal }),
    placeholderData: (prev) => prev,
  });

export const updateFeeConfig = (fee_percentage: string) =>
  apiPost<FeeConfigView>('/api/admin/fee-config/update', { fee_percentage });

export const updatePlatformConfig = (settings: Partial<Record<PlatformConfigKey, string>>) =>
  apiPost<PlatformConfigEntry[]>('/api/admin/platform-config/update', { settings });

export const updateFeeOverride = (userId: number, custom_fee_percentage: string | null) =>
  apiPost<FeeOverrideView>('/api/admin/fee-overrides/update', { userId, custom_fee_percentage });

export const addAdmin = (userId: number) => apiPost<AdminView[]>('/api/admin/admins/add', { userId });
export const removeAdmin = (userId: number) => apiPost<AdminView[]>('/api/admin/admins/remove', { userId });

export const useStagedWallets = (all: boolean) =>
  useQuery({
    queryKey: adminKeys.stagedWalletsOf(all),
    queryFn: ({ signal }) =>
      apiGetAll<StagedWalletView>(`/api/admin/staged-wallets${all ? '?all=true' : ''}`, { signal }),
    placeholderData: (prev) => prev,
  });

export const useStagedBalances = () =>
  useQuery({
    queryKey: adminKeys.stagedBalances(),
    queryFn: ({ signal }) =>
      apiGet<Record<string, StagedWalletBalance>>('/api/admin/staged-wallets/balances', { signal }),
  });

export interface RefundRequest {
  wallet_id: number;
  destination_address: string;
  type: RefundResult['type'];
}

/** POST /api/admin/refund; the key makes a retried request the same refund, never a second one. */
export const refund = (body: RefundRequest, idempotencyKey: string) =>
  apiPost<RefundResult>('/api/admin/refund', body, { headers: { 'Idempotency-Key': idempotencyKey } });

/** The listed tokens, from the public list (what visitors see on /). */
export const useListedTokens = () =>
  useQuery({
    queryKey: adminKeys.tokens(),
    // Every listing, hidden ones included (issue 24: the Tokens tab edits, verifies and hides any).
    queryFn: ({ signal }) => apiGetAll<TokenView>('/api/admin/tokens', { signal }),
  });
