import { describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { decode, encode, encodeForSigning } from 'ripple-binary-codec';
import { sign } from 'ripple-keypairs';
import { signingDataBytes, signingDataHex } from '../../src/core/signing-data';
import { paymentBatchJson } from './helpers';

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
      expect(signingDataBytes(Buffer.from(blob, 'hex'), tx).toString('hex').toUpperCase()).toBe(
        encodeForSigning(tx),
      );
    }
  });

  // A Batch's inner transactions are an array of objects: cut from the blob, not re-encoded (issue
  // 40), so the scan of nested objects must give the codec's bytes, and leave out the top-level
  // non-signing arrays (BatchSigners) while keeping the inner objects whole.
  it('equals encodeForSigning for a Batch of inner transactions, with and without BatchSigners', () => {
    const w = Wallet.generate();
    const other = Wallet.generate();
    const base = paymentBatchJson(
      w,
      [
        { from: w, sequence: 6, amount: '1000' },
        {
          from: other,
          sequence: 9,
          amount: { currency: 'USD', issuer: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', value: '2.5' },
        },
      ],
      { Memos: [{ Memo: { MemoType: '74726164', MemoData: 'CAFE' } }] },
    );
    const withSigners = {
      ...base,
      BatchSigners: [
        {
          BatchSigner: {
            Account: other.classicAddress,
            SigningPubKey: other.publicKey,
            TxnSignature: 'AB'.repeat(70),
          },
        },
      ],
    };
    for (const t of [base, withSigners]) {
      const unsigned = encodeForSigning(t as never);
      const blob = encode({ ...t, TxnSignature: sign(unsigned, w.privateKey) } as never);
      // The JSON handed beside the blob is only the fallback's input: a different one shows the
      // message was cut from the blob.
      const tx = { ...decode(blob), Fee: '999' };
      expect(signingDataHex(blob, tx)).toBe(unsigned);
      expect(signingDataBytes(Buffer.from(blob, 'hex'), tx).toString('hex').toUpperCase()).toBe(unsigned);
    }
  });

  it('falls back to the codec for an inner object whose fields are out of canonical order', () => {
    const w = Wallet.generate();
    const t = {
      TransactionType: 'Payment',
      Account: w.classicAddress,
      Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
      Amount: '1000',
      Fee: '10',
      Sequence: 5,
      SigningPubKey: w.publicKey,
      Memos: [{ Memo: { MemoType: '74', MemoData: 'AB' } }],
    };
    const canonical = encode(t as never);
    // MemoType (7,12) then MemoData (7,13): the blob with the two swapped is the same transaction
    // in non-canonical order, which rippled re-serializes in canonical order before checking.
    const typeField = '7C0174';
    const dataField = '7D01AB';
    expect(canonical).toContain(typeField + dataField);
    const swapped = canonical.replace(typeField + dataField, dataField + typeField);
    const tx = decode(canonical);
    expect(signingDataHex(swapped, tx)).toBe(encodeForSigning(t as never));
    expect(signingDataBytes(Buffer.from(swapped, 'hex'), tx).toString('hex').toUpperCase()).toBe(
      encodeForSigning(t as never),
    );
  });
});
