import { BatchFlags, GlobalFlags, PaymentFlags, TrustSetFlags, Wallet } from 'xrpl';
import { decodedTx } from '../src/ledger/decoded-tx';
import { encodeTx, signTransaction, walletFromSeed } from '../src/ledger/sign';

// `npx tsx bench/sign-decode.ts` (apps/server): what a hot launch's buy costs the server's thread in
// the codec (issue 40) — a new holder's Batch signed as signAndRecord signs it (its trust line, the
// trade and its fee encoded as inner blobs, the outer signed), then a trade's blob decoded once more
// (decodedTx, a blob not seen before). Prints microseconds per buy; run it on two commits to compare.

const N = Number(process.env.SIGN_DECODE_N ?? 2000);
const wallet = walletFromSeed(Wallet.generate().seed!);
const issuer = Wallet.generate().classicAddress;
const feeWallet = Wallet.generate().classicAddress;
const currency = '4C41554E43480000000000000000000000000000';
const iou = (value: string) => ({ currency, issuer, value });
const inner = (tx: Record<string, unknown>, sequence: number) => ({
  ...tx,
  Account: wallet.classicAddress,
  Fee: '0',
  SigningPubKey: '',
  Sequence: sequence,
  Flags: (GlobalFlags.tfInnerBatchTxn | Number(tx.Flags ?? 0)) >>> 0,
});
const trade = (i: number, sequence: number) =>
  inner(
    {
      TransactionType: 'Payment',
      Destination: wallet.classicAddress,
      Amount: iou(`${1000 + i}.5`),
      SendMax: '10000000',
      DeliverMin: iou('500.25'),
      Flags: PaymentFlags.tfPartialPayment,
    },
    sequence,
  );

const t0 = performance.now();
for (let i = 0; i < N; i++) {
  const sequence = 10 + 4 * i;
  const txs = [
    inner(
      {
        TransactionType: 'TrustSet',
        LimitAmount: iou('1000000000000'),
        Flags: TrustSetFlags.tfSetNoRipple,
      },
      sequence + 1,
    ),
    trade(i, sequence + 2),
    inner({ TransactionType: 'Payment', Destination: feeWallet, Amount: '75000' }, sequence + 3),
  ];
  signTransaction(
    wallet,
    {
      TransactionType: 'Batch',
      Account: wallet.classicAddress,
      Flags: BatchFlags.tfAllOrNothing,
      Fee: '40',
      Sequence: sequence,
      LastLedgerSequence: 500,
      RawTransactions: txs.map((t) => ({ RawTransaction: t })),
    },
    txs.map((t) => encodeTx(t)),
  );
}
const signed = performance.now() - t0;
const blobs = Array.from({ length: N }, (_, i) => encodeTx(trade(N + i, 100 + i)));
const t1 = performance.now();
for (const blob of blobs) decodedTx(blob);
const decoded = performance.now() - t1;
console.log(
  `a buy's Batch signed: ${((signed / N) * 1000).toFixed(0)} µs; a trade's blob decoded: ${((decoded / N) * 1000).toFixed(0)} µs (${N} each)`,
);
