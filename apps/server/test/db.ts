import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { migrate, openDatabase, type Database } from '../src/db/client';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../drizzle');

/** Identifies the migration set, so a template made before a new migration is never reused. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(dir, name.name);
      if (name.isDirectory()) walk(full);
      else hash.update(name.name).update(readFileSync(full));
    }
  };
  walk(MIGRATIONS_DIR);
  return hash.digest('hex').slice(0, 16);
}

let template: Promise<Blob> | undefined;

/**
 * A migrated, empty PGlite data directory, dumped once per migration set and shared by every test
 * worker through the temp directory: booting from it skips initdb and the migrations (seconds per
 * test file on a busy machine).
 */
function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const file = path.join(tmpdir(), `ledgerpad-pglite-${migrationsHash()}.tar.gz`);
    if (existsSync(file)) return new Blob([await readFile(file)]);
    const pglite = new PGlite();
    await pglite.waitReady;
    await migrate({
      exec: async (sql) => {
        await pglite.exec(sql);
      },
      query: async <T extends Record<string, unknown>>(sql: string, params?: unknown[]) =>
        (await pglite.query<T>(sql, params)).rows,
    });
    const dump = await pglite.dumpDataDir('gzip');
    await pglite.close();
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(tmp, Buffer.from(await dump.arrayBuffer()));
    await rename(tmp, file); // atomic: concurrent workers never read a half-written template
    return dump;
  })();
  return template;
}

/** Drops a test's own PostgreSQL schema and everything in it. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await admin.end();
  }
}

/**
 * A fresh, migrated database for one test file: PGlite in memory by default, or a new schema in the
 * PostgreSQL named by TEST_DATABASE_URL (dropped again by close()).
 */
export async function createTestDatabase(url = process.env.TEST_DATABASE_URL): Promise<Database> {
  if (!url) return openDatabase({ loadDataDir: await pgliteTemplate() });
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const database = await openDatabase({ url, schema });
  const close = database.close;
  return {
    ...database,
    close: async () => {
      await close();
      await dropSchema(url, schema);
    },
  };
}
