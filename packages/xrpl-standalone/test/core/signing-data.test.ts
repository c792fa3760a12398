import { describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { decode, encodeForSigning } from 'ripple-binary-codec';
import { signingDataHex } from '../../src/core/signing-data';

describe('signing data fast path', () => {
  it('equals encodeForSigning for payments, memos and issued amounts', () => {
    const w = Wallet.generate();
    const txs = [
      { TransactionType: 'Payment', Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', Amount: '1000' },
      {
        TransactionType: 'Payment',
        Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
        Amount: { currency: 'USD', issuer: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', value: '1.5' },
        Memos: [{ Memo: { MemoData: 'AB' } }],
      },
      { TransactionType: 'AccountSet', Domain: 'AA'.repeat(200), SetFlag: 8 },
    ];
    for (const t of txs) {
      const blob = w.sign({ ...t, Account: w.classicAddress, Fee: '10', Sequence: 5 } as never).tx_blob;
      const tx = decode(blob);
      expect(signingDataHex(blob, tx)).toBe(encodeForSigning(tx));
    }
  });
});
