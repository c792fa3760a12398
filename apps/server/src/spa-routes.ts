// Every route of the web app (both specs' section 2). The server answers them with index.html so a
// deep link or reload works; anything else outside /api gets a real 404.
export const SPA_ROUTES = [
  '/',
  '/terms',
  '/privacy-policy',
  '/token/:issuerAddress',
  // One page per token (issue 35): an issuer with several listed tokens has a page for each.
  '/token/:issuerAddress/:currency',
  '/deploy-list',
  '/swap',
  '/wallets',
  '/airdrops',
  '/airdrop/create',
  '/positions',
  '/orders',
  '/list-token',
  '/burner',
  '/dashboard',
  '/referrals',
  '/admin',
] as const;
