import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import WebSocket from 'ws';
import { decode, encode } from 'ripple-binary-codec';
import { fund, rpc, startHarness, type Harness } from './helpers';

describe('pipelined WebSocket requests (checked as a batch, applied in arrival order)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  for (const algorithm of ['ed25519', 'ecdsa-secp256k1'] as const) {
    it(`applies ${algorithm} submits in arrival order; a pipelined ledger_accept closes all of them`, async () => {
      const sender = await fund(h, '100000000', Wallet.generate(algorithm as never));
      const receiver = await fund(h);
      const info = await h.client.request({ command: 'account_info', account: sender.address });
      const first = info.result.account_data.Sequence;
      const blobs = Array.from(
        { length: 40 },
        (_, i) =>
          sender.sign({
            TransactionType: 'Payment',
            Account: sender.address,
            Destination: receiver.address,
            Amount: String(1000 + i),
            Fee: '10',
            Flags: 0,
            Sequence: first + i,
          } as never).tx_blob,
      );
      // A forged copy of the last one (amount changed, signature kept) must be refused.
      const forged = encode({ ...decode(blobs[39]!), Amount: '1' });
      expect(forged).not.toBe(blobs[39]);

      const ws = new WebSocket(h.ledger.url);
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      const replies = new Map<number, Record<string, unknown>>();
      const all = new Promise<void>((resolve) => {
        ws.on('message', (data) => {
          const reply = JSON.parse(String(data)) as Record<string, unknown>;
          replies.set(reply.id as number, reply);
          if (replies.size === 44) resolve();
        });
      });
      let id = 0;
      const send = (body: object) => ws.send(JSON.stringify({ ...body, id: ++id, api_version: 2 }));
      // Corked: every frame reaches the server in one read, so they are handled as one batch.
      const raw = (ws as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
      raw.cork();
      // One blob in lower case: its reply still echoes it in upper case (the batch's decoding).
      blobs
        .slice(0, 39)
        .forEach((tx_blob, i) =>
          send({ command: 'submit', tx_blob: i === 5 ? tx_blob.toLowerCase() : tx_blob }),
        );
      send({ command: 'submit', tx_blob: forged });
      send({ command: 'submit', tx_blob: blobs[39] });
      send({ command: 'ledger_accept' });
      send({ command: 'account_info', account: sender.address, ledger_index: 'validated' });
      send({ command: 'ping' });
      raw.uncork();
      await all;
      ws.close();

      const order: number[] = [];
      for (let i = 1; i <= 39; i += 1) {
        const result = replies.get(i)?.result as Record<string, unknown>;
        expect(result.engine_result).toBe('tesSUCCESS');
        expect(result.tx_blob).toBe(blobs[i - 1]?.toUpperCase());
        order.push((result.tx_json as { Sequence: number }).Sequence);
      }
      expect(order).toEqual(Array.from({ length: 39 }, (_, i) => first + i));
      expect(replies.get(40)).toMatchObject({
        status: 'error',
        error: 'invalidTransaction',
        error_exception: 'fails local checks: Invalid signature.',
      });
      expect((replies.get(41)?.result as Record<string, unknown>).engine_result).toBe('tesSUCCESS');
      const closedIndex =
        (replies.get(42)?.result as { ledger_current_index: number }).ledger_current_index - 1;
      const closed = h.ledger.node.ledger({ ledger_index: closedIndex });
      expect(closed?.transactions.filter((t) => t.tx.Account === sender.address)).toHaveLength(40);
      const account = (replies.get(43)?.result as { account_data: { Sequence: number } }).account_data;
      expect(account.Sequence).toBe(first + 40);
      expect(replies.get(44)?.status).toBe('success');
    });
  }

  it('keeps arrival order across socket reads while earlier batches are still being checked', async () => {
    const sender = await fund(h, '100000000', Wallet.generate('ed25519' as never));
    const receiver = await fund(h);
    const info = await h.client.request({ command: 'account_info', account: sender.address });
    const first = info.result.account_data.Sequence;
    const blobs = Array.from(
      { length: 30 },
      (_, i) =>
        sender.sign({
          TransactionType: 'Payment',
          Account: sender.address,
          Destination: receiver.address,
          Amount: String(1000 + i),
          Fee: '10',
          Flags: 0,
          Sequence: first + i,
        } as never).tx_blob,
    );
    const ws = new WebSocket(h.ledger.url);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const arrival: number[] = [];
    const replies = new Map<number, Record<string, unknown>>();
    const all = new Promise<void>((resolve) => {
      ws.on('message', (data) => {
        const reply = JSON.parse(String(data)) as Record<string, unknown>;
        arrival.push(reply.id as number);
        replies.set(reply.id as number, reply);
        if (replies.size === 32) resolve();
      });
    });
    let id = 0;
    const send = (body: object) => ws.send(JSON.stringify({ ...body, id: ++id, api_version: 2 }));
    // One frame per write, a macrotask apart: each reaches the server in a read (a batch) of its
    // own while the signatures of the ones before it may still be on the thread pool.
    for (const tx_blob of blobs) {
      send({ command: 'submit', tx_blob });
      await new Promise((resolve) => setImmediate(resolve));
    }
    send({ command: 'ledger_accept' });
    send({ command: 'account_info', account: sender.address, ledger_index: 'validated' });
    await all;
    ws.close();

    expect(arrival).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    for (let i = 1; i <= 30; i += 1) {
      expect((replies.get(i)?.result as { engine_result: string }).engine_result).toBe('tesSUCCESS');
    }
    const account = (replies.get(32)?.result as { account_data: { Sequence: number } }).account_data;
    expect(account.Sequence).toBe(first + 30);
  });

  it('orders JSON-RPC submits the same way', async () => {
    const sender = await fund(h, '100000000', Wallet.generate('ed25519' as never));
    const info = await h.client.request({ command: 'account_info', account: sender.address });
    const first = info.result.account_data.Sequence;
    const blobs = Array.from(
      { length: 10 },
      (_, i) =>
        sender.sign({
          TransactionType: 'AccountSet',
          Account: sender.address,
          Fee: '10',
          Flags: 0,
          Sequence: first + i,
        } as never).tx_blob,
    );
    const replies = await Promise.all(
      blobs.map((tx_blob) => rpc(h, { method: 'submit', params: [{ tx_blob }] })),
    );
    for (const reply of replies) {
      expect((reply.json?.result as { engine_result: string }).engine_result).toBe('tesSUCCESS');
    }
  });
});

describe('prepareSubmit', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('carries the signature check to submit, and a look-alike object is checked afresh', async () => {
    const sender = await fund(h, '100000000', Wallet.generate('ed25519' as never));
    const info = await h.client.request({ command: 'account_info', account: sender.address });
    const sign = (sequence: number, amount: string) =>
      sender.sign({
        TransactionType: 'Payment',
        Account: sender.address,
        Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
        Amount: amount,
        Fee: '10',
        Flags: 0,
        Sequence: sequence,
      } as never).tx_blob;
    const node = h.ledger.node;
    const good = sign(info.result.account_data.Sequence, '1000');
    expect(node.submit(node.prepareSubmit(good)).engine_result).toBe('tesSUCCESS');

    // A forged blob (amount changed) fails whether prepared or not.
    const forged = encode({ ...decode(sign(info.result.account_data.Sequence + 1, '1000')), Amount: '2000' });
    expect(node.submit(node.prepareSubmit(forged)).rpcError?.error_exception).toBe(
      'fails local checks: Invalid signature.',
    );
    // An object shaped like a prepared submission but not made by prepareSubmit is not trusted.
    expect(node.submit({ blob: forged }).rpcError?.error_exception).toBe(
      'fails local checks: Invalid signature.',
    );
    expect(node.submit(node.prepareSubmit('ZZ')).rpcError?.error).toBe('invalidParams');
  });
});
