// The per-transaction memos of the apply path (last well-formed signing key, last parsed fee and
// XRP amount) and in-place threading must not change what the engine decides or leaks.
import { describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { checkSignature, hasMalformedSigningKey, preflight } from '../../src/core/engine';
import { DEFAULT_CORE_CONFIG } from '../../src/core/ledger-node';
import { ApplyView } from '../../src/core/state/apply-view';
import { deepEqual } from '../../src/core/state/fields';
import type { LedgerEntry } from '../../src/core/contract';

const wallet = Wallet.generate('ed25519' as never);
const other = Wallet.generate('ed25519' as never);

function payment(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    TransactionType: 'Payment',
    Account: wallet.address,
    Destination: other.address,
    Amount: '1000',
    Fee: '10',
    Sequence: 1,
    Flags: 0,
    SigningPubKey: wallet.publicKey,
    ...extra,
  };
}

describe('apply-path memos', () => {
  it('an empty or malformed key is still rejected right after a well-formed one', () => {
    expect(hasMalformedSigningKey(payment())).toBe(false);
    expect(hasMalformedSigningKey(payment({ SigningPubKey: '' }))).toBe(true);
    expect(checkSignature(payment({ SigningPubKey: '', TxnSignature: 'AB' }))).toBe(false);
    expect(preflight(payment({ SigningPubKey: '' }), DEFAULT_CORE_CONFIG)).toBe('temBAD_SIGNATURE');
    expect(preflight(payment({ SigningPubKey: 'ED00' }), DEFAULT_CORE_CONFIG)).toBe('temBAD_SIGNATURE');
    expect(preflight(payment(), DEFAULT_CORE_CONFIG)).toBe('tesSUCCESS');
  });

  it('a changed Fee or Amount on the same tx object is parsed again', () => {
    const tx = payment();
    expect(preflight(tx, DEFAULT_CORE_CONFIG)).toBe('tesSUCCESS');
    tx.Fee = '-1';
    expect(preflight(tx, DEFAULT_CORE_CONFIG)).toBe('temBAD_FEE');
    tx.Fee = '10';
    tx.Amount = '0';
    expect(preflight(tx, DEFAULT_CORE_CONFIG)).toBe('temBAD_AMOUNT');
    tx.Amount = '1000';
    expect(preflight(tx, DEFAULT_CORE_CONFIG)).toBe('tesSUCCESS');
  });

  it('threading leaves the base entries untouched, also for thread-only owners', () => {
    const root: LedgerEntry = {
      LedgerEntryType: 'AccountRoot',
      Account: wallet.address,
      Balance: '100',
      Flags: 0,
      OwnerCount: 0,
      PreviousTxnID: 'A'.repeat(64),
      PreviousTxnLgrSeq: 3,
      Sequence: 1,
      index: 'B'.repeat(64),
    };
    const frozen = JSON.stringify(root);
    const base = { read: (k: string) => (k === root.index ? root : undefined) };
    const ctx = { ledgerSeq: 5, parentCloseTime: 0, config: DEFAULT_CORE_CONFIG };
    const view = new ApplyView(base, ctx);
    const copy = view.peek(root.index) as LedgerEntry;
    copy.Balance = '90';
    view.update(copy);
    const meta = view.buildMetadata('C'.repeat(64), 0, 'tesSUCCESS');
    expect(JSON.stringify(root)).toBe(frozen);
    const entry = (view.changes()[0] as [string, LedgerEntry])[1];
    expect(entry.PreviousTxnID).toBe('C'.repeat(64));
    expect(Object.keys(entry)).toEqual(Object.keys(root));
    expect(meta.AffectedNodes).toHaveLength(1);

    const threadOnly = new ApplyView(base, ctx);
    threadOnly.update(root);
    threadOnly.buildMetadata('D'.repeat(64), 0, 'tesSUCCESS');
    expect(JSON.stringify(root)).toBe(frozen);
  });
  it('deepEqual compares own keys and values, whatever their order', () => {
    const entry = { A: '1', B: { value: '2', currency: 'USD' }, C: ['x', 'y'] };
    expect(deepEqual(entry, { C: ['x', 'y'], B: { currency: 'USD', value: '2' }, A: '1' })).toBe(true);
    expect(deepEqual(entry, { ...entry, D: 0 })).toBe(false);
    expect(deepEqual({ ...entry, D: 0 }, entry)).toBe(false);
    expect(deepEqual(entry, { ...entry, B: { value: '3', currency: 'USD' } })).toBe(false);
    expect(deepEqual(entry, { ...entry, C: ['x'] })).toBe(false);
    expect(deepEqual(entry, { A: '1', B: entry.B, X: ['x', 'y'] })).toBe(false);
    // Inherited enumerable keys are not own keys (as with Object.keys).
    const inherited = Object.assign(Object.create({ Z: 1 }) as object, entry);
    expect(deepEqual(inherited, entry)).toBe(true);
    expect(deepEqual(entry, inherited)).toBe(true);
    expect(deepEqual({}, {})).toBe(true);
    expect(deepEqual({}, [])).toBe(true);
    expect(deepEqual([], {})).toBe(false);
  });

  it('lists affected nodes by ledger index, short lists (in-place sort) and long ones alike', () => {
    for (const count of [2, 3, 7, 16, 17, 40]) {
      // Keys in a scrambled order (multiplying by 7919 modulo a prime permutes them).
      const keys = Array.from({ length: count }, (_, i) =>
        ((i * 7919) % 10007).toString(16).toUpperCase().padStart(64, '0'),
      );
      const entries = new Map<string, LedgerEntry>(
        keys.map((index, i) => [
          index,
          {
            LedgerEntryType: 'AccountRoot',
            Account: wallet.address,
            Balance: String(100 + i),
            Flags: 0,
            OwnerCount: 0,
            PreviousTxnID: 'A'.repeat(64),
            PreviousTxnLgrSeq: 3,
            Sequence: 1,
            index,
          },
        ]),
      );
      const base = { read: (k: string) => entries.get(k) };
      const view = new ApplyView(base, { ledgerSeq: 5, parentCloseTime: 0, config: DEFAULT_CORE_CONFIG });
      for (const index of keys.slice().reverse()) {
        const copy = view.peek(index) as LedgerEntry;
        copy.Balance = '1';
        view.update(copy);
      }
      const meta = view.buildMetadata('C'.repeat(64), 0, 'tesSUCCESS');
      const listed = (meta.AffectedNodes as Array<{ ModifiedNode: { LedgerIndex: string } }>).map(
        (n) => n.ModifiedNode.LedgerIndex,
      );
      expect(listed).toEqual(keys.slice().sort());
    }
  });

  it("peekModified copies base entries and returns the view's own modified one", () => {
    const root: LedgerEntry = { LedgerEntryType: 'AccountRoot', Balance: '5', index: 'E'.repeat(64) };
    const view = new ApplyView(
      { read: (k: string) => (k === root.index ? root : undefined) },
      { ledgerSeq: 5, parentCloseTime: 0, config: DEFAULT_CORE_CONFIG },
    );
    const first = view.peekModified(root.index) as LedgerEntry;
    expect(first).not.toBe(root);
    expect(first).toEqual(root);
    first.Balance = '4';
    view.update(first);
    expect(view.peekModified(root.index)).toBe(first);
    expect(view.peek(root.index)).not.toBe(first);
    expect(root.Balance).toBe('5');
  });
});
