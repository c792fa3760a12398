import { describe, expect, it } from 'vitest';
import {
  AccountSetTfFlags,
  BatchFlags,
  decode,
  ECDSA,
  encode,
  GlobalFlags,
  PaymentFlags,
  Wallet,
} from 'xrpl';
import { txFlags } from '../../src/ledger/decoded-tx';

// txFlags reads a signed blob's Flags from its leading fields (a settling Batch's mode) instead of
// decoding it all: it must answer exactly what xrpl.js's decode says, for every shape it meets.

const wallet = Wallet.fromSeed('sEdTM1uX8pu2do5XvTnutH6HsouMaM2', { algorithm: ECDSA.ed25519 });
const other = Wallet.generate(ECDSA.ed25519).classicAddress;
/** The highest bit (tfFullyCanonicalSig, which xrpl.js no longer names): Flags as an unsigned 32-bit value. */
const HIGHEST_BIT = 2 ** 31;
const base = { Account: wallet.classicAddress, Fee: '12', Sequence: 7, LastLedgerSequence: 99 };

const blobs: Array<[string, Record<string, unknown>]> = [
  ['a Payment without Flags', { ...base, TransactionType: 'Payment', Destination: other, Amount: '1000' }],
  [
    'a Payment with tfPartialPayment',
    {
      ...base,
      TransactionType: 'Payment',
      Destination: other,
      Amount: '1000',
      Flags: PaymentFlags.tfPartialPayment,
    },
  ],
  ['Flags 0 written out', { ...base, TransactionType: 'AccountSet', Flags: 0 }],
  ['the highest bit', { ...base, TransactionType: 'AccountSet', Flags: HIGHEST_BIT }],
  [
    'with a NetworkID before Flags',
    {
      ...base,
      TransactionType: 'AccountSet',
      NetworkID: 21337,
      Flags: AccountSetTfFlags.tfRequireDestTag | AccountSetTfFlags.tfRequireAuth,
    },
  ],
  ['with a NetworkID and no Flags', { ...base, TransactionType: 'AccountSet', NetworkID: 21337 }],
  [
    'an all-or-nothing Batch of two payments',
    {
      ...base,
      TransactionType: 'Batch',
      Flags: BatchFlags.tfAllOrNothing,
      RawTransactions: [8, 9].map((Sequence) => ({
        RawTransaction: {
          TransactionType: 'Payment',
          Account: wallet.classicAddress,
          Destination: other,
          Amount: '5',
          Fee: '0',
          Sequence,
          SigningPubKey: '',
          Flags: GlobalFlags.tfInnerBatchTxn,
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
