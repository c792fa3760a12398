// Subscriptions (ledger, transactions, transactions_proposed, accounts) and the faucet, via xrpl.js.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type LedgerStream, type TransactionStream } from 'xrpl';
import { fund, genesis, rawSocket, startHarness, submitAndClose, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

function nextEvent<T>(register: (listener: (e: T) => void) => void): Promise<T> {
  return new Promise((resolve) => register(resolve));
}

describe('subscribe', () => {
  it('ledger stream: reply with the current ledger, then ledgerClosed per close', async () => {
    const reply = await h.client.request({ command: 'subscribe', streams: ['ledger'] });
    const validated = await h.client.request({ command: 'ledger_closed' });
    expect(reply.result).toMatchObject({
      ledger_index: validated.result.ledger_index,
      ledger_hash: validated.result.ledger_hash,
      fee_base: 10,
      reserve_base: 1_000_000,
      reserve_inc: 200_000,
    });
    const event = nextEvent<LedgerStream>((l) => h.client.once('ledgerClosed', l));
    h.ledger.closeLedger();
    const closed = await event;
    expect(closed).toMatchObject({
      type: 'ledgerClosed',
      ledger_index: validated.result.ledger_index + 1,
      txn_count: 0,
    });
    await h.client.request({ command: 'unsubscribe', streams: ['ledger'] });
  });

  it('transactions and accounts streams deliver validated transactions in the v2 shape', async () => {
    const alice = await fund(h);
    const bob = Wallet.generate();
    await h.client.request({ command: 'subscribe', accounts: [bob.address] });
    const event = nextEvent<TransactionStream>((l) => h.client.once('transaction', l));
    const { hash } = await submitAndClose(
      h,
      { TransactionType: 'Payment', Account: alice.address, Destination: bob.address, Amount: '20000000' },
      alice,
    );
    const tx = await event;
    expect(tx).toMatchObject({
      type: 'transaction',
      engine_result: 'tesSUCCESS',
      engine_result_code: 0,
      hash,
      validated: true,
      status: 'closed',
      tx_json: { Account: alice.address, DeliverMax: '20000000' },
      meta: { TransactionResult: 'tesSUCCESS' },
    });
    expect(typeof tx.ledger_index).toBe('number');
    await h.client.request({ command: 'unsubscribe', accounts: [bob.address] });
  });

  it('v1 subscribers get `transaction`, proposed subscribers see tentative results', async () => {
    const ws = await rawSocket(h.ledger.url);
    const ok = await ws.send({
      id: 1,
      command: 'subscribe',
      streams: ['transactions_proposed'],
      api_version: 1,
    });
    expect(ok).toMatchObject({ status: 'success', result: {} });
    const alice = await fund(h);
    // fund() submitted and closed: the proposed message, then the validated one.
    const proposed = await ws.next();
    expect(proposed).toMatchObject({
      type: 'transaction',
      status: 'proposed',
      validated: false,
      engine_result: 'tesSUCCESS',
    });
    expect(proposed).toHaveProperty('transaction.Destination', alice.address);
    const validated = await ws.next();
    expect(validated).toMatchObject({
      status: 'closed',
      validated: true,
      transaction: { Amount: '100000000', DeliverMax: '100000000' },
    });
    expect(await ws.send({ id: 2, command: 'subscribe', streams: ['no_such_stream'] })).toMatchObject({
      error: 'malformedStream',
    });
    expect(await ws.send({ id: 3, command: 'subscribe', accounts: ['bad'] })).toMatchObject({
      error: 'actMalformed',
    });
    ws.close();
  });

  it('unsubscribe stops delivery', async () => {
    const ws = await rawSocket(h.ledger.url);
    await ws.send({ id: 1, command: 'subscribe', streams: ['ledger'] });
    await ws.send({ id: 2, command: 'unsubscribe', streams: ['ledger'] });
    h.ledger.closeLedger();
    // The next frame is the ping reply, not a ledgerClosed message.
    expect(await ws.send({ id: 3, command: 'ping' })).toMatchObject({ id: 3, status: 'success' });
    ws.close();
  });
});

describe('faucet', () => {
  it('funds a wallet through xrpl.js fundWallet', async () => {
    const wallet = Wallet.generate();
    const { balance } = await h.client.fundWallet(wallet, {
      faucetHost: h.ledger.faucetHost,
      faucetProtocol: 'http',
    });
    expect(balance).toBe(1000);
    expect(await h.client.getXrpBalance(wallet.address)).toBe(1000);
    const custom = await h.client.fundWallet(null, {
      faucetHost: h.ledger.faucetHost,
      faucetProtocol: 'http',
      amount: '42',
    });
    expect(custom.balance).toBe(42);
  });

  it('funds from genesis with a real payment and refuses bad destinations', async () => {
    const wallet = Wallet.generate();
    const res = await fetch(`${h.ledger.httpUrl}/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ destination: wallet.address, xrpAmount: '12.5', userAgent: 'test' }),
    });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as {
      account: { classicAddress: string };
      transactionHash: string;
      amount: number;
    };
    expect(body.account.classicAddress).toBe(wallet.address);
    expect(body.amount).toBe(12.5);
    const tx = await h.client.request({ command: 'tx', transaction: body.transactionHash });
    expect(tx.result.tx_json).toMatchObject({
      Account: genesis.address,
      Destination: wallet.address,
      DeliverMax: '12500000',
    });
    const bad = await fetch(`${h.ledger.httpUrl}/accounts`, {
      method: 'POST',
      body: JSON.stringify({ destination: 'rNope' }),
    });
    expect(bad.status).toBe(400);
  });
});
