// The airdrop pages' query keys.

export const airdropKeys = {
  /** The public board, for every user (the prefix a claim or a new airdrop refreshes). */
  all: () => ['airdrops'] as const,
  /** Keyed by user so a sign-in re-reads has_claimed. */
  board: (userId: number | undefined) => [...airdropKeys.all(), userId ?? 0] as const,
  allocations: (walletId: string, tokenCode: string | undefined, issuer: string | undefined) =>
    ['airdrop-allocations', walletId, tokenCode, issuer] as const,
};
