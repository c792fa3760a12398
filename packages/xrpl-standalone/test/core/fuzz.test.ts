import { describe, expect, it } from 'vitest';
import { Harness, genesis } from './helpers';
import { GENESIS_ADDRESS } from '../../src/core/ledger-node';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('bad input never throws and never changes state unless applied', () => {
  it('survives mutated, truncated and random blobs', () => {
    const h = new Harness();
    const w = h.wallet();
    const r = rng(42);
    const valid = [
      h.sign(w, { TransactionType: 'Payment', Destination: GENESIS_ADDRESS, Amount: '1000' }),
      h.sign(w, {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: GENESIS_ADDRESS, value: '5' },
      }),
      h.sign(genesis, { TransactionType: 'AccountSet', SetFlag: 8, Memos: [{ Memo: { MemoData: 'AB' } }] }),
    ];
    const snapshot = () => JSON.stringify([...h.node.current().entries()]);
    for (let i = 0; i < 400; i++) {
      const base = valid[i % valid.length] as string;
      let blob: string;
      const kind = i % 4;
      if (kind === 0) {
        const at = Math.floor(r() * (base.length / 2)) * 2;
        blob =
          base.slice(0, at) +
          Math.floor(r() * 256)
            .toString(16)
            .padStart(2, '0')
            .toUpperCase() +
          base.slice(at + 2);
      } else if (kind === 1) blob = base.slice(0, Math.floor(r() * base.length));
      else if (kind === 2)
        blob = Array.from({ length: 2 + Math.floor(r() * 200) }, () =>
          Math.floor(r() * 16).toString(16),
        ).join('');
      else blob = base + 'E1'.repeat(1 + Math.floor(r() * 3));
      const before = snapshot();
      const res = h.node.submit(blob);
      if (!res.applied) expect(snapshot()).toBe(before);
      else expect(res.engine_result === 'tesSUCCESS' || res.engine_result.startsWith('tec')).toBe(true);
    }
    // The ledger still closes and the valid transactions still apply.
    h.close();
    expect(
      h.submit(w, { TransactionType: 'Payment', Destination: GENESIS_ADDRESS, Amount: '1000' }).engine_result,
    ).toBe('tesSUCCESS');
  });
});
