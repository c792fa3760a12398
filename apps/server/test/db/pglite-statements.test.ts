import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePreparedStatements } from '../../src/db/pglite-statements';

// PGlite's queries as named statements (src/db/pglite-statements.ts): the same answers and errors as
// PGlite's own path, each text parsed once, the cache bounded, and PGlite's locking kept.
describe('PGlite named statements', () => {
  const MAX = 4;
  let plain: PGlite;
  let named: PGlite;

  beforeAll(async () => {
    [plain, named] = await Promise.all([PGlite.create(), PGlite.create()]);
    usePreparedStatements(named, MAX);
    const ddl = `create table t (
      id serial primary key, n bigint, amount numeric(40, 20), at timestamptz, doc jsonb,
      tags text[], ok boolean, note text unique)`;
    await Promise.all([plain.exec(ddl), named.exec(ddl)]);
  });
  afterAll(async () => {
    await Promise.all([plain.close(), named.close()]);
  });

  const prepared = async (db: PGlite) =>
    (
      await db.query<{ name: string; statement: string }>(
        'select name, statement from pg_prepared_statements',
      )
    ).rows;

  it('answers every type as PGlite does, with and without drizzle-style options', async () => {
    const insert =
      'insert into t (n, amount, at, doc, tags, ok, note) values ($1, $2, $3, $4, $5, $6, $7) returning *';
    const rows: unknown[][] = [
      [
        '9007199254740993',
        '0.00000000000000000001',
        new Date('2026-12-02T04:00:00.123Z'),
        { a: [1, 'x'] },
        ['a', 'b,c'],
        true,
        'one',
      ],
      [null, '12345678901234567890.5', null, null, [], false, null],
    ];
    for (const params of rows) {
      const a = await plain.query(insert, params);
      const b = await named.query(insert, params);
      expect(b.rows).toEqual(a.rows);
      expect(b.fields).toEqual(a.fields);
      expect(b.affectedRows).toBe(1);
    }
    const options = { rowMode: 'array' as const, parsers: { 1184: (v: string) => v } };
    const select = 'select * from t where id = any($1) order by id';
    const a = await plain.query(select, [[1, 2]], options);
    const b = await named.query(select, [[1, 2]], options);
    expect(b.rows).toEqual(a.rows);
    expect(b.rows).toHaveLength(2);
    // The timestamp came back as text through the caller's parser, as PGlite's own path returns it.
    expect(typeof (b.rows[0] as unknown[])[3]).toBe('string');
  });

  it('parses a text once, and keeps at most its bound of statements', async () => {
    const text = 'select count(*)::int as n from t where ok = $1';
    for (let i = 0; i < 5; i++) await named.query(text, [i % 2 === 0]);
    expect((await prepared(named)).filter((s) => s.statement === text)).toHaveLength(1);
    for (let i = 0; i < 3 * MAX; i++) await named.query(`select ${i}::int as i, $1::text as s`, ['x']);
    // The bound, plus the one evicted by the listing's own statement (closed with the next parse).
    const left = await prepared(named);
    expect(left.length).toBeLessThanOrEqual(MAX + 1);
    expect(left.some((s) => s.statement === text)).toBe(false);
    // An evicted text is parsed again and answers.
    expect((await named.query<{ n: number }>(text, [true])).rows[0]?.n).toBe(1);
  });

  it('raises the same DatabaseError, and the connection answers after it', async () => {
    const insert = 'insert into t (note) values ($1)';
    const err = await named.query(insert, ['one']).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '23505', query: insert, params: ['one'] });
    expect(err).toBeInstanceOf(Error);
    const bad = await named.query('select * from nowhere where id = $1', [1]).catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: '42P01' });
    const wrongType = await named.query('select $1::int as n', ['not a number']).catch((e: unknown) => e);
    expect(wrongType).toMatchObject({ code: '22P02' });
    expect((await named.query<{ n: number }>('select $1::int as n', ['7'])).rows).toEqual([{ n: 7 }]);
  });

  it('parses a statement again when its table changed under it', async () => {
    await named.exec('create table s (a int); insert into s values (1)');
    const text = 'select * from s';
    expect((await named.query(text)).rows).toEqual([{ a: 1 }]);
    await named.exec('alter table s add column b int default 2');
    expect((await named.query(text)).rows).toEqual([{ a: 1, b: 2 }]);
  });

  it('runs a transaction’s queries inside it, and other queries after it', async () => {
    const count = 'select count(*)::int as n from t where note like $1';
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const didInsert = new Promise<void>((resolve) => (inserted = resolve));
    const tx = named.transaction(async (t) => {
      await t.query('insert into t (note) values ($1)', ['tx-a']);
      expect((await t.query<{ n: number }>(count, ['tx-%'])).rows[0]?.n).toBe(1);
      inserted();
      await held;
      await t.query('insert into t (note) values ($1)', ['tx-b']);
    });
    await didInsert;
    // Waits for the transaction to end, then sees both of its rows.
    const outside = named.query<{ n: number }>(count, ['tx-%']);
    release();
    await tx;
    expect((await outside).rows[0]?.n).toBe(2);

    // A failed statement inside rolls the whole transaction back, with the statement's error.
    const failed = await named
      .transaction(async (t) => {
        await t.query('insert into t (note) values ($1)', ['tx-c']);
        await t.query('insert into t (note) values ($1)', ['tx-a']);
      })
      .catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: '23505' });
    expect((await named.query<{ n: number }>(count, ['tx-%'])).rows[0]?.n).toBe(2);

    // A rollback by the caller, and the closed transaction refusing more work.
    let kept: { query: PGlite['query'] } | undefined;
    await named.transaction(async (t) => {
      await t.query('insert into t (note) values ($1)', ['tx-d']);
      await t.rollback();
      kept = t;
    });
    expect((await named.query<{ n: number }>(count, ['tx-%'])).rows[0]?.n).toBe(2);
    await expect(kept?.query('select 1')).rejects.toThrow('Transaction is closed');
  });

  it('still passes every text through PGlite.prototype.query, where the statement counters look', async () => {
    const seen: string[] = [];
    const proto = PGlite.prototype as unknown as { query: (...a: unknown[]) => unknown };
    const query = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      seen.push(String(args[0]));
      return query.apply(this, args);
    };
    try {
      expect((await named.query<{ n: number }>('select $1::int + 1 as n', [1])).rows).toEqual([{ n: 2 }]);
    } finally {
      proto.query = query;
    }
    expect(seen).toEqual(['select $1::int + 1 as n']);
    expect((await prepared(named)).some((s) => s.statement === 'select $1::int + 1 as n')).toBe(true);
  });
});
