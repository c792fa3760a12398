import { describe, expect, it } from 'vitest';
import { Client } from 'xrpl';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { json, signInOverHttp, useCrashRig } from '../helpers/child-server';

// kill -9 of the real server (`node --import tsx src/main.ts`, embedded PGlite and embedded
// persistent ledger in one process) while 50 transfers are in flight. The ledger dies with it, so
// whatever sat in its open ledger is gone: only the recorded, signed blobs can bring it back.

const TRANSFERS = 50;

describe('crash safety', () => {
  const rig = useCrashRig('crash');

  it('kill -9 during 50 transfers: after restart every transfer is on the ledger exactly once and every record is final', async () => {
    let server = await rig.start();
    const headers = await signInOverHttp(server.base, 'crash');
    const post = (base: string, url: string, body: object, extra: Record<string, string> = {}) =>
      fetch(`${base}${url}`, {
        method: 'POST',
        headers: { ...headers, ...extra },
        body: JSON.stringify(body),
      });

    const from = await json(await post(server.base, '/api/wallets', {}));
    const to = await json(await post(server.base, '/api/wallets', {}));
    expect((await post(server.base, `/api/wallets/${from.id}/fund`, {})).status).toBe(200);
    expect((await post(server.base, `/api/wallets/${to.id}/fund`, {})).status).toBe(200);

    // Distinct amounts (1 XRP + i drops), so a doubled transfer would show in the sum.
    const amount = (i: number) => `1.${String(i + 1).padStart(6, '0')}`;
    const expectedDrops = Array.from({ length: TRANSFERS }, (_, i) => 1_000_000n + BigInt(i + 1)).reduce(
      (a, b) => a + b,
      0n,
    );
    const transfer = (base: string, i: number) =>
      post(
        base,
        '/api/wallets/transfer',
        { walletId: from.id, recipient: to.wallet_address, amount: amount(i), token: null },
        {
          'idempotency-key': `crash-transfer-${i}`,
        },
      );

    const balance = async (c: Client, address: unknown) =>
      BigInt(
        (await c.request({ command: 'account_info', account: String(address), ledger_index: 'validated' }))
          .result.account_data.Balance,
      );
    const toBefore = await rig.withLedger((ledger) => balance(ledger, to.wallet_address));

    // Kill once the ledger has applied half the transfers to its open ledger (the proposed stream),
    // before a close can validate them all. Killing after the first *answer* stopped interrupting
    // anything once the submission service put all 50 in one ledger: that close validated and
    // answered every one before SIGKILL landed (CI, stop 53). Now whatever sits in the open ledger
    // dies with the process, and the rest are recorded, sent or not yet signed. Awaited, not
    // polled; the fallback (a minute) leaves room for a loaded machine.
    const watcher = new Client(server.ledgerUrl);
    await watcher.connect();
    await watcher.request({ command: 'subscribe', accounts_proposed: [String(from.wallet_address)] });
    let seen = 0;
    const proposed = new Promise<void>((resolve) =>
      watcher.on('transaction', (t) => {
        if (!t.validated && t.tx_json?.TransactionType === 'Payment' && ++seen === TRANSFERS / 2) resolve();
      }),
    );
    const inFlight = Array.from({ length: TRANSFERS }, (_, i) =>
      transfer(server.base, i).then(
        (r) => r.status,
        () => 'dropped',
      ),
    );
    await Promise.race([proposed, new Promise((r) => setTimeout(r, 60_000))]);
    const killedAt = Date.now();
    await rig.kill();
    await watcher.disconnect().catch(() => undefined);
    const before = await Promise.all(inFlight);
    const completed = before.filter((s) => s === 200).length;
    expect(completed).toBeLessThan(TRANSFERS); // the kill really interrupted the batch

    server = await rig.start();
    // The client retries every transfer with its Idempotency-Key: recorded ones report their
    // (resubmitted) result, the ones the crash prevented are signed now, for the first time.
    const retried = await Promise.all(Array.from({ length: TRANSFERS }, (_, i) => transfer(server.base, i)));
    const bodies = await Promise.all(retried.map((r) => json(r)));
    expect(retried.map((r) => r.status)).toEqual(Array(TRANSFERS).fill(200));
    expect(new Set(bodies.map((b) => b.hash)).size).toBe(TRANSFERS);

    await rig.withLedger(async (client) => {
      expect((await balance(client, to.wallet_address)) - toBefore).toBe(expectedDrops);
      const txs = await client.request({
        command: 'account_tx',
        account: String(from.wallet_address),
        limit: 200,
      });
      const payments = txs.result.transactions.filter((t) => {
        const tx = (t as unknown as { tx_json?: { TransactionType: string; Destination?: string } }).tx_json;
        return tx?.TransactionType === 'Payment' && tx.Destination === to.wallet_address;
      });
      expect(payments).toHaveLength(TRANSFERS);
    });

    await rig.stop();
    let resent = 0;
    let recordedBeforeKill = 0;
    const database = await rig.openDatabase();
    try {
      const rows = await database.db.select().from(ledgerSubmissions);
      const transfers = rows.filter((r) => r.purpose === 'transfer');
      expect(rows.every((r) => r.status === 'success' || r.status === 'failed')).toBe(true);
      expect(transfers.filter((r) => r.status === 'success')).toHaveLength(TRANSFERS);
      expect(new Set(transfers.map((r) => r.intentKey)).size).toBe(transfers.length);
      resent = transfers.filter((r) => r.submitCount > 1).length;
      recordedBeforeKill = transfers.filter((r) => r.createdAt.getTime() < killedAt).length;
    } finally {
      await database.close();
    }
    expect(recordedBeforeKill).toBeGreaterThan(0); // signed blobs existed when the process died
    // Seeds went to their owner once and never into the server's output.
    const log = rig.output.join('');
    expect(log).toContain('Ledgerpad is running');
    for (const w of [from, to]) expect(log).not.toContain(String(w.wallet_seed));
    process.stdout.write(
      `crash test: ${completed}/${TRANSFERS} answered before kill -9, ${recordedBeforeKill} recorded before it, ` +
        `${resent} resubmitted from their stored blob; all ${TRANSFERS} exactly once after restart\n`,
    );
  }, 300_000);
});
