import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

// Many rows in one statement with one parameter per column: `insert into t (a, b) select * from
// unnest($1::bigint[], $2::text[])`. drizzle's multi-row `values()` builds SQL and a parameter per
// value, and its builder cost ~20 µs per value (most of the indexer's catch-up time went there for
// a ledger's trades); the statement text here stays the same size whatever the number of rows.
// Values go in as they would one by one: numbers and text as given, numeric as decimal strings
// (exact), timestamps as ISO strings.

/** PostgreSQL element types the helper casts to. */
export type BulkType = 'bigint' | 'integer' | 'text' | 'numeric' | 'timestamptz' | 'boolean';

export interface BulkColumn<R> {
  column: PgColumn;
  type: BulkType;
  value: (row: R) => string | number | boolean | null;
}

/**
 * `insert into <table> (<columns>) select * from unnest(<one array per column>)`, followed by
 * `tail` (an `on conflict …` clause). Rows keep their order (serial ids are assigned in it).
 */
export function bulkInsert<R>(table: PgTable, columns: Array<BulkColumn<R>>, rows: R[], tail?: SQL): SQL {
  const names = sql.join(
    columns.map((c) => sql.identifier(c.column.name)),
    sql`, `,
  );
  const arrays = sql.join(
    columns.map((c) => sql`${sql.param(rows.map(c.value))}::${sql.raw(c.type)}[]`),
    sql`, `,
  );
  return sql`insert into ${table} (${names}) select * from unnest(${arrays}) ${tail ?? sql``}`;
}

/**
 * An upsert's `set` taking every column but `keep` from the proposed row (`excluded.<column>`): a
 * multi-row `on conflict do update` leaves each row as its own insert would have.
 */
export function fromExcluded<T extends PgTable>(
  table: T,
  keep: Array<keyof T['_']['columns']>,
): Record<string, SQL> {
  const set: Record<string, SQL> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    if (!keep.includes(key)) set[key] = sql`excluded.${sql.identifier(column.name)}`;
  }
  return set;
}

/**
 * The rows a raw statement returned (`returning *`, keyed by column name) as drizzle's own builder
 * answers them: each under its property, through its column's mapping (bigint as number, a
 * timestamp as a Date, json parsed). For `bulkInsert … returning *`, whose rows are the table's.
 */
export function tableRows<T extends PgTable>(
  table: T,
  raw: Array<Record<string, unknown>>,
): Array<T['$inferSelect']> {
  const columns = Object.entries(getTableColumns(table));
  return raw.map((r) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = r[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as T['$inferSelect'];
  });
}
