import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/client';

/**
 * A fresh, migrated database for one test file: PGlite in memory by default, or a new schema in the
 * PostgreSQL named by TEST_DATABASE_URL (dropped again by close()).
 */
export async function createTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return openDatabase();
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const database = await openDatabase({ url, schema });
  const close = database.close;
  return {
    ...database,
    close: async () => {
      await close();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await admin.end();
      }
    },
  };
}
