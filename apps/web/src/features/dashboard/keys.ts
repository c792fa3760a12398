// The dashboard's query keys. After a write the dashboard refreshes by these prefixes: the token
// list (`tokens`), the issuer and its lines, the rewards (`rewards`), the vesting schedule.

export const dashboardKeys = {
  all: () => ['dashboard'] as const,
  /** Every user's token list (the prefix of `tokensOf`). */
  tokens: () => [...dashboardKeys.all(), 'tokens'] as const,
  tokensOf: (userId: number | undefined) => [...dashboardKeys.tokens(), userId] as const,
  issuer: (tokenId: number) => [...dashboardKeys.all(), 'issuer', tokenId] as const,
  lines: (tokenId: number) => [...dashboardKeys.all(), 'lines', tokenId] as const,
  ownWallets: () => [...dashboardKeys.all(), 'own-wallets'] as const,
  vesting: () => [...dashboardKeys.all(), 'vesting'] as const,
  /** A self-custody deploy's Checks still waiting for its wallet (first buy, dev allocation). */
  deployClaim: (tokenId: number) => [...dashboardKeys.all(), 'deploy-claim', tokenId] as const,
  lostControl: (userId: number | undefined) => [...dashboardKeys.all(), 'lost-control', userId] as const,
  /** Every reward read (totals, splits, payouts): a claim refreshes them all. */
  rewards: () => [...dashboardKeys.all(), 'rewards'] as const,
  rewardSummary: () => [...dashboardKeys.rewards(), 'summary'] as const,
  rewardClaimTotals: () => [...dashboardKeys.rewards(), 'claim-totals'] as const,
  rewardSplit: (tokenId: number) => [...dashboardKeys.rewards(), 'split', tokenId] as const,
  rewardPayouts: (tokenId: number) => [...dashboardKeys.rewards(), 'payouts', tokenId] as const,
};
