import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { startStandaloneLedger, type StandaloneLedger } from 'xrpl-standalone';
import { STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import { generateMasterKey, Keyring } from '../../src/keys/envelope';
import { createXrplConnection, reconnectDelay } from '../../src/ledger/connection';
import { SubmissionService } from '../../src/ledger/submission-service';
import { createSignerSource, insertWallet } from '../../src/platform/custody';
import { createTestDatabase } from '../db';
import { until } from '../helpers/wait';

describe('reconnect backoff', () => {
  it('waits 1 s × 2^attempt, capped at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 40].map((a) => reconnectDelay(a))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });
});

describe('ledger server restarted on the same port during transfers', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ledgerpad-conn-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reconnects on its own, follows the new socket, and every transfer lands exactly once', async () => {
    let ledger: StandaloneLedger = await startStandaloneLedger({
      port: 0,
      closeIntervalMs: 200,
      dataDir: dir,
    });
    const port = ledger.port;
    const database = await createTestDatabase();
    // A short base delay keeps the test quick; the schedule itself is checked above.
    const connection = createXrplConnection('standalone', ledger.url, { baseDelayMs: 100 });
    await connection.connect();
    let reconnects = 0;
    connection.onConnected(() => reconnects++);
    const keyring = new Keyring(generateMasterKey());
    const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);
    await insertWallet(database.db, keyring, { userId: null, role: 'genesis', wallet: genesis });
    const service = new SubmissionService({
      database,
      connection,
      signers: createSignerSource(database.db, keyring),
    });
    await service.start();
    const dest = Wallet.generate();
    const pay = (i: number) =>
      service.submit({
        intentKey: `restart-${i}`,
        account: genesis.classicAddress,
        tx: { TransactionType: 'Payment', Destination: dest.classicAddress, Amount: String(10_000_000 + i) },
        purpose: 'test',
      });
    try {
      expect((await pay(0)).status).toBe('success');
      // Sent, then the ledger goes down before closing them: its open ledger is lost with it.
      const inFlight = Promise.all(Array.from({ length: 10 }, (_, i) => pay(i + 1)));
      await until(() => service.openCount === 10);
      await ledger.close();
      await until(() => !connection.isConnected());
      ledger = await startStandaloneLedger({ port, closeIntervalMs: 200, dataDir: dir });
      await until(() => connection.isConnected(), 10_000);
      const outs = await inFlight;
      expect(reconnects).toBeGreaterThanOrEqual(1);
      expect(outs.every((o) => o.status === 'success')).toBe(true);
      const info = await connection.client.request({
        command: 'account_info',
        account: dest.classicAddress,
        ledger_index: 'validated',
      });
      // 11 payments of 10 XRP + i drops, each exactly once.
      expect(info.result.account_data.Balance).toBe(
        String(11 * 10_000_000 + (0 + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10)),
      );
      // The ledger stream is followed on the new socket: a transfer made afterwards validates too.
      expect((await pay(11)).status).toBe('success');
    } finally {
      await service.stop();
      await connection.close();
      await ledger.close();
      await database.close();
    }
  });
});

describe('requests that name an account', () => {
  it('send a classic address as it is, still turn an X-address into its classic one, and answer alike', async () => {
    const ledger = await startStandaloneLedger({ port: 0, closeIntervalMs: 200 });
    const connection = createXrplConnection('standalone', ledger.url);
    await connection.connect();
    try {
      const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);
      const sent: Array<Record<string, unknown>> = [];
      const socket = connection.client.connection;
      const forward = socket.request.bind(socket);
      socket.request = ((req: Record<string, unknown>) => {
        sent.push(req);
        return forward(req as never);
      }) as typeof socket.request;
      const byClassic = await connection.client.request({
        command: 'account_info',
        account: genesis.classicAddress,
      });
      const byX = await connection.client.request({
        command: 'account_info',
        account: genesis.getXAddress(undefined, true),
      });
      expect(byClassic.result.account_data.Account).toBe(genesis.classicAddress);
      expect(byX.result.account_data.Account).toBe(genesis.classicAddress);
      expect(sent.map((r) => [r.account, r.api_version])).toEqual([
        [genesis.classicAddress, connection.client.apiVersion],
        [genesis.classicAddress, connection.client.apiVersion],
      ]);
      // A refusal is the ledger's error, as before.
      await expect(
        connection.client.request({ command: 'account_info', account: Wallet.generate().classicAddress }),
      ).rejects.toThrow(/Account not found/);
    } finally {
      await connection.close();
      await ledger.close();
    }
  });
});
