import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { bulkInsert, tableRows } from '../../src/db/bulk-insert';
import { rowsOf } from '../../src/db/results';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { createTestDatabase } from '../db';

// A raw `bulkInsert … returning *` read through `tableRows` must answer the very rows drizzle's own
// select answers (issue 40: the submission records of a burst are written this way), on PGlite and
// on PostgreSQL alike: bigints as numbers, timestamps as Dates, nulls, defaults, json.
describe(`bulk insert's returned rows (${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('are the rows drizzle selects, column for column', async () => {
    const values = [
      { key: 'bulk-a', sequence: 2 ** 40, userId: 7, walletId: 3, parent: null },
      { key: 'bulk-b', sequence: 5, userId: null, walletId: null, parent: 'AB'.repeat(32) },
    ];
    const raw = await database.db.execute(
      bulkInsert(
        ledgerSubmissions,
        [
          { column: ledgerSubmissions.intentKey, type: 'text', value: (v) => v.key },
          { column: ledgerSubmissions.account, type: 'text', value: () => 'rAccount' },
          { column: ledgerSubmissions.sequence, type: 'bigint', value: (v) => v.sequence },
          { column: ledgerSubmissions.lastLedgerSequence, type: 'bigint', value: (v) => v.sequence + 20 },
          { column: ledgerSubmissions.txType, type: 'text', value: () => 'Payment' },
          { column: ledgerSubmissions.purpose, type: 'text', value: () => 'test' },
          { column: ledgerSubmissions.userId, type: 'integer', value: (v) => v.userId },
          { column: ledgerSubmissions.walletId, type: 'bigint', value: (v) => v.walletId },
          { column: ledgerSubmissions.hash, type: 'text', value: (v) => `${v.key}-hash` },
          { column: ledgerSubmissions.txBlob, type: 'text', value: () => '1200' },
          { column: ledgerSubmissions.parentHash, type: 'text', value: (v) => v.parent },
        ],
        values,
        sql`returning *`,
      ),
    );
    const returned = tableRows(ledgerSubmissions, rowsOf<Record<string, unknown>>(raw));
    const selected = await database.db
      .select()
      .from(ledgerSubmissions)
      .where(inArray(ledgerSubmissions.intentKey, ['bulk-a', 'bulk-b']))
      .orderBy(ledgerSubmissions.id);
    expect(returned).toEqual(selected);
    expect(returned[0]).toMatchObject({
      sequence: 2 ** 40,
      userId: 7,
      status: 'pending',
      signer: 'platform',
    });
    expect(returned[0]!.createdAt).toBeInstanceOf(Date);
    expect(returned[1]).toMatchObject({
      userId: null,
      walletId: null,
      parentHash: 'AB'.repeat(32),
      meta: null,
    });

    // A json column read the same way: the settle's metadata.
    const meta = { TransactionResult: 'tesSUCCESS', AffectedNodes: [{ ModifiedNode: { n: 1 } }] };
    const updated = await database.db.execute(
      sql`update ${ledgerSubmissions} set meta = ${JSON.stringify(meta)}::json where intent_key = 'bulk-a' returning *`,
    );
    const [after] = tableRows(ledgerSubmissions, rowsOf<Record<string, unknown>>(updated));
    const [again] = await database.db
      .select()
      .from(ledgerSubmissions)
      .where(inArray(ledgerSubmissions.intentKey, ['bulk-a']));
    expect(after).toEqual(again);
    expect(after!.meta).toEqual(meta);
  });
});
