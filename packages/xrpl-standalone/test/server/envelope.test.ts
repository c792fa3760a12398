// rippled's envelopes and error answers, and robustness against bad input (never a crash, never a
// state change on a rejected transaction).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, encode } from 'ripple-binary-codec';
import WebSocket from 'ws';
import { Wallet, type Payment } from 'xrpl';
import { startStandaloneLedger } from '../../src/index';
import { fund, genesis, rawSocket, rpc, startHarness, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

describe('WebSocket envelope', () => {
  it('echoes id and api_version and marks success', async () => {
    const ws = await rawSocket(h.ledger.url);
    const reply = await ws.send({ id: 7, command: 'ping', api_version: 2 });
    expect(reply).toEqual({
      id: 7,
      api_version: 2,
      result: { role: 'admin', unlimited: true },
      status: 'success',
      type: 'response',
    });
    const noVersion = await ws.send({ id: 'abc', command: 'ledger_current' });
    expect(noVersion.id).toBe('abc');
    expect(noVersion).not.toHaveProperty('api_version');
    ws.close();
  });

  it('answers errors with error, error_code, error_message and the request', async () => {
    const ws = await rawSocket(h.ledger.url);
    const request = { id: 1, command: 'no_such_method', api_version: 2 };
    expect(await ws.send(request)).toEqual({
      id: 1,
      api_version: 2,
      error: 'unknownCmd',
      error_code: 32,
      error_message: 'Unknown method.',
      request,
      status: 'error',
      type: 'response',
    });
    const bad = await ws.send({ id: 2, command: 'account_info', account: 'not-an-address' });
    expect(bad).toMatchObject({
      error: 'actMalformed',
      error_code: 35,
      status: 'error',
      type: 'response',
      id: 2,
    });
    const missing = await ws.send({ id: 3, command: 'account_info' });
    expect(missing).toMatchObject({ error: 'invalidParams', error_message: "Missing field 'account'." });
    const unfunded = await ws.send({ id: 4, command: 'account_info', account: Wallet.generate().address });
    expect(unfunded).toMatchObject({ error: 'actNotFound', error_code: 19, validated: false });
    expect(typeof unfunded.ledger_current_index).toBe('number');
    ws.close();
  });

  it('rejects malformed JSON, missing commands and bad API versions without closing the socket', async () => {
    const ws = await rawSocket(h.ledger.url);
    expect(await ws.send('{not json')).toEqual({
      error: 'jsonInvalid',
      status: 'error',
      type: 'response',
      value: '{not json',
    });
    expect(await ws.send('[1,2]')).toMatchObject({ error: 'jsonInvalid' });
    expect(await ws.send({ id: 5 })).toMatchObject({ id: 5, error: 'missingCommand', status: 'error' });
    expect(await ws.send({ id: 6, command: 'ping', api_version: 9 })).toMatchObject({
      id: 6,
      error: 'invalid_API_version',
      api_version: 9,
    });
    expect(await ws.send({ id: 8, command: 42 })).toMatchObject({ error: 'unknownCmd' });
    expect(await ws.send({ id: 9, command: 'ping' })).toMatchObject({ status: 'success' });
    ws.close();
  });

  it('closes a connection that sends an oversized frame and keeps serving others', async () => {
    const ws = new WebSocket(h.ledger.url);
    await new Promise((resolve) => ws.once('open', resolve));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send(JSON.stringify({ command: 'ping', junk: 'x'.repeat(2 << 20) }));
    expect(await closed).toBe(1009);
    const other = await rawSocket(h.ledger.url);
    expect(await other.send({ id: 1, command: 'ping' })).toMatchObject({ status: 'success' });
    other.close();
    const big = await rpc(h, { method: 'ping', params: [{ junk: 'x'.repeat(2 << 20) }] });
    expect(big.status).toBe(413);
  });

  it('answers wrong parameter types with invalidParams', async () => {
    const ws = await rawSocket(h.ledger.url);
    const cases: object[] = [
      { command: 'ledger', ledger_index: 'yesterday' },
      { command: 'ledger', ledger_hash: 'ABC' },
      { command: 'ledger', transactions: 'yes' },
      { command: 'account_lines', account: genesis.address, limit: 'ten' },
      { command: 'account_objects', account: genesis.address, type: 'banana' },
      { command: 'account_lines', account: genesis.address, marker: 17 },
      { command: 'ledger_data', marker: 'zz' },
      { command: 'tx', transaction: 'nothex' },
      { command: 'submit', tx_blob: 12 },
      { command: 'submit', tx_blob: 'XYZ' },
      { command: 'ledger_entry' },
      { command: 'noripple_check', account: genesis.address, role: 'wizard' },
    ];
    for (const request of cases) {
      const reply = await ws.send(request);
      expect(reply, JSON.stringify(request)).toMatchObject({ error: 'invalidParams', status: 'error' });
    }
    expect(await ws.send({ command: 'ledger', ledger_index: 999999 })).toMatchObject({
      error: 'lgrNotFound',
    });
    ws.close();
  });
});

describe('rejected transactions', () => {
  it('answers garbage blobs with invalidTransaction and leaves the ledger untouched', async () => {
    const before = await h.client.request({
      command: 'account_info',
      account: genesis.address,
      ledger_index: 'current',
    });
    const ws = await rawSocket(h.ledger.url);
    for (const blob of ['00', 'DEADBEEF', '12000022', 'FF'.repeat(300)]) {
      const reply = await ws.send({ command: 'submit', tx_blob: blob });
      expect(reply, blob).toMatchObject({ error: 'invalidTransaction', status: 'error' });
    }
    ws.close();
    const after = await h.client.request({
      command: 'account_info',
      account: genesis.address,
      ledger_index: 'current',
    });
    expect(after.result.account_data).toEqual(before.result.account_data);
  });

  it('rejects tampered and wrongly-keyed transactions without changing state', async () => {
    const victim = await fund(h);
    const payment: Payment = {
      TransactionType: 'Payment',
      Account: victim.address,
      Destination: genesis.address,
      Amount: '1000',
    };
    const prepared = await h.client.autofill(payment);
    const before = await h.client.request({
      command: 'account_info',
      account: victim.address,
      ledger_index: 'current',
    });
    // A valid signature over different content: the amount was changed after signing.
    const tampered = encode({ ...decode(victim.sign(prepared).tx_blob), Amount: '999999' });
    await expect(h.client.request({ command: 'submit', tx_blob: tampered })).rejects.toMatchObject({
      data: { error: 'invalidTransaction', error_exception: 'fails local checks: Invalid signature.' },
    });
    // Signed correctly, but by a key that is not the account's.
    const stranger = Wallet.generate().sign(prepared);
    const reply = await h.client.request({ command: 'submit', tx_blob: stranger.tx_blob });
    // rippled answers tefBAD_AUTH (tefBAD_AUTH_MASTER before fixMasterKeyAsRegularKey); either way a tef.
    expect(reply.result).toMatchObject({ applied: false, accepted: false, kept: false });
    expect(reply.result.engine_result).toMatch(/^tefBAD_AUTH/);
    const after = await h.client.request({
      command: 'account_info',
      account: victim.address,
      ledger_index: 'current',
    });
    expect(after.result.account_data).toEqual(before.result.account_data);
  });
});

describe('JSON-RPC over HTTP', () => {
  it('answers in rippled JSON-RPC shape', async () => {
    const ok = await rpc(h, { method: 'ledger_current', params: [{}] });
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ result: { ledger_current_index: expect.any(Number), status: 'success' } });
    const info = await rpc(h, {
      method: 'account_info',
      params: [{ account: genesis.address, ledger_index: 'validated' }],
    });
    expect(info.json?.result).toMatchObject({
      account_data: { Account: genesis.address },
      validated: true,
      status: 'success',
    });
  });

  it('answers errors inside result with the request echoed', async () => {
    const res = await rpc(h, { method: 'account_info', params: [{ account: 'rBAD' }] });
    expect(res.status).toBe(200);
    expect(res.json?.result).toEqual({
      error: 'actMalformed',
      error_code: 35,
      error_message: 'Account malformed.',
      request: { account: 'rBAD', command: 'account_info' },
      status: 'error',
    });
    const unknown = await rpc(h, { method: 'frobnicate' });
    expect(unknown.json?.result).toMatchObject({ error: 'unknownCmd', status: 'error' });
    const subscribe = await rpc(h, { method: 'subscribe', params: [{ streams: ['ledger'] }] });
    expect(subscribe.json?.result).toMatchObject({ error: 'noEvents' });
  });

  it('answers unparseable bodies with HTTP 400', async () => {
    expect((await rpc(h, '{oops')).status).toBe(400);
    expect((await rpc(h, { params: [] })).status).toBe(400);
    expect((await rpc(h, { method: 'ping', params: 'x' })).status).toBe(400);
    // And keeps serving afterwards.
    expect((await rpc(h, { method: 'ping' })).json).toEqual({
      result: { role: 'admin', unlimited: true, status: 'success' },
    });
  });
});

describe('lifecycle', () => {
  it('is async-disposable: disposing stops the server and frees its port', async () => {
    const ledger = await startStandaloneLedger({ port: 0, closeIntervalMs: 0 });
    const ws = await rawSocket(ledger.url);
    expect(await ws.send({ id: 1, command: 'ping' })).toMatchObject({ status: 'success' });
    await ledger[Symbol.asyncDispose]();
    await expect(rawSocket(ledger.url)).rejects.toThrow(/ECONNREFUSED/);
    // The same port can be bound again right away.
    const again = await startStandaloneLedger({ port: ledger.port, closeIntervalMs: 0 });
    await again.close();
  });
});
