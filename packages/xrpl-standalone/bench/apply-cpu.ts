// CPU-time view of the payments benchmark (run.ts), for A/B work on a loaded machine:
//   npx tsx bench/apply-cpu.ts ed25519 [rounds]
// Each round submits the same 3,000 pre-signed payments as run.ts from the worker-thread client
// and reads the server thread's own CPU time (/proc/self/task/<main tid>/stat: the client's thread
// is not counted), then checks the same signatures with the bare verifier and reads that CPU time.
// The ratio printed is verification CPU ÷ server CPU per payment, which is what applied/s ÷
// verify/s comes to on an idle machine with the client on its own core.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { decode, encodeForSigning } from 'ripple-binary-codec';
import { Wallet } from 'xrpl';
import { verifySignature } from '../src/core/crypto-verify';
import { accountRootIndex } from '../src/server/keylets';
import { fundWallets, signPayments, startBenchLedger, submitFromWorker } from './harness';

const keyType = (process.argv[2] ?? 'ed25519') === 'ed25519' ? 'ed25519' : 'ecdsa-secp256k1';
const rounds = Number(process.argv[3] ?? 5);
const ACCOUNTS = 100;
const PER = 30;
const TICK_US = 1e6 / 100; // USER_HZ

/** The main thread's user + system CPU in µs (clock ticks of /proc). */
function mainThreadCpuUs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK_US;
}

const senders = Array.from({ length: ACCOUNTS }, () => Wallet.generate(keyType as never));
const receivers = Array.from({ length: 10 }, () => Wallet.generate());
let blobs: string[] | undefined;
let items: Array<{ m: string; s: string; k: string }> = [];
const serverUs: number[] = [];
const verifyUs: number[] = [];
for (let round = 0; round <= rounds; round += 1) {
  const bench = await startBenchLedger();
  await fundWallets(bench, [...senders, ...receivers], '1000000000');
  if (!blobs) {
    const seqs = senders.map((w) =>
      Number(bench.ledger.node.current().read(accountRootIndex(w.address))?.Sequence),
    );
    blobs = signPayments(senders, receivers, seqs, PER);
    items = blobs.map((b) => {
      const tx = decode(b) as Record<string, unknown>;
      return { m: encodeForSigning(tx as never), s: String(tx.TxnSignature), k: String(tx.SigningPubKey) };
    });
  }
  // PROFILE=dir: a CPU profile of the server thread during each round's submissions only.
  const session = process.env.PROFILE && round > 0 ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const c0 = mainThreadCpuUs();
  const { failures } = await submitFromWorker(bench.ledger.url, blobs, 500);
  const c1 = mainThreadCpuUs();
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(`${process.env.PROFILE}/round-${round}.cpuprofile`, JSON.stringify(profile));
    session.disconnect();
  }
  if (failures.length) console.warn('failures', failures);
  await bench.close();
  const v0 = mainThreadCpuUs();
  for (const it of items) if (!verifySignature(it.m, it.s, it.k)) throw new Error('bad signature');
  const v1 = mainThreadCpuUs();
  if (round === 0) continue;
  serverUs.push((c1 - c0) / blobs.length);
  verifyUs.push((v1 - v0) / blobs.length);
  console.log(
    `round ${round}: server ${((c1 - c0) / blobs.length).toFixed(1)} µs/payment, verify ${((v1 - v0) / blobs.length).toFixed(1)} µs`,
  );
}
const med = (v: number[]) => v.slice().sort((a, b) => a - b)[v.length >> 1] as number;
console.log(
  `${keyType}: server CPU ${med(serverUs).toFixed(1)} µs/payment, verification ${med(verifyUs).toFixed(1)} µs, ` +
    `ratio ${(med(verifyUs) / med(serverUs)).toFixed(2)} (per-round ratios ${serverUs.map((s, i) => ((verifyUs[i] as number) / s).toFixed(2)).join(' ')})`,
);
