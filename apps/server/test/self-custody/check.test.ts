import { describe, expect, it } from 'vitest';
import { encode, Wallet, BatchFlags, GlobalFlags, LedgerEntry } from 'xrpl';
import { SELF_CUSTODY_MESSAGES } from '@ledgerpad/shared';
import { AppError } from '../../src/lib/errors';
import { authorizeKey, checkSigned, checkSignedBatch } from '../../src/platform/intents/check';

// The intent check on its own: a signed blob is exactly the prepared transaction plus a signature,
// for single transactions and for the Batch seam (the outer Batch signed, its inner transactions
// compared one by one), and the key must control the account.

const wallet = Wallet.generate();
const other = Wallet.generate();

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return (err as AppError).message;
  }
  throw new Error('not refused');
};

const payment = {
  TransactionType: 'Payment',
  Account: wallet.classicAddress,
  Destination: other.classicAddress,
  Amount: { currency: 'USD', issuer: other.classicAddress, value: '10' },
  Sequence: 7,
  Fee: '10',
  LastLedgerSequence: 100,
};

describe('checkSigned', () => {
  it('accepts the prepared transaction signed, whatever the hex case the wallet wrote', () => {
    const blob = wallet.sign(payment as never).tx_blob;
    expect(checkSigned(payment, blob.toLowerCase()).signingPubKey).toBe(wallet.publicKey);
  });

  it('names a changed field, an added one and a missing one', () => {
    const changed = wallet.sign({
      ...payment,
      Amount: { ...payment.Amount, value: '10.1' },
    } as never).tx_blob;
    expect(refusal(() => checkSigned(payment, changed))).toBe(SELF_CUSTODY_MESSAGES.mismatch('Amount'));
    const added = wallet.sign({ ...payment, DestinationTag: 1 } as never).tx_blob;
    expect(refusal(() => checkSigned(payment, added))).toBe(
      SELF_CUSTODY_MESSAGES.extraField('DestinationTag'),
    );
    const { LastLedgerSequence: _dropped, ...rest } = payment;
    const missing = wallet.sign(rest as never).tx_blob;
    expect(refusal(() => checkSigned(payment, missing))).toBe(
      SELF_CUSTODY_MESSAGES.missingField('LastLedgerSequence'),
    );
  });

  it('refuses unsigned, badly signed and multi-signed blobs', () => {
    const unsigned = encode({ ...payment, SigningPubKey: wallet.publicKey } as never);
    expect(refusal(() => checkSigned(payment, unsigned))).toBe(SELF_CUSTODY_MESSAGES.unsigned);
    // A signature that is not the key's signature of these bytes does not verify.
    const forged = encode({
      ...payment,
      SigningPubKey: wallet.publicKey,
      TxnSignature: 'AB'.repeat(64),
    } as never);
    expect(refusal(() => checkSigned(payment, forged))).toBe(SELF_CUSTODY_MESSAGES.badSignature);
    const multi = wallet.sign(payment as never, true).tx_blob;
    expect(refusal(() => checkSigned(payment, multi))).toBe(SELF_CUSTODY_MESSAGES.multiSigned);
    expect(refusal(() => checkSigned(payment, 'ABCD'))).toBe(SELF_CUSTODY_MESSAGES.unreadable);
  });
});

describe('authorizeKey', () => {
  it('takes the master key of an unfunded account, and the regular key of a funded one', () => {
    expect(authorizeKey(wallet.classicAddress, wallet.publicKey, null)).toBe('master');
    expect(refusal(() => authorizeKey(wallet.classicAddress, other.publicKey, null))).toBe(
      SELF_CUSTODY_MESSAGES.notOwner,
    );
    expect(
      authorizeKey(wallet.classicAddress, other.publicKey, { flags: 0, regularKey: other.classicAddress }),
    ).toBe('regular');
    expect(
      refusal(() =>
        authorizeKey(wallet.classicAddress, wallet.publicKey, {
          flags: LedgerEntry.AccountRootFlags.lsfDisableMaster,
        }),
      ),
    ).toBe(SELF_CUSTODY_MESSAGES.masterDisabled);
  });
});

describe('checkSignedBatch (the seam for a trade and its fee, all or nothing)', () => {
  const inner = (tx: Record<string, unknown>, sequence: number) => ({
    ...tx,
    Account: wallet.classicAddress,
    Sequence: sequence,
    Fee: '0',
    SigningPubKey: '',
    Flags: GlobalFlags.tfInnerBatchTxn,
  });
  const trade = inner(
    { TransactionType: 'Payment', Destination: wallet.classicAddress, Amount: '1000', SendMax: '1000' },
    11,
  );
  const fee = inner({ TransactionType: 'Payment', Destination: other.classicAddress, Amount: '8' }, 12);
  const outer = {
    TransactionType: 'Batch',
    Account: wallet.classicAddress,
    Flags: BatchFlags.tfAllOrNothing,
    Sequence: 10,
    Fee: '40',
    LastLedgerSequence: 200,
    RawTransactions: [{ RawTransaction: trade }, { RawTransaction: fee }],
  };

  it('accepts the outer Batch signed as prepared', () => {
    const blob = wallet.sign(outer as never).tx_blob;
    expect(checkSignedBatch(outer, [trade, fee], blob).signingPubKey).toBe(wallet.publicKey);
  });

  it('names the inner field a wallet changed (the fee left out, redirected or lowered)', () => {
    const redirected = {
      ...outer,
      RawTransactions: [
        { RawTransaction: trade },
        { RawTransaction: { ...fee, Destination: wallet.classicAddress } },
      ],
    };
    expect(
      refusal(() => checkSignedBatch(outer, [trade, fee], wallet.sign(redirected as never).tx_blob)),
    ).toBe(SELF_CUSTODY_MESSAGES.mismatch('RawTransactions[1].Destination'));
    const dropped = { ...outer, RawTransactions: [{ RawTransaction: trade }] };
    expect(refusal(() => checkSignedBatch(outer, [trade, fee], wallet.sign(dropped as never).tx_blob))).toBe(
      SELF_CUSTODY_MESSAGES.mismatch('RawTransactions'),
    );
    const allowPartial = { ...outer, Flags: BatchFlags.tfOnlyOne };
    expect(
      refusal(() => checkSignedBatch(outer, [trade, fee], wallet.sign(allowPartial as never).tx_blob)),
    ).toBe(SELF_CUSTODY_MESSAGES.mismatch('Flags'));
  });
});
