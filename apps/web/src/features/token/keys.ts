// The token page's query keys. The page refreshes by the issuer-wide prefixes (`stats(issuer)`,
// `book(issuer)`, …) after a live trade, reaching every token of the issuer; each read itself is
// keyed by currency too (issue 35: an issuer's two tokens never share a figure).

export const tokenKeys = {
  all: (issuer: string) => ['token', issuer] as const,
  details: (issuer: string) => ['token', issuer, 'details'] as const,
  detailsOf: (issuer: string, currency?: string) => [...tokenKeys.details(issuer), currency ?? ''] as const,
  issuerTokens: (issuer: string) => ['token', issuer, 'list'] as const,
  identityHistory: (issuer: string, currency: string) =>
    ['token', issuer, 'identity-history', currency] as const,
  stats: (issuer: string) => ['token', issuer, 'stats'] as const,
  statsOf: (issuer: string, currency: string) => [...tokenKeys.stats(issuer), currency] as const,
  trades: (issuer: string) => ['token', issuer, 'trades'] as const,
  tradesOf: (issuer: string, currency: string) => [...tokenKeys.trades(issuer), currency] as const,
  book: (issuer: string) => ['token', issuer, 'book'] as const,
  bookOf: (issuer: string, currency: string) => [...tokenKeys.book(issuer), currency] as const,
  risk: (issuer: string, currency: string) => ['token', issuer, 'risk', currency] as const,
  changes: (issuer: string, currency: string) => ['token', issuer, 'changes', currency] as const,
  bonding: (issuer: string) => ['token', issuer, 'bonding'] as const,
  bondingOf: (issuer: string, currency: string) => [...tokenKeys.bonding(issuer), currency] as const,
  bondingCap: (tokenId: number) => ['token', tokenId, 'bonding-market-cap'] as const,
  rewardSplit: (tokenId: number) => ['token', tokenId, 'reward-split'] as const,
};
