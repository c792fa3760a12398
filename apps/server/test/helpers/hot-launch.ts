import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Decimal from 'decimal.js';
import { and, eq, like } from 'drizzle-orm';
import { Wallet, type Payment } from 'xrpl';
import type { DeployResult } from '@ledgerpad/shared';
import { openDatabase, type Database } from '../../src/db/client';
import { createTestDatabase } from '../db';
import { bondingCurves, bondingTrades } from '../../src/modules/bonding/schema';
import { TRADING_FEE_JOB } from '../../src/modules/trading';
import { tradingTrades } from '../../src/modules/trading/schema';
import { jobs } from '../../src/platform/jobs';
import { PLATFORM_ROLES, STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import { platformWallet } from '../../src/platform/custody';
import { curveLaunchBody } from '../bonding/bonding-world';
import type { WalletTestApp } from '../wallets/wallet-app';
import { tokenBalance } from './ledger-reads';
import type { SignedIn } from './test-app';
import { ammLaunchBody, fundedWallet, runDeploy } from './trading-world';
import { waitValidated } from './submit-and-wait';
import { clientProcess, inProcessClients, type BurstClients } from './hot-launch-clients';
import type { SocketFigures } from './trade-watchers';

// Issue 40's hot launch, shared by its test (100 users) and its bench row (1,000): signed-in users,
// each with a funded custodial wallet of its own, buy one new token at once through the real HTTP
// API of a listening server, each request with its own Idempotency-Key. Then every buy is checked
// against the database and the validated ledger: one trade row per wallet, the wallet's token
// balance equal to that row (a second execution would show as a second row or twice the tokens),
// the platform fee worked out from the fee rule, and the ledger closes after the last request.

/** The platform trading fee, 0.75% (`trading_fee_percent`'s default), in parts per million. */
const FEE_PPM = 7_500n;

export interface Buyer {
  who: SignedIn;
  address: string;
}

export interface HotLaunchWorld {
  t: WalletTestApp;
  /** `http://127.0.0.1:<port>` of the listening server. */
  base: string;
  buyers: Buyer[];
  curve: DeployResult & { ticker: string };
  amm: DeployResult & { ticker: string };
}

/** Runs `f` over `items`, `width` at a time (setup of a thousand users without a thousand-way pile-up). */
async function inBatches<T, R>(
  items: T[],
  width: number,
  f: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width)
    out.push(...(await Promise.all(items.slice(i, i + width).map((x, j) => f(x, i + j)))));
  return out;
}

/**
 * The world, built once: `users` signed-in users with a custodial wallet each, funded `xrpEach` by
 * one pipelined run of Payments from genesis (one sequence each, a few closes for all); a curve
 * launch and an instant-AMM launch (100 XRP pool) through the deploy job; the server listening.
 */
export async function buildHotLaunch(
  t: WalletTestApp,
  opts: { users: number; xrpEach: number; tag: string },
): Promise<HotLaunchWorld> {
  await t.app.platform.accounts.bootstrapped();
  // No anti-snipe cap: the burst is the first minute of a launch that lets everyone in.
  await t.app.platform.settings.set('bonding_snipe_ledgers', '0');
  const owner = await t.signInOwner();
  const creator = await fundedWallet(t, owner, 4);
  const curveTicker = `HC${opts.tag}`;
  const ammTicker = `HA${opts.tag}`;
  const curve = await runDeploy(
    t,
    owner,
    curveLaunchBody(creator.id, { name: `Hot Curve ${opts.tag}`, ticker: curveTicker }),
    180_000,
  );
  const amm = await runDeploy(
    t,
    owner,
    ammLaunchBody(creator.id, { name: `Hot Pool ${opts.tag}`, ticker: ammTicker }),
    180_000,
  );

  const buyers = await inBatches(
    Array.from({ length: opts.users }, (_, i) => i),
    50,
    async (i) => {
      const who = await t.signIn(`hot_${opts.tag}_${i}`.toLowerCase());
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/wallets',
        headers: who.headers,
        payload: {},
      });
      if (res.statusCode !== 200 && res.statusCode !== 201) throw new Error(`wallet: ${res.body}`);
      return { who, address: (res.json() as { wallet_address: string }).wallet_address };
    },
  );

  // Funding: consecutive sequences from genesis, all submitted without waiting, then the last awaited.
  const client = t.connection.client;
  const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);
  const info = await client.request({
    command: 'account_info',
    account: genesis.classicAddress,
    ledger_index: 'current',
  });
  let seq = info.result.account_data.Sequence;
  const template = await client.autofill<Payment>({
    TransactionType: 'Payment',
    Account: genesis.classicAddress,
    Destination: buyers[0]!.address,
    Amount: '1',
  });
  const lastLedger = template.LastLedgerSequence! + 200;
  const hashes: string[] = [];
  for (const b of buyers) {
    const tx: Payment = {
      TransactionType: 'Payment',
      Account: genesis.classicAddress,
      Destination: b.address,
      Amount: String(opts.xrpEach * 1_000_000),
      Sequence: seq++,
      Fee: template.Fee,
      LastLedgerSequence: lastLedger,
    };
    const signed = genesis.sign(tx);
    const r = await client.request({ command: 'submit', tx_blob: signed.tx_blob });
    if (!r.result.engine_result.startsWith('tes') && r.result.engine_result !== 'terQUEUED')
      throw new Error(`funding: ${r.result.engine_result}`);
    hashes.push(signed.hash);
  }
  for (const h of hashes) await waitValidated(client, h);
  await t.app.platform.indexer!.caughtUp();
  await t.app.bonding.keeper!.idle();
  await t.app.platform.submissions!.idle();

  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return {
    t,
    base: `http://127.0.0.1:${address.port}`,
    buyers,
    curve: { ...curve, ticker: curveTicker },
    amm: { ...amm, ticker: ammTicker },
  };
}

export interface BurstResult {
  token: string;
  requests: number;
  /** Requests that got an HTTP answer (no socket error or hang-up). */
  answered: number;
  status5xx: number;
  /** 4xx answers without a sentence (`message`) to show. */
  refusalsWithoutMessage: number;
  /** The 4xx answers' messages, counted. */
  refusals: Record<string, number>;
  ok: number;
  /** Wall time from the first request sent to the last answer. */
  burstMs: number;
  answerMs: { median: number; p99: number; max: number };
  /** Wallets with exactly one trade row, the ledger balance equal to it, and its fee right. */
  executedOnce: number;
  /** Every problem found, one line each (empty when every buy was executed once with its fee). */
  problems: string[];
  /** Ledger closes from the ledger validated when the last request arrived to the last buy's. */
  closesAfterLastRequest: number;
  perLedger: Record<number, number>;
  /** With `sockets`: the token page's live sockets, each trade's arrival after its ledger closed. */
  sockets?: SocketFigures;
  /** With `clientProcess`: the peak RSS of the clients' own process (not the server's), MB. */
  clientRssMb?: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;

/**
 * Every buyer buys `amountXrp` of the token (POST /api/swap over HTTP, one Idempotency-Key each),
 * all in one turn or, with `windowMs`, arriving evenly over that window (issue 40: "1,000 users buy
 * … within 10 s"; `fireBuys`), then waits until everything is validated, indexed and settled, and checks every buy.
 * `clientProcess`: the buyers and the sockets run in a child process (the bench: the server's loop
 * and RSS its own, as deployed); otherwise in this one (the 100-user test).
 */
export async function hotBurst(
  w: HotLaunchWorld,
  kind: 'curve' | 'amm',
  amountXrp: string,
  opts: { sockets?: number; clientProcess?: boolean; windowMs?: number } = {},
): Promise<BurstResult> {
  const { t } = w;
  const token = kind === 'curve' ? w.curve : w.amm;
  const hot = { currency: token.currency, issuer: token.issuer_address, ticker: token.ticker };
  const sockets = opts.sockets ?? 0;
  const clients = opts.clientProcess
    ? clientProcess(w.base, t.connection.url, hot, sockets)
    : inProcessClients(w.base, t.connection.client, hot, sockets);
  try {
    // The token page's visitors, subscribed before the first buy (issue 40: every trade on every
    // socket within 1 s of its ledger's close).
    await clients.open();
    const result = await burst(w, kind, amountXrp, clients, opts.windowMs ?? 0);
    if (opts.clientProcess) result.clientRssMb = (clients as { clientRssMb?: number }).clientRssMb;
    return result;
  } finally {
    clients.close();
  }
}

async function burst(
  w: HotLaunchWorld,
  kind: 'curve' | 'amm',
  amountXrp: string,
  clients: BurstClients,
  windowMs: number,
): Promise<BurstResult> {
  const { t } = w;
  const token = kind === 'curve' ? w.curve : w.amm;
  const client = t.connection.client;
  const validatedIndex = async () =>
    Number((await client.request({ command: 'ledger', ledger_index: 'validated' })).result.ledger_index);
  // The ledger validated when the last request reached the server (its HTTP server's own event).
  let arrived = 0;
  let lastRequestLedger = await validatedIndex();
  const onRequest = (req: { url?: string }) => {
    if (req.url !== '/api/swap') return;
    arrived++;
    lastRequestLedger = t.app.platform.submissions!.ledgerIndex;
  };
  t.app.server.on('request', onRequest);
  const { answers, burstMs } = await clients.fire(
    w.buyers.map((b) => ({ headers: b.who.headers as Record<string, string>, address: b.address })),
    amountXrp,
    windowMs,
  );
  t.app.server.off('request', onRequest);
  if (arrived !== w.buyers.length) throw new Error(`${arrived} of ${w.buyers.length} requests arrived`);

  // Everything validated indexed, the keeper and the submission service idle, fee jobs done.
  await t.app.platform.submissions!.idle();
  await t.app.platform.indexer!.caughtUp();
  await t.app.bonding.keeper!.idle();

  const result: BurstResult = {
    token: kind,
    requests: w.buyers.length,
    answered: answers.filter((a) => a.status > 0).length,
    status5xx: answers.filter((a) => a.status >= 500).length,
    refusalsWithoutMessage: answers.filter(
      (a) => a.status >= 400 && a.status < 500 && !(typeof a.body.message === 'string' && a.body.message),
    ).length,
    refusals: {},
    ok: answers.filter((a) => a.status === 200).length,
    burstMs: Math.round(burstMs),
    answerMs: { median: 0, p99: 0, max: 0 },
    executedOnce: 0,
    problems: [],
    closesAfterLastRequest: 0,
    perLedger: {},
  };
  for (const a of answers)
    if (a.status >= 400 || a.status === 0)
      result.refusals[`${a.status} ${a.body.message ?? ''}`] =
        (result.refusals[`${a.status} ${a.body.message ?? ''}`] ?? 0) + 1;
  const times = answers.map((a) => a.ms).sort((x, y) => x - y);
  result.answerMs = {
    median: Math.round(percentile(times, 50)),
    p99: Math.round(percentile(times, 99)),
    max: Math.round(times[times.length - 1] ?? 0),
  };

  const db = t.database.db;
  const feeWallet = (await platformWallet(db, PLATFORM_ROLES.fee))!.address;
  const [curveRow] =
    kind === 'curve'
      ? await db.select().from(bondingCurves).where(eq(bondingCurves.curveAddress, token.hot_wallet_address))
      : [];
  // A trade whose fee was not in its own Batch pays it by a job (docs/trading.md): wait for those.
  const fees = await db
    .select()
    .from(jobs)
    .where(like(jobs.key, `${TRADING_FEE_JOB}:%`));
  for (const j of fees) await t.app.platform.jobs.waitFor(j.id, { timeoutMs: 300_000 });
  await t.app.platform.submissions!.idle();
  const rows = await db.select().from(tradingTrades).where(eq(tradingTrades.issuer, token.issuer_address));
  const byWallet = new Map<string, typeof rows>();
  for (const r of rows) byWallet.set(r.walletAddress, [...(byWallet.get(r.walletAddress) ?? []), r]);
  let lastLedger = lastRequestLedger;
  const tradeLedgers = new Map<string, number>();
  await inBatches(w.buyers, 50, async (b, i) => {
    const mine = byWallet.get(b.address) ?? [];
    const problem = (what: string) => result.problems.push(`buyer ${i} (${b.address}): ${what}`);
    if (mine.length !== 1) return problem(`${mine.length} trade rows`);
    const row = mine[0]!;
    if (answers[i]!.status === 200 && answers[i]!.body.hash !== row.hash)
      return problem(`answered ${answers[i]!.body.hash}, recorded ${row.hash}`);
    const balance = await tokenBalance(client, b.address, token.issuer_address, token.currency);
    // The row keeps 15 significant digits, the ledger 16: equal within that last digit (a second
    // execution would double it).
    const held = new Decimal(balance);
    if (held.minus(row.received).abs().gt(held.abs().mul('1e-14')))
      return problem(`holds ${balance} tokens, its one trade received ${row.received}`);
    const tx = await client.request({ command: 'tx', transaction: row.hash });
    if (!tx.result.validated) return problem('trade not validated');
    const index = Number(tx.result.ledger_index);
    lastLedger = Math.max(lastLedger, index);
    tradeLedgers.set(row.hash, index);
    result.perLedger[index] = (result.perLedger[index] ?? 0) + 1;
    const spentDrops = BigInt(new Decimal(row.spent).mul(1_000_000).toFixed(0));
    if (kind === 'amm') {
      // 0.75% of the executed notional, rounded down to the drop, paid to the fee wallet (in the
      // trade's own Batch, or by the fee job).
      const fee = (spentDrops * FEE_PPM) / 1_000_000n;
      const recorded = BigInt(new Decimal(row.fee).mul(1_000_000).toFixed(0));
      if (recorded !== fee) return problem(`fee ${recorded} drops recorded, ${fee} by the rule`);
      if (row.feeStatus !== 'paid' || !row.feeHash) return problem(`fee ${row.feeStatus}`);
      const paid = await client.request({ command: 'tx', transaction: row.feeHash });
      const p = paid.result as unknown as { tx_json?: Payment; Destination?: string; Amount?: string };
      const payment = (p.tx_json ?? p) as Payment;
      const meta = paid.result.meta as { TransactionResult: string; delivered_amount?: unknown };
      if (
        meta.TransactionResult !== 'tesSUCCESS' ||
        payment.Destination !== feeWallet ||
        meta.delivered_amount !== String(fee)
      )
        return problem(`fee payment ${row.feeHash} is not ${fee} drops to the fee wallet`);
    } else {
      // On a curve the fee is inside the ladder's prices: no second fee; the crossing's record holds
      // it, quote·f/(1+f) within a micro per chunk crossed (each chunk's fee is rounded down).
      if (row.fee !== '0' || row.feeStatus !== 'none') return problem(`a second fee ${row.fee}`);
      const crossings = await db
        .select()
        .from(bondingTrades)
        .where(and(eq(bondingTrades.curveId, curveRow!.id), eq(bondingTrades.hash, row.hash)));
      if (crossings.length !== 1) return problem(`${crossings.length} crossing records`);
      const c = crossings[0]!;
      const quote = BigInt(c.quote);
      if (quote !== spentDrops) return problem(`the curve took ${quote}, the trade spent ${spentDrops}`);
      const byRule = (quote * FEE_PPM) / (1_000_000n + FEE_PPM);
      const diff = BigInt(c.fee) - byRule;
      if (diff < -20n || diff > 20n) return problem(`curve fee ${c.fee}, ${byRule} by the rule`);
    }
    result.executedOnce++;
  });
  result.closesAfterLastRequest = lastLedger - lastRequestLedger;
  result.sockets = await clients.finish(tradeLedgers);
  return result;
}

/**
 * The benches' database as `npm start` opens it (main.ts: PGlite in DATA_DIR/db): its pages and WAL
 * in files, which the OS page cache keeps, not in the process. The tests' PGlite is in memory — its
 * whole data directory and WAL in ArrayBuffers (75 MB at 300 users), and the migrated template's
 * unpacked tar beside them until a major collection (~90 MB) — so with it the server's RSS row
 * counted memory a deployed server does not hold. `HOT_DB=memory`: the tests' (for comparison).
 */
export async function hotLaunchDatabase(): Promise<{ database?: Database; close(): Promise<void> }> {
  if (process.env.HOT_DB === 'memory') return { close: async () => {} };
  // The production path (the bench's PostgreSQL pass): a fresh schema on TEST_DATABASE_URL.
  if (process.env.TEST_DATABASE_URL) {
    const database = await createTestDatabase();
    return { database, close: () => database.close() };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'ledgerpad-hot-db-'));
  const database = await openDatabase({ dataDir: path.join(dir, 'db') });
  return {
    database,
    close: async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export { FEE_PPM };
