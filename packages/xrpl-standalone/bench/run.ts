// npm run bench -w packages/xrpl-standalone
// One function per figure; each prints its own line. The DEX/AMM benchmarks (AMM swaps, offer
// crossing) are added to main() the same way.
import { decode, encodeForSigning } from 'ripple-binary-codec';
import { verifySignature } from '../src/core/crypto-verify';
import { accountRootIndex as accountRootIndexOf } from '../src/server/keylets';
import { benchAmmSwaps, benchOfferCrossings } from './dex';
import { fundAccounts, signSequence, startBenchLedger, submitFromWorker } from './harness';

interface Figure {
  name: string;
  value: number;
  unit: string;
}

type KeyType = 'ed25519' | 'ecdsa-secp256k1';

const ACCOUNTS = 100;
const PAYMENTS_PER_ACCOUNT = 30;
const CLOSE_EVERY = 500;

/**
 * Pre-signed XRP payments from many accounts through the WebSocket API, closed into ledgers every
 * CLOSE_EVERY; the client runs in a worker thread, the server (and engine) on the main thread.
 */
async function benchXrpPayments(
  keyType: KeyType,
  accounts = ACCOUNTS,
  perAccount = PAYMENTS_PER_ACCOUNT,
): Promise<Figure & { blobs: string[] }> {
  const bench = await startBenchLedger();
  try {
    const senders = await fundAccounts(bench, accounts, '1000000000', keyType as never);
    const receivers = await fundAccounts(bench, 10, '100000000');
    const blobs: string[] = [];
    // Interleave senders so each ledger holds many accounts, as real traffic would.
    const perSender = senders.map((wallet, s) => {
      const sequence = Number(bench.ledger.node.current().read(accountRootIndexOf(wallet.address))?.Sequence);
      return signSequence(
        wallet,
        Array.from({ length: perAccount }, (_, i) => ({
          TransactionType: 'Payment',
          Destination: receivers[(s + i) % receivers.length]?.address,
          Amount: String(1000 + i),
        })),
        sequence,
        '10',
      );
    });
    for (let i = 0; i < perAccount; i += 1) for (const list of perSender) blobs.push(list[i] as string);

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
    return {
      name: `XRP payments applied, ${keyType} (WS submit + close)`,
      value: applied / seconds,
      unit: 'tx/s',
      blobs,
    };
  } finally {
    await bench.close();
  }
}

/** The bare cost of checking the same transactions' signatures with the engine's verifier, nothing else. */
function benchSignatureVerification(blobs: string[], keyType: KeyType): Figure {
  const items = blobs.map((blob) => {
    const tx = decode(blob) as Record<string, unknown>;
    return {
      message: encodeForSigning(tx as never),
      signature: String(tx.TxnSignature),
      key: String(tx.SigningPubKey),
    };
  });
  const started = performance.now();
  for (const { message, signature, key } of items) {
    if (!verifySignature(message, signature, key)) throw new Error('bad signature in benchmark set');
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    name: `bare signature verifications, ${keyType}`,
    value: items.length / seconds,
    unit: 'verify/s',
  };
}

function print(figure: Figure): void {
  console.log(`${figure.name.padEnd(56)} ${figure.value.toFixed(0).padStart(8)} ${figure.unit}`);
}

async function main(): Promise<void> {
  console.log(
    `xrpl-standalone benchmark (node ${process.version}, ${ACCOUNTS * PAYMENTS_PER_ACCOUNT} payments per key type)`,
  );
  // Warm-up (discarded): a first run pays for JIT compilation of the engine and the server.
  await benchXrpPayments('ed25519', 20, 25);
  for (const keyType of ['ecdsa-secp256k1', 'ed25519'] as const) {
    const payments = await benchXrpPayments(keyType);
    print(payments);
    const verification = benchSignatureVerification(payments.blobs, keyType);
    print(verification);
    const ratio = payments.value / verification.value;
    console.log(
      `${`ratio applied/s ÷ verify/s, ${keyType} (target ≥ 0.5)`.padEnd(56)} ${ratio.toFixed(2).padStart(8)}`,
    );
    console.log(
      `${`applied/s target ≥ 1000, ${keyType}`.padEnd(56)} ${payments.value >= 1000 ? '     met' : ' NOT met'}`,
    );
  }
  for (const figure of [await benchAmmSwaps(), await benchOfferCrossings()]) {
    print(figure);
    console.log(`${'target ≥ 500 tx/s'.padEnd(56)} ${figure.value >= 500 ? '     met' : ' NOT met'}`);
  }
}

await main();
