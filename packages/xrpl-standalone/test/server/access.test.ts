// The port's access rules (src/server/access.ts, docs/xrpl-standalone-server.md "Access"): web pages
// (Origin) and foreign Host names are refused before anything runs; admin methods and the faucet
// answer a loopback peer with the port's credentials, or every loopback peer when it has none.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Client, Wallet } from 'xrpl';
import {
  accessPolicy,
  basicAuthorization,
  callerOf,
  hostName,
  isAdmin,
  isLoopbackAddress,
  refusalOf,
} from '../../src/server/access';
import type { RefusedRequest } from '../../src/index';
import { genesis, startTestLedger, type TestLedger } from '../support/ledger';

interface Reply {
  status: number;
  body: string;
}

/** One HTTP request with exactly these headers (node:http lets a test set Host and Origin). */
function raw(
  url: string,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: unknown },
): Promise<Reply> {
  const target = new URL(url);
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: opts.method ?? 'POST',
        path: opts.path ?? '/',
        headers: {
          ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += String(d)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A WebSocket handshake with these headers: the HTTP status it was refused with, or 101. */
function upgrade(url: string, headers: Record<string, string>, origin?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers, ...(origin !== undefined ? { origin } : {}) });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res: IncomingMessage) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    ws.once('error', (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err);
    });
  });
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

async function currentIndex(t: TestLedger): Promise<number> {
  return (await t.client.request({ command: 'ledger_current' })).result.ledger_current_index;
}

async function accountExists(t: TestLedger, address: string): Promise<boolean> {
  try {
    await t.client.request({ command: 'account_info', account: address, ledger_index: 'current' });
    return true;
  } catch {
    return false;
  }
}

describe('access rules as functions', () => {
  it('knows loopback peers in every spelling, and nothing else', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])
      expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ['10.0.0.1', '::ffff:10.0.0.1', '::2', 'fe80::1', '128.0.0.1', '', undefined])
      expect(isLoopbackAddress(a), String(a)).toBe(false);
  });

  it('reads the name of a Host header', () => {
    expect(hostName('localhost:6006')).toBe('localhost');
    expect(hostName('LedGer.Example')).toBe('ledger.example');
    expect(hostName('[::1]:6006')).toBe('::1');
    expect(hostName('[::1')).toBeUndefined();
    expect(hostName('a:b:c')).toBeUndefined();
    expect(hostName('127.0.0.1:99999999')).toBeUndefined();
  });

  it('never makes a peer off the loopback interface admin, credentials or not', () => {
    const policy = accessPolicy({ admin: { user: 'app', password: 'pw' }, host: '0.0.0.0' });
    const request = (remoteAddress: string, authorization?: string) =>
      ({ socket: { remoteAddress }, headers: authorization ? { authorization } : {} }) as IncomingMessage;
    const remote = callerOf(request('10.1.2.3', basic('app', 'pw')), policy);
    expect(remote).toEqual({ loopback: false, admin: false });
    expect(isAdmin(remote, { admin_user: 'app', admin_password: 'pw' }, policy)).toBe(false);
    const open = accessPolicy({ host: '0.0.0.0' });
    expect(callerOf(request('10.1.2.3'), open)).toEqual({ loopback: false, admin: false });
    expect(callerOf(request('127.0.0.1'), open)).toEqual({ loopback: true, admin: true });
    expect(callerOf(request('127.0.0.1', basic('app', 'pw')), policy)).toEqual({
      loopback: true,
      admin: true,
    });
    expect(callerOf(request('127.0.0.1', basic('app', 'nope')), policy)).toEqual({
      loopback: true,
      admin: false,
    });
  });

  it('accepts the bound address and the named hosts, refuses others and any Origin', () => {
    const policy = accessPolicy({ host: '192.0.2.7', allowedHosts: ['ledger.internal'] });
    const request = (headers: Record<string, string>) => ({ headers, socket: {} }) as IncomingMessage;
    expect(refusalOf(request({ host: '192.0.2.7:6006' }), policy)).toBeUndefined();
    expect(refusalOf(request({ host: 'ledger.internal:6006' }), policy)).toBeUndefined();
    expect(refusalOf(request({ host: 'localhost' }), policy)).toBeUndefined();
    expect(refusalOf(request({}), policy)).toBeUndefined();
    expect(refusalOf(request({ host: 'rebound.example:6006' }), policy)).toBe('host');
    expect(refusalOf(request({ host: '127.0.0.1.rebound.example' }), policy)).toBe('host');
    expect(refusalOf(request({ host: 'localhost', origin: 'null' }), policy)).toBe('origin');
    expect(refusalOf(request({ host: 'localhost', origin: 'http://localhost:6006' }), policy)).toBe('origin');
    expect(() => accessPolicy({ host: '127.0.0.1', admin: { user: 'a', password: '' } })).toThrow(/password/);
  });
});

describe('a port without credentials (the CLI default)', () => {
  let t: TestLedger;
  const refusals: RefusedRequest[] = [];
  beforeAll(async () => {
    t = await startTestLedger({ onRefused: (r) => refusals.push(r) });
  });
  afterAll(() => t?.close());

  it('refuses requests from web pages before running them: JSON-RPC, faucet, WebSocket', async () => {
    const before = await currentIndex(t);
    const page = 'http://127.0.0.1:5173';
    const accept = await raw(t.ledger.httpUrl, {
      headers: { origin: page },
      body: { method: 'ledger_accept' },
    });
    expect(accept.status).toBe(403);
    expect(accept.body).toMatch(/Origin/);
    const info = await raw(t.ledger.httpUrl, {
      headers: { origin: 'null' },
      body: { method: 'server_info' },
    });
    expect(info.status).toBe(403);
    expect(info.body).not.toMatch(/validated_ledger/);
    const victim = Wallet.generate().address;
    const fund = await raw(t.ledger.httpUrl, {
      path: '/accounts',
      headers: { origin: page, 'content-type': 'text/plain' },
      body: { destination: victim, xrpAmount: '12345' },
    });
    expect(fund.status).toBe(403);
    expect(await upgrade(t.ledger.url, {}, page)).toBe(403);
    const get = await raw(t.ledger.httpUrl, { method: 'GET', headers: { origin: page } });
    expect(get.status).toBe(403);
    // Nothing ran: no close, no funding.
    expect(await currentIndex(t)).toBe(before);
    expect(await accountExists(t, victim)).toBe(false);
    expect(refusals.filter((r) => r.reason === 'origin').map((r) => r.transport)).toEqual([
      'http',
      'http',
      'http',
      'websocket',
      'http',
    ]);
    expect(refusals[0]).toMatchObject({ origin: page, method: 'POST' });
  });

  it('refuses a Host that is not this machine (DNS rebinding), accepts loopback names', async () => {
    const port = t.ledger.port;
    const before = await currentIndex(t);
    for (const host of [`rebound.example:${port}`, `192.0.2.1:${port}`, 'localhost.rebound.example']) {
      const res = await raw(t.ledger.httpUrl, { headers: { host }, body: { method: 'ledger_accept' } });
      expect(res.status, host).toBe(403);
      expect(res.body).toMatch(/Host/);
    }
    expect(await upgrade(t.ledger.url, { host: `rebound.example:${port}` })).toBe(403);
    expect(await currentIndex(t)).toBe(before);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `127.1.2.3:${port}`]) {
      const res = await raw(t.ledger.httpUrl, { headers: { host }, body: { method: 'server_info' } });
      expect(res.status, host).toBe(200);
    }
    expect(await upgrade(t.ledger.url, { host: `localhost:${port}` })).toBe(101);
    expect(refusals.filter((r) => r.reason === 'host')).toHaveLength(4);
  });

  it('makes every loopback client admin, as rippled with admin = 127.0.0.1 and no password', async () => {
    const before = await currentIndex(t);
    expect((await t.client.request({ command: 'ping' })).result).toEqual({ role: 'admin', unlimited: true });
    await t.client.request({ command: 'ledger_accept' } as never);
    expect(await currentIndex(t)).toBe(before + 1);
    const wallet = Wallet.generate();
    const { balance } = await t.client.fundWallet(wallet, {
      faucetHost: t.ledger.faucetHost,
      faucetProtocol: 'http',
    });
    expect(balance).toBe(1000);
  });
});

describe('a port with credentials (the app’s embedded ledger)', () => {
  const admin = { user: 'app', password: 'correct horse battery staple' };
  let t: TestLedger;
  let app: Client;
  beforeAll(async () => {
    t = await startTestLedger({ admin });
    app = new Client(t.ledger.url, { headers: { Authorization: basicAuthorization(admin) } });
    await app.connect();
  });
  afterAll(async () => {
    await app?.disconnect();
    await t?.close();
  });

  it('keeps reads and signed submissions open to any loopback client', async () => {
    const info = await t.client.request({ command: 'server_info' });
    expect(info.result.info.validated_ledger?.seq).toBeGreaterThan(0);
    const account = await t.client.request({ command: 'account_info', account: genesis.address });
    expect(account.result.account_data.Account).toBe(genesis.address);
    // A transaction signed by its own key is not an admin act (rippled serves submit to guests).
    const to = Wallet.generate().address;
    const tx = await t.client.autofill({
      TransactionType: 'Payment',
      Account: genesis.address,
      Destination: to,
      Amount: '50000000',
    });
    const submitted = await t.client.request({ command: 'submit', tx_blob: genesis.sign(tx).tx_blob });
    expect(submitted.result.engine_result).toBe('tesSUCCESS');
    // rippled's answer to a guest's ping: no role.
    expect((await t.client.request({ command: 'ping' })).result).toEqual({});
  });

  it('answers admin methods from a client without the credentials with rippled’s forbidden', async () => {
    const before = await currentIndex(t);
    for (const command of ['ledger_accept', 'ledger_clock']) {
      await expect(t.client.request({ command } as never), command).rejects.toMatchObject({
        data: { error: 'forbidden', error_code: 3, error_message: 'Bad credentials.' },
      });
    }
    await expect(
      t.client.request({ command: 'sign', tx_json: { TransactionType: 'AccountSet' }, secret: 'x' } as never),
    ).rejects.toMatchObject({ data: { error: 'forbidden' } });
    // Admin options of open methods: rippled's noPermission.
    await expect(
      t.client.request({
        command: 'submit',
        tx_json: { TransactionType: 'AccountSet' },
        secret: 'x',
      } as never),
    ).rejects.toMatchObject({ data: { error: 'noPermission' } });
    await expect(
      t.client.request({ command: 'ledger', ledger_index: 'validated', full: true } as never),
    ).rejects.toMatchObject({ data: { error: 'noPermission' } });
    // Wrong credentials in the params are no better, and are never echoed back.
    const wrong = t.client.connection.request({
      command: 'ledger_accept',
      admin_user: admin.user,
      admin_password: 'guess',
    } as never);
    const failure = (await wrong.catch((err: unknown) => err)) as { data: Record<string, unknown> };
    expect(failure.data.error).toBe('forbidden');
    expect(JSON.stringify(failure.data)).not.toContain('guess');
    expect(await currentIndex(t)).toBe(before);
  });

  it('serves admin methods to a client with the credentials: per request or per connection', async () => {
    const before = await currentIndex(t);
    await t.client.connection.request({
      command: 'ledger_accept',
      admin_user: admin.user,
      admin_password: admin.password,
    } as never);
    expect(await currentIndex(t)).toBe(before + 1);
    expect((await app.request({ command: 'ping' })).result).toEqual({ role: 'admin', unlimited: true });
    await app.request({ command: 'ledger_accept' } as never);
    expect(await currentIndex(t)).toBe(before + 2);
    // The embedding process itself is admin.
    expect(await t.ledger.request({ command: 'ledger_accept' })).toMatchObject({ status: 'success' });
    expect(await currentIndex(t)).toBe(before + 3);
    // A wrong password on the connection: no admin.
    const intruder = new Client(t.ledger.url, { headers: { Authorization: basic(admin.user, 'guess') } });
    await intruder.connect();
    try {
      await expect(intruder.request({ command: 'ledger_accept' } as never)).rejects.toMatchObject({
        data: { error: 'forbidden' },
      });
    } finally {
      await intruder.disconnect();
    }
    expect(await currentIndex(t)).toBe(before + 3);
  });

  it('answers JSON-RPC admin calls with rippled’s 403 unless they carry the credentials', async () => {
    const before = await currentIndex(t);
    const plain = await raw(t.ledger.httpUrl, { body: { method: 'ledger_accept' } });
    expect(plain).toEqual({ status: 403, body: 'Forbidden' });
    const params = await raw(t.ledger.httpUrl, {
      body: { method: 'ledger_accept', params: [{ admin_user: admin.user, admin_password: admin.password }] },
    });
    expect(JSON.parse(params.body)).toMatchObject({ result: { status: 'success' } });
    const header = await raw(t.ledger.httpUrl, {
      headers: { authorization: basic(admin.user, admin.password) },
      body: { method: 'ledger_accept' },
    });
    expect(JSON.parse(header.body)).toMatchObject({ result: { status: 'success' } });
    expect(await currentIndex(t)).toBe(before + 2);
    const read = await raw(t.ledger.httpUrl, { body: { method: 'server_info' } });
    expect(JSON.parse(read.body)).toMatchObject({ result: { status: 'success' } });
  });

  it('funds through the faucet only with the credentials', async () => {
    const victim = Wallet.generate();
    await expect(
      t.client.fundWallet(victim, { faucetHost: t.ledger.faucetHost, faucetProtocol: 'http' }),
    ).rejects.toThrow();
    const refused = await raw(t.ledger.httpUrl, {
      path: '/accounts',
      body: { destination: victim.address, xrpAmount: '12345' },
    });
    expect(refused).toEqual({ status: 403, body: JSON.stringify({ error: 'Bad credentials.' }) });
    expect(await accountExists(t, victim.address)).toBe(false);
    const viaBody = await raw(t.ledger.httpUrl, {
      path: '/accounts',
      body: {
        destination: victim.address,
        xrpAmount: '12',
        ...{ admin_user: admin.user, admin_password: admin.password },
      },
    });
    expect(viaBody.status).toBe(200);
    const viaHeader = await raw(t.ledger.httpUrl, {
      path: '/accounts',
      headers: { authorization: basic(admin.user, admin.password) },
      body: { destination: victim.address, xrpAmount: '30' },
    });
    expect(viaHeader.status).toBe(200);
    // 12 XRP + 30 XRP, in drops: both payments landed, the refused one did not.
    const info = await t.client.request({
      command: 'account_info',
      account: victim.address,
      ledger_index: 'current',
    });
    expect(info.result.account_data.Balance).toBe(String(42_000_000));
  });
});
