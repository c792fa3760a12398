import { BatchFlags, GlobalFlags } from 'xrpl';
import type { SigningIntent } from '@ledgerpad/shared';

/**
 * A swap's Batch intent as the server returns it (docs/self-custody.md): the outer Batch and its
 * two inner transactions — the trade and the platform fee — one fixture for the signer's tests.
 */
export const ACCOUNT = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
export const FEE_WALLET = 'rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf';

const inner = (tx: Record<string, unknown>, sequence: number) => ({
  ...tx,
  Account: ACCOUNT,
  Sequence: sequence,
  Fee: '0',
  SigningPubKey: '',
  Flags: GlobalFlags.tfInnerBatchTxn,
});

export const trade = inner(
  { TransactionType: 'Payment', Destination: ACCOUNT, Amount: '1000', SendMax: '3000000' },
  11,
);
export const fee = inner({ TransactionType: 'Payment', Destination: FEE_WALLET, Amount: '22500' }, 12);
export const outer = {
  TransactionType: 'Batch',
  Account: ACCOUNT,
  Flags: BatchFlags.tfAllOrNothing,
  Sequence: 10,
  Fee: '40',
  LastLedgerSequence: 120,
  RawTransactions: [{ RawTransaction: trade }, { RawTransaction: fee }],
};
export const batchIntent: SigningIntent = {
  id: '6f1d2f8e-3c4b-4a5d-9e6f-7a8b9c0d1e2f',
  purpose: 'swap',
  walletId: 3,
  account: ACCOUNT,
  mode: 'batch',
  txs: [outer, trade, fee],
  lastLedgerSequence: 120,
  expiresAt: '2026-11-30T07:00:00.000Z',
};
