// The positions page's query keys: one entry per user (0 before the session is known).

export const positionKeys = {
  all: () => ['positions'] as const,
  of: (userId: number | undefined) => [...positionKeys.all(), userId ?? 0] as const,
};
