import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tickerToCurrency } from '@ledgerpad/shared';
import { Wallet } from 'xrpl';
import { marketPools } from '../src/modules/market/schema';
import { tokens as tokensTable } from '../src/modules/tokens/schema';
import { createTestDatabase } from '../test/db';
import { createTestApp } from '../test/helpers/test-app';

// The market API under load: 10,000 synthetic tokens (rows written straight into the tables, with a
// pool each), then requests per second for /api/tokens?limit=10000 and /api/prices beside the same
// bytes served as static files by the same server (its web delivery: precompressed files on disk).
// Target: ≥ 0.5 of the static rate each.

export interface MarketBenchResult {
  name: string;
  tokens: number;
  seconds: number;
  concurrency: number;
  bytes: { tokensBr: number; pricesBr: number };
  reqPerSec: { tokens: number; tokensStatic: number; prices: number; pricesStatic: number };
  ratios: { tokens: number; prices: number };
  ok: boolean;
}

const TOKENS = 10_000;

async function load(port: number, url: string, seconds: number, concurrency: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const until = Date.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (Date.now() < until) {
      await new Promise<void>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, path: url, agent, headers: { 'accept-encoding': 'br' } },
          (res) => {
            if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
            res.resume();
            res.on('end', () => resolve());
          },
        );
        req.on('error', reject);
        req.end();
      });
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return Math.round(done / seconds);
}

export async function benchMarket(
  opts: { seconds?: number; concurrency?: number } = {},
): Promise<MarketBenchResult> {
  const seconds = opts.seconds ?? 5;
  const concurrency = opts.concurrency ?? 16;
  const dist = mkdtempSync(path.join(tmpdir(), 'ledgerpad-bench-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>bench</title>');
  const database = await createTestDatabase();
  // First app: the rows and the snapshot's bytes; the files must exist before the server that serves
  // them starts (its static routes are fixed at start).
  const seed = await createTestApp({ ledger: 'none', database });
  let t: Awaited<ReturnType<typeof createTestApp>> | undefined;
  try {
    await seed.app.ready();
    const db = database.db;
    for (let i = 0; i < TOKENS; i += 1000) {
      const rows = Array.from({ length: 1000 }, (_, k) => {
        const n = i + k;
        return {
          name: `Bench Token ${n}`,
          ticker: `B${n.toString(36).toUpperCase().padStart(4, '0')}`,
          currency: tickerToCurrency(`B${n.toString(36).toUpperCase().padStart(4, '0')}`),
          issuerAddress: Wallet.generate().classicAddress,
          supply: String(1_000_000 + n),
          description: 'A synthetic token for the market bench.',
          logoUrl: `/cdn/logos/${'a'.repeat(64)}.png`,
          twitterLink: `https://x.com/bench${n}`,
          source: 'deploy',
        };
      });
      const inserted = await db.insert(tokensTable).values(rows).returning({ id: tokensTable.id });
      await db.insert(marketPools).values(
        inserted.map((r, k) => ({
          tokenId: r.id,
          quote: 'XRP',
          ammAccount: Wallet.generate().classicAddress,
          tokenAmount: String(900_000 + k),
          quoteAmount: String(100 + (k % 50)),
          lpSupply: '9486832.98',
          lpCurrency: '03' + 'A'.repeat(38),
          tradingFee: 300,
          ledgerIndex: 1,
        })),
      );
    }
    const snap = await seed.app.marketSnapshot.refresh();
    // The same bytes as static files, served by the same server's web delivery.
    for (const [name, body] of [
      ['tokens.json', snap.tokensBody],
      ['prices.json', snap.pricesBody],
    ] as const) {
      writeFileSync(path.join(dist, 'assets', name), body.json);
      writeFileSync(path.join(dist, 'assets', `${name}.br`), body.br);
      writeFileSync(path.join(dist, 'assets', `${name}.gz`), body.gzip);
    }
    await seed.close();
    t = await createTestApp({ ledger: 'none', database, webDistDir: dist });
    await t.app.marketSnapshot.refresh();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const port = address.port;
    // Warm-up, then one measured run each.
    await load(port, '/api/tokens?limit=10000', 1, concurrency);
    await load(port, '/assets/tokens.json', 1, concurrency);
    const reqPerSec = {
      tokens: await load(port, '/api/tokens?limit=10000', seconds, concurrency),
      tokensStatic: await load(port, '/assets/tokens.json', seconds, concurrency),
      prices: await load(port, '/api/prices', seconds, concurrency),
      pricesStatic: await load(port, '/assets/prices.json', seconds, concurrency),
    };
    const ratios = {
      tokens: Math.round((reqPerSec.tokens / reqPerSec.tokensStatic) * 100) / 100,
      prices: Math.round((reqPerSec.prices / reqPerSec.pricesStatic) * 100) / 100,
    };
    return {
      name: 'market API under load (10,000 tokens) vs the same bytes as static files',
      tokens: TOKENS,
      seconds,
      concurrency,
      bytes: { tokensBr: snap.tokensBody.br.length, pricesBr: snap.pricesBody.br.length },
      reqPerSec,
      ratios,
      ok: ratios.tokens >= 0.5 && ratios.prices >= 0.5,
    };
  } finally {
    await seed.close().catch(() => undefined);
    await t?.close();
    await database.close();
    rmSync(dist, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchMarket();
  console.log(JSON.stringify(result, null, 2));
  if (!result.ok) process.exitCode = 1;
}
