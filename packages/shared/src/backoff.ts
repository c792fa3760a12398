import {
  RATE_LIMIT_RETRY_CAP_MS,
  RATE_LIMIT_RETRY_START_MS,
  STATS_FIRST_REFRESH_MS,
  STATS_REFRESH_MS,
} from './constants';

// The token list's stats poller (spec 000 §4, §9) as a pure state machine: the first fetch after
// 100 ms, then every 5 s; an HTTP 429 (or 'Too Many Requests') waits 5 s, doubling up to 60 s;
// a success resets the delay. Other failures keep the normal cadence (they are silent, spec §8).

interface StatsPollState {
  /** The current rate-limit delay, or null when not rate limited. */
  retryMs: number | null;
}

export type StatsOutcome = 'ok' | 'rate-limited' | 'failed';

export const initialStatsPoll = (): StatsPollState => ({ retryMs: null });

/** Milliseconds before the first fetch. */
export const firstStatsDelay = (): number => STATS_FIRST_REFRESH_MS;

/** The next state and how long to wait before the next fetch. */
export function nextStatsPoll(
  state: StatsPollState,
  outcome: StatsOutcome,
): { state: StatsPollState; delayMs: number } {
  if (outcome === 'rate-limited') {
    const retryMs =
      state.retryMs === null
        ? RATE_LIMIT_RETRY_START_MS
        : Math.min(state.retryMs * 2, RATE_LIMIT_RETRY_CAP_MS);
    return { state: { retryMs }, delayMs: retryMs };
  }
  if (outcome === 'ok') return { state: { retryMs: null }, delayMs: STATS_REFRESH_MS };
  return { state, delayMs: state.retryMs ?? STATS_REFRESH_MS };
}

/** Whether a failure is the server's rate limit: HTTP 429 or the 'Too Many Requests' text. */
export function isRateLimited(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { status?: unknown; message?: unknown };
  return e.status === 429 || (typeof e.message === 'string' && /too many requests/i.test(e.message));
}
