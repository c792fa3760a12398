import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { replayedWalletSchema, SECRET_MESSAGES } from '@ledgerpad/shared';
import { migrate, openDatabase } from '../../src/db/client';
import { idempotentRequests, secretPurges } from '../../src/lib/idempotency-schema';
import { purgeStoredSecrets, storableAnswer } from '../../src/lib/idempotency';
import { wallets } from '../../src/platform/custody-schema';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/test-app';
import { describeHits, SecretScanner } from '../helpers/secret-scan';

// Stored idempotent answers never hold a secret (issue 34): a create's seed is in its first answer
// only; a replay answers the same wallet without it and says so; a retry whose first answer was lost
// answers the wallet that attempt made; answers expire after 24 h; log lines never carry a seed;
// and migration 0021 plus the first start's purge take the seeds an older version stored out of
// the rows and out of the database's files.

let t: TestApp;
let alice: SignedIn;
const seeds: string[] = [];

const post = (url: string, payload: object, key?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...alice.headers, ...(key ? { 'idempotency-key': key } : {}) },
    payload,
  });

const storedRows = () => t.database.db.select().from(idempotentRequests);
const forgetAnswer = (key: string) =>
  t.database.db.delete(idempotentRequests).where(eq(idempotentRequests.key, key));

beforeAll(async () => {
  t = await createTestApp({ ledger: 'none', captureLogs: true });
  alice = await t.signIn('stored_answers_alice');
}, 120_000);
afterAll(() => t?.close());

describe('stored answers', () => {
  it('a create with a key: the seed in the first answer only; the replay is the same wallet without it', async () => {
    const first = await post('/api/wallets', { name: 'Kept' }, 'create-key-0001');
    expect(first.statusCode).toBe(200);
    const created = first.json() as { id: number; wallet_address: string; wallet_seed: string };
    seeds.push(created.wallet_seed);
    expect(Wallet.fromSeed(created.wallet_seed).classicAddress).toBe(created.wallet_address);

    const again = await post('/api/wallets', { name: 'Kept' }, 'create-key-0001');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const replay = replayedWalletSchema.strict().parse(again.json());
    expect(replay).toMatchObject({
      id: created.id,
      wallet_address: created.wallet_address,
      wallet_name: 'Kept',
      secret_shown_once: true,
      secret_notice: SECRET_MESSAGES.shownOnce,
    });
    expect(again.body).not.toContain(created.wallet_seed);
    const [row] = (await storedRows()).filter((r) => r.key === 'create-key-0001');
    expect(JSON.stringify(row)).not.toContain(created.wallet_seed);
    expect(JSON.stringify(row)).not.toContain('wallet_seed');
  });

  it('a create retried after its first answer was lost (the attempt cut mid-way) answers the wallet it made', async () => {
    const first = (await post('/api/wallets', {}, 'create-key-0002')).json() as {
      id: number;
      wallet_seed: string;
    };
    seeds.push(first.wallet_seed);
    // As after a kill -9 between the insert and the stored answer: no answer kept for the key.
    await forgetAnswer('create-key-0002');
    const retry = await post('/api/wallets', {}, 'create-key-0002');
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ id: first.id, secret_shown_once: true });
    expect(retry.body).not.toContain(first.wallet_seed);
    const mine = await t.database.db.select().from(wallets).where(eq(wallets.userId, alice.user.id));
    expect(mine.filter((w) => w.requestKey === 'create-key-0002')).toHaveLength(1);
  });

  it('an import by seed retried after a lost answer answers the wallet, not "Wallet Already Exists"', async () => {
    const w = Wallet.generate();
    seeds.push(w.seed!);
    const first = await post('/api/wallets/import', { seed: w.seed }, 'import-key-0001');
    expect(first.statusCode, first.body).toBe(200);
    await forgetAnswer('import-key-0001');
    const retry = await post('/api/wallets/import', { seed: w.seed }, 'import-key-0001');
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toMatchObject({
      id: (first.json() as { id: number }).id,
      wallet_address: w.address,
    });
    // Without the key it is a second import: refused as before.
    expect((await post('/api/wallets/import', { seed: w.seed })).statusCode).toBe(400);
  });

  it('a row an older version stored with the seed (a rolling upgrade) is replayed without it', async () => {
    const w = Wallet.generate();
    await t.database.db.insert(idempotentRequests).values({
      userId: alice.user.id,
      key: 'create-key-old1',
      route: 'POST /api/wallets',
      bodyHash: createHash('sha256').update(JSON.stringify({})).digest('hex'),
      state: 'done',
      leaseUntil: new Date(),
      statusCode: 200,
      response: { id: 77, wallet_address: w.address, wallet_name: null, created_at: '', wallet_seed: w.seed },
    });
    const replay = await post('/api/wallets', {}, 'create-key-old1');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).not.toContain(w.seed!);
    expect(replay.json()).toMatchObject({ id: 77, secret_shown_once: true });
  });

  it('a stored answer drops secret fields and scrubs any seed or request secret echoed in it', () => {
    const seed = Wallet.generate().seed!;
    const words = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
    const stored = storableAnswer(
      {
        id: 1,
        nested: { list: [{ seed, note: `was ${seed}` }], message: `could not read ${words.toUpperCase()}` },
        wallet_seed: seed,
      },
      { mnemonic: `  ${words} ` },
    );
    const text = JSON.stringify(stored);
    expect(text).not.toContain(seed);
    expect(text.toLowerCase()).not.toContain(words);
    expect(stored).toMatchObject({
      id: 1,
      secret_shown_once: true,
      secret_notice: SECRET_MESSAGES.shownOnce,
    });
    // An answer that never carried a secret is stored as it was.
    expect(storableAnswer({ id: 2, hash: 'AB'.repeat(32) }, { seed })).toEqual({
      id: 2,
      hash: 'AB'.repeat(32),
    });
  });

  it('answers expire after 24 h: the key then runs as a new request, and the sweep deletes old rows', async () => {
    const first = (await post('/api/wallets', {}, 'create-key-0003')).json() as {
      id: number;
      wallet_seed: string;
    };
    seeds.push(first.wallet_seed);
    const age = (key: string, hours: number) =>
      t.database.db
        .update(idempotentRequests)
        .set({ createdAt: sql`now() - ${hours} * interval '1 hour'` })
        .where(eq(idempotentRequests.key, key));
    await age('create-key-0003', 25);
    // Its wallet is past the key's life too: the request is a new create.
    await t.database.db
      .update(wallets)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(wallets.id, first.id));
    const later = await post('/api/wallets', {}, 'create-key-0003');
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    const second = later.json() as { id: number; wallet_seed: string };
    seeds.push(second.wallet_seed);
    expect(second.id).not.toBe(first.id);

    for (const key of ['create-key-0004', 'create-key-0005'])
      seeds.push((await post('/api/wallets', {}, key)).json<{ wallet_seed: string }>().wallet_seed);
    await age('create-key-0004', 23);
    await age('create-key-0005', 24.5);
    expect(await t.app.idempotency.sweep()).toBe(1);
    const keys = (await storedRows()).map((r) => r.key);
    expect(keys).toContain('create-key-0004');
    expect(keys).not.toContain('create-key-0005');
  });

  it('no log line, at trace level, carries a seed — also one a log call is handed directly', async () => {
    const planted = Wallet.generate().seed!;
    t.app.log.info({ body: { seed: planted, privateKey: 'ED'.padEnd(66, '1') } }, `echo ${planted}`);
    const all = t.logs.join('');
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(planted);
    expect(all).not.toContain('ED'.padEnd(66, '1'));
    for (const seed of seeds) expect(all).not.toContain(seed);
  });
});

describe('migration 0021 and the purge', () => {
  it('removes the seeds an older version stored, from the rows and from every file of the data directory', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ledgerpad-purge-'));
    try {
      // The database as the version before stored it: 40 creations with a key, their seeds in the
      // answers; 5 of them more than 24 h old.
      let database = await openDatabase({ dataDir, migrate: false });
      await migrate(database.sql, 'public', { stopBefore: '0021_secrets_out' });
      const old = Array.from({ length: 40 }, () => Wallet.generate());
      for (const [i, w] of old.entries()) {
        await database.sql.query(
          `insert into idempotent_requests (user_id, key, route, body_hash, state, lease_until, status_code, response, created_at)
           values (9001, $1, 'POST /api/wallets', 'h', 'done', now(), 200, $2, now() - $3 * interval '1 hour')`,
          [
            `old-${i}`,
            JSON.stringify({ id: i, wallet_address: w.address, wallet_seed: w.seed }),
            i < 5 ? 30 : 1,
          ],
        );
      }
      await database.close();
      const scanner = new SecretScanner(old.map((w) => ({ label: w.address, seed: w.seed! })));
      expect(scanner.scanDirectory(dataDir).length).toBeGreaterThan(0);

      database = await openDatabase({ dataDir });
      const rows = await database.db.select().from(idempotentRequests);
      expect(rows).toHaveLength(35);
      expect(JSON.stringify(rows)).not.toContain('wallet_seed');
      expect(rows.every((r) => (r.response as { secret_shown_once?: boolean }).secret_shown_once)).toBe(true);
      const [asked] = await database.db.select().from(secretPurges);
      expect(asked).toMatchObject({ name: '0021_idempotent_answers', rows: 40, doneAt: null });
      // The rows are clean, the files are not: the old row versions are still in the table's pages
      // and the WAL.
      expect(scanner.scanDirectory(dataDir).length).toBeGreaterThan(0);

      const logged: unknown[] = [];
      const log = { warn: (o: unknown) => logged.push(o) } as never;
      const report = await purgeStoredSecrets(database, log);
      expect(report).toMatchObject({ purges: [{ name: '0021_idempotent_answers', rows: 40 }], scrubbed: 0 });
      expect(logged).toHaveLength(1);
      // Once: the next start (or another instance) finds nothing to do.
      expect(await purgeStoredSecrets(database, log)).toBeUndefined();
      await database.close();
      expect(describeHits(scanner.scanDirectory(dataDir))).toBe('');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("migration 0021 and the purge on the suite's database", () => {
  it('strips the stored seeds, deletes expired answers and rewrites the table, once (PGlite in memory, or PostgreSQL on its pass)', async () => {
    const url = process.env.TEST_DATABASE_URL;
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const database = await openDatabase(url ? { url, schema, migrate: false } : { migrate: false });
    try {
      await migrate(database.sql, url ? schema : 'public', { stopBefore: '0021_secrets_out' });
      const old = Array.from({ length: 6 }, () => Wallet.generate());
      for (const [i, w] of old.entries()) {
        await database.sql.query(
          `insert into idempotent_requests (user_id, key, route, body_hash, state, lease_until, status_code, response, created_at)
           values (7, $1, 'POST /api/wallets', 'h', 'done', now(), 200, $2, now() - $3 * interval '1 hour')`,
          [
            `old-${i}`,
            JSON.stringify({ id: i, note: i === 5 ? `seed ${w.seed}` : 'x', wallet_seed: w.seed }),
            i < 2 ? 25 : 2,
          ],
        );
      }
      await migrate(database.sql, url ? schema : 'public');
      const logged: string[] = [];
      const log = { warn: (_o: unknown, msg: string) => logged.push(msg) } as never;
      const report = await purgeStoredSecrets(database, log);
      // 6 rows judged by the migration (2 expired, 4 stripped); the seed inside `note` only by the purge.
      expect(report).toMatchObject({ purges: [{ name: '0021_idempotent_answers', rows: 6 }], scrubbed: 1 });
      expect(report!.compacted).toEqual(
        database.driver === 'pglite'
          ? ['vacuum full idempotent_requests', 'pg_switch_wal()', 'checkpoint']
          : ['vacuum full idempotent_requests'],
      );
      expect(logged[0]).toMatch(database.driver === 'pglite' ? /backups/ : /WAL archive/);
      const rows = await database.db.select().from(idempotentRequests);
      expect(rows.map((r) => r.key).sort()).toEqual(['old-2', 'old-3', 'old-4', 'old-5']);
      const text = JSON.stringify(rows);
      for (const w of old) expect(text).not.toContain(w.seed!);
      expect(await purgeStoredSecrets(database, log)).toBeUndefined();
    } finally {
      await database.close();
      if (url) {
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      }
    }
  }, 120_000);
});
