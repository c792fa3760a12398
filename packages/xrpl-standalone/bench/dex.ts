// DEX/AMM benchmarks, called from bench/run.ts: AMM swaps per second (cross-currency payments
// through a pool) and offer crossings per second against a book of 1,000 resting offers. Both
// pre-sign everything, submit pipelined over the WebSocket API and close a ledger every 500.
import type { Wallet } from 'xrpl';
import { type BenchLedger, accountSequence, fundAccounts, signSequence, startBenchLedger } from './harness';

export interface DexFigure {
  name: string;
  value: number;
  unit: string;
}

const CLOSE_EVERY = 500;

async function submitAll(bench: BenchLedger, blobs: string[]): Promise<void> {
  for (let offset = 0; offset < blobs.length; offset += CLOSE_EVERY) {
    const replies = await bench.rpc.pipeline(
      blobs.slice(offset, offset + CLOSE_EVERY).map((tx_blob) => ({ command: 'submit', tx_blob })),
    );
    const bad = replies.find((r) => r.result?.engine_result !== 'tesSUCCESS');
    if (bad)
      throw new Error(`setup transaction failed: ${JSON.stringify(bad.result?.engine_result ?? bad.error)}`);
    await bench.rpc.request({ command: 'ledger_accept' });
  }
}

async function one(
  bench: BenchLedger,
  wallet: Wallet,
  tx: Record<string, unknown>,
  fee = '10',
): Promise<void> {
  const seq = await accountSequence(bench.rpc, wallet.address);
  await submitAll(bench, signSequence(wallet, [tx], seq, fee));
}

/** Issuer with DefaultRipple, and trust lines + balances of USD for `holders`. */
async function token(bench: BenchLedger, holders: Wallet[], value: string): Promise<Wallet> {
  const [gw] = await fundAccounts(bench, 1, '100000000000');
  const issuer = gw as Wallet;
  await one(bench, issuer, { TransactionType: 'AccountSet', SetFlag: 8 });
  for (const h of holders) {
    const seq = await accountSequence(bench.rpc, h.address);
    await bench.rpc.request({
      command: 'submit',
      tx_blob: signSequence(
        h,
        [
          {
            TransactionType: 'TrustSet',
            LimitAmount: { currency: 'USD', issuer: issuer.address, value: '1000000000' },
          },
        ],
        seq,
        '10',
      )[0],
    });
  }
  await bench.rpc.request({ command: 'ledger_accept' });
  const seq = await accountSequence(bench.rpc, issuer.address);
  await submitAll(
    bench,
    signSequence(
      issuer,
      holders.map((h) => ({
        TransactionType: 'Payment',
        Destination: h.address,
        Amount: { currency: 'USD', issuer: issuer.address, value },
      })),
      seq,
      '10',
    ),
  );
  return issuer;
}

async function countApplied(bench: BenchLedger, from: number): Promise<number> {
  let applied = 0;
  const end = bench.ledger.node.validated().header.ledger_index;
  for (let index = from + 1; index <= end; index += 1) {
    for (const tx of bench.ledger.node.ledger({ ledger_index: index })?.transactions ?? []) {
      if (tx.meta.TransactionResult === 'tesSUCCESS') applied += 1;
    }
  }
  return applied;
}

async function timed(bench: BenchLedger, blobs: string[]): Promise<{ perSecond: number; applied: number }> {
  const start = bench.ledger.node.validated().header.ledger_index;
  const started = performance.now();
  for (let offset = 0; offset < blobs.length; offset += CLOSE_EVERY) {
    await bench.rpc.pipeline(
      blobs.slice(offset, offset + CLOSE_EVERY).map((tx_blob) => ({ command: 'submit', tx_blob })),
    );
    await bench.rpc.request({ command: 'ledger_accept' });
  }
  const seconds = (performance.now() - started) / 1000;
  const applied = await countApplied(bench, start);
  return { perSecond: applied / seconds, applied };
}

/** XRP -> USD payments through one AMM pool (no order book), from many accounts. */
export async function benchAmmSwaps(traders = 50, swapsEach = 40): Promise<DexFigure> {
  const bench = await startBenchLedger();
  try {
    const lp = (await fundAccounts(bench, 1, '2000000000000'))[0] as Wallet;
    const users = await fundAccounts(bench, traders, '10000000000');
    const gw = await token(bench, [lp, ...users], '1000');
    await bench.rpc.request({ command: 'ledger_accept' });
    await one(
      bench,
      lp,
      {
        TransactionType: 'AMMCreate',
        Amount: '1000000000000',
        Amount2: { currency: 'USD', issuer: gw.address, value: '1000' },
        TradingFee: 300,
      },
      '200000',
    );
    const perUser = await Promise.all(
      users.map(async (u) =>
        signSequence(
          u,
          Array.from({ length: swapsEach }, () => ({
            TransactionType: 'Payment',
            Destination: u.address,
            Amount: { currency: 'USD', issuer: gw.address, value: '0.01' },
            SendMax: '100000000',
          })),
          await accountSequence(bench.rpc, u.address),
          '10',
        ),
      ),
    );
    const blobs: string[] = [];
    for (let i = 0; i < swapsEach; i++) for (const list of perUser) blobs.push(list[i] as string);
    const r = await timed(bench, blobs);
    if (r.applied !== blobs.length) console.warn(`only ${r.applied} of ${blobs.length} AMM swaps applied`);
    return { name: 'AMM swaps applied (XRP->USD payments)', value: r.perSecond, unit: 'tx/s' };
  } finally {
    await bench.close();
  }
}

/** Takers crossing a book of 1,000 resting offers (10 makers x 100 price levels). */
export async function benchOfferCrossings(takers = 50, crossesEach = 20): Promise<DexFigure> {
  const bench = await startBenchLedger();
  try {
    const makers = await fundAccounts(bench, 10, '10000000000');
    const users = await fundAccounts(bench, takers, '10000000000');
    const gw = await token(bench, makers, '100000');
    const makerBlobs = await Promise.all(
      makers.map(async (m, k) =>
        signSequence(
          m,
          Array.from({ length: 100 }, (_, i) => ({
            TransactionType: 'OfferCreate',
            TakerGets: { currency: 'USD', issuer: gw.address, value: '1' },
            // distinct prices 1.000 .. 1.999 XRP per USD
            TakerPays: String(1_000_000 + (i * 10 + k) * 1000),
          })),
          await accountSequence(bench.rpc, m.address),
          '10',
        ),
      ),
    );
    await submitAll(bench, makerBlobs.flat());
    const perUser = await Promise.all(
      users.map(async (u) =>
        signSequence(
          u,
          Array.from({ length: crossesEach }, () => ({
            TransactionType: 'OfferCreate',
            TakerGets: '1000000',
            TakerPays: { currency: 'USD', issuer: gw.address, value: '0.4' },
            Flags: 0x00020000,
          })),
          await accountSequence(bench.rpc, u.address),
          '10',
        ),
      ),
    );
    const blobs: string[] = [];
    for (let i = 0; i < crossesEach; i++) for (const list of perUser) blobs.push(list[i] as string);
    const r = await timed(bench, blobs);
    if (r.applied !== blobs.length) console.warn(`only ${r.applied} of ${blobs.length} crossings applied`);
    return { name: 'offer crossings applied (1,000-offer book)', value: r.perSecond, unit: 'tx/s' };
  } finally {
    await bench.close();
  }
}
