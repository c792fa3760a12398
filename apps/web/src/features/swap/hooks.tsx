import { useEffect, useRef, useState, type ReactNode } from 'react';
import { STATUS_CLEAR_MS, STATUS_FADE_MS } from '@ledgerpad/shared';

// The swap screen's timing rules (spec 001 §9): inputs settle 300 ms before an estimate is asked
// for; 'You received' and success lines fade at 5 s and are gone at 6 s. Errors stay until the
// user changes something (issue 25: an error must not fade before it is read).

export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setV(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return v;
}

export interface Shown {
  text: ReactNode;
  ok: boolean;
  fading: boolean;
}

/**
 * A result line: success fades after 5 s and is gone after 6 s (spec 001 §2); a failure stays until
 * `clear()` (the next input, the next try).
 */
export function useResultLine() {
  const [state, setState] = useState<Shown | null>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  const show = (text: ReactNode, ok: boolean) => {
    timers.current.forEach(clearTimeout);
    timers.current = [];
    setState({ text, ok, fading: false });
    if (ok)
      timers.current = [
        setTimeout(() => setState((s) => (s ? { ...s, fading: true } : s)), STATUS_FADE_MS),
        setTimeout(() => setState(null), STATUS_CLEAR_MS),
      ];
  };
  const clear = () => {
    timers.current.forEach(clearTimeout);
    timers.current = [];
    setState(null);
  };
  return [state, show, clear] as const;
}

/** A status is a success when it carries a check mark or a pin (spec 001 §2), else an error. */
const isSuccessText = (text: string): boolean => /[✅📌]/u.test(text);

/**
 * The result line next to the button: role=status for success, role=alert for failures, brought
 * into view when it appears (on a phone the button may be at the bottom of the screen).
 */
export function StatusLine({ status, testId }: { status: Shown | null; testId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (status && !status.fading) ref.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [status]);
  if (!status) return null;
  return (
    <div
      ref={ref}
      role={status.ok ? 'status' : 'alert'}
      data-testid={testId}
      className={`swap-status ${status.ok ? 'ok' : 'bad'}${status.fading ? ' fading' : ''}`}
    >
      {status.text}
    </div>
  );
}

/** The old single-line API (liquidity, auction slot): a message styled by its mark. */
export function useFading() {
  const [state, show, clear] = useResultLine();
  return [state, (text: string) => show(text, isSuccessText(text)), clear] as const;
}
