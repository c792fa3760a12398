import { describe, expect, it, vi } from 'vitest';
import { Wallet } from 'xrpl';
import { Harness, genesis } from './helpers';
import { LedgerNode, GENESIS_ADDRESS } from '../../src/core/ledger-node';
import type { ClosedLedgerRecord } from '../../src/core/contract';
import {
  accountRootKey,
  amendmentsKey,
  feeSettingsKey,
  skipListKey,
  trustLineKey,
} from '../../src/core/keylets';

const pay = (to: string, drops = '1000000') => ({
  TransactionType: 'Payment',
  Destination: to,
  Amount: drops,
});

describe('ledger chain', () => {
  it('links ledgers by parent hash, rounds close times and keeps the skip list', () => {
    const h = new Harness();
    const l2 = h.node.validated().header;
    const rec = h.node.closeLedger(l2.close_time + 14);
    expect(rec.header.parent_hash).toBe(l2.ledger_hash);
    expect(rec.header.parent_close_time).toBe(l2.close_time);
    expect(rec.header.close_time % 10).toBe(0);
    expect(rec.header.close_time_resolution).toBe(10);
    const again = h.node.closeLedger(rec.header.close_time - 100);
    expect(again.header.close_time).toBe(rec.header.close_time + 1);
    const skip = h.node.validated().read(skipListKey())!;
    expect((skip.Hashes as string[]).slice(-2)).toEqual([l2.ledger_hash, rec.header.ledger_hash]);
    expect(skip.LastLedgerSequence).toBe(again.header.ledger_index - 1);
    expect(h.node.ledger({ ledger_hash: rec.header.ledger_hash })?.header.ledger_index).toBe(3);
    expect(h.node.ledger({ ledger_index: 'current' })?.closed).toBe(false);
    expect(h.node.ledger({ ledger_index: 99 })).toBeUndefined();
  });

  it('starts with the genesis account, fee settings and enabled amendments', () => {
    const h = new Harness({ baseFee: 200n, reserveBase: 20_000_000n, reserveIncrement: 5_000_000n });
    const fees = h.node.validated().read(feeSettingsKey())!;
    expect(fees).toMatchObject({
      BaseFeeDrops: '200',
      ReserveBaseDrops: '20000000',
      ReserveIncrementDrops: '5000000',
    });
    const amendments = h.node.validated().read(amendmentsKey())!;
    // rippled's feature ID for AMM.
    expect(amendments.Amendments).toContain(
      '8CC0774A3BF66D1D22E76BBDA8E8A232E6B6313834301B3B23E8601196AE6455',
    );
    expect(h.node.ledger({ ledger_index: 1 })!.header.close_time).toBe(0);
  });

  it('keeps old ledgers readable after later changes', () => {
    const h = new Harness();
    const w = h.wallet(30_000_000n);
    h.close();
    const at3 = h.node.validated().header.ledger_index;
    h.expect(w, pay(GENESIS_ADDRESS, '5000000'), 'tesSUCCESS');
    h.close();
    const key = accountRootKey(w.classicAddress);
    expect(h.node.ledger({ ledger_index: at3 })!.read(key)!.Balance).toBe('30000000');
    expect(h.node.validated().read(key)!.Balance).toBe(String(30_000_000 - 5_000_000 - 10));
    const current = [...h.node.current().entries()].map((e) => e.index);
    expect(current).toEqual([...current].sort());
    expect(current).toContain(key);
  });

  it('pages account_tx by ledger then transaction index with markers', () => {
    const h = new Harness();
    const w = Wallet.generate();
    h.fund(w.classicAddress, 100_000_000n);
    h.close();
    for (let i = 0; i < 3; i++) h.expect(w, pay(GENESIS_ADDRESS, String(1_000_000 + i)), 'tesSUCCESS');
    h.close();
    h.expect(w, pay(GENESIS_ADDRESS), 'tesSUCCESS');
    h.close();
    const all = h.node.accountTx({ account: w.classicAddress, forward: true });
    expect(all.transactions.map((t) => [t.ledgerIndex, t.meta.TransactionIndex])).toEqual([
      [3, 0],
      [4, 0],
      [4, 1],
      [4, 2],
      [5, 0],
    ]);
    const p1 = h.node.accountTx({ account: w.classicAddress, limit: 2 });
    expect(p1.transactions.map((t) => t.ledgerIndex)).toEqual([5, 4]);
    expect(p1.marker).toEqual({ ledger: 4, seq: 1 });
    const p2 = h.node.accountTx({ account: w.classicAddress, limit: 2, marker: p1.marker });
    expect(p2.transactions.map((t) => [t.ledgerIndex, t.meta.TransactionIndex])).toEqual([
      [4, 1],
      [4, 0],
    ]);
    const p3 = h.node.accountTx({ account: w.classicAddress, limit: 2, marker: p2.marker });
    expect(p3.transactions).toHaveLength(1);
    expect(p3.marker).toBeUndefined();
    expect(
      h.node.accountTx({ account: w.classicAddress, ledgerIndexMin: 4, ledgerIndexMax: 4 }).transactions,
    ).toHaveLength(3);
    // The genesis account sees the funding payment as well.
    expect(h.node.accountTx({ account: GENESIS_ADDRESS }).transactions.length).toBe(5);
  });

  it('restores from persisted records to identical ledgers', () => {
    const h = new Harness();
    const records: ClosedLedgerRecord[] = [...h.node.initialRecords()];
    h.node.onLedgerClosed((r) => records.push(JSON.parse(JSON.stringify(r)) as ClosedLedgerRecord));
    const issuer = h.wallet();
    const alice = h.wallet();
    h.expect(
      alice,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: issuer.classicAddress, value: '10' },
      },
      'tesSUCCESS',
    );
    h.close();
    const r = h.expect(
      issuer,
      {
        TransactionType: 'Payment',
        Destination: alice.classicAddress,
        Amount: { currency: 'USD', issuer: issuer.classicAddress, value: '4' },
      },
      'tesSUCCESS',
    );
    h.close();
    const restored = new LedgerNode();
    const warn = vi.spyOn(console, 'warn');
    restored.restore(records);
    // The rebuilt state hashes to the stored account_hash.
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
    const a = restored.validated();
    const b = h.node.validated();
    expect(a.header).toEqual(b.header);
    expect(restored.current().header.ledger_index).toBe(b.header.ledger_index + 1);
    expect(restored.txByHash(r.hash)?.meta).toEqual(h.node.txByHash(r.hash)?.meta);
    expect(restored.txByHash(r.hash)?.metaBlob).toBe(h.node.txByHash(r.hash)?.metaBlob);
    expect(a.read(trustLineKey(alice.classicAddress, issuer.classicAddress, 'USD'))).toEqual(
      b.read(trustLineKey(alice.classicAddress, issuer.classicAddress, 'USD')),
    );
    expect(restored.accountTx({ account: alice.classicAddress }).transactions.length).toBe(3);
    // The restored node keeps working.
    const next = restored.submit(
      h.sign(genesis, pay(alice.classicAddress), { seq: h.nextSeq(GENESIS_ADDRESS) }),
    );
    expect(next.engine_result).toBe('tesSUCCESS');
  });

  it('threads PreviousTxnID through modified entries and their owners', () => {
    const h = new Harness();
    const issuer = h.wallet();
    const alice = h.wallet();
    const first =
      h.node.txByHash(h.node.accountTx({ account: alice.classicAddress }).transactions[0]?.hash ?? '') ??
      h.node.current().transactions.find((t) => t.tx.Destination === alice.classicAddress)!;
    const r = h.expect(
      alice,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: issuer.classicAddress, value: '10' },
      },
      'tesSUCCESS',
    );
    const meta = h.node.txByHash(r.hash)!.meta as {
      AffectedNodes: Array<Record<string, Record<string, unknown>>>;
    };
    const kinds = meta.AffectedNodes.map(
      (n) => Object.keys(n)[0] + ':' + (Object.values(n)[0] as { LedgerEntryType: string }).LedgerEntryType,
    );
    expect(kinds.sort()).toEqual(
      // Both sides get an owner directory entry; only the holder pays the reserve.
      [
        'CreatedNode:DirectoryNode',
        'CreatedNode:DirectoryNode',
        'CreatedNode:RippleState',
        'ModifiedNode:AccountRoot',
        'ModifiedNode:AccountRoot',
      ].sort(),
    );
    const aliceNode = meta.AffectedNodes.map((n) => n.ModifiedNode).find(
      (m) => m && (m.FinalFields as { Account: string }).Account === alice.classicAddress,
    )!;
    expect(aliceNode.PreviousTxnID).toBe(first.hash);
    expect(aliceNode.PreviousFields).toEqual({
      Balance: expect.any(String),
      OwnerCount: 0,
      Sequence: expect.any(Number),
    });
    const issuerNode = meta.AffectedNodes.map((n) => n.ModifiedNode).find(
      (m) => m && (m.FinalFields as { Account: string }).Account === issuer.classicAddress,
    )!;
    expect(issuerNode.PreviousFields).toBeUndefined();
    expect(h.account(issuer.classicAddress)!.PreviousTxnID).toBe(r.hash);
    const dir = meta.AffectedNodes.map((n) => n.CreatedNode).find(
      (c) => c?.LedgerEntryType === 'DirectoryNode',
    )!;
    expect(Object.keys(dir.NewFields as object).sort()).toEqual(['Owner', 'RootIndex']);
  });
});
