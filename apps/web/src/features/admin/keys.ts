import { adminKeys as session } from '../../lib/query-keys';

// The /admin page's query keys, all under the session's admin key (dropped at every sign-in and
// sign-out). A query, its invalidations and its setQueryData take their key from here.

export const adminKeys = {
  all: session.all,
  rewards: () => [...session.all(), 'rewards'] as const,
  referrals: () => [...session.all(), 'referrals'] as const,
  feeConfig: () => [...session.all(), 'fee-config'] as const,
  platformConfig: () => [...session.all(), 'platform-config'] as const,
  /** Every search of the fee overrides (the prefix of `feeOverridesFor`). */
  feeOverrides: () => [...session.all(), 'fee-overrides'] as const,
  feeOverridesFor: (search: string) => [...adminKeys.feeOverrides(), search] as const,
  admins: () => [...session.all(), 'admins'] as const,
  walletOverview: () => [...session.all(), 'wallet-overview'] as const,
  allWallets: () => [...session.all(), 'all-wallets'] as const,
  /** Every page of the audit log (the prefix of `auditPage`). */
  audit: () => [...session.all(), 'audit'] as const,
  auditPage: (page: number) => [...adminKeys.audit(), page] as const,
  /** The staged deploy wallets, both views (the prefix of `stagedWalletsOf`). */
  stagedWallets: () => [...session.all(), 'staged-wallets'] as const,
  stagedWalletsOf: (all: boolean) => [...adminKeys.stagedWallets(), all] as const,
  stagedBalances: () => [...session.all(), 'staged-balances'] as const,
  tokens: () => [...session.all(), 'tokens'] as const,
};
