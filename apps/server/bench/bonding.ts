import { pathToFileURL } from 'node:url';
import { Wallet } from 'xrpl';
import { STANDALONE_GENESIS_SEED } from '../src/platform/accounts';
import { bondingCurves } from '../src/modules/bonding/schema';
import { createWalletTestApp } from '../test/wallets/wallet-app';
import { fundedWallet } from '../test/helpers/trading-world';
import { launchCurve } from '../test/bonding/bonding-world';
import { Decimal } from '@ledgerpad/shared';

// 100 outside wallets buy on one bonding curve at once (2 XRP each, with xrpl.js: no Ledgerpad
// call), on the embedded ledger closing every second, after the anti-snipe window: how many closes
// from the burst until every buy is filled (target ≤ 3), and the keeper's delay from the close of a
// ledger with crossings to its re-posted ladder being applied (target: within the next close).

export interface BondingBenchResult {
  name: string;
  buyers: number;
  closeIntervalMs: number;
  filled: number;
  ledgerCloses: number;
  perLedger: Record<number, number>;
  keeperRounds: number;
  /** ms from a crossing ledger's close (the stream event) to the round's transactions applied. */
  keeperDelayMs: { median: number; max: number };
  /** Rounds whose transactions validated in the ledger right after the one they answered. */
  roundsInNextLedger: string;
  /** Of which the keeper's own round (read, plan, sign, submit, applied). */
  roundMs: number[];
  ok: boolean;
}

export async function benchBonding(
  opts: { buyers?: number; closeIntervalMs?: number } = {},
): Promise<BondingBenchResult> {
  const count = opts.buyers ?? 100;
  const closeIntervalMs = opts.closeIntervalMs ?? 1000;
  const t = await createWalletTestApp(
    { PLATFORM_BOOTSTRAP: 'on', RATE_LIMIT_WRITE_PER_MIN: '1000000', RATE_LIMIT_READ_PER_MIN: '1000000' },
    { closeIntervalMs },
  );
  try {
    await t.app.platform.accounts.bootstrapped();
    const client = t.connection.client;
    const owner = await t.signInOwner();
    const w = await fundedWallet(t, owner);
    const { issuer_address: issuer, currency } = await launchCurve(t, owner, w.id, {
      name: 'Bench Curve',
      ticker: 'BCURVE',
    });

    // 100 outside wallets from genesis, with their trust lines, in a few ledgers.
    const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);
    const buyers = Array.from({ length: count }, () => Wallet.generate());
    const submitAll = async (signed: Array<{ tx_blob: string; hash: string }>) => {
      for (const s of signed) await client.request({ command: 'submit', tx_blob: s.tx_blob });
      return Promise.all(signed.map((s) => validated(s.hash)));
    };
    const validated = async (hash: string) => {
      for (;;) {
        try {
          const r = await client.request({ command: 'tx', transaction: hash });
          if (r.result.validated) return r.result;
        } catch {
          // not yet in a ledger
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    let seq = (
      await client.request({
        command: 'account_info',
        account: genesis.classicAddress,
        ledger_index: 'current',
      })
    ).result.account_data.Sequence;
    const funding = [];
    for (const b of buyers) {
      const tx = await client.autofill({
        TransactionType: 'Payment',
        Account: genesis.classicAddress,
        Destination: b.classicAddress,
        Amount: '50000000',
        Sequence: seq++,
      });
      funding.push(genesis.sign(tx));
    }
    await submitAll(funding);
    await submitAll(
      await Promise.all(
        buyers.map(async (b) =>
          b.sign(
            await client.autofill({
              TransactionType: 'TrustSet',
              Account: b.classicAddress,
              LimitAmount: { currency, issuer, value: '1000000000' },
            }),
          ),
        ),
      ),
    );
    // Past the anti-snipe window: the whole curve is on the ledger.
    for (;;) {
      const [c] = await t.database.db.select().from(bondingCurves);
      const now = t.app.platform.submissions!.ledgerIndex;
      if (c?.launchLedger && now >= c.launchLedger + c.snipeLedgers) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await t.app.platform.indexer!.caughtUp();
    await t.app.bonding.keeper!.idle();
    await t.app.platform.submissions!.idle();

    // The keeper's rounds: when each was applied, against the close of the ledger it answered.
    const closedAt = new Map<number, number>();
    const onClosed = (ev: { ledger_index: number }) => closedAt.set(ev.ledger_index, performance.now());
    client.on('ledgerClosed', onClosed);
    const rounds: Array<{ answered: number; appliedAt: number; startedAt: number; hashes: string[] }> = [];
    const off = t.app.bonding.keeper!.onRound((r) =>
      rounds.push({
        answered: r.openLedger - 1,
        appliedAt: performance.now(),
        startedAt: r.startedAt,
        hashes: r.hashes,
      }),
    );

    // Every buyer pays itself tokens for exactly 2 XRP (a partial payment with SendMax 2 XRP).
    const signed = await Promise.all(
      buyers.map(async (b) =>
        b.sign(
          await client.autofill({
            TransactionType: 'Payment',
            Account: b.classicAddress,
            Destination: b.classicAddress,
            Amount: { currency, issuer, value: '1000000000' },
            SendMax: '2000000',
            Flags: 0x00020000,
          }),
        ),
      ),
    );
    const startLedger = t.app.platform.submissions!.ledgerIndex;
    const results = await submitAll(signed);
    const perLedger: Record<number, number> = {};
    let filled = 0;
    for (const r of results) {
      const meta = r.meta as { TransactionResult: string; delivered_amount?: unknown };
      // Filled = the whole 2 XRP spent on tokens (the fee aside).
      const spent = new Decimal(2);
      const ok = meta.TransactionResult === 'tesSUCCESS' && spent.gt(0);
      if (!ok) continue;
      filled++;
      perLedger[r.ledger_index!] = (perLedger[r.ledger_index!] ?? 0) + 1;
    }
    const lastBuy = Math.max(...Object.keys(perLedger).map(Number));
    // Let the keeper answer the last crossing ledger, then measure.
    await t.app.platform.indexer!.caughtUp(lastBuy);
    await t.app.bonding.keeper!.idle();
    await t.app.platform.submissions!.idle();
    off();
    client.off('ledgerClosed', onClosed);
    const answering = rounds.filter((r) => r.answered >= startLedger);
    const delays = answering
      .map((r) => r.appliedAt - (closedAt.get(r.answered) ?? r.appliedAt))
      .sort((a, b) => a - b);
    const roundMs = answering.map((r) => Math.round(r.appliedAt - r.startedAt));
    let next = 0;
    for (const r of answering) {
      const tx = await client.request({ command: 'tx', transaction: r.hashes[0]! });
      if (tx.result.ledger_index === r.answered + 1) next++;
    }
    // Every buy spent its whole 2 XRP: the buyers' balances fell by 2 XRP and the fee.
    let fullySpent = 0;
    for (const b of buyers) {
      const bal = BigInt(
        (
          await client.request({
            command: 'account_info',
            account: b.classicAddress,
            ledger_index: 'validated',
          })
        ).result.account_data.Balance,
      );
      if (bal <= 50_000_000n - 2_000_000n) fullySpent++;
    }
    const ledgerCloses = lastBuy - startLedger;
    return {
      name: 'bonding curve buys',
      buyers: count,
      closeIntervalMs,
      filled: Math.min(filled, fullySpent),
      ledgerCloses,
      perLedger,
      keeperRounds: answering.length,
      keeperDelayMs: {
        median: Math.round(delays[Math.floor(delays.length / 2)] ?? 0),
        max: Math.round(delays[delays.length - 1] ?? 0),
      },
      roundsInNextLedger: `${next}/${answering.length}`,
      roundMs,
      ok: Math.min(filled, fullySpent) === count && ledgerCloses <= 3 && next === answering.length,
    };
  } finally {
    await t.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchBonding(), null, 2));
}
