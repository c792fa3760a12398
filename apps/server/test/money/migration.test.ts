import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, PGLITE_MEMORY_OPTIONS, type SqlRunner } from '../../src/db/client';

// Money columns become numeric (migration 0014): a database at 0013 holding money as text keeps
// every value, exactly, after the migration; empty texts of nullable columns become NULL.

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

let pglite: PGlite;
let sql: SqlRunner;

beforeAll(async () => {
  pglite = new PGlite(PGLITE_MEMORY_OPTIONS);
  sql = {
    exec: async (text) => {
      await pglite.exec(text);
    },
    query: async <T extends Record<string, unknown>>(text: string, params?: unknown[]) =>
      (await pglite.query<T>(text, params)).rows,
  };
  // The database as it was before 0014: every earlier migration applied and recorded.
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: Array<{ idx: number; tag: string }>;
  };
  await sql.exec(
    'create table _migrations (tag text primary key, applied_at timestamptz not null default now())',
  );
  for (const e of journal.entries.filter((x) => x.idx < 14).sort((a, b) => a.idx - b.idx)) {
    const text = await readFile(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), 'utf8');
    await sql.exec(text.split('--> statement-breakpoint').join(';\n'));
    await sql.query('insert into _migrations(tag) values ($1)', [e.tag]);
  }
}, 60_000);

afterAll(async () => {
  await pglite?.close();
});

describe('migration 0014: money columns numeric', () => {
  it('keeps every value exactly', async () => {
    await sql.exec(`
      insert into users (id, username, custom_fee_percentage, slippage) values
        (1001, 'a', '0.5', '0.50'), (1002, 'b', '', null);
      insert into tokens (name, ticker, currency, issuer_address, supply, total_reward, total_claimed, source)
        values ('T', 'TTT', 'TTT', 'rTokenIssuer', '1000000000000000000000', '0.024999', '0.000001', 'deploy');
      insert into trading_trades (user_id, wallet_id, wallet_address, issuer, currency, quote, side, spent, received, hash, fee, fee_status)
        values (1001, 1, 'rW', 'rI', 'TTT', 'XRP', 'BUY', '98.00957', '1234.567890123456', 'H1', '0.735071', 'paid');
    `);
    const applied = await migrate(sql);
    expect(applied[0]).toBe('0014_money');
    const types = await sql.query<{ table_name: string; column_name: string; data_type: string }>(
      `select table_name, column_name, data_type from information_schema.columns
        where (table_name, column_name) in (('tokens', 'supply'), ('tokens', 'total_reward'), ('trading_trades', 'fee'),
          ('users', 'custom_fee_percentage'), ('airdrops', 'remaining'), ('reward_claims', 'amount'))
        order by 1, 2`,
    );
    expect(types.every((t) => t.data_type === 'numeric')).toBe(true);
    expect(types).toHaveLength(6);
    const [token] = await sql.query<{
      supply: string;
      total_reward: string;
      total_claimed: string;
      dev_allocation: string;
    }>(`select supply::text, total_reward::text, total_claimed::text, dev_allocation::text from tokens`);
    expect(token).toEqual({
      supply: '1000000000000000000000',
      total_reward: '0.024999',
      total_claimed: '0.000001',
      dev_allocation: '0',
    });
    const [trade] = await sql.query<{ spent: string; received: string; fee: string }>(
      `select spent::text, received::text, fee::text from trading_trades`,
    );
    expect(trade).toEqual({ spent: '98.00957', received: '1234.567890123456', fee: '0.735071' });
    const users = await sql.query<{ id: number; fee: string | null; slippage: string | null }>(
      `select id, custom_fee_percentage::text as fee, slippage::text as slippage from users where id > 1000 order by id`,
    );
    expect(users).toEqual([
      { id: 1001, fee: '0.5', slippage: '0.50' },
      { id: 1002, fee: null, slippage: null },
    ]);
    // Arithmetic in SQL is exact now (no text casts): 0.024999 − 0.000001 + 0.000002.
    await sql.exec(`update tokens set total_claimed = total_claimed + 0.000001::numeric`);
    const [left] = await sql.query<{ unclaimed: string }>(
      `select (total_reward - total_claimed)::text as unclaimed from tokens`,
    );
    expect(left!.unclaimed).toBe('0.024997');
  });
});
