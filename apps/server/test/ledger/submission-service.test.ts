import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { createXrplConnection } from '../../src/ledger/connection';
import { ledgerAccounts, ledgerSubmissions } from '../../src/ledger/schema';
import { SubmissionService } from '../../src/ledger/submission-service';
import { createSignerSource } from '../../src/platform/custody';
import { createTestApp } from '../helpers/test-app';
import { sleep, until } from '../helpers/wait';
import { acceptUntil, closeUntil, createLedgerRig, type LedgerRig } from './helpers';

// The submission service against the embedded ledger, driven one ledger close at a time.

const XRP = 1_000_000n;

describe('submission service', () => {
  let rig: LedgerRig;
  let alice: Wallet;

  beforeAll(async () => {
    rig = await createLedgerRig();
    alice = Wallet.generate();
    await rig.hold(alice);
    const funded = rig.service.submit({
      intentKey: 'fund-alice',
      account: rig.genesis.classicAddress,
      tx: {
        TransactionType: 'Payment',
        Destination: alice.classicAddress,
        Amount: (10_000n * XRP).toString(),
      },
      purpose: 'test',
    });
    const out = await closeUntil(rig.ledger, funded);
    expect(out.result).toBe('tesSUCCESS');
  });
  afterAll(async () => {
    await rig?.close();
  });

  const pay = (intentKey: string, from: string, to: string, drops: bigint) =>
    rig.service.submit({
      intentKey,
      account: from,
      tx: { TransactionType: 'Payment', Destination: to, Amount: drops.toString() },
      purpose: 'test',
    });

  it('pipelines independent transactions of one account into one ledger with consecutive sequences', async () => {
    const bob = Wallet.generate();
    const before = await rig.xrpBalance(alice.classicAddress);
    // Submitted at once; no ledger closes until every one has been sent.
    const all = Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        pay(`pipe-${i}`, alice.classicAddress, bob.classicAddress, 20n * XRP),
      ),
    );
    await until(async () => {
      const rows = await rig.database.db
        .select()
        .from(ledgerSubmissions)
        .where(eq(ledgerSubmissions.account, alice.classicAddress));
      return rows.filter((r) => r.status === 'submitted').length === 30;
    });
    // Every answer recorded exactly once (the answers of one turn share one statement): the
    // engine result it got, one submit each.
    const sent = await rig.database.db
      .select()
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.account, alice.classicAddress));
    expect(
      sent.filter((r) => r.intentKey.startsWith('pipe-')).map((r) => [r.engineResult, r.submitCount]),
    ).toEqual(Array.from({ length: 30 }, () => ['tesSUCCESS', 1]));
    rig.ledger.closeLedger();
    const outs = await all;
    expect(outs.every((o) => o.status === 'success')).toBe(true);
    expect(new Set(outs.map((o) => o.ledgerIndex)).size).toBe(1);
    const seqs = outs.map((o) => o.sequence).sort((a, b) => a - b);
    expect(seqs[seqs.length - 1]! - seqs[0]!).toBe(29);
    expect(new Set(seqs).size).toBe(30);
    expect(await rig.xrpBalance(bob.classicAddress)).toBe(600n * XRP);
    // 30 payments + 30 fees of 10 drops, nothing more.
    expect(before - (await rig.xrpBalance(alice.classicAddress))).toBe(600n * XRP + 300n);
    // Callers get the validated result: delivered amount and balance changes from the metadata.
    expect(outs[0]!.deliveredAmount).toBe((20n * XRP).toString());
    const mine = outs[0]!.balanceChanges.find((c) => c.account === bob.classicAddress);
    expect(mine?.balances[0]).toEqual({ currency: 'XRP', value: '20' });
  });

  it('signs one transaction per intent, however often the intent is submitted', async () => {
    const carol = Wallet.generate();
    const twice = Promise.all([
      pay('same-intent', alice.classicAddress, carol.classicAddress, 50n * XRP),
      pay('same-intent', alice.classicAddress, carol.classicAddress, 50n * XRP),
    ]);
    const [a, b] = await closeUntil(rig.ledger, twice);
    expect(a.hash).toBe(b.hash);
    const again = await pay('same-intent', alice.classicAddress, carol.classicAddress, 50n * XRP);
    expect(again.hash).toBe(a.hash);
    expect(await rig.xrpBalance(carol.classicAddress)).toBe(50n * XRP);
    const rows = await rig.database.db
      .select()
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.intentKey, 'same-intent'));
    expect(rows).toHaveLength(1);
  });

  it('reports a validated tec failure as final, with its sequence used', async () => {
    // 0.5 XRP cannot create an account (reserve is 1 XRP): tecNO_DST_INSUF_XRP.
    const out = await closeUntil(
      rig.ledger,
      pay('too-small', alice.classicAddress, Wallet.generate().classicAddress, XRP / 2n),
    );
    expect(out.status).toBe('failed');
    expect(out.result).toBe('tecNO_DST_INSUF_XRP');
    const next = await closeUntil(
      rig.ledger,
      pay('after-tec', alice.classicAddress, Wallet.generate().classicAddress, 10n * XRP),
    );
    expect(next.sequence).toBe(out.sequence + 1);
    expect(next.status).toBe('success');
  });

  it('wakes a caller waiting for the next validated ledger when the stream reports it, and times out without one', async () => {
    const index = rig.service.ledgerIndex;
    // No close: the wait ends at its timeout, answering false (not a guess that a ledger passed).
    const started = Date.now();
    expect(await rig.service.validatedAfter(index, 150)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    // An index already passed answers at once.
    expect(await rig.service.validatedAfter(index - 1, 0)).toBe(true);
    const waiting = rig.service.validatedAfter(index, 10_000);
    let woke = false;
    void waiting.then(() => (woke = true));
    await sleep(50);
    expect(woke).toBe(false);
    rig.ledger.closeLedger();
    expect(await waiting).toBe(true);
    expect(rig.service.ledgerIndex).toBeGreaterThan(index);
  });

  it('after a restart resubmits the recorded blob of an unsent transaction, signing nothing new', async () => {
    const dave = Wallet.generate();
    // Simulate a crash between "recorded" and "submitted": sign exactly as the service would and
    // record it as pending, without sending it.
    const [acct] = await rig.database.db
      .select()
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.account, alice.classicAddress));
    const sequence = acct!.nextSequence;
    const signed = alice.sign({
      TransactionType: 'Payment',
      Account: alice.classicAddress,
      Destination: dave.classicAddress,
      Amount: (30n * XRP).toString(),
      Sequence: sequence,
      Fee: '10',
      LastLedgerSequence: rig.service.ledgerIndex + 20,
    });
    await rig.database.db.transaction(async (t) => {
      await t
        .update(ledgerAccounts)
        .set({ nextSequence: sequence + 1 })
        .where(eq(ledgerAccounts.account, alice.classicAddress));
      await t.insert(ledgerSubmissions).values({
        intentKey: 'crashed-before-submit',
        account: alice.classicAddress,
        sequence,
        lastLedgerSequence: rig.service.ledgerIndex + 20,
        txType: 'Payment',
        purpose: 'test',
        hash: signed.hash,
        txBlob: signed.tx_blob,
        status: 'pending',
      });
    });
    const service = await rig.restart();
    const out = await closeUntil(rig.ledger, service.wait(signed.hash));
    expect(out.status).toBe('success');
    expect(out.hash).toBe(signed.hash);
    expect(await rig.xrpBalance(dave.classicAddress)).toBe(30n * XRP);
    const rows = await rig.database.db
      .select()
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.intentKey, 'crashed-before-submit'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('success');
  });

  it('after a restart finds an already validated transaction by hash instead of paying again', async () => {
    const erin = Wallet.generate();
    const [acct] = await rig.database.db
      .select()
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.account, alice.classicAddress));
    const sequence = acct!.nextSequence;
    const tx = {
      TransactionType: 'Payment' as const,
      Account: alice.classicAddress,
      Destination: erin.classicAddress,
      Amount: (40n * XRP).toString(),
      Sequence: sequence,
      Fee: '10',
      LastLedgerSequence: rig.service.ledgerIndex + 20,
    };
    const signed = alice.sign(tx);
    // It went out and validated, but the process died before recording the result.
    await rig.database.db
      .update(ledgerAccounts)
      .set({ nextSequence: sequence + 1 })
      .where(eq(ledgerAccounts.account, alice.classicAddress));
    await rig.database.db.insert(ledgerSubmissions).values({
      intentKey: 'crashed-after-submit',
      account: alice.classicAddress,
      sequence,
      lastLedgerSequence: tx.LastLedgerSequence,
      txType: 'Payment',
      purpose: 'test',
      hash: signed.hash,
      txBlob: signed.tx_blob,
      status: 'submitted',
    });
    await rig.service.stop();
    await rig.connection.client.request({ command: 'submit', tx_blob: signed.tx_blob });
    rig.ledger.closeLedger();
    const service = await rig.restart();
    const out = await closeUntil(rig.ledger, service.wait(signed.hash));
    expect(out.status).toBe('success');
    expect(await rig.xrpBalance(erin.classicAddress)).toBe(40n * XRP);
  });

  it('expires a transaction past its LastLedgerSequence and fills the sequence gap with a no-op AccountSet', async () => {
    const frank = Wallet.generate();
    await rig.hold(frank);
    await closeUntil(rig.ledger, pay('fund-frank', alice.classicAddress, frank.classicAddress, 100n * XRP));
    const info = await rig.connection.client.request({
      command: 'account_info',
      account: frank.classicAddress,
      ledger_index: 'validated',
    });
    const s = info.result.account_data.Sequence;
    const index = rig.service.ledgerIndex;
    // S: already past its LastLedgerSequence, so it can never apply. S+1: valid, but stuck behind S.
    const dead = frank.sign({
      TransactionType: 'Payment',
      Account: frank.classicAddress,
      Destination: alice.classicAddress,
      Amount: '1000000',
      Sequence: s,
      Fee: '10',
      LastLedgerSequence: index - 1,
    });
    const live = frank.sign({
      TransactionType: 'Payment',
      Account: frank.classicAddress,
      Destination: alice.classicAddress,
      Amount: '2000000',
      Sequence: s + 1,
      Fee: '10',
      LastLedgerSequence: index + 30,
    });
    await rig.service.stop();
    await rig.database.db
      .insert(ledgerAccounts)
      .values({ account: frank.classicAddress, nextSequence: s + 2 });
    for (const [key, signed, seq, lls] of [
      ['dead', dead, s, index - 1],
      ['live', live, s + 1, index + 30],
    ] as const) {
      await rig.database.db.insert(ledgerSubmissions).values({
        intentKey: `gap-${key}`,
        account: frank.classicAddress,
        sequence: seq,
        lastLedgerSequence: lls,
        txType: 'Payment',
        purpose: 'test',
        hash: signed.hash,
        txBlob: signed.tx_blob,
        status: 'pending',
      });
    }
    const service = await rig.restart();
    const both = Promise.all([service.wait(dead.hash), service.wait(live.hash)]);
    const [deadOut, liveOut] = await closeUntil(rig.ledger, both);
    expect(deadOut.status).toBe('failed');
    expect(['expired', 'tefMAX_LEDGER']).toContain(deadOut.result);
    expect(liveOut.status).toBe('success');
    const [fill] = await rig.database.db
      .select()
      .from(ledgerSubmissions)
      .where(
        and(
          eq(ledgerSubmissions.account, frank.classicAddress),
          eq(ledgerSubmissions.purpose, 'sequence-gap-fill'),
        ),
      );
    expect(fill?.sequence).toBe(s);
    expect(fill?.txType).toBe('AccountSet');
    await closeUntil(rig.ledger, service.wait(fill!.hash));
    const after = await rig.connection.client.request({
      command: 'account_info',
      account: frank.classicAddress,
      ledger_index: 'validated',
    });
    expect(after.result.account_data.Sequence).toBe(s + 2);
  });

  it('hands a sequence back when nothing was allocated after it', async () => {
    const [before] = await rig.database.db
      .select()
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.account, alice.classicAddress));
    // Malformed (negative amount) is refused by validation before anything is signed or allocated.
    await expect(
      pay('malformed', alice.classicAddress, Wallet.generate().classicAddress, -5n),
    ).rejects.toThrow();
    const [after] = await rig.database.db
      .select()
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.account, alice.classicAddress));
    expect(after!.nextSequence).toBe(before!.nextSequence);
    expect(
      await rig.database.db
        .select()
        .from(ledgerSubmissions)
        .where(eq(ledgerSubmissions.intentKey, 'malformed')),
    ).toHaveLength(0);
  });

  it('refuses an invalid transaction inside a batch without leaving a gap for the others', async () => {
    const ivan = Wallet.generate();
    const batch = Promise.allSettled([
      pay('batch-ok-1', alice.classicAddress, ivan.classicAddress, 10n * XRP),
      pay('batch-bad', alice.classicAddress, ivan.classicAddress, -1n),
      pay('batch-ok-2', alice.classicAddress, ivan.classicAddress, 10n * XRP),
      pay('batch-ok-3', alice.classicAddress, ivan.classicAddress, 10n * XRP),
    ]);
    const results = await closeUntil(rig.ledger, batch);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : r.status))).toEqual([
      'fulfilled',
      expect.stringMatching(/./),
      'fulfilled',
      'fulfilled',
    ]);
    const seqs = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.sequence] : []));
    expect(seqs[2]! - seqs[0]!).toBe(2);
    expect(results.every((r) => r.status === 'rejected' || r.value.status === 'success')).toBe(true);
    expect(await rig.xrpBalance(ivan.classicAddress)).toBe(30n * XRP);
  });

  it('prepareMany signs a burst of many accounts in one batch: each account its own next sequence, known intents reused, an invalid request refused alone', async () => {
    const payers = Array.from({ length: 8 }, () => Wallet.generate());
    const sink = Wallet.generate();
    for (const w of payers) await rig.hold(w);
    const funded = Promise.all(
      payers.map((w, i) => pay(`many-fund-${i}`, alice.classicAddress, w.classicAddress, 50n * XRP)),
    );
    await closeUntil(rig.ledger, funded);
    // payers[0] already used once, so its next sequence is one further than the others'.
    const first = pay('many-pay-0', payers[0]!.classicAddress, sink.classicAddress, 20n * XRP);
    const firstOut = await closeUntil(rig.ledger, first);
    const sequenceOf = async (w: Wallet) =>
      (
        await rig.connection.client.request({
          command: 'account_info',
          account: w.classicAddress,
          ledger_index: 'current',
        })
      ).result.account_data.Sequence;
    const expected = await Promise.all(payers.map(sequenceOf));

    const results = await rig.service.prepareMany([
      ...payers.map((w, i) => ({
        intentKey: `many-pay-${i}`,
        account: w.classicAddress,
        tx: { TransactionType: 'Payment', Destination: sink.classicAddress, Amount: (20n * XRP).toString() },
        purpose: 'test',
      })),
      {
        intentKey: 'many-bad',
        account: payers[1]!.classicAddress,
        tx: { TransactionType: 'Payment', Destination: sink.classicAddress, Amount: '-1' },
        purpose: 'test',
      },
    ]);
    // The known intent is the earlier record, not a second payment.
    expect(results[0]).not.toBeInstanceOf(Error);
    expect((results[0] as { hash: string }).hash).toBe(firstOut.hash);
    expect(results[8]).toBeInstanceOf(Error);
    const fresh = results.slice(1, 8) as Array<{ hash: string; sequence: number }>;
    expect(fresh.map((r) => r.sequence)).toEqual(expected.slice(1));
    const outs = await closeUntil(rig.ledger, Promise.all(fresh.map((r) => rig.service.wait(r.hash))));
    expect(outs.every((o) => o.status === 'success')).toBe(true);
    expect(new Set(outs.map((o) => o.ledgerIndex)).size).toBe(1);
    // 8 payments of 20 XRP in all (the first one once), and payers[1] has no gap after the refusal.
    expect(await rig.xrpBalance(sink.classicAddress)).toBe(160n * XRP);
    const next = pay('many-after-bad', payers[1]!.classicAddress, sink.classicAddress, 1n * XRP);
    expect((await closeUntil(rig.ledger, next)).status).toBe('success');
  });

  it('notices when someone else used the account sequence (tefPAST_SEQ) and moves on', async () => {
    const grace = Wallet.generate();
    await rig.hold(grace);
    await closeUntil(rig.ledger, pay('fund-grace', alice.classicAddress, grace.classicAddress, 100n * XRP));
    // The service knows grace's sequence from its first use...
    await closeUntil(rig.ledger, pay('grace-1', grace.classicAddress, alice.classicAddress, XRP));
    const info = await rig.connection.client.request({
      command: 'account_info',
      account: grace.classicAddress,
      ledger_index: 'validated',
    });
    // ...then the same key is used outside the platform for that very sequence.
    const outside = grace.sign({
      TransactionType: 'AccountSet',
      Account: grace.classicAddress,
      Sequence: info.result.account_data.Sequence,
      Fee: '10',
      LastLedgerSequence: rig.service.ledgerIndex + 10,
    });
    await rig.connection.client.request({ command: 'submit', tx_blob: outside.tx_blob });
    rig.ledger.closeLedger();
    const clash = await closeUntil(
      rig.ledger,
      pay('grace-2', grace.classicAddress, alice.classicAddress, XRP),
    );
    expect(clash.status).toBe('failed');
    expect(clash.result).toBe('tefPAST_SEQ');
    const next = await closeUntil(
      rig.ledger,
      pay('grace-3', grace.classicAddress, alice.classicAddress, XRP),
    );
    expect(next.status).toBe('success');
  });

  it('keeps every transaction exactly once across a dropped and restored ledger connection', async () => {
    const heidi = Wallet.generate();
    await rig.service.idle();
    const all = Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        pay(`drop-${i}`, alice.classicAddress, heidi.classicAddress, 5n * XRP),
      ),
    );
    // Drop the socket from the server side while the payments are in flight.
    await until(async () => {
      const rows = await rig.database.db
        .select()
        .from(ledgerSubmissions)
        .where(eq(ledgerSubmissions.account, alice.classicAddress));
      return rows.filter((r) => r.intentKey.startsWith('drop-')).length >= 10;
    });
    const ws = (rig.connection.client.connection as unknown as { ws: { terminate(): void } }).ws;
    ws.terminate();
    await until(() => !rig.connection.isConnected(), 5_000);
    await until(() => rig.connection.isConnected(), 10_000);
    const outs = await closeUntil(rig.ledger, all);
    expect(outs.every((o) => o.status === 'success')).toBe(true);
    expect(new Set(outs.map((o) => o.hash)).size).toBe(20);
    expect(await rig.xrpBalance(heidi.classicAddress)).toBe(100n * XRP);
  });
});

describe('with createTestApp (ledgers close on ledger_accept only)', () => {
  it('validates a submission when the test closes ledgers through the API', async () => {
    const t = await createTestApp();
    try {
      await t.app.ready();
      const genesis = Wallet.fromSeed('snoPBrXtMeMyMHUVTgbuqAfg1SUTb');
      const dest = Wallet.generate();
      const out = await acceptUntil(
        t.ledger!.client,
        t.app.platform.submissions!.submit({
          intentKey: 'test-app-payment',
          account: genesis.classicAddress,
          tx: { TransactionType: 'Payment', Destination: dest.classicAddress, Amount: '25000000' },
          purpose: 'test',
        }),
      );
      expect(out.status).toBe('success');
      expect(out.deliveredAmount).toBe('25000000');
    } finally {
      await t.close();
    }
  });
});

describe('two server instances on one database', () => {
  it('share an account without ever reusing a sequence', async () => {
    const rig = await createLedgerRig();
    const other = createXrplConnection('standalone', rig.ledger.url);
    await other.connect();
    const second = new SubmissionService({
      database: rig.database,
      connection: other,
      signers: createSignerSource(rig.database.db, rig.keyring),
    });
    await second.start();
    try {
      const dest = Wallet.generate();
      const pay = (service: SubmissionService, key: string, drops: number) =>
        service.submit({
          intentKey: key,
          account: rig.genesis.classicAddress,
          tx: { TransactionType: 'Payment', Destination: dest.classicAddress, Amount: String(drops) },
          purpose: 'test',
        });
      const all = Promise.all(
        Array.from({ length: 40 }, (_, i) => pay(i % 2 ? second : rig.service, `two-${i}`, 10_000_000 + i)),
      );
      const outs = await closeUntil(rig.ledger, all);
      expect(outs.every((o) => o.status === 'success')).toBe(true);
      expect(new Set(outs.map((o) => o.sequence)).size).toBe(40);
      expect(await rig.xrpBalance(dest.classicAddress)).toBe(BigInt(40 * 10_000_000 + (39 * 40) / 2));
    } finally {
      await second.stop();
      await other.close();
      await rig.close();
    }
  });
});
