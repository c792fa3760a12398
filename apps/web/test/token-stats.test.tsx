import { cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTokenStats } from '../src/features/token-list/use-token-stats';
import { stubFetch } from './support';

// The list's stats poller with fake timers (spec 000 §4, §9): first round after 100 ms, then every
// 5 s; a 429 waits 5 s, doubling to a 60 s cap; a good round resets to 5 s.

const ISSUER = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
let limited = false;
let rounds: number[];

beforeEach(() => {
  vi.useFakeTimers();
  limited = false;
  rounds = [];
  stubFetch((path) => {
    if (path === '/api/prices') {
      rounds.push(Date.now());
      return limited ? { status: 429, body: { message: 'Too Many Requests' } } : { body: [] };
    }
    if (path === '/api/holders') return { body: [] };
    if (path === '/api/blackhole-status/bulk') return { body: { [ISSUER]: false } };
    return undefined;
  });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Gaps between rounds, in ms, after `ms` of fake time. */
async function gapsAfter(ms: number): Promise<number[]> {
  await vi.advanceTimersByTimeAsync(ms);
  return rounds.map((t, i) => (i === 0 ? t - start : t - rounds[i - 1]!));
}
let start = 0;

describe('stats polling', () => {
  it('fetches after 100 ms, then every 5 s', async () => {
    start = Date.now();
    renderHook(() => useTokenStats([ISSUER]));
    expect(await gapsAfter(15_200)).toEqual([100, 5_000, 5_000, 5_000]);
  });

  it('backs off 5, 10, 20, 40, 60, 60 s on 429 and returns to 5 s after a success', async () => {
    limited = true;
    start = Date.now();
    renderHook(() => useTokenStats([ISSUER]));
    expect(await gapsAfter(100 + 5_000 + 10_000 + 20_000 + 40_000 + 60_000 + 60_000)).toEqual([
      100, 5_000, 10_000, 20_000, 40_000, 60_000, 60_000,
    ]);
    limited = false;
    // The round 60 s later succeeds; the next comes 5 s after it.
    const gaps = await gapsAfter(60_000 + 5_000);
    expect(gaps.slice(-2)).toEqual([60_000, 5_000]);
  });
});
