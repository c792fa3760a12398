import { ApiError } from '../../lib/api';

/** A route that does not exist on this server (e.g. the faucet on mainnet). */
export const isMissingRoute = (err: unknown): boolean =>
  err instanceof ApiError && err.status === 404 && err.message.startsWith('No API route');
