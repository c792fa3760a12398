import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Wallet } from 'xrpl';
import { openDatabase, PGLITE_SLICE_MS } from '../../src/db/client';
import { STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { sleep } from '../helpers/wait';

// What a ledger close costs the API's event loop (docs/benchmarks.md, issue 27 part 4): PGlite lets
// the loop run between statements, and a ledger without transactions keeps the market snapshot.

describe('PGlite statements', () => {
  it('let the event loop run within a chain of awaited statements once it has run its slice', async () => {
    const database = await openDatabase({ migrate: false });
    try {
      let turns = 0;
      let spinning = true;
      const spin = () => {
        if (!spinning) return;
        turns++;
        setImmediate(spin);
      };
      // Short statements within one slice: no yield at each (a cache miss keeps its speed). A
      // yield at every protocol round would give this loop 30 turns and more, however fast the
      // machine. A loaded machine (CI runs test files side by side on two cores) can pause the
      // process past the slice, and each slice that passes allows one turn: the bound is one turn
      // per slice elapsed, plus the turn that started the spin.
      await new Promise((resolve) => setImmediate(resolve)); // a fresh turn
      setImmediate(spin);
      const s0 = performance.now();
      for (let i = 0; i < 10; i++) await database.sql.query('select 1');
      const slices = Math.ceil((performance.now() - s0) / PGLITE_SLICE_MS);
      expect(turns).toBeLessThanOrEqual(Math.max(2, slices + 1));
      // Statements longer than the slice, awaited one after the other: without the yield they
      // settle as one run of microtasks and the immediate never gets a turn until they are done.
      const heavy = 'select count(*) from generate_series(1, 400000)';
      const t0 = performance.now();
      await database.sql.query(heavy);
      expect(performance.now() - t0).toBeGreaterThan(PGLITE_SLICE_MS);
      turns = 0;
      for (let i = 0; i < 5; i++) await database.sql.query(heavy);
      spinning = false;
      expect(turns).toBeGreaterThanOrEqual(4);
      // Concurrent statements still run one at a time, in the order asked.
      const order: number[] = [];
      await Promise.all(
        [1, 2, 3].map(async (n) =>
          order.push((await database.sql.query<{ n: number }>(`select ${n} as n`))[0]!.n),
        ),
      );
      expect(order).toEqual([1, 2, 3]);
    } finally {
      await database.close();
    }
  });
});

describe('the market snapshot at a ledger close', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.ready();
  });
  afterAll(async () => {
    await t.close();
  });

  const close = async () => {
    await t.ledger!.client.request({ command: 'ledger_accept' } as never);
    return t.app.platform.indexer!.caughtUp();
  };
  const transactions = async (index: number) =>
    (
      (await t.ledger!.client.request({ command: 'ledger', ledger_index: index, transactions: true })).result
        .ledger as { transactions?: unknown[] }
    ).transactions ?? [];

  it('is kept across a ledger without transactions (at its index) and rebuilt after one with', async () => {
    const snapshot = t.app.marketSnapshot;
    // No build running, and none started for 100 ms: the indexer starts its build a turn after the
    // ledger is indexed, so a build can begin just after `close()` returns.
    const settled = async () => {
      for (;;) {
        await vi.waitFor(() => expect(snapshot['building']).toBeUndefined(), { timeout: 10_000 });
        const started = snapshot['startedAt'];
        await sleep(100);
        if (snapshot['building'] === undefined && snapshot['startedAt'] === started) return snapshot.get();
      }
    };
    await close();
    await snapshot.refresh();
    // An empty ledger: the same snapshot (no statement ran for it), at the new ledger. Background
    // work of the platform may put a transaction in a ledger (then it is rebuilt, rightly): close
    // until one is empty, comparing with the snapshot as it was just before that close.
    let built = await settled();
    let empty = await close();
    for (let i = 0; i < 5 && (await transactions(empty)).length > 0; i++) {
      built = await settled();
      empty = await close();
    }
    expect(await transactions(empty)).toEqual([]);
    await vi.waitFor(async () => expect((await snapshot.get()).ledger).toBe(empty), { timeout: 10_000 });
    const kept = await snapshot.get();
    expect(kept.priceByKey).toBe(built.priceByKey);

    // A ledger with a transaction: built anew.
    const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);
    await t.ledger!.client.submit(
      { TransactionType: 'AccountSet', Account: genesis.address },
      { wallet: genesis },
    );
    const busy = await close();
    expect((await transactions(busy)).length).toBeGreaterThan(0);
    await vi.waitFor(async () => expect((await snapshot.get()).ledger).toBe(busy), { timeout: 10_000 });
    expect((await snapshot.get()).priceByKey).not.toBe(built.priceByKey);
  });

  it('builds at the last ledger of a catch-up even when that one is empty', async () => {
    const snapshot = t.app.marketSnapshot;
    await snapshot.refresh();
    // Catching up: a ledger with transactions right after a build is skipped (throttled)…
    expect(snapshot.ledgerIndexed(1, 3)).toBeUndefined();
    // …so the empty last ledger must build, not keep the snapshot made before that ledger.
    const built = snapshot.ledgerIndexed(0, 0);
    expect(built).toBeInstanceOf(Promise);
    await built;
    // With nothing skipped since, an empty ledger keeps it.
    expect(snapshot.ledgerIndexed(0, 0)).toBeUndefined();
  });
});
