import { describe, expect, it } from 'vitest';
import { Harness } from './helpers';
import { dirPageKey, ownerDirKey } from '../../src/core/keylets';
import { GENESIS_ADDRESS } from '../../src/core/ledger-node';

describe('owner directories', () => {
  it('pages at 32 entries, links pages and unlinks emptied ones', () => {
    const h = new Harness();
    const w = h.wallet(100_000_000n);
    const seq = h.nextSeq(w.classicAddress);
    h.expect(w, { TransactionType: 'TicketCreate', TicketCount: 40 }, 'tesSUCCESS');
    const root = ownerDirKey(w.classicAddress);
    const view = () => h.node.current();
    const r = view().read(root)!;
    const p1 = view().read(dirPageKey(root, 1n))!;
    expect((r.Indexes as string[]).length).toBe(32);
    expect((p1.Indexes as string[]).length).toBe(8);
    expect(r.IndexNext).toBe('1');
    expect(r.IndexPrevious).toBe('1');
    expect(p1.IndexPrevious).toBeUndefined();
    expect(p1.RootIndex).toBe(root);
    expect(p1.Owner).toBe(w.classicAddress);
    // Pages are kept sorted (owner directories use dirInsert).
    expect([...(r.Indexes as string[])].sort()).toEqual(r.Indexes);
    // Consume the tickets that landed on page 1: the page goes away and the root is relinked.
    const onPage1 = new Set(p1.Indexes as string[]);
    let n = 0;
    for (let t = seq + 1; t <= seq + 40; t++) {
      const entry = [...view().entries()].find(
        (e) => e.LedgerEntryType === 'Ticket' && e.TicketSequence === t,
      )!;
      if (!onPage1.has(entry.index)) continue;
      h.expect(
        w,
        {
          TransactionType: 'Payment',
          Destination: GENESIS_ADDRESS,
          Amount: String(1_000_000 + n++),
          TicketSequence: t,
          Sequence: 0,
        },
        'tesSUCCESS',
        { seq: 0 },
      );
    }
    expect(n).toBe(8);
    expect(view().read(dirPageKey(root, 1n))).toBeUndefined();
    const r2 = view().read(root)!;
    expect(r2.IndexNext).toBe('0');
    expect(r2.IndexPrevious).toBe('0');
    expect((r2.Indexes as string[]).length).toBe(32);
    expect(h.account(w.classicAddress)!.OwnerCount).toBe(32);
  });
});
