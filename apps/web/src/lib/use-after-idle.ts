import { useEffect, useState } from 'react';

/**
 * True once the browser has had an idle moment after the first render (or `timeoutMs` passed):
 * for parts no first screen needs — the toast area — so their chunks load after what the visitor
 * came for instead of beside it (issue 40: the landing's JavaScript until the priced list shows).
 */
export function useAfterIdle(timeoutMs = 1_500): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(() => setIdle(true), { timeout: timeoutMs });
      return () => window.cancelIdleCallback(id);
    }
    const timer = setTimeout(() => setIdle(true), Math.min(timeoutMs, 200));
    return () => clearTimeout(timer);
  }, [timeoutMs]);
  return idle;
}
