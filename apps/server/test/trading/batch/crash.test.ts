import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { Client } from 'xrpl';
import { RLUSD_CURRENCY_HEX } from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../../src/ledger/schema';
import { tradingTrades } from '../../../src/modules/trading/schema';
import { jobs } from '../../../src/platform/jobs';
import { json, useCrashRig } from '../../helpers/child-server';
import {
  accountHistory,
  buyRlusd,
  fundedTraders,
  rlusdMarket,
  type AccountTx,
} from '../../helpers/crash-trading';
import { ledgersPass } from '../../helpers/submit-and-wait';

// kill -9 of the real server (embedded PGlite and persistent ledger in one process, as `npm start`)
// while custodial swaps — each its trade and its platform fee in ONE all-or-nothing Batch (issue 36)
// — are being signed, submitted and followed; then a restart and every request retried with its
// Idempotency-Key. Each Batch is recorded once (one signed outer transaction per intent, every
// Batch on the ledger one of ours), settled once (its record and its inner transactions final, one
// trade row per filled trade, its fee paid by the fee payment of its own Batch, no fee job), and
// nothing is charged twice.

const USERS = 8;
const PER_USER = 3;
const SWAPS = USERS * PER_USER;

describe('a Batch swap survives kill -9', () => {
  const rig = useCrashRig('batch-crash', {
    PLATFORM_BOOTSTRAP: 'on',
    DEMO_SEED: 'off',
    TRADE_FEE_BATCH: 'on',
    JOB_LEASE_MS: '3000',
  });

  it('recorded once, settled once: every filled trade paid its fee exactly once, in its own Batch', async () => {
    let server = await rig.start();
    const traders = await fundedTraders(server.base, 'batch_crash', USERS);
    const rlusd = await rlusdMarket(server.base, traders[0]!);
    const swap = (base: string, u: number, k: number) =>
      buyRlusd(
        base,
        traders[u]!,
        rlusd,
        // Distinct amounts, so every swap is told apart on the ledger.
        new Decimal(1).plus(new Decimal(u * PER_USER + k + 1).div(1e6)).toFixed(),
        `batch-crash-${u}-${k}`,
      );
    // The RLUSD trust lines first for the even traders: then every swap is one Batch, and the kill
    // meets several in flight. The odd traders have none: their first swap's Batch opens the line
    // (issue 40, docs/batch-in-the-app.md "A new holder's buy in one ledger"), the line once.
    const newHolder = (u: number) => u % 2 === 1;
    for (const [u, { address, post }] of traders.entries()) {
      if (newHolder(u)) continue;
      const line = await post('/api/add-trustline', {
        wallet: address,
        issuer: rlusd,
        token: RLUSD_CURRENCY_HEX,
      });
      expect(line.status, await line.text()).toBe(200);
    }
    // The kill must meet a Batch between its record and its answer. Recorded before submitted: a
    // Batch the ledger's proposed stream shows is recorded, and its answer waits for the next close
    // (1 s away) and the follower. So: kill at the next proposed Batch once a first swap is answered
    // (or at the fifth, if they are all submitted before any answer) — a fixed trigger, not a race
    // with the machine's load.
    const watcher = new Client(server.ledgerUrl);
    await watcher.connect();
    await watcher.request({ command: 'subscribe', streams: ['transactions_proposed'] });
    let answered = false;
    let proposed = 0;
    let killNow!: () => void;
    const trigger = new Promise<void>((resolve) => (killNow = resolve));
    watcher.on('transaction', (t) => {
      const tx = (t as unknown as { tx_json?: { TransactionType?: string } }).tx_json;
      if (tx?.TransactionType === 'Batch' && (answered || ++proposed >= 5)) killNow();
    });
    const inFlight = Array.from({ length: SWAPS }, (_, i) =>
      swap(server.base, Math.floor(i / PER_USER), i % PER_USER).then(
        async (r) => {
          answered = true;
          return { status: r.status, body: await r.text() };
        },
        () => ({ status: 0, body: 'dropped' }),
      ),
    );
    await Promise.race([trigger, new Promise((r) => setTimeout(r, 120_000))]);
    await rig.kill();
    await watcher.disconnect().catch(() => undefined);
    const killedAt = new Date();
    const first = await Promise.all(inFlight);
    const answeredOk = first.filter((r) => r.status === 200).length;
    expect(answeredOk).toBeLessThan(SWAPS); // the kill really interrupted them

    // Restart, and every request retried with its Idempotency-Key (as a client whose connection
    // dropped does): a recorded Batch is followed, not signed again.
    server = await rig.start();
    const retried = await Promise.all(
      Array.from({ length: SWAPS }, async (_, i) => {
        const r = await swap(server.base, Math.floor(i / PER_USER), i % PER_USER);
        return { status: r.status, body: (await json(r)) as { hash?: string; message?: string } };
      }),
    );
    // A swap answered before the kill answers the same trade now.
    first.forEach((r, i) => {
      if (r.status === 200) expect(retried[i]!.body.hash).toBe((JSON.parse(r.body) as { hash: string }).hash);
    });
    const onLedger = new Map<string, AccountTx[]>();
    await rig.withLedger(async (client) => {
      // A few closes more: a Batch signed twice would show now.
      await ledgersPass(client, 3);
      for (const { address } of traders) onLedger.set(address, await accountHistory(client, address));
    });
    await rig.stop();

    const database = await rig.openDatabase();
    try {
      const subs = await database.db.select().from(ledgerSubmissions);
      const trades = await database.db.select().from(tradingTrades);
      const feeJobs = (await database.db.select().from(jobs)).filter((j) => j.type === 'trading-fee');
      expect(feeJobs).toEqual([]);
      // Every record final, once: the outer Batch and its two inner transactions.
      const batches = subs.filter((s) => s.txType === 'Batch');
      expect(subs.every((s) => s.status === 'success' || s.status === 'failed')).toBe(true);
      expect(subs.every((s) => s.finalizedAt !== null)).toBe(true);
      // One signed Batch per swap intent (none signed twice: no '#resign' either).
      expect(batches).toHaveLength(SWAPS);
      expect(new Set(batches.map((b) => b.intentKey)).size).toBe(SWAPS);
      // The kill hit Batches between their record and their answer: recorded before it, unanswered.
      const unanswered = new Set(
        first.flatMap((r, i) =>
          r.status === 200 ? [] : [`batch-crash-${Math.floor(i / PER_USER)}-${i % PER_USER}`],
        ),
      );
      const cut = batches.filter(
        (b) => b.createdAt < killedAt && unanswered.has(b.intentKey.split(':')[2] ?? ''),
      );
      expect(cut.length).toBeGreaterThan(0);
      let filled = 0;
      for (const [u, { address }] of traders.entries()) {
        const txs = onLedger.get(address)!;
        const mineBatches = batches.filter((b) => b.account === address);
        if (newHolder(u)) {
          // Its line opened once, by the inner TrustSet of one of its own Batches.
          const lines = txs.filter(
            (t) => t.tx_json?.TransactionType === 'TrustSet' && t.meta?.TransactionResult === 'tesSUCCESS',
          );
          expect(lines, `the trust lines of ${address}`).toHaveLength(1);
          expect(mineBatches.map((b) => b.hash)).toContain(lines[0]!.meta!.ParentBatchID);
        }
        const outers = txs.filter((t) => t.tx_json?.TransactionType === 'Batch');
        // Every Batch of the account on the ledger is one of ours, once.
        expect(outers.map((t) => t.hash).sort()).toEqual(
          mineBatches
            .filter((b) => b.status === 'success')
            .map((b) => b.hash)
            .sort(),
        );
        const payments = txs.filter(
          (t) =>
            t.tx_json?.TransactionType === 'Payment' &&
            t.tx_json.Account === address &&
            t.meta?.TransactionResult === 'tesSUCCESS',
        );
        const trade = payments.filter((t) => t.tx_json!.Destination === address);
        const fees = payments.filter((t) => t.tx_json!.Destination !== address);
        // Each filled trade in a Batch of ours, with exactly one fee payment of that same Batch.
        expect(fees).toHaveLength(trade.length);
        filled += trade.length;
        const mine = trades.filter((t) => t.walletAddress === address);
        expect(mine.map((t) => t.hash).sort()).toEqual(trade.map((t) => t.hash).sort());
        for (const t of mine) {
          const tradeTx = trade.find((x) => x.hash === t.hash)!;
          const feeTx = fees.find((f) => f.hash === t.feeHash);
          expect(t.feeStatus).toBe('paid');
          expect(feeTx, `fee of ${t.hash}`).toBeDefined();
          expect(feeTx!.meta!.ParentBatchID).toBe(tradeTx.meta!.ParentBatchID);
          expect(mineBatches.map((b) => b.hash)).toContain(tradeTx.meta!.ParentBatchID);
          // 0.75% of the XRP spent, in whole drops — the amount the fee payment carried.
          expect(t.fee).toBe(new Decimal(t.spent).mul('0.0075').mul(1e6).floor().div(1e6).toFixed());
          const { Amount, DeliverMax } = feeTx!.tx_json!;
          expect(DeliverMax ?? Amount).toBe(new Decimal(t.fee).mul(1e6).toFixed(0));
        }
      }
      expect(trades).toHaveLength(filled);
      expect(retried.filter((r) => r.status === 200)).toHaveLength(filled);
      process.stdout.write(
        `batch crash test: ${answeredOk}/${SWAPS} answered before kill -9, ${cut.length} Batches recorded ` +
          `but unanswered at the kill; after restart and retries ` +
          `${filled} filled, each one Batch recorded and settled once with its fee inside\n`,
      );
    } finally {
      await database.close();
    }
  }, 420_000);
});
