import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { batchedRead, batchedRows, batchedWrite, isRowId } from '../../src/db/batched';
import { platformSettings } from '../../src/db/schema';
import { createTestDatabase } from '../db';

// The per-turn batching of reads (db/batched.ts), on the real database: the calls of one turn share
// one statement, every batch reads the database as it is then (no cache), and one caller's key
// cannot fail another's read.
describe('batched reads and writes', () => {
  let database: Database;
  const statements: string[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.db.insert(platformSettings).values([
      { key: 'batch_a', value: '1' },
      { key: 'batch_b', value: '2' },
    ]);
  });
  afterAll(async () => {
    await database.close();
  });

  const settingByKey = () =>
    batchedRead(async (keys: string[]) => {
      statements.push(keys.join(','));
      const rows = await database.db
        .select()
        .from(platformSettings)
        .where(inArray(platformSettings.key, keys));
      return new Map(rows.map((r) => [r.key, r.value]));
    });

  it('answers the calls of one turn from one statement, each its own key, duplicates read once', async () => {
    const read = settingByKey();
    statements.length = 0;
    const answers = await Promise.all(['batch_a', 'batch_b', 'batch_a', 'missing'].map((k) => read(k)));
    expect(answers).toEqual(['1', '2', '1', undefined]);
    expect(statements).toEqual(['batch_a,batch_b,missing']);
  });

  it('reads anew in every turn: a write between two turns is seen by the second', async () => {
    const read = settingByKey();
    expect(await read('batch_a')).toBe('1');
    await database.db
      .update(platformSettings)
      .set({ value: '10' })
      .where(eq(platformSettings.key, 'batch_a'));
    expect(await read('batch_a')).toBe('10');
  });

  it('rejects every caller of a batch whose statement fails, and the next turn works again', async () => {
    let fail = true;
    const read = batchedRead(async (keys: string[]) => {
      if (fail) await database.db.execute(sql`select 1/0`);
      return new Map(keys.map((k) => [k, k.toUpperCase()]));
    });
    const settled = await Promise.allSettled([read('x'), read('y')]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await read('x')).toBe('X');
  });

  it('refuses ids no serial column can hold before they join a batch', () => {
    expect([1, 2_147_483_647].map(isRowId)).toEqual([true, true]);
    expect([0, -1, 1.5, 2_147_483_648, Number.NaN, 1e30].map(isRowId)).toEqual(
      Array(6).fill(false) as boolean[],
    );
  });

  it('writes the items of one turn in one statement and settles each caller with it', async () => {
    const runs: string[][] = [];
    const write = batchedWrite(async (keys: string[]) => {
      runs.push(keys);
      await database.db
        .update(platformSettings)
        .set({ value: sql`(${platformSettings.value}::int + 1)::text` })
        .where(inArray(platformSettings.key, keys));
    });
    await Promise.all([write('batch_a'), write('batch_b')]);
    expect(runs).toEqual([['batch_a', 'batch_b']]);
    const rows = await database.db
      .select()
      .from(platformSettings)
      .where(inArray(platformSettings.key, ['batch_a', 'batch_b']));
    expect(Object.fromEntries(rows.map((r) => [r.key, r.value]))).toEqual({ batch_a: '11', batch_b: '3' });
  });

  it('groups many rows per key: each caller gets its own rows in the order read, or none', async () => {
    const loads: string[][] = [];
    const byPrefix = batchedRows(
      async (prefixes: string[]) => {
        loads.push(prefixes);
        const rows = await database.db.select().from(platformSettings).orderBy(platformSettings.key);
        return rows.filter((r) => prefixes.some((p) => r.key.startsWith(p)));
      },
      (r) => r.key.slice(0, 'batch_'.length),
    );
    const [batch, none] = await Promise.all([byPrefix('batch_'), byPrefix('nothing')]);
    expect(batch.map((r) => r.key)).toEqual(['batch_a', 'batch_b']);
    expect(none).toEqual([]);
    expect(loads).toEqual([['batch_', 'nothing']]);
  });
});
