import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { SqlRunner } from '../db/client';

// One request budget across instances (issue 34): with PostgreSQL, @fastify/rate-limit counts in
// the `rate_limit_hits` table that every instance shares, so two instances no longer give a caller
// twice the budget. PGlite (one process) keeps the plugin's in-memory store.
//
// A window starts at a caller's first request and lasts its time window, as in the in-memory store:
// one atomic upsert per key either adds to the window or starts a new one, on the database's clock
// (instances' clocks may differ). The hot path pays for it once per turn of the event loop, not per
// request: every increment asked for in one turn goes into one statement (keys of that turn added
// up, each caller then reading its own place in the count) — the batching of db/batched.ts.

type Done = (error: Error | null, result?: { current: number; ttl: number }) => void;

interface Pending {
  windowMs: number;
  waiters: Done[];
}

/** Rows of windows that ended this long ago are deleted by the sweep. */
const SWEEP_GRACE_MS = 60_000;

const UPSERT = `
  with clock as (select (extract(epoch from clock_timestamp()) * 1000)::bigint as now_ms)
  insert into rate_limit_hits as r (key, window_start, window_ms, hits)
  select t.key, clock.now_ms, t.window_ms, t.n
  from unnest($1::text[], $2::int[], $3::int[]) as t(key, window_ms, n), clock
  on conflict (key) do update set
    hits = case when r.window_start + r.window_ms <= excluded.window_start
      then excluded.hits else r.hits + excluded.hits end,
    window_start = case when r.window_start + r.window_ms <= excluded.window_start
      then excluded.window_start else r.window_start end,
    window_ms = excluded.window_ms
  returning r.key, r.hits, r.window_start + r.window_ms - (select now_ms from clock) as ttl`;

/** The counters of every limiter of this instance, in PostgreSQL. */
export class SharedCounters {
  private pending = new Map<string, Pending>();
  private scheduled = false;

  constructor(private readonly sql: SqlRunner) {}

  incr(key: string, windowMs: number, done: Done): void {
    const p = this.pending.get(key);
    if (p) p.waiters.push(done);
    else this.pending.set(key, { windowMs, waiters: [done] });
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    const keys = [...batch.keys()];
    try {
      const rows = await this.sql.query<{ key: string; hits: number; ttl: string | number }>(UPSERT, [
        keys,
        keys.map((k) => batch.get(k)!.windowMs),
        keys.map((k) => batch.get(k)!.waiters.length),
      ]);
      for (const row of rows) {
        const { waiters } = batch.get(row.key)!;
        batch.delete(row.key);
        // The turn's callers of one key share its count in arrival order: the first is the lowest.
        const first = row.hits - waiters.length + 1;
        const ttl = Math.max(0, Number(row.ttl));
        waiters.forEach((done, i) => done(null, { current: first + i, ttl }));
      }
      if (batch.size) throw new Error('rate-limit counters: a key was not counted');
    } catch (err) {
      for (const { waiters } of batch.values()) for (const done of waiters) done(err as Error);
    }
  }

  /** Deletes the rows of windows long over (each instance runs it; it is one cheap statement). */
  async sweep(): Promise<void> {
    await this.sql.query(
      `delete from rate_limit_hits
       where window_start + window_ms < (extract(epoch from clock_timestamp()) * 1000)::bigint - $1`,
      [SWEEP_GRACE_MS],
    );
  }
}

/**
 * The @fastify/rate-limit store over `counters`. Each limiter is its own store (the plugin makes a
 * child per route limit and per `createRateLimit`): its namespace keeps its counts apart, named by
 * the route it guards, or by the order of creation for the route-less ones (write, expensive) —
 * the same on every instance, which registers them in the same order.
 */
export function sharedRateLimitStore(counters: SharedCounters): FastifyRateLimitStoreCtor {
  let limiters = 0;
  class SharedStore {
    private readonly namespace: string;

    constructor(namespace: unknown) {
      this.namespace = typeof namespace === 'string' ? namespace : 'global';
    }

    incr(key: string, done: Done, timeWindow: number): void {
      counters.incr(`${this.namespace}|${key}`, timeWindow, done);
    }

    // Typed as the route's options, called with the limiter's merged options (its `routeInfo`).
    child(options: unknown): FastifyRateLimitStore {
      const route = (options as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo;
      return new SharedStore(
        route?.url ? `${[route.method ?? ''].flat().join(',')} ${route.url}` : `limiter-${++limiters}`,
      ) as unknown as FastifyRateLimitStore;
    }
  }
  return SharedStore as unknown as FastifyRateLimitStoreCtor;
}
