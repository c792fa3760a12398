import { useEffect, useRef, useState } from 'react';

// The swap screen's timing rules (spec 001 §9): inputs settle 300 ms before an estimate is asked
// for; status lines fade at 5 s and are gone at 6 s.

const FADE_MS = 5_000;
const CLEAR_MS = 6_000;

export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setV(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return v;
}

/** A message that fades after 5 s and is gone after 6 s (spec 001 §9). */
export function useFading() {
  const [state, setState] = useState<{ text: string; fading: boolean } | null>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  const show = (text: string) => {
    timers.current.forEach(clearTimeout);
    setState({ text, fading: false });
    timers.current = [
      setTimeout(() => setState((s) => (s ? { ...s, fading: true } : s)), FADE_MS),
      setTimeout(() => setState(null), CLEAR_MS),
    ];
  };
  return [state, show] as const;
}

/**
 * The swap screens' status line: styled as success when it carries a check mark or a pin, else as
 * an error (spec 001 §2), fading with its message.
 */
export function StatusLine({
  status,
  testId,
}: {
  status: { text: string; fading: boolean } | null;
  testId?: string;
}) {
  if (!status) return null;
  const ok = /[✅📌]/u.test(status.text);
  return (
    <p
      role="status"
      data-testid={testId}
      className={`swap-status ${ok ? 'ok' : 'bad'}${status.fading ? ' fading' : ''}`}
    >
      {status.text}
    </p>
  );
}
