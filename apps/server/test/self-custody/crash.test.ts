import { like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { Wallet, type Client } from 'xrpl';
import { SELF_CUSTODY_MESSAGES, type SigningIntent } from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { json, signInOverHttp, useCrashRig } from '../helpers/child-server';
import { sleep } from '../helpers/wait';

// kill -9 of the real server (embedded PGlite and embedded ledger in one process) around a
// self-custody transfer: between "intent returned" and "blob received", and right after the blob
// was recorded. Nothing is left half-done: the intent completes exactly once, or it expires.

describe('self-custody intents across kill -9', () => {
  // Closes every 250 ms, so an intent's 60-ledger window passes in about 15 s.
  const rig = useCrashRig('self-custody', { LEDGER_CLOSE_INTERVAL_MS: '250' });

  it('completes once or expires, whatever the kill interrupted', async () => {
    let server = await rig.start();
    const headers = await signInOverHttp(server.base, 'keeper');
    const post = (url: string, body: object, extra: Record<string, string> = {}) =>
      fetch(`${server.base}${url}`, {
        method: 'POST',
        headers: { ...headers, ...extra },
        body: JSON.stringify(body),
      });
    const get = (url: string) => fetch(`${server.base}${url}`, { headers });

    // The "browser": its key never leaves this test.
    const browser = Wallet.generate();
    const ch = await json(
      await post('/api/wallets/challenge', { address: browser.classicAddress, kind: 'browser' }),
    );
    const added = await json(
      await post('/api/wallets/self-custody', {
        challengeId: ch.challengeId,
        signedTx: browser.sign(ch.tx as never).tx_blob,
      }),
    );
    expect(added.kind).toBe('browser');
    expect((await post(`/api/wallets/${added.id}/fund`, {})).status).toBe(200);
    const to = await json(await post('/api/wallets', {}));
    expect((await post(`/api/wallets/${to.id}/fund`, {})).status).toBe(200);

    const balance = (c: Client, address: string) =>
      c
        .request({ command: 'account_info', account: address, ledger_index: 'validated' })
        .then((r) => BigInt(r.result.account_data.Balance));
    const prepare = async (amount: string, key: string): Promise<SigningIntent> => {
      const res = await post(
        '/api/wallets/transfer',
        { walletId: added.id, recipient: to.wallet_address, amount },
        { 'idempotency-key': key },
      );
      expect(res.status).toBe(200);
      return ((await json(res)) as { intent: SigningIntent }).intent;
    };
    const sign = (intent: SigningIntent) => intent.txs.map((tx) => browser.sign(tx as never).tx_blob);
    const submit = (intent: SigningIntent, blobs: string[]) =>
      post(`/api/intents/${intent.id}/submit`, { blobs });
    const toBefore = await rig.withLedger((c) => balance(c, String(to.wallet_address)));

    // 1. kill -9 between "intent returned" and "blob received": after the restart the same
    //    request (same Idempotency-Key) answers the same intent, and its blob is submitted once.
    const a = await prepare('3', 'sc-crash-a');
    const aBlobs = sign(a);
    await rig.kill();
    server = await rig.start();
    expect((await prepare('3', 'sc-crash-a')).id).toBe(a.id);
    const aDone = await submit(a, aBlobs);
    expect(aDone.status).toBe(200);
    const aHash = (await json(aDone)).hash;
    const aAgain = await json(await submit(a, aBlobs));
    expect(aAgain.hash).toBe(aHash);

    // 2. kill -9 right after the blob was recorded (status 'submitted'), before its answer: the
    //    restart follows the recorded blob to the ledger and finishes the intent, once.
    const b = await prepare('4', 'sc-crash-b');
    const bBlobs = sign(b);
    const answered = submit(b, bBlobs).then(
      (r) => r.status,
      () => 'dropped' as const,
    );
    for (;;) {
      const s = await json(await get(`/api/intents/${b.id}`));
      if (s.status !== 'prepared') break;
      await sleep(10);
    }
    await rig.kill();
    const bFirst = await answered;
    server = await rig.start();
    // Posted again (the page retries after the network error): the first record's outcome, once.
    const bDone = await submit(b, bBlobs);
    expect(bDone.status, `first answer: ${bFirst}`).toBe(200);
    const bHash = (await json(bDone)).hash;

    // 3. kill -9 with an intent signed but never posted; the ledger moves past its window: it
    //    expires, and its blob can no longer be submitted.
    const c = await prepare('5', 'sc-crash-c');
    const cBlobs = sign(c);
    await rig.kill();
    server = await rig.start();
    await rig.withLedger(async (client) => {
      for (;;) {
        const v = (await client.request({ command: 'ledger', ledger_index: 'validated' })).result
          .ledger_index;
        if (Number(v) >= c.lastLedgerSequence) return;
        await sleep(250);
      }
    });
    const cLate = await submit(c, cBlobs);
    expect(cLate.status).toBe(400);
    expect((await json(cLate)).message).toBe(SELF_CUSTODY_MESSAGES.expired);

    // The ledger: exactly 3 + 4 XRP arrived; each intent has exactly one record (c none).
    expect(await rig.withLedger((client) => balance(client, String(to.wallet_address)))).toBe(
      toBefore + 7_000_000n,
    );
    await rig.stop();
    const db = await rig.openDatabase();
    try {
      const rows = await db.db
        .select()
        .from(ledgerSubmissions)
        .where(like(ledgerSubmissions.intentKey, 'transfer:%'));
      const byKey = rows.map((r) => [r.intentKey.replace(/^transfer:\d+:/, ''), r.status, r.hash]);
      expect(byKey.sort()).toEqual(
        [
          ['sc-crash-a:step-0', 'success', aHash],
          ['sc-crash-b:step-0', 'success', bHash],
        ].sort(),
      );
    } finally {
      await db.close();
    }
  }, 600_000);
});
