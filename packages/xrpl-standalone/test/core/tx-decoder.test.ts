import { describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { decode, encode } from 'ripple-binary-codec';
import { decodeTransaction } from '../../src/core/tx-decoder';

describe('fast transaction decoder', () => {
  it('returns exactly what ripple-binary-codec returns', () => {
    const w = Wallet.generate();
    const base = { Account: w.classicAddress, Fee: '12', Sequence: 9 };
    const txs: Array<Record<string, unknown>> = [
      { TransactionType: 'Payment', Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', Amount: '1000', DestinationTag: 4, LastLedgerSequence: 99 },
      { TransactionType: 'Payment', Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', Amount: '5', Memos: [{ Memo: { MemoType: 'AB', MemoData: 'CDEF' } }, { Memo: { MemoFormat: '00' } }] },
      { TransactionType: 'AccountSet', SetFlag: 5, Domain: 'AA'.repeat(250), EmailHash: 'F'.repeat(32), TickSize: 5, TransferRate: 1_200_000_000 },
      { TransactionType: 'SetRegularKey', RegularKey: 'rrrrrrrrrrrrrrrrrrrrBZbvji', AccountTxnID: 'A'.repeat(64) },
      { TransactionType: 'TicketCreate', TicketCount: 3, NetworkID: 1025 },
      { TransactionType: 'TrustSet', LimitAmount: { currency: 'USD', issuer: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', value: '1.25' }, QualityIn: 5 },
    ];
    for (const t of txs) {
      const blob = w.sign({ ...base, ...t } as never).tx_blob;
      expect(decodeTransaction(blob)).toEqual(decode(blob));
    }
    const unsigned = encode({ ...base, TransactionType: 'Payment', Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', Amount: '0', SigningPubKey: '' });
    expect(decodeTransaction(unsigned)).toEqual(decode(unsigned));
  });

  it('throws like the codec on garbage', () => {
    expect(() => decodeTransaction('12')).toThrow();
    expect(() => decodeTransaction('FFFF')).toThrow();
  });
});
