import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { Client, Wallet } from 'xrpl';
import { LEDGER_REFUSED_MESSAGE, LEDGER_UNAVAILABLE_MESSAGE } from '@ledgerpad/shared';
import { createTestApp, type TestApp } from './helpers/test-app';

// One error policy: the app's error handler turns xrpl.js failures into 503/502 with the shared
// sentence, so a route written without any wrapper or try/catch answers like every other one.
describe('ledger failures escaping a route', () => {
  let t: TestApp;
  // A ledger server that answers the server_info xrpl.js sends on connecting and nothing else:
  // every later request times out (TimeoutError).
  let silent: WebSocketServer;
  let silentClient: Client;
  let connectingClient: Client | undefined;
  const unfunded = Wallet.generate().classicAddress;
  const open = { config: { access: 'public' as const } };

  beforeAll(async () => {
    t = await createTestApp();
    silent = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    silent.on('connection', (socket) =>
      socket.on('message', (data) => {
        const req = JSON.parse(String(data)) as { id: unknown; command: string };
        if (req.command !== 'server_info') return;
        const info = { build_version: '2.4.0' };
        socket.send(JSON.stringify({ id: req.id, type: 'response', status: 'success', result: { info } }));
      }),
    );
    await once(silent, 'listening');
    silentClient = new Client(`ws://127.0.0.1:${(silent.address() as AddressInfo).port}`, { timeout: 300 });
    await silentClient.connect();
    // Plain routes, as a feature module would write them: no ledgerRoute, no catch.
    t.app.get('/api/test/ledger-read', open, async () =>
      t.ledger!.client.request({ command: 'account_info', account: unfunded, ledger_index: 'validated' }),
    );
    t.app.get('/api/test/ledger-refused', open, async () =>
      t.ledger!.client.request({
        command: 'ledger_entry',
        index: '00'.repeat(32),
        ledger_index: 'validated',
      }),
    );
    t.app.get('/api/test/ledger-silent', open, async () => silentClient.request({ command: 'ping' }));
    t.app.get('/api/test/ledger-connecting', open, async () =>
      connectingClient!.request({ command: 'ping' }),
    );
  });
  afterAll(async () => {
    // xrpl.js's polite disconnect can wait forever on a server that stopped answering: the server
    // drops the socket instead, and the client is told not to come back.
    const dropped = silentClient?.disconnect().catch(() => {});
    for (const socket of silent?.clients ?? []) socket.terminate();
    await new Promise((resolve) => (silent ? silent.close(resolve) : resolve(undefined)));
    await Promise.race([dropped, new Promise((resolve) => setTimeout(resolve, 1_000))]);
    await t?.close();
  });

  it('a refusal by the ledger server (RippledError) is a 502 naming the ledger error', async () => {
    const res = await t.app.inject('/api/test/ledger-refused');
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      error: 'bad_gateway',
      message: LEDGER_REFUSED_MESSAGE,
      ledgerError: 'entryNotFound',
    });
  });

  it('an account that does not exist (actNotFound) is the request’s mistake: a 400 naming it, not a 502', async () => {
    const res = await t.app.inject('/api/test/ledger-read');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'bad_request',
      message: `The account ${unfunded.slice(0, 6)}…${unfunded.slice(-4)} does not exist on the XRP Ledger.`,
      ledgerError: 'actNotFound',
    });
  });

  it('a ledger that does not answer in time (TimeoutError) is a 503 with the shared sentence', async () => {
    const res = await t.app.inject('/api/test/ledger-silent');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: 'ledger_unavailable', message: LEDGER_UNAVAILABLE_MESSAGE });
  });

  it('a request while xrpl.js is still connecting (its socket CONNECTING) is a 503, not a 500', async () => {
    // A TCP server that never answers the WebSocket upgrade: the client stays CONNECTING, as in
    // the reconnect xrpl.js starts after a missed heartbeat.
    const sockets: Socket[] = [];
    const mute = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    const connecting = new Client(`ws://127.0.0.1:${(mute.address() as AddressInfo).port}`, {
      connectionTimeout: 10_000,
    });
    const connected = connecting.connect().catch(() => undefined);
    connectingClient = connecting;
    try {
      const res = await t.app.inject('/api/test/ledger-connecting');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: 'ledger_unavailable', message: LEDGER_UNAVAILABLE_MESSAGE });
    } finally {
      for (const socket of sockets) socket.destroy();
      mute.close();
      await connected;
      await connecting.disconnect().catch(() => undefined);
    }
  });

  it('a ledger that is down (NotConnectedError) is a 503, on test routes and real ones alike', async () => {
    await t.ledger!.close();
    const res = await t.app.inject('/api/test/ledger-read');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: 'ledger_unavailable', message: LEDGER_UNAVAILABLE_MESSAGE });
    // A real public market route that carries no wrapper of its own.
    const amm = await t.app.inject(`/api/amm_info?issuer=${unfunded}&ticker=ABC`);
    expect(amm.statusCode).toBe(503);
    expect(amm.json()).toEqual({ error: 'ledger_unavailable', message: LEDGER_UNAVAILABLE_MESSAGE });
  });
});
