import DataLoader from 'dataloader';

// Reads that every request of a burst makes with its own key — the session, the wallet it names,
// the airdrop it claims, what the wallet has in flight — run as one statement per turn of the event
// loop instead of one per request (docs/batched-reads.md). 500 claims at once made ~4,600
// statements, each a protocol round through PGlite's single-threaded WebAssembly or a round trip
// to PostgreSQL; batched, the keys of one turn share one `where … in (…)`.
//
// DataLoader (graphql/dataloader) does the batching; its cache is off, so every call reads the
// database as it is when the batch runs — a batch never answers from an earlier read, it only
// shares the statement with the calls made in the same turn. The batch is dispatched on
// `setImmediate`: the requests parsed in one poll phase (or injected together) all get in.

/**
 * Whether an id can be a serial column's value. A batch shares its statement, so a key the
 * database would refuse (an integer out of range) must be answered "not found" before it joins
 * one — one request's bad id must not fail the others' reads.
 */
export const isRowId = (id: number): boolean => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;

/** At most this many keys in one statement (a larger turn runs several). */
const MAX_BATCH = 500;

/**
 * A batched read: `load(keys)` reads every key of a turn at once and answers a map by `keyOf(key)`;
 * a key the map lacks resolves `undefined`. Duplicate keys in one turn are read once.
 */
export function batchedRead<K, V>(
  load: (keys: K[]) => Promise<Map<string, V>>,
  keyOf: (key: K) => string = String,
): (key: K) => Promise<V | undefined> {
  const loader = new DataLoader<K, V | undefined, string>(
    async (keys) => {
      const unique = new Map<string, K>();
      for (const k of keys) unique.set(keyOf(k), k);
      const found = await load([...unique.values()]);
      return keys.map((k) => found.get(keyOf(k)));
    },
    { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (next) => setImmediate(next) },
  );
  return (key) => loader.load(key);
}

/**
 * batchedRead for a key with many rows: `load(keys)` reads every row of a turn's keys, and each
 * caller gets the rows whose `groupOf(row)` is its key, in the order read (none: an empty list).
 */
export function batchedRows<K, R>(
  load: (keys: K[]) => Promise<R[]>,
  groupOf: (row: R) => string,
  keyOf: (key: K) => string = String,
): (key: K) => Promise<R[]> {
  const read = batchedRead(async (keys: K[]) => {
    const by = new Map<string, R[]>();
    for (const row of await load(keys)) {
      const k = groupOf(row);
      const list = by.get(k);
      if (list) list.push(row);
      else by.set(k, [row]);
    }
    return by;
  }, keyOf);
  return async (key) => (await read(key)) ?? [];
}

/**
 * A batched write whose callers only need to know it is done: `run(items)` writes every item of a
 * turn in one statement. Each caller's promise settles with the statement.
 */
export function batchedWrite<T>(run: (items: T[]) => Promise<void>): (item: T) => Promise<void> {
  const loader = new DataLoader<T, void, T>(
    async (items) => {
      await run([...items]);
      return items.map(() => undefined);
    },
    { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (next) => setImmediate(next) },
  );
  return (item) => loader.load(item);
}

/**
 * A batched call whose answer is per item: `run(items)` handles every item of a turn together and
 * answers, in the same order, each item's value or the Error its caller is rejected with.
 */
export function batchedCall<T, V>(run: (items: T[]) => Promise<Array<V | Error>>): (item: T) => Promise<V> {
  const loader = new DataLoader<T, V, T>((items) => run([...items]), {
    cache: false,
    maxBatchSize: MAX_BATCH,
    batchScheduleFn: (next) => setImmediate(next),
  });
  return (item) => loader.load(item);
}
