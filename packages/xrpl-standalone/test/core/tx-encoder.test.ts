import { describe, expect, it } from 'vitest';
import { encode } from 'ripple-binary-codec';
import { Wallet } from 'xrpl';
import { decodeTransaction, encodeTransactionFast } from '../../src/codec';

// encodeTransactionFast answers the codec's own bytes or nothing: every transaction here is either
// encoded exactly as ripple-binary-codec encodes it, or handed back (undefined) for the codec.

const w = Wallet.generate();
const issuer = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const hexCurrency = '4C41554E43480000000000000000000000000000';
const base = { Account: w.classicAddress, Fee: '12', Sequence: 9, SigningPubKey: w.publicKey };

describe('encodeTransactionFast', () => {
  it.each<[string, Record<string, unknown>]>([
    [
      'an XRP payment',
      { TransactionType: 'Payment', Destination: issuer, Amount: '1000', DestinationTag: 4 },
    ],
    [
      'a buy with SendMax and DeliverMin',
      {
        TransactionType: 'Payment',
        Destination: w.classicAddress,
        Amount: { currency: hexCurrency, issuer, value: '123456.789' },
        SendMax: '10000000',
        DeliverMin: { currency: hexCurrency, issuer, value: '61728.3945' },
        Flags: 131072,
        LastLedgerSequence: 120,
      },
    ],
    [
      'an offer with a 3-letter code',
      {
        TransactionType: 'OfferCreate',
        TakerGets: '2500000',
        TakerPays: { currency: 'USD', issuer, value: '0.000001' },
        Flags: 0x00020000,
      },
    ],
    [
      'a payment with memos',
      {
        TransactionType: 'Payment',
        Destination: issuer,
        Amount: '5',
        Memos: [{ Memo: { MemoType: 'AB', MemoData: 'CDEF' } }],
      },
    ],
  ])('writes %s byte for byte as the codec does', (_name, fields) => {
    const tx = { ...base, ...fields };
    const fast = encodeTransactionFast(tx);
    expect(fast).toBeDefined();
    expect(fast).toBe(encode(tx as never));
    expect(decodeTransaction(fast!)).toEqual(tx);
  });

  it('takes a value spelled otherwise for the same number, and the codec agrees on the bytes', () => {
    const tx = {
      ...base,
      TransactionType: 'TrustSet',
      LimitAmount: { currency: hexCurrency, issuer, value: '1000000000.000' },
    };
    expect(encodeTransactionFast(tx)).toBe(encode(tx as never));
  });

  it.each<[string, Record<string, unknown>]>([
    [
      'an X-address',
      { TransactionType: 'Payment', Destination: Wallet.generate().getXAddress(), Amount: '1' },
    ],
    ['lower-case hex', { TransactionType: 'AccountSet', Domain: 'abcdef' }],
    ['a field that is not one', { TransactionType: 'AccountSet', NotAField: 1 }],
    ['a value of the wrong type', { TransactionType: 'Payment', Destination: issuer, Amount: 5 }],
    ['an undefined field', { TransactionType: 'AccountSet', Domain: undefined }],
    ['a negative XRP amount', { TransactionType: 'Payment', Destination: issuer, Amount: '-1' }],
    [
      'more XRP than exists',
      { TransactionType: 'Payment', Destination: issuer, Amount: '100000000000000001' },
    ],
    ['a fraction of a drop', { TransactionType: 'Payment', Destination: issuer, Amount: '1.5' }],
    [
      'a negative XRP amount inside a Batch',
      {
        TransactionType: 'Batch',
        Flags: 0x00010000,
        RawTransactions: [
          {
            RawTransaction: {
              TransactionType: 'Payment',
              Account: w.classicAddress,
              Destination: issuer,
              Amount: '-5',
              Fee: '0',
              Sequence: 10,
              SigningPubKey: '',
              Flags: 0x40000000,
            },
          },
        ],
      },
    ],
  ])('leaves %s to the codec', (_name, fields) => {
    expect(encodeTransactionFast({ ...base, ...fields })).toBeUndefined();
    if (/XRP|drop/.test(_name)) expect(() => encode({ ...base, ...fields } as never)).toThrow();
  });
});
