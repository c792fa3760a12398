import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import type { Client } from 'xrpl';
import { RLUSD_CURRENCY_HEX } from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { airdropClaims, airdrops } from '../../src/modules/airdrops/schema';
import {
  jobEndedOverHttp,
  json,
  rlusdIssuerOverHttp,
  signInOverHttp,
  useCrashRig,
} from '../helpers/child-server';
import { sleep, until } from '../helpers/wait';

// kill -9 of the real server while an airdrop is being created, and again while 200 claims on an
// allocation covering 150 are being paid, then restarts: the allocation moves into the airdrop
// wallet exactly once, every reserved claim is paid exactly once (or released), never twice, never
// more than the 150, and the airdrop wallet keeps exactly what was not paid. Each claim carries an
// Idempotency-Key, and after the restart every claimer retries with it (issue 34): a claim that was
// paid answers paid with its hash — never 'This airdrop has been fully claimed.' — and a retry never
// makes a second claim.

type AccountTx = {
  tx_json?: { TransactionType: string; Account: string; Destination?: string };
  meta?: { TransactionResult: string; delivered_amount?: unknown };
  hash?: string;
};

async function history(client: Client, account: string): Promise<AccountTx[]> {
  const r = await client.request({ command: 'account_tx', account, limit: 400 });
  return r.result.transactions as unknown as AccountTx[];
}

/** Ledgers a signed transaction may take to validate (the submission service's default window). */
const SUBMISSION_WINDOW = 20;
const CLAIMERS = 200;
// RLUSD: 150.5 allocations of 0.01, so 150 claims can be paid and 0.005 is left for nobody.
const FIXED = '0.01';
const TOTAL = '1.505';

describe('airdrop crash safety', () => {
  const rig = useCrashRig('airdrop-crash', {
    PLATFORM_BOOTSTRAP: 'on',
    DEMO_SEED: 'off',
    // No expiry sweep: once all 150 are paid it would end the airdrop and return the 0.005 left to
    // the creator — a payment from the airdrop wallet that is no claim (docs/airdrops.md).
    AIRDROP_SWEEP_MS: '0',
    // The creation job the first kill interrupts is taken up once its lease runs out: 3 s, not 15.
    JOB_LEASE_MS: '3000',
  });

  it('kill -9 during creation and during claims: tokens move once, each claim is paid at most once', async () => {
    let server = await rig.start();
    const rlusd = await rlusdIssuerOverHttp(server.base);

    const person = async (name: string) => {
      const headers = await signInOverHttp(server.base, name);
      const wallet = await json(
        await fetch(`${server.base}/api/wallets`, { method: 'POST', headers, body: '{}' }),
      );
      const funded = await fetch(`${server.base}/api/wallets/${wallet.id}/fund`, {
        method: 'POST',
        headers,
        body: '{}',
      });
      expect(funded.status, await funded.text()).toBe(200);
      return { name, headers, id: Number(wallet.id), address: String(wallet.wallet_address) };
    };
    const creator = await person('crash_airdrop_creator');
    // The creator holds RLUSD (bought from the bootstrap's XRP/RLUSD pool once it exists).
    await until(
      'RLUSD bought from the bootstrap pool',
      async () => {
        const r = await fetch(`${server.base}/api/swap`, {
          method: 'POST',
          headers: creator.headers,
          body: JSON.stringify({
            walletAddress: creator.address,
            issuer: rlusd,
            token: RLUSD_CURRENCY_HEX,
            amount: '5',
            type: 'BUY',
            slippage: '50',
            baseAsset: 'XRP',
          }),
        });
        return r.ok;
      },
      { timeoutMs: 30_000, everyMs: 200 },
    );
    const claimers: Array<Awaited<ReturnType<typeof person>>> = [];
    for (let i = 0; i < CLAIMERS; i += 25)
      claimers.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(25, CLAIMERS - i) }, (_, k) => person(`crash_airdrop_${i + k}`)),
        )),
      );

    // 1. Create, and kill -9 while the job is moving the tokens.
    const created = await fetch(`${server.base}/api/airdrops`, {
      method: 'POST',
      headers: creator.headers,
      body: JSON.stringify({
        sourceWalletId: creator.id,
        tokenCode: RLUSD_CURRENCY_HEX,
        issuerAddress: rlusd,
        projectName: 'Crash Drop',
        perUserType: 'fixed',
        totalTokenAmount: TOTAL,
        fixedAmount: FIXED,
        deadline: new Date(Date.now() + 3600_000).toISOString(),
        trustlineMode: 'auto',
      }),
    });
    expect(created.status, await created.clone().text()).toBe(202);
    const { id: airdropId, jobId } = (await created.json()) as { id: number; jobId: string };
    await sleep(1_500);
    await rig.kill();

    server = await rig.start();
    const creation = await jobEndedOverHttp(server.base, jobId, creator.headers);
    expect(creation.status, JSON.stringify(creation)).toBe('completed');

    const claim = (base: string, c: (typeof claimers)[number]) =>
      fetch(`${base}/api/airdrops/${airdropId}/claim`, {
        method: 'POST',
        headers: { ...c.headers, 'idempotency-key': `crash-claim-${c.name}` },
        body: JSON.stringify({ destinationWalletId: c.id }),
      });

    // 2. 200 claims at once on 150 allocations; kill -9 while they are being paid: once the first
    // payout from the airdrop wallet is validated (the others signed, in flight or not yet
    // signed). A fixed delay killed before any payout on a loaded machine; a minute without one
    // kills anyway.
    const claims = await rig.withLedger(async (client) => {
      const payer = (await history(client, creator.address)).find(
        (t) =>
          t.tx_json?.TransactionType === 'Payment' &&
          t.tx_json.Account === creator.address &&
          t.tx_json.Destination !== creator.address &&
          t.meta?.TransactionResult === 'tesSUCCESS' &&
          typeof t.meta.delivered_amount === 'object',
      )?.tx_json?.Destination;
      expect(payer, 'the allocation moved to the airdrop wallet').toBeTruthy();
      const firstPayout = new Promise<void>((resolve) => {
        client.on('transaction', (ev) => {
          const tx = (ev as unknown as { tx_json?: { Account?: string; TransactionType?: string } }).tx_json;
          if (ev.validated && tx?.Account === payer && tx?.TransactionType === 'Payment') resolve();
        });
      });
      await client.request({ command: 'subscribe', accounts: [payer!] });
      const sent = claimers.map((c) =>
        claim(server.base, c).then(
          (r) => r.status,
          () => 'dropped' as const,
        ),
      );
      await Promise.race([firstPayout, sleep(60_000)]);
      await rig.kill();
      return sent;
    });
    await Promise.all(claims);

    server = await rig.start();
    // Every claimer retries with its key, as a client whose request was cut does. "Still being
    // processed" (502: the killed instance's payout leases run out first) is asked again. An answer
    // comes once the claim is settled, so afterwards nothing reserved is still unpaid.
    const retried = await Promise.all(
      claimers.map(async (c) => {
        for (;;) {
          const r = await claim(server.base, c);
          const body = (await r.json()) as { amount?: string; hash?: string; message?: string };
          if (r.status !== 502) return { address: c.address, status: r.status, body };
        }
      }),
    );
    const received = new Map<string, number>();
    let airdropWallet = '';
    let deposits: AccountTx[] = [];
    await rig.withLedger(async (client) => {
      deposits = (await history(client, creator.address)).filter(
        (t) =>
          t.tx_json?.TransactionType === 'Payment' &&
          t.tx_json.Account === creator.address &&
          t.tx_json.Destination !== creator.address &&
          t.meta?.TransactionResult === 'tesSUCCESS' &&
          typeof t.meta.delivered_amount === 'object',
      );
      airdropWallet = deposits[0]?.tx_json?.Destination ?? '';
      const payouts = async () =>
        (await history(client, airdropWallet)).filter(
          (t) =>
            t.tx_json?.TransactionType === 'Payment' &&
            t.tx_json.Account === airdropWallet &&
            t.meta?.TransactionResult === 'tesSUCCESS',
        );
      // Until every reserved claim is settled: the claims the airdrop counts (pending or paid) are
      // all on the ledger. The killed instance's claim leases (JOB_LEASE_MS, 3 s here) expire first.
      await until(
        'every counted claim on the ledger',
        async () => {
          const list = (await json(await fetch(`${server.base}/api/airdrops`))) as unknown as Array<{
            id: number;
            claimed_count: number;
          }>;
          const counted = list.find((a) => a.id === airdropId)?.claimed_count ?? -1;
          return (await payouts()).length === counted;
        },
        { timeoutMs: 120_000, everyMs: 500 },
      );
      // Payments signed before now validate on their own, up to their LastLedgerSequence (at most
      // the submission window past the validated ledger they were signed at): once the ledger
      // after that is validated, a doubled payment would show up. Counted in ledgers, not in
      // seconds (a loaded machine closes fewer ledgers in 20 s than an idle one).
      const signedBy = (await client.request({ command: 'ledger', ledger_index: 'validated' })).result
        .ledger_index;
      await new Promise<void>((resolve) => {
        const onClose = (ev: { ledger_index: number }) => {
          if (ev.ledger_index <= signedBy + SUBMISSION_WINDOW) return;
          client.off('ledgerClosed', onClose);
          resolve();
        };
        client.on('ledgerClosed', onClose);
        void client.request({ command: 'subscribe', streams: ['ledger'] });
      });
      for (const t of await payouts()) {
        const to = t.tx_json!.Destination!;
        received.set(to, (received.get(to) ?? 0) + 1);
      }
    });
    const onLedger = await rig.withLedger(async (client) => {
      const r = await client.request({
        command: 'account_lines',
        account: airdropWallet,
        peer: rlusd!,
        ledger_index: 'validated',
      });
      return new Decimal(r.result.lines.find((l) => l.currency === RLUSD_CURRENCY_HEX)?.balance ?? '0');
    });
    await rig.stop();

    // The allocation moved once, exactly.
    expect(deposits).toHaveLength(1);
    expect((deposits[0]!.meta!.delivered_amount as { value: string }).value).toBe(TOTAL);

    const database = await rig.openDatabase();
    try {
      const [row] = await database.db.select().from(airdrops);
      expect(row!.airdropAddress).toBe(airdropWallet);
      const rows = await database.db.select().from(airdropClaims);
      const paid = rows.filter((r) => r.status === 'paid');
      // None lost: every claim ended paid or released.
      expect(
        rows.every((r) => r.status === 'paid' || r.status === 'failed'),
        JSON.stringify(rows.filter((r) => r.status === 'pending').map((r) => [r.id, r.hash])),
      ).toBe(true);
      // None paid twice: one payment on the ledger per paid claim, none for the others.
      expect([...received.values()].every((n) => n === 1)).toBe(true);
      const paidTo = new Set(paid.map((r) => r.walletAddress));
      const unexpected = [...received.keys()].filter((a) => !paidTo.has(a));
      // Where a payment landed for a claim not recorded paid: its claim row and every record signed
      // for it, so a failure says which path settled it wrongly.
      const story = unexpected.length
        ? JSON.stringify({
            claims: rows.filter((r) => unexpected.includes(r.walletAddress)),
            records: (await database.db.select().from(ledgerSubmissions)).filter((s) =>
              rows.some(
                (r) =>
                  unexpected.includes(r.walletAddress) &&
                  (s.intentKey.includes(`:claim-${r.id}:`) || s.hash === r.hash),
              ),
            ),
          })
        : '';
      expect(unexpected, story).toEqual([]);
      expect(new Set(received.keys())).toEqual(paidTo);
      expect(paid.length).toBeLessThanOrEqual(150);
      expect(paid.every((r) => new Decimal(r.amount).eq(FIXED))).toBe(true);
      expect(row!.claimedCount).toBe(paid.length);
      // The retries told the truth: each paid claim answered paid with its own hash (the finding:
      // a paid claim's retry answered 400 'This airdrop has been fully claimed.'), one claim per
      // claimer however often it was sent, and a refusal only where nothing was paid.
      const byAddress = new Map(rows.map((r) => [r.walletAddress, r]));
      expect(rows.length).toBe(new Set(rows.map((r) => r.userId)).size);
      const wrong = retried.filter((a) => {
        const mine = byAddress.get(a.address);
        if (mine?.status === 'paid')
          return !(a.status === 200 && a.body.hash === mine.hash && a.body.amount === FIXED);
        return a.status === 200;
      });
      expect(wrong, JSON.stringify(wrong.slice(0, 5))).toEqual([]);
      const answeredPaid = retried.filter((a) => a.status === 200).length;
      expect(answeredPaid).toBe(paid.length);
      const unpaid = new Decimal(TOTAL).minus(new Decimal(FIXED).mul(paid.length));
      expect(new Decimal(row!.remaining).eq(unpaid)).toBe(true);
      // The airdrop wallet's ledger balance is exactly the allocation not paid.
      expect(onLedger.eq(unpaid)).toBe(true);
      process.stdout.write(
        `airdrop crash test: ${paid.length}/${CLAIMERS} claims paid once each (150 allocations) after two kill -9; ` +
          `${answeredPaid} retries answered paid with their hash, ${retried.length - answeredPaid} refused (none paid)\n`,
      );
    } finally {
      await database.close();
    }
  }, 600_000);
});
