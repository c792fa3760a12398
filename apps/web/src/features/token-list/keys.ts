// The home page's own query keys (the token list itself is shared: `listedTokenKeys` in lib).

export const homeKeys = {
  demoStatus: () => ['demo-status'] as const,
};
