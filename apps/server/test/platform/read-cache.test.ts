import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/lib/errors';
import { LedgerReadCache } from '../../src/platform/read-cache';

// The per-ledger cache of public reads: one computation per key and ledger, whoever asks.

function world(opts: { maxEntries?: number } = {}) {
  const state = { ledger: 10, now: 0, computed: 0 };
  const cache = new LedgerReadCache({
    ledger: () => state.ledger,
    now: () => state.now,
    maxAgeMs: 1_000,
    ...opts,
  });
  const read = (key: string, value = `${key}@${state.ledger}`) =>
    cache.get(key, async () => {
      state.computed += 1;
      return value;
    });
  return { state, cache, read };
}

describe('LedgerReadCache', () => {
  it('computes a key once per ledger, and again at the next ledger', async () => {
    const { state, cache, read } = world();
    expect(await read('trades:A')).toBe('trades:A@10');
    expect(await read('trades:A')).toBe('trades:A@10');
    expect(state.computed).toBe(1);
    await read('risk:A');
    state.ledger = 11;
    expect(await read('trades:A')).toBe('trades:A@11');
    expect(state.computed).toBe(3);
    // The older ledger's answers are dropped, not kept beside the new ones.
    expect(cache.size).toBe(1);
  });

  it('shares one computation between concurrent requests', async () => {
    const { state, cache } = world();
    let release!: (v: string) => void;
    const slow = () => {
      state.computed += 1;
      return new Promise<string>((resolve) => (release = resolve));
    };
    const all = Promise.all([cache.get('k', slow), cache.get('k', slow), cache.get('k', slow)]);
    release('one answer');
    expect(await all).toEqual(['one answer', 'one answer', 'one answer']);
    expect(state.computed).toBe(1);
  });

  it('recomputes after a local change and after maxAgeMs', async () => {
    const { state, cache, read } = world();
    await read('token:A');
    cache.invalidate();
    await read('token:A');
    expect(state.computed).toBe(2);
    state.now = 999;
    await read('token:A');
    expect(state.computed).toBe(2);
    state.now = 1_000; // the same ledger, but an instance that does not index sees newer data in time
    await read('token:A');
    expect(state.computed).toBe(3);
  });

  it('keeps refusals (4xx) like answers, but never failures', async () => {
    const { cache } = world();
    let calls = 0;
    const notFound = async () => {
      calls += 1;
      throw new AppError('NOT_FOUND', 'Token not found');
    };
    await expect(cache.get('token:X', notFound)).rejects.toThrow('Token not found');
    await expect(cache.get('token:X', notFound)).rejects.toThrow('Token not found');
    expect(calls).toBe(1);
    let failures = 0;
    const down = async () => {
      failures += 1;
      throw new AppError('LEDGER_UNAVAILABLE', 'The XRP Ledger is not reachable right now.');
    };
    await expect(cache.get('book:X', down)).rejects.toThrow('not reachable');
    await expect(cache.get('book:X', down)).rejects.toThrow('not reachable');
    expect(failures).toBe(2);
    await expect(cache.get('book:Y', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('book:Y', async () => 'fine')).toBe('fine');
  });

  it('holds at most maxEntries keys, dropping older ledgers first', async () => {
    const { state, cache, read } = world({ maxEntries: 3 });
    await read('a');
    await read('b');
    await read('c');
    expect(cache.size).toBe(3);
    await read('d'); // full with current entries: answered, not kept
    expect(cache.size).toBe(3);
    await read('d');
    expect(state.computed).toBe(5);
    state.ledger = 11;
    await read('e'); // the older ledger's entries make room
    expect(cache.size).toBe(1);
    expect(await read('e')).toBe('e@11');
    expect(state.computed).toBe(6);
  });
});
