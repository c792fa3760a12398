import { pathToFileURL } from 'node:url';
import { Wallet } from 'xrpl';
import { startStandaloneLedger } from 'xrpl-standalone';
import { STANDALONE_GENESIS_SEED } from '../src/platform/accounts';
import { openDatabase } from '../src/db/client';
import { generateMasterKey, Keyring } from '../src/keys/envelope';
import { createXrplConnection } from '../src/ledger/connection';
import { SubmissionService } from '../src/ledger/submission-service';
import { createSignerSource, insertWallet } from '../src/platform/custody';

// 200 transfers from one account submitted at once, through the submission service (sequence
// allocation in the database, signing, record-before-submit, following validated ledgers), against
// the embedded ledger closing every second. Measures how many ledger closes it takes until every
// one is validated (target: ≤ 2).

export interface TransfersBenchResult {
  name: string;
  transfers: number;
  closeIntervalMs: number;
  ledgerCloses: number;
  perLedger: Record<number, number>;
  submitMs: number;
  totalMs: number;
  ok: boolean;
}

export async function benchTransfers(
  opts: { count?: number; closeIntervalMs?: number; ledgerUrl?: string } = {},
): Promise<TransfersBenchResult> {
  const count = opts.count ?? 200;
  const closeIntervalMs = opts.closeIntervalMs ?? 1000;
  // An external ledger (its own process) keeps its close timer apart from this process's work.
  const ledger = opts.ledgerUrl
    ? { url: opts.ledgerUrl, close: async () => {} }
    : await startStandaloneLedger({ port: 0, closeIntervalMs });
  const database = await openDatabase();
  const connection = createXrplConnection('standalone', ledger.url);
  await connection.connect();
  const keyring = new Keyring(generateMasterKey());
  const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);
  const sender = Wallet.generate();
  const receivers = Array.from({ length: 10 }, () => Wallet.generate());
  await insertWallet(database.db, keyring, { userId: null, role: 'genesis', wallet: genesis });
  await insertWallet(database.db, keyring, { userId: null, role: 'bench-sender', wallet: sender });
  const service = new SubmissionService({
    database,
    connection,
    signers: createSignerSource(database.db, keyring),
  });
  await service.start();
  try {
    await Promise.all(
      [sender, ...receivers].map((w, i) =>
        service.submit({
          intentKey: `bench-fund-${i}`,
          account: genesis.classicAddress,
          tx: {
            TransactionType: 'Payment',
            Destination: w.classicAddress,
            Amount: i === 0 ? '100000000000' : '100000000',
          },
          purpose: 'bench',
        }),
      ),
    );
    // One warm-up transfer so the account's sequence row exists, as on a server that has run before.
    await service.submit({
      intentKey: 'bench-warmup',
      account: sender.classicAddress,
      tx: { TransactionType: 'Payment', Destination: receivers[0]!.classicAddress, Amount: '1000000' },
      purpose: 'bench',
    });

    const startLedger = service.ledgerIndex;
    const t0 = performance.now();
    const prepared = Array.from({ length: count }, (_, i) =>
      service.prepare({
        intentKey: `bench-transfer-${i}`,
        account: sender.classicAddress,
        tx: {
          TransactionType: 'Payment',
          Destination: receivers[i % receivers.length]!.classicAddress,
          Amount: String(1_000_000 + i),
        },
        purpose: 'bench',
      }),
    );
    const rows = await Promise.all(prepared);
    const submitMs = Math.round(performance.now() - t0);
    const outcomes = await Promise.all(rows.map((r) => service.wait(r.hash)));
    const totalMs = performance.now() - t0;
    const perLedger: Record<number, number> = {};
    for (const o of outcomes) perLedger[o.ledgerIndex ?? -1] = (perLedger[o.ledgerIndex ?? -1] ?? 0) + 1;
    const last = Math.max(...outcomes.map((o) => o.ledgerIndex ?? Infinity));
    const ledgerCloses = last - startLedger;
    return {
      name: 'transfers',
      transfers: count,
      closeIntervalMs,
      ledgerCloses,
      perLedger,
      submitMs,
      totalMs: Math.round(totalMs),
      ok: outcomes.every((o) => o.status === 'success') && ledgerCloses <= 2,
    };
  } finally {
    await service.stop();
    await connection.close();
    await ledger.close();
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchTransfers({ ledgerUrl: process.argv[2] });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (!result.ok) process.exitCode = 1;
}
