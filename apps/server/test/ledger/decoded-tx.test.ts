import { describe, expect, it } from 'vitest';
import {
  AMMDepositFlags,
  BatchFlags,
  decode,
  ECDSA,
  GlobalFlags,
  OfferCreateFlags,
  PaymentFlags,
  TrustSetFlags,
  Wallet,
} from 'xrpl';
import { decodedTx } from '../../src/ledger/decoded-tx';
import { encodeTx, signTransaction } from '../../src/ledger/sign';

// decodedTx decodes with the stand-alone ledger's decoder (issue 40): for every shape the server
// signs — a trade's Batch and its inner transactions, offers, trust lines, delegated and memo'd
// payments, AMM deposits — it must answer exactly what xrpl.js's decode answers.

const wallet = Wallet.fromSeed('sEdTM1uX8pu2do5XvTnutH6HsouMaM2', { algorithm: ECDSA.ed25519 });
const ecdsa = Wallet.fromSeed('snoPBrXtMeMyMHUVTgbuqAfg1SUTb', { algorithm: ECDSA.secp256k1 });
const issuer = Wallet.generate(ECDSA.ed25519).classicAddress;
const other = Wallet.generate(ECDSA.ed25519).classicAddress;
const hexCurrency = '4C41554E43480000000000000000000000000000';
const base = { Account: wallet.classicAddress, Fee: '12', Sequence: 7, LastLedgerSequence: 99 };
const iou = (value: string, currency = hexCurrency) => ({ currency, issuer, value });

const inner = (fields: Record<string, unknown>, sequence: number) => ({
  ...fields,
  Account: wallet.classicAddress,
  Fee: '0',
  Sequence: sequence,
  SigningPubKey: '',
  Flags: GlobalFlags.tfInnerBatchTxn | Number(fields.Flags ?? 0),
});

const shapes: Array<[string, Record<string, unknown>]> = [
  [
    'a buy: XRP for an issued token, with DeliverMin',
    {
      ...base,
      TransactionType: 'Payment',
      Destination: wallet.classicAddress,
      Amount: iou('123456.789'),
      SendMax: '10000000',
      DeliverMin: iou('61728.3945'),
      Flags: PaymentFlags.tfPartialPayment,
    },
  ],
  [
    'a sell into RLUSD with a 3-letter code and tiny values',
    {
      ...base,
      TransactionType: 'Payment',
      Destination: wallet.classicAddress,
      Amount: iou('0.000001', 'USD'),
      SendMax: iou('9999999999999999e-10'),
    },
  ],
  [
    'an immediate-or-cancel offer',
    {
      ...base,
      TransactionType: 'OfferCreate',
      TakerGets: '2500000',
      TakerPays: iou('1e20'),
      Flags: OfferCreateFlags.tfImmediateOrCancel,
    },
  ],
  [
    'a trust line',
    {
      ...base,
      TransactionType: 'TrustSet',
      LimitAmount: iou('1000000000'),
      Flags: TrustSetFlags.tfSetNoRipple,
    },
  ],
  [
    'a delegated payment with memos and a destination tag',
    {
      ...base,
      TransactionType: 'Payment',
      Destination: other,
      Amount: '1500',
      DestinationTag: 42,
      Delegate: other,
      Memos: [{ Memo: { MemoType: '6665652D6F66', MemoData: 'ABCDEF' } }],
    },
  ],
  [
    'an AMM deposit',
    {
      ...base,
      TransactionType: 'AMMDeposit',
      Asset: { currency: 'XRP' },
      Asset2: { currency: hexCurrency, issuer },
      Amount: '5000000',
      Amount2: iou('250'),
      Flags: AMMDepositFlags.tfTwoAsset,
    },
  ],
];

describe('decodedTx', () => {
  it.each(shapes)('reads %s as xrpl.js decodes it', (_name, tx) => {
    for (const signer of [wallet, ecdsa]) {
      const { tx_blob } = signTransaction(signer, { ...tx, Account: signer.classicAddress });
      expect(decodedTx(tx_blob)).toEqual(decode(tx_blob));
    }
  });

  it("reads a trade's Batch and each of its inner blobs as xrpl.js decodes them", () => {
    const { LastLedgerSequence: _last, ...buy } = shapes[0]![1];
    const trade = inner(buy, 8);
    const fee = inner({ TransactionType: 'Payment', Destination: other, Amount: '75000' }, 9);
    const line = inner({ TransactionType: 'TrustSet', LimitAmount: iou('1000000000') }, 10);
    const blobs = [line, trade, fee].map((t) => encodeTx(t));
    for (const blob of blobs) expect(decodedTx(blob)).toEqual(decode(blob));
    const { tx_blob } = signTransaction(
      wallet,
      {
        ...base,
        TransactionType: 'Batch',
        Fee: '40',
        Flags: BatchFlags.tfAllOrNothing,
        RawTransactions: [line, trade, fee].map((t) => ({ RawTransaction: t })),
      },
      blobs,
    );
    expect(decodedTx(tx_blob)).toEqual(decode(tx_blob));
  });

  it('refuses a blob that is not a transaction as the codec does', () => {
    for (const text of ['ZZ', '12005', '1200Q0']) {
      expect(() => decode(text)).toThrow();
      expect(() => decodedTx(text)).toThrow();
    }
  });
});
