import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tickerToCurrency, type NewTrade } from '@ledgerpad/shared';
import type * as LiveTrades from '../src/features/token/use-live-trades';
import { FakeSocket } from './fake-socket';
import { stubFetch } from './support';

// The token page's live trades (spec 000 §4, §5; 001 §4): only this token's trades with a positive
// price count; each flashes buy/sell for 500 ms; the price settles 500 ms after the last trade of a
// burst (debounced).

const ISSUER = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const OTHER = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
const trade = (over: Partial<NewTrade>): NewTrade => ({
  type: 'BUY',
  baseCurrency: tickerToCurrency('ABCD'),
  baseIssuer: ISSUER,
  quoteCurrency: 'XRP',
  quoteIssuer: null,
  price: '0.5',
  ...over,
});

let useLiveTrades: typeof LiveTrades.useLiveTrades;

beforeEach(async () => {
  vi.useFakeTimers();
  vi.resetModules();
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  stubFetch((path) => (path === '/api/auth/socket-token' ? { body: { token: 't' } } : undefined));
  ({ useLiveTrades } = await import('../src/features/token/use-live-trades'));
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function mount() {
  const seen: NewTrade[] = [];
  const hook = renderHook(() => useLiveTrades('ABCD', ISSUER, (t) => seen.push(t)));
  await act(() => vi.advanceTimersByTimeAsync(0));
  act(() => FakeSocket.last.open());
  const send = (t: NewTrade) => act(() => FakeSocket.last.receive({ event: 'new_trade', data: t }));
  const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
  return { hook, seen, send, wait };
}

describe('live trades on the token page', () => {
  it('subscribes to the token on the socket', async () => {
    await mount();
    expect(FakeSocket.last.sent).toEqual([
      JSON.stringify({ event: 'subscribe', token: 'ABCD', issuer: ISSUER }),
    ]);
  });

  it('flashes for 500 ms on each trade of the token, buy or sell', async () => {
    const { hook, send, wait } = await mount();
    send(trade({ type: 'BUY' }));
    expect(hook.result.current.flash).toBe('buy');
    await wait(499);
    expect(hook.result.current.flash).toBe('buy');
    await wait(1);
    expect(hook.result.current.flash).toBeNull();
    send(trade({ type: 'SELL' }));
    expect(hook.result.current.flash).toBe('sell');
  });

  it('settles the price 500 ms after the last trade of a burst', async () => {
    const { hook, send, wait } = await mount();
    send(trade({ price: '1' }));
    await wait(300);
    send(trade({ price: '2' }));
    await wait(499);
    expect(hook.result.current.price).toBeNull();
    await wait(1);
    expect(hook.result.current.price).toBe('2');
  });

  it('ignores other tokens, other issuers and prices that are not positive', async () => {
    const { hook, seen, send, wait } = await mount();
    send(trade({ baseCurrency: tickerToCurrency('WXYZ') }));
    send(trade({ baseIssuer: OTHER }));
    send(trade({ price: '0' }));
    send(trade({ price: '-3' }));
    send(trade({ price: 'abc' }));
    await wait(1_000);
    expect(seen).toEqual([]);
    expect(hook.result.current).toEqual({ price: null, flash: null });
    // The token as the quote side counts too (a pair against it).
    send(
      trade({
        baseCurrency: 'XRP',
        baseIssuer: null,
        quoteCurrency: 'ABCD',
        quoteIssuer: ISSUER,
        price: '3',
      }),
    );
    await wait(500);
    expect(seen).toHaveLength(1);
    expect(hook.result.current.price).toBe('3');
  });
});
