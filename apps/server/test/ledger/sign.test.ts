import { describe, expect, it } from 'vitest';
import {
  ECDSA,
  encode,
  Wallet,
  verifySignature,
  AccountSetAsfFlags,
  AMMDepositFlags,
  BatchFlags,
  GlobalFlags,
  OfferCreateFlags,
  TrustSetFlags,
  classicAddressToXAddress,
} from 'xrpl';
import { encodeTransactionFast } from 'xrpl-standalone/codec';
import { encodeTx, signTransaction, walletFromSeed } from '../../src/ledger/sign';
import { TRUST_LINE_MAX_LIMIT } from '@ledgerpad/shared';

// The native Ed25519 path must be indistinguishable from xrpl.js: the same keys from a seed, the
// same signed bytes and hash for every kind of transaction the platform signs.

const issuer = Wallet.generate().classicAddress;
const xAddressOf = (address: string, tag: number) => classicAddressToXAddress(address, tag, false);
const token = (value: string) => ({ currency: 'ABC', issuer, value });
const kinds = (account: string, destination: string): Array<Record<string, unknown>> =>
  [
    { TransactionType: 'Payment', Destination: destination, Amount: '1234567' },
    // xrpl.js drops a Payment amount's trailing zeros before signing.
    { TransactionType: 'Payment', Destination: destination, Amount: token('12.5000'), SendMax: token('13') },
    {
      TransactionType: 'TrustSet',
      LimitAmount: token(TRUST_LINE_MAX_LIMIT),
      Flags: TrustSetFlags.tfSetNoRipple,
    },
    {
      TransactionType: 'OfferCreate',
      TakerGets: '5000000',
      TakerPays: token('0.000001'),
      Flags: OfferCreateFlags.tfSell | OfferCreateFlags.tfImmediateOrCancel,
    },
    {
      TransactionType: 'AMMDeposit',
      Asset: { currency: 'XRP' },
      Asset2: { currency: 'ABC', issuer },
      Amount: '1000',
      Flags: AMMDepositFlags.tfSingleAsset,
    },
    { TransactionType: 'AccountSet', SetFlag: AccountSetAsfFlags.asfDefaultRipple, Memos: undefined },
    // Fields on both sides of TxnSignature in canonical order (the blob is built around it):
    // a Blob sorting after it (Domain), a Hash256, tags, memos (an array, last).
    {
      TransactionType: 'AccountSet',
      Domain: '6578616D706C652E636F6D',
      EmailHash: '0123456789ABCDEF0123456789ABCDEF',
      Memos: [{ Memo: { MemoType: '74657374', MemoData: 'AB'.repeat(300) } }],
    },
    {
      TransactionType: 'Payment',
      Destination: destination,
      Amount: '1',
      DestinationTag: 7,
      SourceTag: 9,
      InvoiceID: 'AB'.repeat(32),
    },
  ].map((tx, i) => ({ ...tx, Account: account, Fee: '12', Sequence: 7 + i, LastLedgerSequence: 1234 }));

describe('native Ed25519 signing', () => {
  it('derives the same keys and address from a seed as xrpl.js', () => {
    for (let i = 0; i < 20; i++) {
      const reference = Wallet.generate();
      const ours = walletFromSeed(reference.seed!);
      expect([ours.publicKey, ours.privateKey, ours.classicAddress, ours.seed]).toEqual([
        reference.publicKey,
        reference.privateKey,
        reference.classicAddress,
        reference.seed,
      ]);
    }
  });

  it('signs every kind of transaction to the same bytes and hash as wallet.sign', () => {
    for (let i = 0; i < 10; i++) {
      const w = walletFromSeed(Wallet.generate().seed!);
      const to = Wallet.generate().classicAddress;
      for (const tx of kinds(w.classicAddress, to)) {
        const ours = signTransaction(w, tx);
        const reference = w.sign(tx as Parameters<Wallet['sign']>[0]);
        expect(ours).toEqual(reference);
        expect(verifySignature(ours.tx_blob)).toBe(true);
      }
    }
  });

  it('leaves secp256k1 keys to xrpl.js, and refuses what xrpl.js refuses', () => {
    const secp = Wallet.generate(ECDSA.secp256k1);
    expect(walletFromSeed(secp.seed!).publicKey).toBe(secp.publicKey);
    const tx = kinds(secp.classicAddress, issuer)[0]!;
    expect(signTransaction(secp, tx).hash).toBe(secp.sign(tx as Parameters<Wallet['sign']>[0]).hash);
    const ed = Wallet.generate();
    const base = kinds(ed.classicAddress, issuer)[0]!;
    expect(() => signTransaction(ed, { ...base, TxnSignature: 'AB' })).toThrow(/TxnSignature/);
    expect(() => signTransaction(ed, { ...base, Amount: '-1' })).toThrow();
    expect(() => signTransaction(ed, { ...base, Flags: GlobalFlags.tfInnerBatchTxn })).toThrow(/Batch inner/);
  });

  it('serializes a transaction with its accounts as hex IDs to the same bytes as encode', () => {
    for (let i = 0; i < 5; i++) {
      const from = Wallet.generate().classicAddress;
      const to = Wallet.generate().classicAddress;
      const txs = [
        ...kinds(from, to),
        // An X-address destination (its tag goes in the blob) and a Batch's inner transaction.
        { ...kinds(from, to)[0]!, Destination: xAddressOf(to, 42) },
        { ...kinds(from, to)[2]!, Fee: '0', SigningPubKey: '', Flags: GlobalFlags.tfInnerBatchTxn },
      ];
      for (const tx of txs) expect(encodeTx(structuredClone(tx))).toBe(encode(structuredClone(tx) as never));
    }
  });

  it('signs a Batch from its inner transactions already serialized to the same bytes and hash as wallet.sign', () => {
    for (let i = 0; i < 5; i++) {
      const w = walletFromSeed(Wallet.generate().seed!);
      const to = Wallet.generate().classicAddress;
      // A new holder's buy: the trust line, the trade and its fee, as sign-and-record builds them.
      const inner = kinds(w.classicAddress, to)
        .slice(0, 3)
        .map((tx, k) => ({
          ...tx,
          Fee: '0',
          SigningPubKey: '',
          Sequence: 20 + k,
          Flags: ((Number(tx.Flags ?? 0) | GlobalFlags.tfInnerBatchTxn) >>> 0) as number,
        }));
      // The first Payment's issued amount as signed (no trailing zeros): what an inner blob holds.
      for (const tx of inner) delete (tx as { LastLedgerSequence?: number }).LastLedgerSequence;
      const blobs = inner.map((tx) => encode(tx as never));
      const outer = {
        TransactionType: 'Batch',
        Account: w.classicAddress,
        Flags: BatchFlags.tfAllOrNothing,
        Fee: '50',
        Sequence: 19,
        LastLedgerSequence: 1234,
        RawTransactions: inner.map((tx) => ({ RawTransaction: tx })),
      };
      // With a memo too: a field the splice does not step over, so the whole Batch is encoded.
      const withMemo = { ...outer, Memos: [{ Memo: { MemoData: 'AB' } }] };
      for (const tx of [outer, withMemo]) {
        const reference = w.sign(structuredClone(tx) as never);
        expect(signTransaction(w, structuredClone(tx), blobs)).toEqual(reference);
        expect(signTransaction(w, structuredClone(tx))).toEqual(reference);
        expect(verifySignature(reference.tx_blob)).toBe(true);
      }
    }
  });

  it("writes a trade's transactions with the stand-alone ledger's serializer, not the codec", () => {
    // Signing and the inner blobs take encodeTransactionFast's bytes when it answers (the cheap
    // path of issue 40); the bytes are the codec's either way (the tests above). Here: it answers
    // for the payments, trust line and offer a burst signs, so the cheap path is the one taken.
    const w = walletFromSeed(Wallet.generate().seed!);
    const to = Wallet.generate().classicAddress;
    for (const tx of kinds(w.classicAddress, to).slice(0, 4)) {
      const signing: Record<string, unknown> = {
        ...tx,
        Account: w.classicAddress,
        Fee: '12',
        Sequence: 3,
        SigningPubKey: w.publicKey,
      };
      if (tx.TransactionType === 'Payment' && typeof tx.Amount === 'object') signing.Amount = token('12.5');
      expect(encodeTransactionFast(signing)).toBe(encode(signing as never));
      const inner = { ...signing, Fee: '0', SigningPubKey: '', Flags: GlobalFlags.tfInnerBatchTxn };
      expect(encodeTransactionFast(inner)).toBe(encodeTx(inner));
    }
  });
});
