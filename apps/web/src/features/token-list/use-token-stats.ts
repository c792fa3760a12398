import { useEffect, useRef, useState } from 'react';
import {
  blackholeFlags,
  firstStatsDelay,
  holdersByIssuer,
  initialStatsPoll,
  isRateLimited,
  mergePrices,
  nextStatsPoll,
  type BlackholeMap,
  type PriceRecord,
  type StatsOutcome,
} from '@ledgerpad/shared';
import { apiGetAll, apiPost } from '../../lib/api';
import { landingData } from '../../lib/landing-data';

export interface TokenStats {
  prices: ReadonlyMap<string, PriceRecord>;
  holders: ReadonlyMap<string, number>;
  blackholed: BlackholeMap;
}

const EMPTY: TokenStats = { prices: new Map(), holders: new Map(), blackholed: {} };

/** Prices and holders the server embedded in a fresh load of `/` (lib/landing-data.ts), else none. */
function initialStats(): TokenStats {
  const prices = landingData('prices');
  const holders = landingData('holders');
  if (prices === undefined && holders === undefined) return EMPTY;
  return {
    prices: prices === undefined ? EMPTY.prices : mergePrices(EMPTY.prices, prices),
    holders: Array.isArray(holders) ? holdersByIssuer(holders) : EMPTY.holders,
    blackholed: {},
  };
}

/**
 * Prices, holders and blackhole flags of the listed tokens (spec 000 §4, §9): the first fetch
 * 100 ms after mount, then every 5 s; a 429 from any of the three waits 5 s, doubling up to 60 s,
 * until a round succeeds. Failures are silent: prices keep their previous values, holders and flags
 * fall back to what was known (spec 000 §8). Public calls, without cookies.
 */
export function useTokenStats(issuers: readonly string[]): TokenStats {
  const [stats, setStats] = useState<TokenStats>(initialStats);
  const issuersRef = useRef(issuers);
  issuersRef.current = issuers;

  useEffect(() => {
    let state = initialStatsPoll();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    const init = { signal: controller.signal, credentials: false };

    const round = async (): Promise<StatsOutcome> => {
      const list = issuersRef.current;
      const [prices, holders, blackholed] = await Promise.allSettled([
        // Paged lists (docs/paging.md): every page, however many tokens are listed.
        apiGetAll<unknown>('/api/prices', init),
        apiGetAll<unknown>('/api/holders', init),
        list.length > 0
          ? apiPost<unknown>('/api/blackhole-status/bulk', { issuers: list }, init)
          : Promise.resolve({}),
      ]);
      if (controller.signal.aborted) return 'failed';
      setStats((prev) => ({
        prices: prices.status === 'fulfilled' ? mergePrices(prev.prices, prices.value) : prev.prices,
        holders:
          holders.status === 'fulfilled' && Array.isArray(holders.value)
            ? holdersByIssuer(holders.value)
            : prev.holders,
        blackholed:
          blackholed.status === 'fulfilled'
            ? { ...prev.blackholed, ...blackholeFlags(blackholed.value) }
            : prev.blackholed,
      }));
      const failures = [prices, holders, blackholed].filter((r) => r.status === 'rejected');
      if (failures.some((r) => isRateLimited((r as PromiseRejectedResult).reason))) return 'rate-limited';
      return failures.length === 0 ? 'ok' : 'failed';
    };

    const tick = async () => {
      const outcome = await round().catch(() => 'failed' as const);
      if (controller.signal.aborted) return;
      const step = nextStatsPoll(state, outcome);
      state = step.state;
      timer = setTimeout(() => void tick(), step.delayMs);
    };
    timer = setTimeout(() => void tick(), firstStatsDelay());
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, []);

  return stats;
}
