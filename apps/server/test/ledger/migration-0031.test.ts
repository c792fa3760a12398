import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionMetadata } from 'xrpl';
import { migrate, openDatabase, type Database } from '../../src/db/client';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { settle, type SettleContext } from '../../src/ledger/settle';
import { silentLog, type SubmissionRow } from '../../src/ledger/submission-types';
import { dropSchema } from '../db';

// A transaction's metadata is stored as json, not jsonb (migration 0031, issue 40): a database from
// before it keeps every stored document, and what `settle` writes afterwards reads back through the
// app's client as the object it was (PGlite, or PostgreSQL with TEST_DATABASE_URL: node-postgres).

const TAG = '0031_meta_json';
const url = process.env.TEST_DATABASE_URL;
const schema = url ? `t_${randomBytes(6).toString('hex')}` : 'public';

let database: Database;

beforeAll(async () => {
  database = await openDatabase(url ? { url, schema, migrate: false } : { migrate: false });
  // The database as it was before 0031.
  await migrate(database.sql, schema, { stopBefore: TAG });
}, 60_000);

afterAll(async () => {
  await database?.close();
  if (url) await dropSchema(url, schema);
});

/** A Payment's metadata in the ledger's own key order (jsonb would store its keys sorted). */
const paymentMeta = (index: number): TransactionMetadata =>
  ({
    TransactionIndex: index,
    TransactionResult: 'tesSUCCESS',
    delivered_amount: { currency: 'ABC', issuer: 'rIssuer', value: '1234.567890123456' },
    AffectedNodes: [
      {
        ModifiedNode: {
          LedgerEntryType: 'AccountRoot',
          LedgerIndex: `${'A'.repeat(63)}${index}`,
          FinalFields: { Account: 'rBuyer', Balance: '99999988', Flags: 0, OwnerCount: 1, Sequence: 7 },
          PreviousFields: { Balance: '100000000', Sequence: 6 },
          PreviousTxnID: 'B'.repeat(64),
          PreviousTxnLgrSeq: 41,
        },
      },
    ],
  }) as unknown as TransactionMetadata;

const columnType = async () =>
  (
    await database.sql.query<{ data_type: string }>(
      `select data_type from information_schema.columns
        where table_schema = $1 and table_name = 'ledger_submissions' and column_name = 'meta'`,
      [schema],
    )
  )[0]?.data_type;

const insertRow = (hash: string, status: string, meta: string | null) =>
  database.sql.query(
    `insert into ledger_submissions (intent_key, account, sequence, last_ledger_sequence, tx_type, purpose,
        hash, tx_blob, status, result, ledger_index, meta)
      values ($1, 'rBuyer', $2, 100, 'Payment', 'test', $1, 'BLOB', $3, $4, $5, $6)`,
    [
      hash,
      Number(hash.slice(1)),
      status,
      status === 'success' ? 'tesSUCCESS' : null,
      status === 'success' ? 42 : null,
      meta,
    ],
  );

describe('migration 0031: ledger_submissions.meta json', () => {
  it('keeps a stored metadata document, and settle writes ones that read back as objects', async () => {
    expect(await columnType()).toBe('jsonb');
    const before = paymentMeta(3);
    await insertRow('H1', 'success', JSON.stringify(before));
    await insertRow('H2', 'success', null);

    expect(await migrate(database.sql, schema)).toEqual([TAG]);
    expect(await columnType()).toBe('json');

    // Read through the app's drizzle client: the document written under jsonb, equal; none stays null.
    const [kept] = await database.db.select().from(ledgerSubmissions).where(eq(ledgerSubmissions.hash, 'H1'));
    expect(kept!.meta).toEqual(before);
    const [none] = await database.db.select().from(ledgerSubmissions).where(eq(ledgerSubmissions.hash, 'H2'));
    expect(none!.meta).toBeNull();

    // Settled after the migration, by the hot path's statement: stored verbatim, keys in the
    // ledger's order, and an expired transaction's metadata is null.
    await insertRow('H3', 'submitted', null);
    await insertRow('H4', 'submitted', null);
    const rows = await database.db.select().from(ledgerSubmissions);
    const tracked: SettleContext['tracked'] = new Map();
    for (const row of rows.filter((r) => r.status === 'submitted'))
      tracked.set(row.hash, { row, lastSubmitLedger: 0, waiters: [], engineWaiters: [], engineSeen: true });
    const finalized: SubmissionRow[] = [];
    const after = paymentMeta(5);
    await settle(
      {
        db: database.db,
        log: silentLog,
        tracked,
        finalizedListeners: new Set([(row) => finalized.push(row)]),
        idleWaiters: [],
        releaseSequence: async () => {},
      },
      [
        { hash: 'H3', result: 'tesSUCCESS', ledgerIndex: 43, meta: after, consumed: true },
        { hash: 'H4', result: 'expired', ledgerIndex: null, meta: null, consumed: true },
      ],
    );
    expect(finalized.map((r) => r.hash)).toEqual(['H3', 'H4']);
    const settled = await database.db
      .select({
        hash: ledgerSubmissions.hash,
        status: ledgerSubmissions.status,
        meta: ledgerSubmissions.meta,
      })
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.status, 'success'))
      .orderBy(ledgerSubmissions.hash);
    expect(settled.map((r) => r.hash)).toEqual(['H1', 'H2', 'H3']);
    const written = settled[2]!.meta;
    expect(written).toEqual(after);
    expect(Object.keys(written as object)).toEqual(Object.keys(after));
    const [expired] = await database.db
      .select()
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.hash, 'H4'));
    expect([expired!.status, expired!.meta]).toEqual(['failed', null]);
  });
});
