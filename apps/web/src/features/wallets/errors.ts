import { ApiError } from '../../lib/api';

/**
 * What to tell the user when a call failed: the server's own sentence when it wrote one for people
 * (4xx, and 502/503 which say the ledger is unreachable), else the spec's fallback. Unknown routes
 * ('No API route …') and 5xx internals never reach the screen.
 */
export function serverMessage(err: unknown, fallback: string): string {
  if (!(err instanceof ApiError) || err.status === 0) return fallback;
  const readable = (err.status >= 400 && err.status < 500) || err.status === 502 || err.status === 503;
  if (!readable || !err.message || err.message.startsWith('No API route')) return fallback;
  return err.message;
}

/** A route that does not exist on this server (e.g. the faucet on mainnet). */
export const isMissingRoute = (err: unknown): boolean =>
  err instanceof ApiError && err.status === 404 && err.message.startsWith('No API route');
