import { describe, expect, it, vi } from 'vitest';
import { BatchFlags, encode, GlobalFlags } from 'xrpl';
import type { SigningIntent } from '@ledgerpad/shared';
import type * as External from '../src/lib/signer/external';
import type * as Lock from '../src/lib/signer/lock';
import { signIntent } from '../src/lib/signer';

// A self-custody swap where the ledger has Batch arrives as a 'batch' intent: txs = [the outer
// Batch carrying RawTransactions, then each inner transaction as prepared]. The wallet signs the
// outer only — exactly as the server sent it, inner transactions included — and one blob goes back
// (the server checks it with checkSignedBatch; apps/server/test/self-custody/swap-batch.test.ts
// signs the same shape with a real xrpl.js Wallet). Stood in for: the vault's unlock and xrpl.js's
// signature itself (jsdom's typed arrays are not the ones xrpl.js's curves accept), and the wallet
// app's adapter.

const signed = vi.hoisted(() => ({ calls: [] as Array<{ where: string; txs: unknown[] }> }));
vi.mock('../src/lib/signer/lock', async (actual) => ({
  ...(await actual<typeof Lock>()),
  requestUnlock: async () => undefined,
  withSecret: async <T>(_address: string, read: (secret: { kind: 'seed'; seed: string }) => T) =>
    read({ kind: 'seed', seed: 'sEdTdqPXgy1zJyNhBVKyDaqSZ2f5PFc' }),
}));
vi.mock('../src/lib/signer/keys', () => ({
  signAll: (_secret: unknown, _address: string, txs: unknown[]) => {
    signed.calls.push({ where: 'browser', txs });
    return txs.map(() => 'AB'.repeat(40));
  },
}));
vi.mock('../src/lib/signer/external', async (actual) => ({
  ...(await actual<typeof External>()),
  signInApp: async (_app: string, _address: string, txs: Array<Record<string, unknown>>) => {
    signed.calls.push({ where: 'external', txs });
    // The app's answer: the signed outer Batch (the web checks it is the Batch before posting it).
    return txs.map((tx) =>
      encode({ ...tx, SigningPubKey: `ED${'5F'.repeat(32)}`, TxnSignature: 'CD'.repeat(64) } as never),
    );
  },
}));

const ACCOUNT = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const FEE_WALLET = 'rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf';
const inner = (tx: Record<string, unknown>, sequence: number) => ({
  ...tx,
  Account: ACCOUNT,
  Sequence: sequence,
  Fee: '0',
  SigningPubKey: '',
  Flags: GlobalFlags.tfInnerBatchTxn,
});
const trade = inner(
  { TransactionType: 'Payment', Destination: ACCOUNT, Amount: '1000', SendMax: '10000000' },
  11,
);
const fee = inner({ TransactionType: 'Payment', Destination: FEE_WALLET, Amount: '75000' }, 12);
const outer = {
  TransactionType: 'Batch',
  Account: ACCOUNT,
  Flags: BatchFlags.tfAllOrNothing,
  Sequence: 10,
  Fee: '40',
  LastLedgerSequence: 120,
  RawTransactions: [{ RawTransaction: trade }, { RawTransaction: fee }],
};
const intent: SigningIntent = {
  id: '6f1d2f8e-3c4b-4a5d-9e6f-7a8b9c0d1e2f',
  purpose: 'swap',
  walletId: 3,
  account: ACCOUNT,
  mode: 'batch',
  txs: [outer, trade, fee],
  lastLedgerSequence: 120,
  expiresAt: '2026-11-30T07:00:00.000Z',
};

describe("a Batch intent in the web's signer", () => {
  it('a browser wallet signs the outer Batch only, as sent, and answers one blob', async () => {
    signed.calls.length = 0;
    const blobs = await signIntent({ wallet_address: ACCOUNT, kind: 'browser' }, intent);
    expect(blobs).toHaveLength(1);
    expect(signed.calls).toEqual([{ where: 'browser', txs: [outer] }]);
  });

  it('a wallet app is asked for the outer Batch only, too', async () => {
    signed.calls.length = 0;
    const blobs = await signIntent(
      { wallet_address: ACCOUNT, kind: 'external', wallet_app: 'gemwallet' },
      intent,
    );
    expect(blobs).toHaveLength(1);
    expect(signed.calls).toEqual([{ where: 'external', txs: [outer] }]);
  });
});
