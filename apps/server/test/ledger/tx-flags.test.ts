import { describe, expect, it } from 'vitest';
import { decode, ECDSA, encode, Wallet } from 'xrpl';
import { txFlags } from '../../src/ledger/decoded-tx';

// txFlags reads a signed blob's Flags from its leading fields (a settling Batch's mode) instead of
// decoding it all: it must answer exactly what xrpl.js's decode says, for every shape it meets.

const wallet = Wallet.fromSeed('sEdTM1uX8pu2do5XvTnutH6HsouMaM2', { algorithm: ECDSA.ed25519 });
const other = Wallet.generate(ECDSA.ed25519).classicAddress;
const base = { Account: wallet.classicAddress, Fee: '12', Sequence: 7, LastLedgerSequence: 99 };

const blobs: Array<[string, Record<string, unknown>]> = [
  ['a Payment without Flags', { ...base, TransactionType: 'Payment', Destination: other, Amount: '1000' }],
  [
    'a Payment with tfPartialPayment',
    { ...base, TransactionType: 'Payment', Destination: other, Amount: '1000', Flags: 0x00020000 },
  ],
  ['Flags 0 written out', { ...base, TransactionType: 'AccountSet', Flags: 0 }],
  ['the highest bit', { ...base, TransactionType: 'AccountSet', Flags: 0x80000000 }],
  ['with a NetworkID before Flags', { ...base, TransactionType: 'AccountSet', NetworkID: 21337, Flags: 5 }],
  ['with a NetworkID and no Flags', { ...base, TransactionType: 'AccountSet', NetworkID: 21337 }],
  [
    'an all-or-nothing Batch of two payments',
    {
      ...base,
      TransactionType: 'Batch',
      Flags: 0x00010000,
      RawTransactions: [8, 9].map((Sequence) => ({
        RawTransaction: {
          TransactionType: 'Payment',
          Account: wallet.classicAddress,
          Destination: other,
          Amount: '5',
          Fee: '0',
          Sequence,
          SigningPubKey: '',
          Flags: 0x40000000,
        },
      })),
    },
  ],
];

describe('txFlags', () => {
  for (const [name, tx] of blobs) {
    it(`${name}: what decode says`, () => {
      const signed = wallet.sign(tx as never).tx_blob;
      const unsigned = encode(tx as never);
      for (const blob of [signed, unsigned]) {
        const flags = Number((decode(blob) as { Flags?: number }).Flags ?? 0);
        expect(txFlags(blob)).toBe(flags);
      }
    });
  }
});
