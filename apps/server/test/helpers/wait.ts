// The one way tests wait (issue 41). Prefer a promise the code under test gives (`jobs.waitFor`,
// `indexer.caughtUp`, `submissions.idle`, the test app's `settle()`); poll with `until` only for
// what nothing announces (a row another process writes, a page the indexer rebuilds), and `sleep`
// only where time passing is itself the point (an outage, a lease running out).

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface UntilOptions {
  /** Give up after this long (default 10 s; ledger tests pass more on a loaded machine). */
  timeoutMs?: number;
  /** Time between looks (default 20 ms). */
  everyMs?: number;
  /** Named in the error when time runs out. */
  what?: string;
}

/**
 * Looks at `read` until it answers something other than `undefined`, `null` or `false`, and returns
 * that answer (so `until(() => x > 1)` waits for a condition and `until(async () => row)` for a
 * value). Throws after `timeoutMs`. A number as the last argument is the timeout; a string first
 * names what is awaited: `until('the deploy', read, { timeoutMs: 120_000 })`.
 */
export async function until<T>(
  read: () => T | Promise<T>,
  options?: UntilOptions | number,
): Promise<Exclude<T, undefined | null | false>>;
export async function until<T>(
  what: string,
  read: () => T | Promise<T>,
  options?: UntilOptions | number,
): Promise<Exclude<T, undefined | null | false>>;
export async function until<T>(
  first: string | (() => T | Promise<T>),
  second?: (() => T | Promise<T>) | UntilOptions | number,
  third?: UntilOptions | number,
): Promise<Exclude<T, undefined | null | false>> {
  const named = typeof first === 'string';
  const read = (named ? second : first) as () => T | Promise<T>;
  const given = (named ? third : second) as UntilOptions | number | undefined;
  const opts = typeof given === 'number' ? { timeoutMs: given } : (given ?? {});
  const { timeoutMs = 10_000, everyMs = 20 } = opts;
  const what = named ? first : (opts.what ?? 'condition');
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (v !== undefined && v !== null && v !== false) return v as Exclude<T, undefined | null | false>;
    if (Date.now() > end) throw new Error(`still waiting after ${timeoutMs} ms: ${what}`);
    await sleep(everyMs);
  }
}
