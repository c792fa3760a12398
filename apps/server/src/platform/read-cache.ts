import { AppError } from '../lib/errors';

// Public reads that change only with the ledger (a token's trades, candles, order book, risk
// facts, its curve), kept for the ledger they were read at: however many visitors ask, each
// answer is computed once per indexed ledger, like the market snapshot's list and prices. An
// entry is good while this instance's indexer has not indexed a newer ledger, no local change
// (a listing) happened since, and for at most `maxAgeMs` (an instance that does not follow the
// ledger itself still sees newer data within that time). Concurrent misses of one key share one
// computation. Refusals (4xx, e.g. "Token not found") are kept like answers; failures are not.

export interface ReadCacheOptions {
  /** The ledger the data behind the answers is at (the indexer's last ledger). */
  ledger: () => number;
  maxAgeMs?: number;
  /**
   * Entries kept at most (distinct keys per ledger, default 5,000: a token page is about ten);
   * past it answers are computed but not kept.
   */
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  generation: string;
  at: number;
  value: Promise<unknown>;
}

export class LedgerReadCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxAgeMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private changes = 0;
  private generation = '';

  constructor(private readonly opts: ReadCacheOptions) {
    this.maxAgeMs = opts.maxAgeMs ?? 1_000;
    this.maxEntries = opts.maxEntries ?? 5_000;
    this.now = opts.now ?? (() => performance.now());
  }

  /** Something the answers depend on changed here (a token listed or edited): recompute them all. */
  invalidate(): void {
    this.changes += 1;
    this.entries.clear();
  }

  /** The answer for `key` at the current ledger, computing it (once) if it is not kept yet. */
  get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const generation = `${this.opts.ledger()}:${this.changes}`;
    // A new ledger makes every kept answer stale: drop them all at once (memory holds one ledger's).
    if (generation !== this.generation) {
      this.generation = generation;
      this.entries.clear();
    }
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.generation === generation && now - hit.at < this.maxAgeMs) return hit.value as Promise<T>;
    if (this.entries.size >= this.maxEntries) this.sweep(generation, now);
    const value = compute();
    const entry: Entry = { generation, at: now, value };
    if (this.entries.size < this.maxEntries) this.entries.set(key, entry);
    value.catch((err: unknown) => {
      const refusal = err instanceof AppError && err.status >= 400 && err.status < 500;
      if (!refusal && this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  /** Entries kept (tests). */
  get size(): number {
    return this.entries.size;
  }

  private sweep(generation: string, now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.generation !== generation || now - entry.at >= this.maxAgeMs) this.entries.delete(key);
    }
  }
}
