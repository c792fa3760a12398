import type { WalletToken } from '@ledgerpad/shared';

/** LP tokens are named 'LP-{TICKER}' (spec §3); others by their ticker. */
export const tokenLabel = (t: Pick<WalletToken, 'currency' | 'lpName'>): string => t.lpName ?? t.currency;

/** One key per trust line: the ledger code and the issuer. */
export const tokenKey = (t: Pick<WalletToken, 'currencyCode' | 'issuer'>): string =>
  `${t.currencyCode}|${t.issuer}`;
