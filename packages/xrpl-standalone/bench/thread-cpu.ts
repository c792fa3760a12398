// CPU time per payment of every thread of the process, during run.ts's payment rounds:
//   npx tsx bench/thread-cpu.ts ed25519|secp256k1 [signatureThreadMin]
// The same 3,000 pre-signed payments as run.ts (the client in its worker thread, a close every
// 500), four rounds; each round prints payments/s, wall µs per payment and, per thread with more
// than 20 ms of CPU in the round, its CPU µs per payment (/proc/self/task/<tid>/stat). MAIN is the
// server's thread; the others are V8's platform threads (GC, compilation), the signature thread
// and the client. A second argument sets LedgerNode.signatureThreadMin (Infinity: all inline).
import { readFileSync, readdirSync } from 'node:fs';
import { Wallet } from 'xrpl';
import { accountRootIndex } from '../src/server/keylets';
import { fundWallets, signPayments, startBenchLedger, submitFromWorker } from './harness';

const keyType = (process.argv[2] ?? 'ed25519') === 'ed25519' ? 'ed25519' : 'ecdsa-secp256k1';
const min = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
const TICK_US = 1e6 / 100; // USER_HZ

function threadCpuUs(): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(tid, (Number(f[11]) + Number(f[12])) * TICK_US);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return cpu;
}

const senders = Array.from({ length: 100 }, () => Wallet.generate(keyType as never));
const receivers = Array.from({ length: 10 }, () => Wallet.generate());
let blobs: string[] | undefined;
for (let round = 0; round < 4; round += 1) {
  const bench = await startBenchLedger();
  if (min !== undefined) bench.ledger.node.signatureThreadMin = min;
  await fundWallets(bench, [...senders, ...receivers], '1000000000');
  if (!blobs) {
    const seqs = senders.map((w) =>
      Number(bench.ledger.node.current().read(accountRootIndex(w.address))?.Sequence),
    );
    blobs = signPayments(senders, receivers, seqs, 30);
  }
  const before = threadCpuUs();
  const { seconds } = await submitFromWorker(bench.ledger.url, blobs, 500);
  const after = threadCpuUs();
  const parts: string[] = [];
  for (const [tid, us] of after) {
    const used = us - (before.get(tid) ?? 0);
    if (used > 20_000)
      parts.push(`${tid === String(process.pid) ? 'MAIN' : tid} ${(used / blobs.length).toFixed(0)}`);
  }
  console.log(
    `round ${round}: ${(blobs.length / seconds).toFixed(0)} payments/s, ` +
      `${((seconds * 1e6) / blobs.length).toFixed(0)} µs wall each; CPU µs each: ${parts.join(', ')}`,
  );
  await bench.close();
}
