// npm run bench -w packages/xrpl-standalone
// One function per figure; each prints its own line.
//
// The payments figure and the bare verification rate are taken in rounds, each verification run
// right after its payments run over the same signatures, and the medians are reported: this
// machine's speed drifts by ±15% over seconds, and a ratio of two figures taken far apart would
// measure the drift as much as the engine.
import { decode, encodeForSigning } from 'ripple-binary-codec';
import { Wallet } from 'xrpl';
import { atLeast, report, reportFailure } from '../../../scripts/bench-figures';
import { verifySignature } from '../src/core/crypto-verify';
import { accountRootIndex as accountRootIndexOf } from '../src/server/keylets';
import { benchAmmSwaps, benchOfferCrossings } from './dex';
import { fundWallets, signPayments, startBenchLedger, submitFromWorker } from './harness';

interface Figure {
  name: string;
  value: number;
  unit: string;
}

type KeyType = 'ed25519' | 'ecdsa-secp256k1';

const SECTION = 'xrpl-standalone ledger';
/** Applying a payment costs at most 1 / 0.8 of checking its signature (issue 27). */
const RATIO_TARGET = 0.8;
const ACCOUNTS = 100;
const PAYMENTS_PER_ACCOUNT = 30;
const CLOSE_EVERY = 500;
/** Measured rounds per key type, after one discarded warm-up round of the same size (JIT). */
const ROUNDS = 5;

/** The payment set: senders and receivers, and every payment signed once for all rounds. */
interface PaymentSet {
  keyType: KeyType;
  senders: Wallet[];
  receivers: Wallet[];
  /** Sender sequence the blobs were signed from (each sender's first sequence in a fresh ledger). */
  sequences: number[];
  blobs: string[];
}

function makePaymentSet(keyType: KeyType): Omit<PaymentSet, 'sequences' | 'blobs'> {
  return {
    keyType,
    senders: Array.from({ length: ACCOUNTS }, () => Wallet.generate(keyType as never)),
    receivers: Array.from({ length: 10 }, () => Wallet.generate()),
  };
}

/**
 * One round: a fresh ledger, the senders funded, then every pre-signed payment submitted through the
 * WebSocket API from a worker thread (a separate core, like a real client) with a ledger closed every
 * CLOSE_EVERY; the server and engine run on the main thread. Returns payments applied per second.
 */
async function paymentsRound(
  set: Omit<PaymentSet, 'sequences' | 'blobs'> & Partial<PaymentSet>,
): Promise<{ perSecond: number; sequences: number[]; blobs: string[] }> {
  const bench = await startBenchLedger();
  try {
    await fundWallets(bench, [...set.senders, ...set.receivers], '1000000000');
    const sequences = set.senders.map((w) =>
      Number(bench.ledger.node.current().read(accountRootIndexOf(w.address))?.Sequence),
    );
    // A fresh ledger funds accounts at the same ledger index each round, so one signing serves all.
    const reuse = set.blobs && set.sequences?.every((seq, i) => seq === sequences[i]);
    const blobs = reuse
      ? (set.blobs as string[])
      : signPayments(set.senders, set.receivers, sequences, PAYMENTS_PER_ACCOUNT);

    const startIndex = bench.ledger.node.validated().header.ledger_index;
    const { seconds, failures } = await submitFromWorker(bench.ledger.url, blobs, CLOSE_EVERY);
    if (failures.length > 0) console.warn(`submit results other than tesSUCCESS: ${failures.join(', ')}`);
    let applied = 0;
    const endIndex = bench.ledger.node.validated().header.ledger_index;
    for (let index = startIndex + 1; index <= endIndex; index += 1) {
      for (const tx of bench.ledger.node.ledger({ ledger_index: index })?.transactions ?? []) {
        if (tx.meta.TransactionResult === 'tesSUCCESS') applied += 1;
      }
    }
    if (applied !== blobs.length) console.warn(`only ${applied} of ${blobs.length} payments applied`);
    return { perSecond: applied / seconds, sequences, blobs };
  } finally {
    await bench.close();
  }
}

/** The bare cost of checking the same transactions' signatures with the engine's verifier, nothing else. */
function verificationRound(items: Array<{ message: string; signature: string; key: string }>): number {
  const started = performance.now();
  for (const { message, signature, key } of items) {
    if (!verifySignature(message, signature, key)) throw new Error('bad signature in benchmark set');
  }
  return items.length / ((performance.now() - started) / 1000);
}

function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  const mid = sorted.length >>> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function benchXrpPayments(keyType: KeyType): Promise<void> {
  const set: Omit<PaymentSet, 'sequences' | 'blobs'> & Partial<PaymentSet> = makePaymentSet(keyType);
  const applied: number[] = [];
  const verified: number[] = [];
  const ratios: number[] = [];
  let items: Array<{ message: string; signature: string; key: string }> = [];
  for (let round = 0; round <= ROUNDS; round += 1) {
    const result = await paymentsRound(set);
    if (set.blobs !== result.blobs) {
      set.blobs = result.blobs;
      set.sequences = result.sequences;
      items = result.blobs.map((blob) => {
        const tx = decode(blob) as Record<string, unknown>;
        return {
          message: encodeForSigning(tx as never),
          signature: String(tx.TxnSignature),
          key: String(tx.SigningPubKey),
        };
      });
    }
    const perSecond = verificationRound(items);
    if (round === 0) continue; // warm-up: the first run pays for JIT compilation
    applied.push(result.perSecond);
    verified.push(perSecond);
    ratios.push(result.perSecond / perSecond);
  }
  const range = (values: number[], digits: number) =>
    `(${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
  print({
    name: `XRP payments applied, ${keyType} (WS submit + close)`,
    value: median(applied),
    unit: 'tx/s',
  });
  console.log(`${''.padEnd(56)} ${range(applied, 0)}`);
  print({ name: `bare signature verifications, ${keyType}`, value: median(verified), unit: 'verify/s' });
  console.log(`${''.padEnd(56)} ${range(verified, 0)}`);
  const ratio = median(ratios);
  console.log(
    `${`ratio applied/s ÷ verify/s, ${keyType}`.padEnd(56)} ${ratio.toFixed(2).padStart(8)} ${range(ratios, 2)}`,
  );
  report({
    section: SECTION,
    figure: `XRP payments applied, ${keyType}`,
    value: median(applied),
    unit: 'tx/s',
    target: atLeast(1000),
    note: range(applied, 0),
  });
  report({
    section: SECTION,
    figure: `applied ÷ bare verification rate, ${keyType}`,
    value: ratio,
    unit: '×',
    target: atLeast(RATIO_TARGET),
    digits: 2,
    note: `${range(ratios, 2)}; ${median(verified).toFixed(0)} verify/s`,
  });
}

function print(figure: Figure): void {
  console.log(`${figure.name.padEnd(56)} ${figure.value.toFixed(0).padStart(8)} ${figure.unit}`);
}

// `npm run bench -w packages/xrpl-standalone -- ed25519 amm` runs only the sections whose names
// contain one of the words (secp256k1, ed25519, amm, offers); no words: every section.
const filters = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const wanted = (name: string) => filters.length === 0 || filters.some((word) => name.includes(word));

async function main(): Promise<void> {
  console.log(
    `xrpl-standalone benchmark (node ${process.version}, ${ACCOUNTS * PAYMENTS_PER_ACCOUNT} payments per round, ` +
      `median of ${ROUNDS} rounds after a warm-up round; each round's verification rate is taken right after it)`,
  );
  for (const keyType of ['ecdsa-secp256k1', 'ed25519'] as const) {
    if (wanted(keyType)) await benchXrpPayments(keyType);
  }
  const dex = [
    { name: 'amm', run: benchAmmSwaps },
    { name: 'offers', run: benchOfferCrossings },
  ].filter((section) => wanted(section.name));
  for (const section of dex) {
    const figure = await section.run();
    print(figure);
    report({
      section: SECTION,
      figure: figure.name,
      value: figure.value,
      unit: figure.unit,
      target: atLeast(500),
    });
  }
}

await main().catch((err: unknown) => {
  reportFailure(SECTION, err);
  throw err;
});
