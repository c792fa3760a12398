import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, type Database } from '../src/db/client';
import { platformSettings } from '../src/db/schema';
import { createTestDatabase } from './db';

// Runs on PGlite by default and on PostgreSQL when TEST_DATABASE_URL is set (CI does both).
describe(`database (${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('uses the driver the environment asks for', () => {
    expect(database.driver).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  });

  it('has applied every migration once, and re-running applies nothing', async () => {
    const rows = await database.sql.query<{ tag: string }>('select tag from _migrations order by tag');
    expect(rows.map((r) => r.tag)).toContain('0000_init');
    expect(await migrate(database.sql, database.postgres?.schema)).toEqual([]);
  });

  it('reads and writes through drizzle', async () => {
    await database.db.insert(platformSettings).values({ key: 'service_fee', value: '15' });
    const [row] = await database.db
      .select()
      .from(platformSettings)
      .where(eq(platformSettings.key, 'service_fee'));
    expect(row?.value).toBe('15');
    expect(row?.updatedAt).toBeInstanceOf(Date);
  });

  it('answers ping', async () => {
    expect(await database.ping()).toBe(true);
  });
});
