import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { resignedIntentKey } from '../../src/ledger/submission-service';
import { closeUntil, createLedgerRig, type LedgerRig } from './helpers';

// Outside transactions don't break the wallet: a user may sign with their seed elsewhere. When the
// account's sequence moved under us (tefPAST_SEQ), the app's submission service signs the same
// intent again under a derived key, and never two transactions of one intent can both apply.

const XRP = 1_000_000n;

describe('submission service: the sequence moved under us', () => {
  let rig: LedgerRig;
  let alice: Wallet;

  beforeAll(async () => {
    rig = await createLedgerRig({ service: { resignMovedSequences: true } });
    alice = Wallet.generate();
    await rig.hold(alice);
    const funded = rig.service.submit({
      intentKey: 'fund-alice-resign',
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

  const pay = (intentKey: string, drops: bigint) =>
    rig.service.submit({
      intentKey,
      account: alice.classicAddress,
      tx: { TransactionType: 'Payment', Destination: rig.genesis.classicAddress, Amount: drops.toString() },
      purpose: 'test',
    });

  it('signs the intent again after tefPAST_SEQ: one payment applies, the first signing is on record as never applied', async () => {
    // The service knows alice's sequence from her first payment…
    await closeUntil(rig.ledger, pay('resign-1', XRP));
    const info = await rig.connection.client.request({
      command: 'account_info',
      account: alice.classicAddress,
      ledger_index: 'validated',
    });
    // …then her key signs an AccountSet elsewhere, for that very sequence.
    const outside = alice.sign({
      TransactionType: 'AccountSet',
      Account: alice.classicAddress,
      Sequence: info.result.account_data.Sequence,
      Fee: '10',
      LastLedgerSequence: rig.service.ledgerIndex + 10,
    });
    await rig.connection.client.request({ command: 'submit', tx_blob: outside.tx_blob });
    rig.ledger.closeLedger();
    const before = BigInt(info.result.account_data.Balance);

    const out = await closeUntil(rig.ledger, pay('resign-2', 7n * XRP));
    expect(out.status).toBe('success');
    expect(out.intentKey).toBe(resignedIntentKey('resign-2', 2));
    const rows = await rig.database.db
      .select()
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.account, alice.classicAddress));
    const mine = rows.filter((r) => r.intentKey.startsWith('resign-2'));
    expect(mine.sort((a, b) => a.id - b.id).map((r) => [r.intentKey, r.result])).toEqual([
      ['resign-2', 'tefPAST_SEQ'],
      [resignedIntentKey('resign-2', 2), 'tesSUCCESS'],
    ]);
    // 7 XRP left once (plus two network fees: the outside AccountSet's and the payment's).
    expect(before - (await rig.xrpBalance(alice.classicAddress))).toBe(7n * XRP + 20n);

    // The same intent asked again answers the second signing's outcome; nothing new is signed.
    const again = await pay('resign-2', 7n * XRP);
    expect(again.hash).toBe(out.hash);
    expect((await rig.service.existing('resign-2'))?.hash).toBe(out.hash);
    const after = await rig.database.db
      .select()
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.account, alice.classicAddress));
    expect(after).toHaveLength(rows.length);
  });

  it('jumps to a sequence seen on the validated ledger before signing, so nothing meets tefPAST_SEQ', async () => {
    const info = await rig.connection.client.request({
      command: 'account_info',
      account: alice.classicAddress,
      ledger_index: 'validated',
    });
    const outside = alice.sign({
      TransactionType: 'AccountSet',
      Account: alice.classicAddress,
      Sequence: info.result.account_data.Sequence,
      Fee: '10',
      LastLedgerSequence: rig.service.ledgerIndex + 10,
    });
    await rig.connection.client.request({ command: 'submit', tx_blob: outside.tx_blob });
    rig.ledger.closeLedger();
    const seen = await rig.connection.client.request({
      command: 'account_info',
      account: alice.classicAddress,
      ledger_index: 'validated',
    });
    await rig.service.sawSequence(alice.classicAddress, seen.result.account_data.Sequence);
    const out = await closeUntil(rig.ledger, pay('resign-3', XRP));
    expect([out.status, out.intentKey, out.sequence]).toEqual([
      'success',
      'resign-3',
      seen.result.account_data.Sequence,
    ]);
  });
});
