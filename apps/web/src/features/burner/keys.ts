// The burner's query keys: the user's wallets with what they hold (refreshed after every burn).

export const burnerKeys = {
  /** Every user's list (the prefix a burn refreshes). */
  wallets: () => ['burn-wallets'] as const,
  walletsOf: (userId: number | undefined) => [...burnerKeys.wallets(), userId ?? 0] as const,
};
