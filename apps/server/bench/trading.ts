import { pathToFileURL } from 'node:url';
import { RLUSD_CURRENCY_HEX, type SwapResult } from '@ledgerpad/shared';
import { Wallet, type Client, type SubmittableTransaction } from 'xrpl';
import { STANDALONE_GENESIS_SEED } from '../src/platform/accounts';
import { createTestApp, type SignedIn } from '../test/helpers/test-app';
import { countStatements } from './statement-count';

// Trading under load, on the embedded ledger closing every second, through the real routes:
// - 100 market swaps (XRP → RLUSD against the platform's pool) from 100 users submitted at once:
//   how many ledger closes until every one is validated (target ≤ 2);
// - quote latency (POST /api/amm-info, the trade simulated on the open ledger) against a token
//   with an AMM pool and 1,000 resting offers: median and p99 (targets: 100 XRP median ≤ 5 ms, p99 ≤ 15 ms;
//   500 XRP median ≤ 15 ms), with the process's CPU time per quote beside them.

export interface TradingBenchResult {
  name: string;
  closeIntervalMs: number;
  swaps: {
    count: number;
    ok: number;
    ledgerCloses: number;
    perLedger: Record<number, number>;
    totalMs: number;
  };
  /** medianMs / p99Ms: the 100 XRP quote (pool and book together); bySizeXrp: every size. */
  quotes: {
    bookOffers: number;
    samples: number;
    medianMs: number;
    p99Ms: number;
    bySizeXrp: Record<
      string,
      { medianMs: number; p99Ms: number; cpuMedianMs: number; cpuP99Ms: number; receive: string }
    >;
  };
  ok: boolean;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Submits signed transactions of one account with consecutive sequences, without waiting. */
async function burst(client: Client, wallet: Wallet, txs: SubmittableTransaction[]): Promise<void> {
  const first = await client.autofill({ ...txs[0]!, Account: wallet.classicAddress });
  const lastLedger = first.LastLedgerSequence! + 20;
  await Promise.all(
    txs.map(async (tx, i) => {
      const prepared = {
        ...tx,
        Account: wallet.classicAddress,
        Sequence: first.Sequence! + i,
        Fee: first.Fee,
        LastLedgerSequence: lastLedger,
      } as SubmittableTransaction;
      const r = await client.request({ command: 'submit', tx_blob: wallet.sign(prepared).tx_blob });
      if (!r.result.engine_result.startsWith('tes') && r.result.engine_result !== 'terQUEUED')
        throw new Error(`bench setup: ${r.result.engine_result}`);
    }),
  );
}

export async function benchTrading(
  opts: {
    swaps?: number;
    bookOffers?: number;
    samples?: number;
    closeIntervalMs?: number;
    /** Called around the measured quotes (e.g. a CPU profile of the quote path alone). */
    aroundQuotes?: { before: () => Promise<void>; after: () => Promise<void> };
  } = {},
): Promise<TradingBenchResult> {
  const count = opts.swaps ?? 100;
  const bookOffers = opts.bookOffers ?? 1000;
  const samples = opts.samples ?? 200;
  const closeIntervalMs = opts.closeIntervalMs ?? 1000;
  const t = await createTestApp({
    env: {
      PLATFORM_BOOTSTRAP: 'on',
      RATE_LIMIT_WRITE_PER_MIN: '1000000',
      RATE_LIMIT_READ_PER_MIN: '1000000',
    },
    closeIntervalMs,
  });
  try {
    await t.app.ready();
    await t.app.platform.accounts.bootstrapped();
    const client = t.ledger!.client;
    const rlusd = ((await t.app.inject({ url: '/api/config/rlusd' })).json() as { issuer: string }).issuer;
    const post = (who: SignedIn, url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: who.headers, payload });

    // 100 users, a funded wallet each with its RLUSD trust line (set up before the measured burst).
    const users = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const who = await t.signIn(`bench_trader_${i}`);
        const w = (await post(who, '/api/wallets', {})).json() as { id: number; wallet_address: string };
        const funded = await post(who, `/api/wallets/${w.id}/fund`, {});
        if (funded.statusCode !== 200) throw new Error(`fund: ${funded.body}`);
        const line = await post(who, '/api/add-trustline', {
          wallet: w.wallet_address,
          issuer: rlusd,
          token: RLUSD_CURRENCY_HEX,
        });
        if (line.statusCode !== 200) throw new Error(`trust line: ${line.body}`);
        return { who, address: w.wallet_address };
      }),
    );

    const startLedger = (await client.request({ command: 'ledger', ledger_index: 'validated' })).result
      .ledger_index;
    const statementsDone = countStatements('the 100 swaps'); // BENCH_SQL_COUNT=1
    const t0 = performance.now();
    const results = await Promise.all(
      users.map((u, i) =>
        post(u.who, '/api/swap', {
          walletAddress: u.address,
          issuer: rlusd,
          token: RLUSD_CURRENCY_HEX,
          amount: `1.${String(i + 1).padStart(6, '0')}`,
          type: 'BUY',
          slippage: '50',
          baseAsset: 'XRP',
        }),
      ),
    );
    const totalMs = Math.round(performance.now() - t0);
    statementsDone();
    const perLedger: Record<number, number> = {};
    let ok = 0;
    for (const r of results) {
      if (r.statusCode !== 200) continue;
      ok++;
      const hash = (r.json() as SwapResult).hash;
      const tx = await client.request({ command: 'tx', transaction: hash });
      const index = Number(tx.result.ledger_index);
      perLedger[index] = (perLedger[index] ?? 0) + 1;
    }
    const ledgerCloses = Math.max(...Object.keys(perLedger).map(Number)) - Number(startLedger);

    // A token with a pool and 1,000 resting offers from a market maker, all outside Ledgerpad.
    const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);
    const issuer = Wallet.generate();
    const maker = Wallet.generate();
    for (const w of [issuer, maker]) {
      await client.submitAndWait(
        {
          TransactionType: 'Payment',
          Account: genesis.classicAddress,
          Destination: w.classicAddress,
          Amount: '100000000000',
        },
        { wallet: genesis },
      );
    }
    const TOKEN = 'QBN';
    await client.submitAndWait(
      { TransactionType: 'AccountSet', Account: issuer.classicAddress, SetFlag: 8 }, // asfDefaultRipple
      { wallet: issuer },
    );
    await client.submitAndWait(
      {
        TransactionType: 'TrustSet',
        Account: maker.classicAddress,
        LimitAmount: { currency: TOKEN, issuer: issuer.classicAddress, value: '1000000000' },
      },
      { wallet: maker },
    );
    await client.submitAndWait(
      {
        TransactionType: 'Payment',
        Account: issuer.classicAddress,
        Destination: maker.classicAddress,
        Amount: { currency: TOKEN, issuer: issuer.classicAddress, value: '10000000' },
      },
      { wallet: issuer },
    );
    await client.submitAndWait(
      {
        TransactionType: 'AMMCreate',
        Account: maker.classicAddress,
        Amount: '10000000000',
        Amount2: { currency: TOKEN, issuer: issuer.classicAddress, value: '1000000' },
        TradingFee: 300,
      },
      { wallet: maker, autofill: true },
    );
    // Asks from 0.0101 XRP per token upward (the pool's price is 0.01), 10 tokens each.
    const offers: SubmittableTransaction[] = Array.from({ length: bookOffers }, (_, i) => ({
      TransactionType: 'OfferCreate',
      Account: maker.classicAddress,
      TakerGets: { currency: TOKEN, issuer: issuer.classicAddress, value: '10' },
      TakerPays: String(101_000 + i * 100),
    }));
    for (let i = 0; i < offers.length; i += 250) await burst(client, maker, offers.slice(i, i + 250));
    for (;;) {
      const r = await client.request({
        command: 'account_info',
        account: maker.classicAddress,
        ledger_index: 'validated',
      });
      if (r.result.account_data.OwnerCount >= bookOffers + 2) break;
      await new Promise((resolve) => setTimeout(resolve, closeIntervalMs / 2));
    }

    const quoter = users[0]!;
    const quote = (amountXrp: string) =>
      post(quoter.who, '/api/amm-info', {
        issuer: issuer.classicAddress,
        token: TOKEN,
        amountXrp,
        tradeType: 'BUY',
        wallet: quoter.address,
      });
    // Three sizes: 10 XRP stays in the pool; 100 XRP lifts the pool past the first asks, so the
    // payment engine alternates pool and book; 500 XRP walks ~50 offers deep.
    const sizes: TradingBenchResult['quotes']['bySizeXrp'] = {};
    await opts.aroundQuotes?.before();
    for (const amount of ['10', '100', '500']) {
      for (let i = 0; i < 5; i++) await quote(amount); // warm-up
      const times: number[] = [];
      // The process's CPU time per quote (the API and the embedded ledger both run here): on a
      // shared machine the wall time also counts the neighbours' turns on the CPU.
      const cpu: number[] = [];
      let receive = '';
      for (let i = 0; i < samples; i++) {
        const s = performance.now();
        const c = process.cpuUsage();
        const r = await quote(amount);
        times.push(performance.now() - s);
        const used = process.cpuUsage(c);
        cpu.push((used.user + used.system) / 1000);
        if (r.statusCode !== 200) throw new Error(`quote: ${r.body}`);
        receive = (r.json() as { receive: string }).receive;
      }
      times.sort((a, b) => a - b);
      cpu.sort((a, b) => a - b);
      sizes[amount] = {
        medianMs: Number(percentile(times, 50).toFixed(2)),
        p99Ms: Number(percentile(times, 99).toFixed(2)),
        cpuMedianMs: Number(percentile(cpu, 50).toFixed(2)),
        cpuP99Ms: Number(percentile(cpu, 99).toFixed(2)),
        receive,
      };
    }
    await opts.aroundQuotes?.after();
    const { medianMs, p99Ms } = sizes['100']!;
    return {
      name: 'trading',
      closeIntervalMs,
      swaps: { count, ok, ledgerCloses, perLedger, totalMs },
      quotes: { bookOffers, samples, medianMs, p99Ms, bySizeXrp: sizes },
      ok: ok === count && ledgerCloses <= 2 && medianMs <= 5 && p99Ms <= 15 && sizes['500']!.medianMs <= 15,
    };
  } finally {
    await t.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchTrading(), null, 2));
}
