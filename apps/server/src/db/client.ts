import { readFile } from 'node:fs/promises';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { SERVER_DIR } from '../paths';
import { usePreparedStatements } from './pglite-statements';
import { isEmptyDir, PGLITE_TEMPLATE_FILE, unpackPgliteTemplate } from './pglite-template';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** Raw SQL access shared by both drivers (migrations, LISTEN/NOTIFY, health checks). */
export interface SqlRunner {
  exec(sql: string): Promise<void>;
  query<T extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Database {
  db: Db;
  sql: SqlRunner;
  driver: 'pglite' | 'postgres';
  /** PostgreSQL only: the connection string and schema, for LISTEN/NOTIFY clients. */
  postgres?: { url: string; schema: string };
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL; without it PGlite is used. */
  url?: string;
  /** PGlite data directory; undefined means in-memory. */
  dataDir?: string;
  /** PostgreSQL schema to use (tests get a fresh one each); default public. */
  schema?: string;
  /** Apply migrations before returning (default true). */
  migrate?: boolean;
  /** PGlite only: start from a dumped data directory (tests use a migrated template: 5x faster). */
  loadDataDir?: Blob;
}

const MIGRATIONS_DIR = path.join(SERVER_DIR, 'drizzle');

export async function openDatabase(opts: DatabaseOptions = {}): Promise<Database> {
  const database = opts.url ? await openPostgres(opts.url, opts.schema ?? 'public') : await openPglite(opts);
  if (opts.migrate !== false) await applyMigrations(database);
  return database;
}

/** Applies the pending migrations (on PostgreSQL under the advisory lock); the tags applied. */
export async function applyMigrations(database: Database): Promise<string[]> {
  const pgTarget = database.postgres;
  if (!pgTarget) return migrate(database.sql);
  return migrateOnce(pgTarget.url, pgTarget.schema, () => migrate(database.sql, pgTarget.schema));
}

/**
 * PGlite's postgres allocates shared_buffers inside its WebAssembly heap, and the allocation zeroes
 * (touches) all of it: initdb's 128MB default made the heap grow past its 128MB floor. 16MB is plenty
 * for this database: pages that miss it are read through the data directory's files, which the OS
 * page cache keeps. initDbStartParams writes it into a new postgresql.conf; startParams applies it
 * to data directories made before this setting.
 */
const PGLITE_SHARED_BUFFERS = ['-c', 'shared_buffers=16MB'];
/**
 * New WAL segments are not zero-filled first (PostgreSQL's option for file systems where that buys
 * nothing): PGlite's in-memory file system grows a file by an eighth at a time, copying it, so
 * zero-filling each 16MB segment in 8KB writes cost ~100 ms of CPU whenever the WAL crossed into a
 * new one — a spike in the indexer's catch-up (docs/market-data.md). Without it the segment is made
 * by one write at its end. fsync is already off in PGlite; nothing else about durability changes.
 * Segments a checkpoint no longer needs are deleted, not renamed for reuse (`wal_recycle=off`): a
 * recycled segment keeps every byte of the rows it logged until it is overwritten, so a deleted row
 * (a secret removed by a migration, issue 34) would live on in the data directory's files.
 */
const PGLITE_WAL = ['-c', 'wal_init_zero=off', '-c', 'wal_recycle=off'];
export const PGLITE_MEMORY_OPTIONS = {
  initDbStartParams: [...PGLITE_SHARED_BUFFERS, ...PGLITE_WAL],
  startParams: [...PGlite.defaultStartParams, ...PGLITE_SHARED_BUFFERS, ...PGLITE_WAL],
};

async function startPglite(opts: DatabaseOptions): Promise<PGlite> {
  const open = async () => {
    const loadDataDir = opts.dataDir ? undefined : opts.loadDataDir;
    const client = new PGlite({ dataDir: opts.dataDir, ...PGLITE_MEMORY_OPTIONS, loadDataDir });
    await client.waitReady;
    return client;
  };
  // A new data directory starts from the unpacked initdb template instead of PGlite's own initdb:
  // ~450MB less peak memory on the first start (pglite-template.ts).
  const dataDir = opts.dataDir;
  if (!dataDir || !isEmptyDir(dataDir) || !(await unpackPgliteTemplate(dataDir))) {
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    return open();
  }
  try {
    return await open();
  } catch (err) {
    // Postgres refuses a data directory of another major or catalog version (a PGlite upgrade):
    // the directory held nothing before, so start it over with PGlite's own initdb.
    console.warn(
      `The PGlite template ${PGLITE_TEMPLATE_FILE} does not fit the installed PGlite ` +
        `(${err instanceof Error ? err.message : String(err)}); running initdb instead. ` +
        'Regenerate it: npm run db:pglite-template -w apps/server',
    );
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    return open();
  }
}

/** Most PGlite work (milliseconds) run in one turn of the event loop before it yields (below). */
export const PGLITE_SLICE_MS = 5;

/**
 * PGlite runs each statement synchronously (WebAssembly) on this thread and settles its promise
 * without any I/O, so a chain of awaited statements — a snapshot build, an indexer transaction —
 * ran as one unbroken run of microtasks: 50–120 ms during which no request was answered (measured
 * with the demo market, docs/benchmarks.md). Every statement passes through `execProtocolStream`
 * (a few protocol rounds each): once the statements run in the current turn of the loop have taken
 * PGLITE_SLICE_MS, the next round first yields to the macrotask queue (setImmediate), so waiting
 * requests and sockets are served in between. Yielding at every round instead made each statement
 * wait behind a whole turn of queued requests several times: a chain of ten statements took
 * seconds under load, and every request waiting for its answer with it. Statements still run one at
 * a time and in order (PGlite's mutex holds a query or a transaction across the yield).
 */
export function yieldBetweenStatements(client: PGlite, sliceMs = PGLITE_SLICE_MS): void {
  const run = client.execProtocolStream.bind(client);
  /** When this turn's PGlite work started (undefined: none yet in this turn). */
  let sliceStart: number | undefined;
  const startSlice = () => {
    sliceStart = performance.now();
    // The loop's next check phase ends this turn's slice.
    setImmediate(() => {
      sliceStart = undefined;
    });
  };
  client.execProtocolStream = async (...args: Parameters<PGlite['execProtocolStream']>) => {
    if (sliceStart === undefined) startSlice();
    else if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (sliceStart === undefined) startSlice();
    }
    return run(...args);
  };
}

async function openPglite(opts: DatabaseOptions): Promise<Database> {
  const client = await startPglite(opts);
  yieldBetweenStatements(client);
  usePreparedStatements(client);
  const sql: SqlRunner = {
    exec: async (text) => {
      await client.exec(text);
    },
    query: async <T extends Record<string, unknown>>(text: string, params?: unknown[]) =>
      (await client.query<T>(text, params)).rows,
  };
  return {
    db: drizzlePglite(client, { schema }) as unknown as Db,
    sql,
    driver: 'pglite',
    ping: async () => {
      try {
        await client.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

async function openPostgres(url: string, schemaName: string): Promise<Database> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schemaName)) throw new Error(`Invalid schema name: ${schemaName}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // Every connection of the pool sees the chosen schema first, so tests can share one database.
    options: `-c search_path=${schemaName}`,
  });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  if (schemaName !== 'public') await pool.query(`create schema if not exists ${schemaName}`);
  const sql: SqlRunner = {
    exec: async (text) => {
      await pool.query(text);
    },
    query: async <T extends Record<string, unknown>>(text: string, params?: unknown[]) =>
      (await pool.query(text, params)).rows as T[],
  };
  return {
    db: drizzlePg(pool, { schema }) as unknown as Db,
    sql,
    driver: 'postgres',
    postgres: { url, schema: schemaName },
    ping: async () => {
      try {
        await pool.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      await pool.end();
    },
  };
}

/**
 * Several instances starting together on one PostgreSQL: one applies the migrations while the
 * others wait on a session advisory lock, then find nothing left to do. So an upgrade's migrations
 * run exactly once, whichever instance starts first (docs/production.md).
 */
async function migrateOnce<T>(url: string, schemaName: string, run: () => Promise<T>): Promise<T> {
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock(hashtext($1))', [`ledgerpad-migrations:${schemaName}`]);
    return await run();
  } finally {
    await lock.end().catch(() => undefined); // ending the session releases the lock
  }
}

interface Journal {
  entries: Array<{ idx: number; tag: string }>;
}

/**
 * Applies drizzle-kit's generated SQL files in journal order, once each. Our own runner (instead of
 * drizzle's migrator) lets the same files run inside any schema: drizzle-kit qualifies foreign keys
 * with "public", which would point a test schema's tables at the public ones.
 */
export async function migrate(
  sql: SqlRunner,
  schemaName = 'public',
  /** Stop before this migration (tests build a database as an older version left it). */
  opts: { stopBefore?: string } = {},
): Promise<string[]> {
  const journal = JSON.parse(
    await readFile(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8'),
  ) as Journal;
  await sql.exec(
    'create table if not exists _migrations (tag text primary key, applied_at timestamptz not null default now())',
  );
  const done = new Set((await sql.query<{ tag: string }>('select tag from _migrations')).map((r) => r.tag));
  const applied: string[] = [];
  for (const entry of [...journal.entries].sort((a, b) => a.idx - b.idx)) {
    if (entry.tag === opts.stopBefore) break;
    if (done.has(entry.tag)) continue;
    let text = await readFile(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), 'utf8');
    if (schemaName !== 'public') text = text.replaceAll('"public".', '');
    const statements = text
      .split('--> statement-breakpoint')
      .map((s) => s.trim())
      .filter(Boolean);
    await sql.exec(
      ['begin', ...statements, `insert into _migrations(tag) values ('${entry.tag}')`, 'commit'].join(';\n'),
    );
    applied.push(entry.tag);
  }
  return applied;
}
