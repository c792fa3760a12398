import { pathToFileURL } from 'node:url';
import { tickerToCurrency } from '@ledgerpad/shared';
import { sql } from 'drizzle-orm';
import { Wallet } from 'xrpl';
import { accountTrades } from '../src/modules/market';
import { marketPools, marketTrades } from '../src/modules/market/schema';
import { PositionsService } from '../src/modules/positions';
import { tokens as tokensTable } from '../src/modules/tokens/schema';
import { createTestDatabase } from '../test/db';
import { createTestApp } from '../test/helpers/test-app';

// Positions of a wallet with 10,000 trades (over 10 tokens) in a market_trades table that also
// holds 100,000 trades of other accounts: the service's database read and average-cost pass, timed
// per call. The ledger reads (account_info and account_lines, one round trip each per wallet,
// concurrently) are stubbed with the wallet's lines: their cost is the ledger server's, not ours.
// Target: median ≤ 25 ms as inserted (no VACUUM). The first read folds every trade and keeps the
// bases as the wallet's checkpoint (docs/positions.md "Checkpoints"); the timed reads fold the trades
// after it (none here) — as a wallet's page reads between its trades.

export interface PositionsBenchResult {
  name: string;
  walletTrades: number;
  otherTrades: number;
  runs: number;
  ms: Record<'asInserted' | 'vacuumed', { median: number; p99: number; max: number; sqlMedian: number }>;
  ok: boolean;
}

const TOKENS = 10;
const WALLET_TRADES = 10_000;
const OTHER_TRADES = 100_000;
const RUNS = 200;

const at = (list: number[], q: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;
};

export async function benchPositions(opts: { runs?: number } = {}): Promise<PositionsBenchResult> {
  const runs = opts.runs ?? RUNS;
  const database = await createTestDatabase();
  const t = await createTestApp({ ledger: 'none', database });
  try {
    await t.app.ready();
    const db = database.db;
    const wallet = Wallet.generate().classicAddress;
    const listed = await db
      .insert(tokensTable)
      .values(
        Array.from({ length: TOKENS }, (_, n) => ({
          name: `Bench ${n}`,
          ticker: `PB${n}`,
          currency: tickerToCurrency(`POSB${n}`),
          issuerAddress: Wallet.generate().classicAddress,
          supply: '1000000',
          source: 'deploy',
        })),
      )
      .returning({ id: tokensTable.id, currency: tokensTable.currency, issuer: tokensTable.issuerAddress });
    await db.insert(marketPools).values(
      listed.map((tok) => ({
        tokenId: tok.id,
        quote: 'XRP',
        ammAccount: Wallet.generate().classicAddress,
        tokenAmount: '900000',
        quoteAmount: '1000',
        lpSupply: '30000',
        lpCurrency: '03' + 'B'.repeat(38),
        tradingFee: 300,
        ledgerIndex: 1,
      })),
    );
    const others = Array.from({ length: 50 }, () => Wallet.generate().classicAddress);
    const total = WALLET_TRADES + OTHER_TRADES;
    // Interleaved: the wallet's trades are one in eleven, scattered through the table.
    for (let i = 0; i < total; i += 5_000) {
      const rows = Array.from({ length: Math.min(5_000, total - i) }, (_, k) => {
        const n = i + k;
        const mine = n % 11 === 0 && n / 11 < WALLET_TRADES;
        const tok = listed[n % TOKENS]!;
        const side = n % 3 === 0 ? 'SELL' : 'BUY';
        const tokenAmount = (100 + (n % 97)).toString() + '.123456789012';
        const price = (1 + (n % 13) / 10).toString();
        return {
          tokenId: tok.id,
          quote: 'XRP',
          ledgerIndex: 1_000 + Math.floor(n / 4),
          txIndex: n % 4,
          hash: `${n.toString(16).padStart(64, '0')}`,
          account: mine ? wallet : others[n % others.length]!,
          side,
          price,
          tokenAmount,
          quoteAmount: (Number(tokenAmount) * Number(price)).toFixed(6),
          time: new Date(1_700_000_000_000 + n * 1000),
        };
      });
      await db.insert(marketTrades).values(rows);
    }
    const walletTrades = await db.$count(marketTrades, undefined);
    await t.app.marketSnapshot.refresh();
    const lines = listed.map((tok) => ({
      account: tok.issuer,
      balance: '1234.5',
      currency: tok.currency,
      limit: '1000000000',
      limit_peer: '0',
      quality_in: 0,
      quality_out: 0,
    }));
    const service = new PositionsService({
      db,
      snapshot: t.app.marketSnapshot,
      wallets: {
        list: async () => [{ address: wallet, name: 'Bench' }] as never,
        accountState: async () => ({ activated: true, balanceDrops: 100_000_000n, ownerCount: TOKENS }),
        lines: async () => lines,
      },
    });
    const first = await service.positions(1);
    if (first[0]?.tokens.length !== TOKENS) throw new Error('positions: expected one row per token');
    for (let i = 0; i < 10; i++) await service.positions(1);
    const measure = async () => {
      const times: number[] = [];
      const sqlTimes: number[] = [];
      for (let i = 0; i < runs; i++) {
        let start = performance.now();
        await service.positions(1);
        times.push(performance.now() - start);
        // The database read alone (the rest is the average-cost pass and the snapshot lookups).
        start = performance.now();
        await accountTrades(db, [wallet]);
        sqlTimes.push(performance.now() - start);
      }
      return {
        median: at(times, 0.5),
        p99: at(times, 0.99),
        max: at(times, 1),
        sqlMedian: at(sqlTimes, 0.5),
      };
    };
    // As written by the inserts (PGlite has no autovacuum: the embedded default stays like this until
    // a VACUUM), then as PostgreSQL's autovacuum leaves the table (index-only scan, no heap visits).
    const asInserted = await measure();
    await db.execute(sql`vacuum analyze market_trades`);
    for (let i = 0; i < 10; i++) await service.positions(1);
    const vacuumed = await measure();
    return {
      name: `positions of a wallet with ${WALLET_TRADES} trades (${walletTrades} in the table)`,
      walletTrades: WALLET_TRADES,
      otherTrades: OTHER_TRADES,
      runs,
      ms: { asInserted, vacuumed },
      ok: asInserted.median <= 25,
    };
  } finally {
    await t.close();
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchPositions();
  console.log(JSON.stringify(result, null, 2));
  if (!result.ok) process.exitCode = 1;
}
