import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { ledgerAccounts, ledgerSubmissions } from '../../src/ledger/schema';
import { settledInnerOutcomes } from '../../src/ledger/settle';
import type { BatchRequest } from '../../src/ledger/submission-service';
import type { SubmissionRow } from '../../src/ledger/submission-types';
import { closeUntil, createLedgerRig, type LedgerRig } from './helpers';

// The submission service's Batch (XLS-56, docs/batch-in-the-app.md): one intent recorded before it is
// sent, its inner transactions reconciled from the outer's validated ledger, an all-or-nothing
// rollback recorded as such, and a retry (also after a restart) that signs nothing again.

const XRP = 1_000_000n;

describe('submission service: Batch', () => {
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
        Amount: (1_000n * XRP).toString(),
      },
      purpose: 'test',
    });
    expect((await closeUntil(rig.ledger, funded)).result).toBe('tesSUCCESS');
  });
  afterAll(async () => {
    await rig?.close();
  });

  const payments = (key: string, to: Array<[string, bigint]>): BatchRequest => ({
    intentKey: key,
    account: alice.classicAddress,
    mode: 'allOrNothing',
    purpose: 'test-batch',
    inner: to.map(([destination, drops], k) => ({
      intentKey: `${key}:inner-${k}`,
      tx: { TransactionType: 'Payment', Destination: destination, Amount: drops.toString() },
      purpose: 'test',
    })),
  });

  const sequenceOf = async (address: string) =>
    (
      await rig.connection.client.request({
        command: 'account_info',
        account: address,
        ledger_index: 'validated',
      })
    ).result.account_data.Sequence;

  it('knows the ledger has Batch (its Amendments object lists BatchV1_1)', async () => {
    expect(await rig.service.batchEnabled()).toBe(true);
  });

  it('records the outer and inner hashes before submitting, then each inner outcome from the ledger', async () => {
    const bob = Wallet.generate().classicAddress;
    const carol = Wallet.generate().classicAddress;
    const base = rig.service.reserves.baseFee;
    const before = await rig.xrpBalance(alice.classicAddress);
    const seq = await sequenceOf(alice.classicAddress);
    const req = payments('batch-ok', [
      [bob, 20n * XRP],
      [carol, 30n * XRP],
    ]);
    const row = await rig.service.prepareBatch(req);
    // Recorded before any ledger closed: the outer signed at S, the inner ones at S+1, S+2, unsigned,
    // with the outer's hash as their parent.
    const recorded = await rig.database.db
      .select()
      .from(ledgerSubmissions)
      .where(like(ledgerSubmissions.intentKey, 'batch-ok%'))
      .orderBy(ledgerSubmissions.sequence);
    expect(recorded.map((r) => [r.intentKey, r.txType, r.sequence, r.parentHash])).toEqual([
      ['batch-ok', 'Batch', seq, null],
      ['batch-ok:inner-0', 'Payment', seq + 1, row.hash],
      ['batch-ok:inner-1', 'Payment', seq + 2, row.hash],
    ]);
    const finalized: SubmissionRow[] = [];
    const off = rig.service.onFinalized((r) => finalized.push(r));
    const out = await closeUntil(rig.ledger, rig.service.followBatch(req, row)).finally(off);
    expect(out.batch).toMatchObject({ status: 'success', result: 'tesSUCCESS', hash: row.hash });
    // Settling answers from its own statement (the records as written, the verdicts' metadata):
    // what a read of the records gives, for the listeners and for the inner outcomes.
    expect(settledInnerOutcomes(out.batch)).toBe(out.inner);
    expect(out.inner).toEqual(await rig.service.innerOutcomes(row.hash));
    const stored = await rig.database.db
      .select()
      .from(ledgerSubmissions)
      .where(like(ledgerSubmissions.intentKey, 'batch-ok%'));
    expect(finalized.sort((a, b) => a.id - b.id)).toEqual(stored.sort((a, b) => a.id - b.id));
    expect(out.inner.map((o) => [o.status, o.result, o.ledgerIndex])).toEqual([
      ['success', 'tesSUCCESS', out.batch.ledgerIndex],
      ['success', 'tesSUCCESS', out.batch.ledgerIndex],
    ]);
    expect(out.inner.map((o) => (o.meta as { ParentBatchID?: string }).ParentBatchID)).toEqual([
      row.hash,
      row.hash,
    ]);
    // The inner hashes recorded before submitting are the ones the ledger holds.
    for (const [k, o] of out.inner.entries()) {
      const tx = await rig.connection.client.request({ command: 'tx', transaction: o.hash });
      expect(tx.result.validated).toBe(true);
      expect(o.hash).toBe(recorded[k + 1]!.hash);
    }
    // The fee: twice the base fee plus each inner payment's base fee (rippled's Batch rule).
    const fee = 2n * base + base + base;
    expect(await rig.xrpBalance(alice.classicAddress)).toBe(before - 50n * XRP - fee);
    expect(await rig.xrpBalance(bob)).toBe(20n * XRP);
    expect(await rig.xrpBalance(carol)).toBe(30n * XRP);
    expect(await sequenceOf(alice.classicAddress)).toBe(seq + 3);
  });

  it('records a rolled-back all-or-nothing Batch truthfully: fee charged, nothing moved, sequences given back', async () => {
    const bob = Wallet.generate().classicAddress;
    // One drop under the base reserve cannot create an account: tecNO_DST_INSUF_XRP rolls back the batch.
    const dust = Wallet.generate().classicAddress;
    const base = rig.service.reserves.baseFee;
    const before = await rig.xrpBalance(alice.classicAddress);
    const seq = await sequenceOf(alice.classicAddress);
    const out = await closeUntil(
      rig.ledger,
      rig.service.submitBatch(
        payments('batch-rollback', [
          [bob, 20n * XRP],
          [dust, rig.service.reserves.reserveBase - 1n],
        ]),
      ),
    );
    expect(out.batch).toMatchObject({ status: 'success', result: 'tesSUCCESS' });
    expect(out.inner.map((o) => [o.status, o.result, o.ledgerIndex])).toEqual([
      ['failed', 'rolled-back', null],
      ['failed', 'rolled-back', null],
    ]);
    expect(out.inner).toEqual(await rig.service.innerOutcomes(out.batch.hash));
    // Neither inner payment is in the ledger; only the outer's fee and sequence were used.
    for (const o of out.inner) {
      await expect(rig.connection.client.request({ command: 'tx', transaction: o.hash })).rejects.toThrow(
        /txnNotFound|Transaction not found/,
      );
    }
    expect(await rig.xrpBalance(alice.classicAddress)).toBe(before - 4n * base);
    await expect(rig.xrpBalance(bob)).rejects.toThrow();
    expect(await sequenceOf(alice.classicAddress)).toBe(seq + 1);
    // The two inner sequences were given back: the next transaction takes S+1, not S+3.
    const [acct] = await rig.database.db
      .select()
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.account, alice.classicAddress));
    expect(acct!.nextSequence).toBe(seq + 1);
    const next = await closeUntil(
      rig.ledger,
      rig.service.submit({
        intentKey: 'after-rollback',
        account: alice.classicAddress,
        tx: { TransactionType: 'Payment', Destination: rig.genesis.classicAddress, Amount: '1000000' },
        purpose: 'test',
      }),
    );
    expect([next.result, next.sequence]).toEqual(['tesSUCCESS', seq + 1]);
  });

  it('a retried Batch, also after a restart mid-flight, signs nothing twice and settles once', async () => {
    const bob = Wallet.generate().classicAddress;
    const req = payments('batch-retry', [
      [bob, 15n * XRP],
      [bob, 5n * XRP],
    ]);
    const before = await rig.xrpBalance(alice.classicAddress);
    const base = rig.service.reserves.baseFee;
    const first = await rig.service.prepareBatch(req);
    // The same intent again before anything validated: the same record.
    expect((await rig.service.prepareBatch(req)).hash).toBe(first.hash);
    // The process restarts while the Batch is in flight; the new one resends the same bytes.
    const service = await rig.restart();
    const finalized: string[] = [];
    service.onFinalized((row) => finalized.push(row.intentKey));
    const out = await closeUntil(rig.ledger, service.submitBatch(req));
    expect(out.batch.hash).toBe(first.hash);
    expect(out.inner.map((o) => o.result)).toEqual(['tesSUCCESS', 'tesSUCCESS']);
    // And once more after it settled: the recorded outcome, nothing signed.
    const again = await service.submitBatch(req);
    expect(again.batch.hash).toBe(first.hash);
    expect(await service.existing('batch-retry:inner-0')).toMatchObject({ result: 'tesSUCCESS' });
    const rows = await rig.database.db
      .select()
      .from(ledgerSubmissions)
      .where(like(ledgerSubmissions.intentKey, 'batch-retry%'));
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.finalizedAt !== null)).toBe(true);
    expect(finalized.sort()).toEqual(['batch-retry', 'batch-retry:inner-0', 'batch-retry:inner-1']);
    // Paid once: 20 XRP and one Batch fee.
    expect(await rig.xrpBalance(bob)).toBe(20n * XRP);
    expect(await rig.xrpBalance(alice.classicAddress)).toBe(before - 20n * XRP - 4n * base);
  });
});

describe('submission service: a ledger without Batch', () => {
  it('answers no (the fallback path), and keeps the answer', async () => {
    const rig = await createLedgerRig({ amendments: ['AMM', 'fixUniversalNumber'] });
    try {
      expect(await rig.service.batchEnabled()).toBe(false);
      expect(await rig.service.batchEnabled()).toBe(false);
    } finally {
      await rig.close();
    }
  });
});
