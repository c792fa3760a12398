import { useSyncExternalStore } from 'react';
import { MOBILE_BREAKPOINT_PX } from '@ledgerpad/shared';

// Below the breakpoint the header swaps its menu bar for a menu button and a drawer. The CSS
// media queries in styles.css use the same width (767.98px = "below 768").
const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`;

let mediaQuery: MediaQueryList | undefined;
const getMediaQuery = () => (mediaQuery ??= window.matchMedia(MOBILE_QUERY));

function subscribe(onChange: () => void): () => void {
  const mq = getMediaQuery();
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

/** True while the viewport is narrower than MOBILE_BREAKPOINT_PX; re-renders when that changes. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, () => getMediaQuery().matches);
}
