import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '@ledgerpad/shared';
import { migrate, PGLITE_MEMORY_OPTIONS, type SqlRunner } from '../../src/db/client';
import { bondingCurves, bondingTrades } from '../../src/modules/bonding/schema';
import { addMicros } from '../../src/modules/bonding/indexer';

// The bonding curve's money columns become numeric (migration 0019, issue 23): a database from
// before it, holding them as text, keeps every value exactly, and the code's string reads and
// in-SQL counter additions stay exact on the numeric columns.

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');
const TAG = '0019_db_logos_bonding_numeric';

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
  // The database as it was before 0019: every other migration applied and recorded.
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: Array<{ idx: number; tag: string }>;
  };
  await sql.exec(
    'create table _migrations (tag text primary key, applied_at timestamptz not null default now())',
  );
  for (const e of journal.entries.filter((x) => x.tag < TAG).sort((a, b) => a.idx - b.idx)) {
    const text = await readFile(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), 'utf8');
    await sql.exec(text.split('--> statement-breakpoint').join(';\n'));
    await sql.query('insert into _migrations(tag) values ($1)', [e.tag]);
  }
}, 60_000);

afterAll(async () => {
  await pglite?.close();
});

describe('migration 0019: bonding-curve money columns numeric', () => {
  it('keeps every value exactly, and the counters add exactly afterwards', async () => {
    await sql.exec(`
      insert into bonding_curves (id, token_id, issuer_address, currency, quote, curve_wallet_id, curve_address,
          creator_user_id, creator_address, deposit_drops, virtual_quote, steps, fine_steps, snipe_ledgers,
          snipe_tokens, amm_trading_fee, held, fee_ppm, quote_in, quote_out, fees_accrued, fees_swept,
          pool_quote, pool_tokens)
        values (7, 1, 'rIssuer', 'ABC', 'XRP', 1, 'rCurve', 1, 'rCreator', '25000000', '30000000000', 40, 8, 10,
          '10000000', 300, '799999999.123456789012345', 10000, '123456789', '0', '1234567', '1000000', '', null);
      insert into bonding_trades (curve_id, hash, ledger_index, account, side, tokens, quote, fee, sold_after)
        values (7, 'H1', 10, 'rBuyer', 'BUY', '200000000.876543210987655', '123456789', '1234567',
          '200000000.876543210987655');
    `);
    const applied = await migrate(sql);
    expect(applied).toContain(TAG);
    const types = await sql.query<{ table_name: string; column_name: string; data_type: string }>(
      `select table_name, column_name, data_type from information_schema.columns
        where table_name in ('bonding_curves', 'bonding_trades') and data_type = 'numeric' order by 1, 2`,
    );
    // Every migration runs, so later money columns are here too — numeric like these: 0030's window
    // launch (curve_tokens, real_quote, start_held, total_supply, virtual_tokens).
    expect(types.map((t) => `${t.table_name}.${t.column_name}`)).toEqual([
      'bonding_curves.curve_tokens',
      'bonding_curves.deposit_drops',
      'bonding_curves.fees_accrued',
      'bonding_curves.fees_swept',
      'bonding_curves.held',
      'bonding_curves.pool_quote',
      'bonding_curves.pool_tokens',
      'bonding_curves.quote_in',
      'bonding_curves.quote_out',
      'bonding_curves.real_quote',
      'bonding_curves.snipe_tokens',
      'bonding_curves.start_held',
      'bonding_curves.total_supply',
      'bonding_curves.virtual_quote',
      'bonding_curves.virtual_tokens',
      'bonding_trades.fee',
      'bonding_trades.quote',
      'bonding_trades.sold_after',
      'bonding_trades.tokens',
    ]);

    // Read through the drizzle schema the code uses: strings, exactly what was stored.
    const db = drizzle(pglite);
    const [curve] = await db.select().from(bondingCurves).where(eq(bondingCurves.id, 7));
    expect(curve).toMatchObject({
      depositDrops: '25000000',
      virtualQuote: '30000000000',
      snipeTokens: '10000000',
      held: '799999999.123456789012345',
      quoteIn: '123456789',
      feesAccrued: '1234567',
      feesSwept: '1000000',
      poolQuote: null, // an empty text of a nullable column is NULL
      poolTokens: null,
    });
    const [trade] = await db.select().from(bondingTrades);
    expect(trade).toMatchObject({ tokens: '200000000.876543210987655', quote: '123456789', fee: '1234567' });
    // held + sold = the supply, to the last digit (the curve's invariant, in the shared Decimal).
    expect(new Decimal(curve!.held).plus(trade!.soldAfter).toFixed()).toBe('1000000000');

    // The indexer's counters add in SQL, on numeric now: exact, with concurrent writers safe.
    await db
      .update(bondingCurves)
      .set({
        quoteIn: addMicros(bondingCurves.quoteIn, 876543211n),
        feesAccrued: addMicros(bondingCurves.feesAccrued, 1n),
      })
      .where(eq(bondingCurves.id, 7));
    const [after] = await db.select().from(bondingCurves).where(eq(bondingCurves.id, 7));
    expect([after!.quoteIn, after!.feesAccrued, BigInt(after!.quoteIn)]).toEqual([
      '1000000000',
      '1234568',
      1_000_000_000n,
    ]);
    // The defaults survived the type change.
    const defaults = await sql.query<{ column_name: string; column_default: string }>(
      `select column_name, column_default from information_schema.columns
        where table_name = 'bonding_curves' and column_name in ('quote_in', 'fees_swept') order by 1`,
    );
    expect(defaults.map((d) => d.column_default)).toEqual(["'0'::numeric", "'0'::numeric"]);
  });
});
