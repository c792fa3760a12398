import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotConnectedError, RippledError, Wallet } from 'xrpl';
import { startStandaloneLedger, type StandaloneLedger } from 'xrpl-standalone';
import { STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import { createXrplConnection, type XrplConnection } from '../../src/ledger/connection';
import { ledgerReader, type LedgerReader, type LocalLedgerRequest } from '../../src/ledger/local-ledger';

// The embedded ledger in this thread answers reads in-process (ledger/local-ledger.ts): the same
// answers as over its WebSocket, its errors as the same RippledError, and nothing at all while the
// connection is down (the app's "not reachable" paths stay what they were).

let ledger: StandaloneLedger;
let connection: XrplConnection;
let reader: LedgerReader;
const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);

beforeAll(async () => {
  ledger = await startStandaloneLedger({ port: 0, closeIntervalMs: 0 });
  connection = createXrplConnection('standalone', ledger.url);
  await connection.connect();
  reader = ledgerReader(connection.client, ledger.request.bind(ledger) as LocalLedgerRequest);
});

afterAll(async () => {
  await connection?.close();
  await ledger?.close();
});

describe('in-process ledger reads', () => {
  it('answers as the WebSocket does: results, simulate, and errors', async () => {
    const info = { command: 'account_info', account: genesis.address, ledger_index: 'current' } as const;
    const [local, remote] = await Promise.all([reader.request(info), connection.client.request(info)]);
    expect(local.result).toEqual(remote.result);
    expect(local.api_version).toBe(remote.api_version);
    // simulate of a payment: the same engine result, metadata and autofilled transaction.
    const sim = {
      command: 'simulate',
      tx_json: {
        TransactionType: 'Payment',
        Account: genesis.address,
        Destination: Wallet.generate().address,
        Amount: '20000000',
      },
    } as never;
    type Sim = { result: { engine_result: string } };
    const [a, b] = (await Promise.all([reader.request(sim), connection.client.request(sim)])) as [Sim, Sim];
    expect(a.result.engine_result).toBe('tesSUCCESS');
    expect(JSON.parse(JSON.stringify(a.result))).toEqual(b.result);
    // A missing account: the same RippledError (its `data.error` is what callers test).
    const missing = {
      command: 'account_lines',
      account: Wallet.generate().address,
      ledger_index: 'validated',
    } as const;
    const [le, re] = await Promise.all(
      [reader.request(missing), connection.client.request(missing)].map((p) =>
        p.then(
          () => undefined,
          (err: unknown) => err,
        ),
      ),
    );
    expect(le).toBeInstanceOf(RippledError);
    expect(re).toBeInstanceOf(RippledError);
    expect((le as RippledError).message).toBe((re as RippledError).message);
    expect((le as RippledError).data).toMatchObject({ error: 'actNotFound', status: 'error' });
    expect((re as RippledError).data).toMatchObject({ error: 'actNotFound' });
  });

  it('does not answer while the connection is down', async () => {
    await connection.close();
    try {
      await expect(
        reader.request({ command: 'account_info', account: genesis.address, ledger_index: 'current' }),
      ).rejects.toBeInstanceOf(NotConnectedError);
    } finally {
      await connection.connect();
    }
  });
});
