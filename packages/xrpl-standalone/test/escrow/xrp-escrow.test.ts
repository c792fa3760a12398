// XRP escrows through xrpl.js, on a ledger whose closes are one second apart (so the parent close
// time of every transaction is known): the escrow object and its two directory entries, the owner
// reserve, rippled's strict "after" on FinishAfter/CancelAfter, PREIMAGE-SHA-256 conditions with
// the fulfillment's extra fee, and the malformed cases. The base fee is 10 drops (xrpl.js autofills
// 12: its 1.2 fee cushion), reserves 1 XRP + 0.2 XRP per owned object.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalanceChanges, hashes, Wallet, type TransactionMetadata } from 'xrpl';
import {
  expectResult,
  funded,
  genesis,
  request,
  submit,
  submitRaw,
  xrpBalance,
  type Dex,
} from '../dex/helpers';
import {
  accountRoot,
  cancelTx,
  closeTime,
  escrowObjects,
  finishTx,
  fundedDrops,
  preimageCondition,
  startEscrowLedger,
} from './helpers';

let dex: Dex;

beforeAll(async () => {
  dex = await startEscrowLedger();
}, 60_000);

afterAll(async () => dex?.close());

const root = (address: string) => accountRoot(dex, address);
const escrowsOf = (address: string) => escrowObjects(dex, address);

describe('XRP escrow', () => {
  it('creates the escrow object with both directory links and one owner reserve, and finishes strictly after FinishAfter', async () => {
    const owner = await funded(dex, 1000);
    const dest = await funded(dex, 1000);
    const ownerSeq = (await root(owner.address)).Sequence;
    const t0 = await closeTime(dex);
    const created = await expectResult(dex, owner, {
      TransactionType: 'EscrowCreate',
      Amount: '25000000',
      Destination: dest.address,
      FinishAfter: t0 + 2,
      CancelAfter: t0 + 5,
    });
    // 1000 XRP - 25 XRP escrowed - 12 drops fee; one more owned object.
    expect(await root(owner.address)).toMatchObject({ Balance: '974999988', OwnerCount: 1 });

    const index = hashes.hashEscrow(owner.address, ownerSeq);
    const entry = await request<{ node: Record<string, unknown>; index: string }>(dex, {
      command: 'ledger_entry',
      escrow: { owner: owner.address, seq: ownerSeq },
      ledger_index: 'validated',
    });
    expect(entry.index).toBe(index);
    expect(entry.node).toMatchObject({
      LedgerEntryType: 'Escrow',
      Flags: 0,
      Account: owner.address,
      Destination: dest.address,
      Amount: '25000000',
      FinishAfter: t0 + 2,
      CancelAfter: t0 + 5,
      OwnerNode: '0',
      DestinationNode: '0',
      PreviousTxnID: created.hash,
    });
    expect(entry.node.IssuerNode).toBeUndefined();
    // Listed in the owner's and the destination's directories, nowhere else.
    expect((await escrowsOf(owner.address)).map((e) => e.index)).toEqual([index]);
    expect((await escrowsOf(dest.address)).map((e) => e.index)).toEqual([index]);
    const createdNode = (
      created.meta?.AffectedNodes as Array<Record<string, { LedgerEntryType: string }>>
    ).find((n) => n.CreatedNode?.LedgerEntryType === 'Escrow');
    expect(createdNode?.CreatedNode).toMatchObject({ LedgerIndex: index });

    // Submitted into the ledger after t0 + 1: its parent closed at t0 + 1, before FinishAfter.
    await expectResult(dex, dest, finishTx(owner, ownerSeq), 'tecNO_PERMISSION');
    // Parent close t0 + 2 equals FinishAfter: rippled needs it strictly later.
    await expectResult(dex, dest, finishTx(owner, ownerSeq), 'tecNO_PERMISSION');
    // Not cancellable before CancelAfter either (parent close t0 + 3).
    await expectResult(dex, owner, cancelTx(owner, ownerSeq), 'tecNO_PERMISSION');
    // Parent close t0 + 4: after FinishAfter, before CancelAfter.
    const finished = await expectResult(dex, dest, finishTx(owner, ownerSeq));
    // The destination paid three 12-drop fees and received 25 XRP.
    expect(await root(dest.address)).toMatchObject({ Balance: String(1_000_000_000 - 36 + 25_000_000) });
    // The owner paid the create and cancel fees; its reserve is released.
    expect(await root(owner.address)).toMatchObject({ Balance: '974999976', OwnerCount: 0 });
    expect(await escrowsOf(owner.address)).toEqual([]);
    expect(await escrowsOf(dest.address)).toEqual([]);
    const changes = getBalanceChanges(finished.meta as unknown as TransactionMetadata);
    expect(changes.find((c) => c.account === dest.address)?.balances).toEqual([
      { currency: 'XRP', value: '24.999988' },
    ]);
    const deleted = (
      finished.meta?.AffectedNodes as Array<Record<string, { LedgerEntryType: string; LedgerIndex: string }>>
    ).find((n) => n.DeletedNode?.LedgerEntryType === 'Escrow');
    expect(deleted?.DeletedNode?.LedgerIndex).toBe(index);
  });

  it('returns the XRP to the owner when anyone cancels strictly after CancelAfter, and refuses to finish then', async () => {
    const owner = await funded(dex, 100);
    const other = await funded(dex, 100);
    const seq = (await root(owner.address)).Sequence;
    const t = await closeTime(dex);
    await expectResult(dex, owner, {
      TransactionType: 'EscrowCreate',
      Amount: '5000000',
      Destination: other.address,
      FinishAfter: t + 1,
      CancelAfter: t + 2,
    });
    expect(await xrpBalance(dex, owner.address)).toBe(100_000_000n - 5_000_000n - 12n);
    // Parent close t + 1: before CancelAfter.
    await expectResult(dex, other, cancelTx(owner, seq), 'tecNO_PERMISSION');
    // Parent close t + 2 = CancelAfter: not after it yet.
    await expectResult(dex, other, cancelTx(owner, seq), 'tecNO_PERMISSION');
    // Parent close t + 3: past CancelAfter, so it can no longer be finished...
    await expectResult(dex, other, finishTx(owner, seq), 'tecNO_PERMISSION');
    // ...only cancelled, by anyone; the 5 XRP go back to the owner.
    await expectResult(dex, other, cancelTx(owner, seq));
    expect(await root(owner.address)).toMatchObject({ Balance: String(100_000_000 - 12), OwnerCount: 0 });
    expect(await xrpBalance(dex, other.address)).toBe(100_000_000n - 4n * 12n);
    // An escrow that is gone cannot be cancelled again.
    await expectResult(dex, other, cancelTx(owner, seq), 'tecNO_TARGET');
  });

  it('cannot cancel an escrow without CancelAfter', async () => {
    const owner = await funded(dex, 100);
    const seq = (await root(owner.address)).Sequence;
    const t = await closeTime(dex);
    await expectResult(dex, owner, {
      TransactionType: 'EscrowCreate',
      Amount: '1000000',
      Destination: genesis.address,
      FinishAfter: t + 1,
    });
    await expectResult(dex, owner, cancelTx(owner, seq), 'tecNO_PERMISSION');
  });

  it('counts the owner reserve: the balance after the fee must cover it (and the amount)', async () => {
    const t = await closeTime(dex);
    // 1.19 XRP - 12 drops fee = 1,189,988 < 1 XRP + 0.2 XRP for the escrow.
    const poor = await fundedDrops(dex, '1190000');
    await expectResult(
      dex,
      poor,
      { TransactionType: 'EscrowCreate', Amount: '1', Destination: genesis.address, FinishAfter: t + 100 },
      'tecINSUFFICIENT_RESERVE',
    );
    // 1.3 XRP - 12 drops = 1,299,988 covers the 1.2 XRP reserve but not 1.2 XRP + 0.1 XRP...
    const tight = await fundedDrops(dex, '1300000');
    await expectResult(
      dex,
      tight,
      {
        TransactionType: 'EscrowCreate',
        Amount: '100000',
        Destination: genesis.address,
        FinishAfter: t + 100,
      },
      'tecUNFUNDED',
    );
    // ...and exactly: 1,300,000 - 2 × 12 = 1,299,976 = 1.2 XRP reserve + 99,976 drops.
    await expectResult(dex, tight, {
      TransactionType: 'EscrowCreate',
      Amount: '99976',
      Destination: genesis.address,
      FinishAfter: t + 100,
    });
    expect(await root(tight.address)).toMatchObject({ Balance: '1200000', OwnerCount: 1 });
  });

  it('finishes a conditional escrow only with the matching PREIMAGE-SHA-256 fulfillment, at the fulfillment fee', async () => {
    const owner = await funded(dex, 100);
    const dest = await funded(dex, 100);
    const { condition, fulfillment } = preimageCondition(Buffer.alloc(32, 0x61));
    const wrong = preimageCondition(Buffer.alloc(32, 0x62));
    const seq = (await root(owner.address)).Sequence;
    const t = await closeTime(dex);
    await expectResult(dex, owner, {
      TransactionType: 'EscrowCreate',
      Amount: '3000000',
      Destination: dest.address,
      Condition: condition,
      CancelAfter: t + 100,
    });
    const escrow = (await escrowsOf(owner.address))[0];
    expect(escrow?.Condition).toBe(condition);
    expect(escrow?.FinishAfter).toBeUndefined();
    const finish = finishTx(owner, seq);
    // The fulfillment is 36 bytes: 10 × (1 + 32 + floor(36 / 16)) = 350 drops.
    expect(
      await submitRaw(dex, dest, { ...finish, Condition: condition, Fulfillment: fulfillment }, '349'),
    ).toBe('telINSUF_FEE_P');
    expect(await submitRaw(dex, dest, { ...finish, Condition: condition })).toBe('temMALFORMED');
    expect(await submitRaw(dex, dest, { ...finish, Fulfillment: fulfillment }, '350')).toBe('temMALFORMED');
    expect(
      await submitRaw(dex, dest, { ...finish, Condition: condition, Fulfillment: wrong.fulfillment }, '350'),
    ).toBe('tecCRYPTOCONDITION_ERROR');
    // The escrow's condition must be presented again: not another (valid) pair, not none.
    expect(
      await submitRaw(
        dex,
        dest,
        { ...finish, Condition: wrong.condition, Fulfillment: wrong.fulfillment },
        '350',
      ),
    ).toBe('tecCRYPTOCONDITION_ERROR');
    expect(await submitRaw(dex, dest, finish)).toBe('tecCRYPTOCONDITION_ERROR');
    const before = await xrpBalance(dex, dest.address);
    expect(
      await submitRaw(dex, dest, { ...finish, Condition: condition, Fulfillment: fulfillment }, '350'),
    ).toBe('tesSUCCESS');
    expect(await xrpBalance(dex, dest.address)).toBe(before - 350n + 3_000_000n);
    expect(await root(owner.address)).toMatchObject({ OwnerCount: 0 });
  });

  it('refuses malformed escrows with rippled codes', async () => {
    const owner = await funded(dex, 100);
    const t = await closeTime(dex);
    const base = { TransactionType: 'EscrowCreate', Destination: genesis.address };
    expect(await submitRaw(dex, owner, { ...base, Amount: '0', FinishAfter: t + 10 })).toBe('temBAD_AMOUNT');
    expect(await submitRaw(dex, owner, { ...base, Amount: '1000' })).toBe('temBAD_EXPIRATION');
    expect(
      await submitRaw(dex, owner, { ...base, Amount: '1000', FinishAfter: t + 10, CancelAfter: t + 10 }),
    ).toBe('temBAD_EXPIRATION');
    // Without FinishAfter a condition is required.
    expect(await submitRaw(dex, owner, { ...base, Amount: '1000', CancelAfter: t + 10 })).toBe(
      'temMALFORMED',
    );
    const { condition } = preimageCondition(Buffer.alloc(8, 1));
    // The same DER under tag [1] (prefix-sha-256) is a type rippled does not support.
    expect(
      await submitRaw(dex, owner, {
        ...base,
        Amount: '1000',
        Condition: `A1${condition.slice(2)}`,
        CancelAfter: t + 10,
      }),
    ).toBe('temMALFORMED');
    // A cost (preimage length) of 129, above rippled's 128-byte limit, is refused: the same
    // fingerprint with the cost as the two-octet DER integer 00 81 (outer length 0x26).
    const costly = `A0268020${condition.slice(8, 72)}81020081`;
    expect(
      await submitRaw(dex, owner, { ...base, Amount: '1000', Condition: costly, CancelAfter: t + 10 }),
    ).toBe('temMALFORMED');
    // Times already past (the parent closed at t + n) and a destination that does not exist.
    expect(await submitRaw(dex, owner, { ...base, Amount: '1000', FinishAfter: t })).toBe('tecNO_PERMISSION');
    const nobody = Wallet.generate().address;
    expect(
      await submitRaw(dex, owner, { ...base, Destination: nobody, Amount: '1000', FinishAfter: t + 100 }),
    ).toBe('tecNO_DST');
  });

  it('requires the destination tag a destination asks for', async () => {
    const owner = await funded(dex, 100);
    const tagged = await funded(dex, 100);
    await expectResult(dex, tagged, { TransactionType: 'AccountSet', SetFlag: 1 });
    const t = await closeTime(dex);
    const tx = {
      TransactionType: 'EscrowCreate',
      Amount: '1000',
      Destination: tagged.address,
      FinishAfter: t + 50,
    };
    await expectResult(dex, owner, tx, 'tecDST_TAG_NEEDED');
    await expectResult(dex, owner, { ...tx, DestinationTag: 7 });
    expect((await escrowsOf(tagged.address))[0]).toMatchObject({ DestinationTag: 7 });
  });

  it('keys an escrow made with a ticket by the ticket sequence', async () => {
    const owner = await funded(dex, 100);
    const ticketSeq = (await root(owner.address)).Sequence + 1;
    await expectResult(dex, owner, { TransactionType: 'TicketCreate', TicketCount: 1 });
    const t = await closeTime(dex);
    const r = await submit(dex, owner, {
      TransactionType: 'EscrowCreate',
      Amount: '1000',
      Destination: genesis.address,
      FinishAfter: t + 50,
      Sequence: 0,
      TicketSequence: ticketSeq,
    });
    expect(r.result).toBe('tesSUCCESS');
    expect((await escrowsOf(owner.address))[0]?.index).toBe(hashes.hashEscrow(owner.address, ticketSeq));
  });
});
