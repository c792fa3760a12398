import { useCallback, useRef, useState } from 'react';
import { isFinalAnswer } from './api';
import { newIdempotencyKey } from './idempotency-key';

// Every user action that writes to the ledger goes through this (issue 23, "Done once"): one
// Idempotency-Key per action, the same key when the same action is tried again after an unknown
// outcome (a network failure, a 5xx, a timeout: the server may have done it), a new key once the
// server answered (success or a 4xx refusal: the next click is a new action). A second click while
// the first runs is dropped here, synchronously, before React re-renders the disabled control.

interface Attempt {
  key: string;
  /** What was asked (the request's fingerprint): a changed form is a new action. */
  fingerprint: string;
}

export interface LedgerAction<TVars, TResult> {
  /** Runs the action unless one is running (then resolves undefined without sending anything). */
  run: (vars: TVars) => Promise<TResult | undefined>;
  busy: boolean;
}

export function useLedgerAction<TVars, TResult>(
  send: (vars: TVars, idempotencyKey: string) => Promise<TResult>,
): LedgerAction<TVars, TResult> {
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const pending = useRef<Attempt | null>(null);
  const sendRef = useRef(send);
  sendRef.current = send;

  const run = useCallback(async (vars: TVars): Promise<TResult | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setBusy(true);
    const fingerprint = JSON.stringify(vars) ?? '';
    const attempt =
      pending.current && pending.current.fingerprint === fingerprint
        ? pending.current
        : { key: newIdempotencyKey(), fingerprint };
    pending.current = attempt;
    try {
      const result = await sendRef.current(vars, attempt.key);
      pending.current = null;
      return result;
    } catch (err) {
      // A refusal is final: trying again is a new action. Anything else may have happened.
      if (isFinalAnswer(err)) pending.current = null;
      throw err;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);

  return { run, busy };
}
