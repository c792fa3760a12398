// The query keys of server state that more than one feature reads or refreshes (issue 41): the
// session, the user's wallets and balances, the token list, the platform's configuration. A query
// and every invalidation of it take their key from here, so the two cannot drift apart. Each
// feature keeps its own keys in `features/<name>/keys.ts`; features import these, never each other's.
// The arrays' shapes matter: an invalidation by a prefix (`walletKeys.all()`) reaches every key
// that starts with it.

export const sessionKeys = {
  /** The signed-in user (null for a visitor). */
  user: () => ['user'] as const,
  /** Whether the user deployed a token (the Token Dashboard entry). */
  hasDeployed: () => ['has-deployed'] as const,
};

export const adminKeys = {
  /** Everything under this key is admin data; it is dropped when the session changes. */
  all: () => ['admin'] as const,
};

export const walletKeys = {
  /** The wallet list (the Wallets page's records) and, as a prefix, every wallet read below. */
  all: () => ['wallets'] as const,
  /** Every wallet with its ledger balances (POST /api/wallets/balances). */
  balances: () => ['wallets', 'balances'] as const,
  /** Who signs for each wallet, by address. */
  kinds: () => ['wallets', 'kinds'] as const,
  /** The wallets a claim can be paid to. */
  mine: () => ['wallets', 'mine'] as const,
};

export const listedTokenKeys = {
  /** The public token list of the home page (refreshed after a deploy, a listing, an admin edit). */
  all: () => ['tokens'] as const,
  /** The listed tokens' identities by (currency, issuer), kept a minute. */
  identities: () => ['token-identities'] as const,
};

export const configKeys = {
  fees: () => ['config', 'fees'] as const,
  rlusd: () => ['config', 'rlusd'] as const,
  authMethods: () => ['auth-methods'] as const,
};
