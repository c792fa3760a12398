// The /referrals page's query keys; a claim refreshes everything under `all`.

export const referralKeys = {
  all: () => ['referrals'] as const,
  summary: () => [...referralKeys.all(), 'me'] as const,
  claims: () => [...referralKeys.all(), 'claims'] as const,
  earnings: () => [...referralKeys.all(), 'earnings'] as const,
};
