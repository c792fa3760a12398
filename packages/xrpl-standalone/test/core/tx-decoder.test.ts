import { describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { decode, encode } from 'ripple-binary-codec';
import { decodedInnerBlob, decodeTransaction } from '../../src/core/tx-decoder';
import { innerTransactions } from '../../src/core/batch-txs';
import { paymentBatchJson } from './helpers';

describe('fast transaction decoder', () => {
  it('returns exactly what ripple-binary-codec returns', () => {
    const w = Wallet.generate();
    const base = { Account: w.classicAddress, Fee: '12', Sequence: 9 };
    const txs: Array<Record<string, unknown>> = [
      {
        TransactionType: 'Payment',
        Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
        Amount: '1000',
        DestinationTag: 4,
        LastLedgerSequence: 99,
      },
      {
        TransactionType: 'Payment',
        Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
        Amount: '5',
        Memos: [{ Memo: { MemoType: 'AB', MemoData: 'CDEF' } }, { Memo: { MemoFormat: '00' } }],
      },
      {
        TransactionType: 'AccountSet',
        SetFlag: 5,
        Domain: 'AA'.repeat(250),
        EmailHash: 'F'.repeat(32),
        TickSize: 5,
        TransferRate: 1_200_000_000,
      },
      {
        TransactionType: 'SetRegularKey',
        RegularKey: 'rrrrrrrrrrrrrrrrrrrrBZbvji',
        AccountTxnID: 'A'.repeat(64),
      },
      { TransactionType: 'TicketCreate', TicketCount: 3, NetworkID: 1025 },
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', value: '1.25' },
        QualityIn: 5,
      },
    ];
    for (const t of txs) {
      const blob = w.sign({ ...base, ...t } as never).tx_blob;
      expect(decodeTransaction(blob)).toEqual(decode(blob));
    }
    const unsigned = encode({
      ...base,
      TransactionType: 'Payment',
      Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
      Amount: '0',
      SigningPubKey: '',
    });
    expect(decodeTransaction(unsigned)).toEqual(decode(unsigned));
  });

  it('decodes issued amounts exactly as the codec prints them', () => {
    const issuer = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
    const values = [
      '1',
      '0.4',
      '1.25',
      '1000000',
      '123456789012345.6',
      '1e-8',
      '0.0000001',
      '0.00000012',
      '1e21',
      '100000000000000000000',
      '9999999999999999e80',
      '1e-81',
      '-5',
      '0',
      '3.333333333333333',
      '12345678901234560000',
    ];
    const currencies = [
      'USD',
      'abc',
      '???',
      'XRP'.toLowerCase(),
      '015841551A748AD2C1F76FF6ECB0CCCD00000000',
      '0000000000000000000000003C3E3E0000000000',
      '0000000000000000000000005852500000000000',
      '0000000000000000000000000000000000000001',
    ];
    let checked = 0;
    for (const value of values) {
      for (const currency of currencies) {
        const tx = {
          TransactionType: 'OfferCreate',
          Account: issuer,
          Fee: '10',
          Sequence: 1,
          TakerPays: '1000',
          TakerGets: { currency, issuer, value },
        };
        let blob: string;
        try {
          blob = encode(tx as never);
        } catch {
          continue;
        }
        expect(decodeTransaction(blob)).toEqual(decode(blob));
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(100);
    // Random mantissas and exponents across the whole range.
    for (let i = 0; i < 300; i += 1) {
      const mantissa = (1_000_000_000_000_000n + BigInt(Math.floor(Math.random() * 9e15))).toString();
      const value = `${mantissa}e${Math.floor(Math.random() * 177) - 96}`;
      const blob = encode({
        TransactionType: 'TrustSet',
        Account: issuer,
        Fee: '10',
        Sequence: 1,
        LimitAmount: { currency: 'EUR', issuer, value },
      } as never);
      expect(decodeTransaction(blob)).toEqual(decode(blob));
    }
  });

  // The engine hashes a Batch's inner transactions by these bytes instead of encoding their JSON.
  it("keeps each inner transaction's canonical blob of a Batch: the codec's encoding of its JSON", () => {
    const w = Wallet.generate();
    const batch = paymentBatchJson(w, [
      { from: w, sequence: 6, amount: '1000' },
      {
        from: w,
        sequence: 7,
        amount: { currency: 'USD', issuer: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', value: '0.25' },
      },
    ]);
    const blob = encode(batch as never);
    const tx = decodeTransaction(blob.toLowerCase());
    expect(tx).toEqual(decode(blob));
    const inners = innerTransactions(tx)!;
    expect(inners).toHaveLength(2);
    for (const [i, got] of inners.entries()) {
      const json = (tx.RawTransactions as Array<{ RawTransaction: Record<string, unknown> }>)[i]!
        .RawTransaction;
      expect(decodedInnerBlob(json)?.toUpperCase()).toBe(encode(json as never));
      expect(got.blob).toBe(encode(json as never));
    }
    // A Batch built as JSON (not decoded here) is encoded as before.
    expect(innerTransactions(batch)!.map((t) => t.blob)).toEqual(inners.map((t) => t.blob));
    expect(decodedInnerBlob(batch.RawTransactions[0]!.RawTransaction)).toBeUndefined();
  });

  it('throws like the codec on garbage', () => {
    expect(() => decodeTransaction('12')).toThrow();
    expect(() => decodeTransaction('FFFF')).toThrow();
  });
});
