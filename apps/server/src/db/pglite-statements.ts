import {
  parse,
  PGlite,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';

/** Named statements kept per PGlite instance (the least recently used beyond it are closed). */
export const PGLITE_STATEMENT_CACHE = 256;

interface Statement {
  name: string;
  /** The parameters' type OIDs, as PostgreSQL inferred them when the statement was parsed. */
  types: number[];
}

/** SQLSTATEs of a named statement gone stale: its result type changed under it, or it is gone. */
const STALE_STATEMENT = new Set(['0A000', '26000']);

const isStale = (err: unknown) =>
  !!err && typeof err === 'object' && 'code' in err && STALE_STATEMENT.has(String(err.code));

/** What PGlite's internals this file calls: public-by-convention methods of its 0.x client. */
interface PgliteInternals {
  _checkReady(): Promise<void>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

/** The instances that use named statements, with their own `query` and `transaction`. */
const prepared = new WeakMap<PGlite, Pick<PGlite, 'query' | 'transaction'>>();
const proto = PGlite.prototype;
const pgliteQuery = proto.query;
const pgliteTransaction = proto.transaction;
// Installed on the prototype, not on the instance, so that anything wrapping PGlite's `query` to
// count or time statements (the bench's statement counter, a test's) still sees every text.
proto.query = function (this: PGlite, ...args: Parameters<PGlite['query']>) {
  const own = prepared.get(this);
  return own ? own.query(...args) : pgliteQuery.apply(this, args);
} as PGlite['query'];
proto.transaction = function (this: PGlite, ...args: Parameters<PGlite['transaction']>) {
  const own = prepared.get(this);
  return own ? own.transaction(...args) : pgliteTransaction.apply(this, args);
} as PGlite['transaction'];

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * PGlite's `query` sends each statement as six protocol messages into its WebAssembly postgres — Parse,
 * Describe, Bind, Describe, Execute, Sync — and postgres parses, analyses and plans the text every
 * time. On the hot launch that was most of a buy's database time on the main thread (docs/benchmarks.md
 * "Named statements on PGlite"). Here every text is parsed once into a named statement (Parse,
 * Describe, Sync: one round), and each call after it is one round (Bind, Describe, Execute, Sync) whose
 * plan postgres caches as it does for any client's prepared statement (custom plans for the first five
 * runs, then the generic one only where it costs no more). A session-level lookup measured 435–600 → 247 µs,
 * a primary-key select 248 → 95 µs.
 *
 * Results, errors (the same DatabaseError with its `code`, `query` and `params`) and locking (a query
 * waits for an open transaction, a transaction's queries run inside it) are those of PGlite's own
 * `query`; drizzle and every raw query go through it unchanged. Statements with a blob (COPY) or
 * explicit parameter types keep PGlite's path.
 */
export function usePreparedStatements(client: PGlite, max = PGLITE_STATEMENT_CACHE): void {
  const internals = client as unknown as PgliteInternals;
  const unprepared = <T>(text: string, params?: unknown[], options?: QueryOptions) =>
    pgliteQuery.call(client, text, params, options) as Promise<Results<T>>;
  const transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    pgliteTransaction.call(client, callback) as Promise<T>;
  const serialize = protocol.serialize;
  /** By text, least recently used first (a Map keeps insertion order; a hit re-inserts). */
  const statements = new Map<string, Statement>();
  /** Names evicted from the map, closed in postgres with the next statement parsed. */
  let toClose: string[] = [];
  let counter = 0;

  const run = (message: Uint8Array) => client.execProtocolStream(message, { syncToFs: false });

  const prepare = async (text: string): Promise<Statement> => {
    const known = statements.get(text);
    if (known) {
      statements.delete(text);
      statements.set(text, known);
      return known;
    }
    const name = `lp_${++counter}`;
    const closing = toClose.map((n) => serialize.close({ type: 'S', name: n }));
    toClose = [];
    const messages = await run(
      concat([
        ...closing,
        serialize.parse({ name, text }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
    );
    const statement = { name, types: parse.parseDescribeStatementResults(messages) };
    statements.set(text, statement);
    if (statements.size > max) {
      const [oldest, evicted] = statements.entries().next().value as [string, Statement];
      statements.delete(oldest);
      toClose.push(evicted.name);
    }
    return statement;
  };

  const forget = (text: string) => {
    const statement = statements.get(text);
    if (!statement) return;
    statements.delete(text);
    toClose.push(statement.name);
  };

  /** One statement, the caller holding PGlite's query lock. */
  const execute = async <T>(text: string, params: unknown[], options: QueryOptions | undefined) => {
    const statement = await prepare(text);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.types[i] ?? 0;
      const serializer = options?.serializers?.[type] ?? client.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await run(
      concat([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    return parse.parseResults(messages, client.parsers, options)[0] as Results<T>;
  };

  /** As PGlite's own errors: the statement, its parameters and options on the DatabaseError. */
  const annotate = (err: unknown, text: string, params: unknown[], options: QueryOptions | undefined) => {
    if (err && typeof err === 'object' && 'code' in err) {
      Object.assign(err, { query: text, params, queryOptions: options });
      if (isStale(err)) forget(text);
    }
    return err;
  };

  const usable = (options: QueryOptions | undefined) => !options?.blob && !options?.paramTypes;

  const query = async <T>(
    text: string,
    params: unknown[] = [],
    options?: QueryOptions,
  ): Promise<Results<T>> => {
    if (!usable(options)) return unprepared<T>(text, params, options);
    await internals._checkReady();
    return internals._runExclusiveTransaction(() =>
      internals._runExclusiveQuery(async () => {
        let result: Results<T>;
        try {
          result = await execute<T>(text, params, options);
        } catch (err) {
          annotate(err, text, params, options);
          // Outside a transaction a stale statement (a migration changed its table) is parsed again.
          if (!isStale(err)) throw err;
          try {
            result = await execute<T>(text, params, options);
          } catch (again) {
            throw annotate(again, text, params, options);
          }
        }
        await client.syncToFs();
        return result;
      }),
    );
  };

  const inTransaction = <T>(callback: (tx: Transaction) => Promise<T>): Promise<T> =>
    transaction((tx) => {
      // The transaction's own object (rollback, exec, `closed`) with its queries through the statements.
      const wrapped: Transaction = Object.create(tx, {
        query: {
          value: async <R>(
            text: string,
            params: unknown[] = [],
            options?: QueryOptions,
          ): Promise<Results<R>> => {
            if (tx.closed) throw new Error('Transaction is closed');
            if (!usable(options)) return tx.query<R>(text, params, options);
            return internals._runExclusiveQuery(async () => {
              try {
                return await execute<R>(text, params, options);
              } catch (err) {
                throw annotate(err, text, params, options);
              }
            });
          },
        },
      });
      return callback(wrapped);
    });

  prepared.set(client, { query, transaction: inTransaction });
}
