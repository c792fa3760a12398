import type { FastifyRequest } from 'fastify';
import { ConnectionError, RippledError } from 'xrpl';
import { ledgerResultMessage } from '@ledgerpad/shared';
import { AppError } from '../lib/errors';

// Ledger failures as users should read them: an unreachable ledger is a 503 they can retry, a
// request the ledger server refused is a 502; neither leaks xrpl.js internals.

export const LEDGER_UNAVAILABLE_MESSAGE = 'The XRP Ledger is not reachable right now. Please try again.';

export function toLedgerAppError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  if (err instanceof ConnectionError) return new AppError('LEDGER_UNAVAILABLE', LEDGER_UNAVAILABLE_MESSAGE);
  if (err instanceof RippledError) {
    const name = (err.data as { error?: string } | undefined)?.error;
    return new AppError('BAD_GATEWAY', 'The XRP Ledger refused the request. Please try again.', {
      ledgerError: name ?? 'unknown',
    });
  }
  return err;
}

/** A route handler whose ledger failures become 503/502 with a plain message instead of a 500. */
export const ledgerRoute =
  <T>(fn: (request: FastifyRequest) => Promise<T>) =>
  async (request: FastifyRequest): Promise<T> => {
    try {
      return await fn(request);
    } catch (err) {
      throw toLedgerAppError(err);
    }
  };

/**
 * A transaction that did not succeed, as users should read it: one sentence for its ledger result
 * (packages/shared ledger-results), the code kept in `result`, the hash when there is one. `message`
 * replaces the sentence where the spec gives its own string.
 */
export function ledgerFailure(
  outcome: { result: string; hash?: string },
  message?: string,
  details?: Record<string, unknown>,
): AppError {
  return new AppError('BAD_REQUEST', message ?? ledgerResultMessage(outcome.result), {
    result: outcome.result,
    ...(outcome.hash ? { hash: outcome.hash } : {}),
    ...details,
  });
}
