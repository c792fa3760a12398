import { useCallback, useRef, useState } from 'react';
import { isFinalAnswer } from './api';
import { newIdempotencyKey } from './idempotency-key';

// Every user action that writes to the ledger goes through this (issue 23, "Done once"): one
// Idempotency-Key per action, the same key when the same action is tried again after an unknown
// outcome (a network failure, a 5xx, a timeout: the server may have done it), a new key once the
// server answered (success or a 4xx refusal: the next click is a new action). A second click while
// the first runs is dropped here, synchronously, before React re-renders the disabled control.
//
// An action that sends several requests (one per wallet of a multi-wallet trade) asks for one key
// per part: `key('rAbc…')`. The parts keep their keys for a retry of the same action, so the ones
// that went through are answered from the server's record instead of being done twice.

interface Attempt {
  /** What was asked (the request's fingerprint): a changed form is a new action. */
  fingerprint: string;
  keys: Map<string, string>;
}

/** The key of the action, or of one part of it. */
export type KeyFor = (part?: string) => string;

export interface LedgerAction<TVars, TResult> {
  /** Runs the action unless one is running (then resolves undefined without sending anything). */
  run: (vars: TVars) => Promise<TResult | undefined>;
  busy: boolean;
}

export function useLedgerAction<TVars, TResult>(
  send: (vars: TVars, key: KeyFor) => Promise<TResult>,
  options: {
    /** A result that still leaves some part's outcome unknown (keep the keys for a retry). */
    unsettled?: (result: TResult) => boolean;
  } = {},
): LedgerAction<TVars, TResult> {
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const pending = useRef<Attempt | null>(null);
  const latest = useRef({ send, options });
  latest.current = { send, options };

  const run = useCallback(async (vars: TVars): Promise<TResult | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setBusy(true);
    const fingerprint = JSON.stringify(vars) ?? '';
    const attempt: Attempt =
      pending.current && pending.current.fingerprint === fingerprint
        ? pending.current
        : { fingerprint, keys: new Map() };
    pending.current = attempt;
    const key: KeyFor = (part = '') => {
      let k = attempt.keys.get(part);
      if (!k) attempt.keys.set(part, (k = newIdempotencyKey()));
      return k;
    };
    try {
      const result = await latest.current.send(vars, key);
      if (!latest.current.options.unsettled?.(result)) pending.current = null;
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
