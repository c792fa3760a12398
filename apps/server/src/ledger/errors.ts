import { ConnectionError, RippledError } from 'xrpl';
import {
  LEDGER_REFUSED_MESSAGE,
  ledgerResultMessage,
  missingAccountMessage,
  type AccountRole,
} from '@ledgerpad/shared';
import { AppError, badGateway, badRequest, ledgerUnavailable } from '../lib/errors';

// Ledger failures as users should read them: an unreachable ledger (xrpl.js ConnectionError and its
// kinds: NotConnectedError, DisconnectedError, TimeoutError, ...) is a 503 they can retry, a request
// the ledger server refused (RippledError) is a 502; neither leaks xrpl.js internals. The app's
// error handler applies this to every route, so no route wraps itself.

/** The AppError an xrpl.js failure stands for, or the error itself when it is not a ledger failure. */
export function fromLedgerError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  if (err instanceof ConnectionError || isSocketNotOpen(err)) return ledgerUnavailable();
  if (err instanceof RippledError) {
    const data = err.data as
      { error?: string; account?: string; request?: { account?: unknown } } | undefined;
    const name = data?.error;
    // An account that does not exist is what the request asked about, not a ledger outage: a 400
    // naming it, for any read a route did not turn into its own sentence first (issue 34). Routes
    // check the addresses users give before they sign (`requireAccount`); this is the net under them.
    const account = typeof data?.request?.account === 'string' ? data.request.account : data?.account;
    if (name === 'actNotFound' && typeof account === 'string') return accountMissing('account', account);
    return badGateway(LEDGER_REFUSED_MESSAGE, { ledgerError: name ?? 'unknown' });
  }
  return err;
}

/** 400: an address of the request has no account on the ledger (named, as the screens show it). */
export const accountMissing = (role: AccountRole, address: string, field?: string): AppError =>
  badRequest(missingAccountMessage(role, address), {
    ledgerError: 'actNotFound',
    ...(field ? { field } : {}),
  });

/** A ledger read about `address` whose actNotFound becomes the 400 naming it (`role`, `field`). */
export async function aboutAccount<T>(
  address: string,
  role: AccountRole,
  read: () => Promise<T>,
  field?: string,
): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof RippledError && (err.data as { error?: string } | undefined)?.error === 'actNotFound')
      throw accountMissing(role, address, field);
    throw err;
  }
}

/**
 * A request made while xrpl.js is (re)connecting: its socket is still CONNECTING, and `ws` refuses
 * to send with a plain Error that xrpl.js passes on unwrapped (it wraps only the errors `ws` hands to
 * the send callback, for a closing or closed socket). The ledger is as unavailable as when it is
 * down: a 503 to retry, not a 500.
 */
function isSocketNotOpen(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith('WebSocket is not open: readyState');
}

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
  return badRequest(message ?? ledgerResultMessage(outcome.result), {
    result: outcome.result,
    ...(outcome.hash ? { hash: outcome.hash } : {}),
    ...details,
  });
}
