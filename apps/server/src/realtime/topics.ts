import { isHexCurrency, tickerToCurrency } from '@ledgerpad/shared';

// Event-bus topics, shared by the socket hub (which joins them) and the publishers.

/** A token's trades, keyed by its 40-hex (or 3-letter) currency code and issuer. */
export function tradeTopic(currency: string, issuer: string): string {
  const code = isHexCurrency(currency) ? currency.toUpperCase() : tickerToCurrency(currency);
  return `trades:${code}:${issuer}`;
}

/** Everything addressed to one user (their orders, their jobs), on every instance. */
export const userTopic = (userId: number): string => `user:${userId}`;

/** Sessions that ended (sign-out, the per-user cap): every instance closes their sockets. */
export const SESSIONS_REVOKED_TOPIC = 'sessions:revoked';
