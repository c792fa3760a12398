// The swap screen's query keys. Every pool read of the Liquidity tab sits under `liquidity`: a
// deposit, withdrawal, vote or bid refreshes them all.

export const swapKeys = {
  search: (query: string) => ['swap', 'search', query] as const,
  // The inputs' types live with the calls (api.ts); any value stands for them here.
  quote: <I>(input: I) => ['swap', 'quote', input] as const,
  batchQuote: <I>(input: I) => ['swap', 'batch-quote', input] as const,
  stats: (issuer: string | null, currency: string | null) => ['swap', 'stats', issuer, currency] as const,
  slippage: (prefId: string | null) => ['swap', 'slippage', prefId] as const,
};

type Base = 'XRP' | 'RLUSD';

export const liquidityKeys = {
  all: () => ['liquidity'] as const,
  /** The auction slot of every pool (the prefix a failed bid refreshes). */
  auctions: () => [...liquidityKeys.all(), 'auction'] as const,
  auction: (issuer: string | undefined, code: string | undefined, base: Base) =>
    [...liquidityKeys.auctions(), issuer, code, base] as const,
  position: (
    wallet: string | undefined,
    issuer: string | undefined,
    code: string | undefined,
    base: Base,
    lpBalance: string,
  ) => [...liquidityKeys.all(), 'position', wallet, issuer, code, base, lpBalance] as const,
  lpBalance: (
    address: string | undefined,
    issuer: string | undefined,
    code: string | undefined,
    base: Base,
  ) => [...liquidityKeys.all(), 'lp-balance', address, issuer, code, base] as const,
  lpPrice: <D>(
    issuer: string | undefined,
    code: string | undefined,
    base: Base,
    amountLp: string,
    deposit: D,
  ) => [...liquidityKeys.all(), 'lp-price', issuer, code, base, amountLp, deposit] as const,
};
