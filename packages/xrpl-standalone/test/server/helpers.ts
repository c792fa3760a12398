// Shared test plumbing: a fresh ledger per suite, an xrpl.js client, genesis-funded wallets.
import { Wallet, type Client, type Payment } from 'xrpl';
import WebSocket from 'ws';
import { genesis, startTestLedger, type TestLedger } from '../support/ledger';

export { genesis };
export type Harness = TestLedger;
export const startHarness = startTestLedger;

/** Signs with `wallet`, submits, closes the ledger; returns the submit result and the validated tx. */
export async function submitAndClose(h: Harness, tx: Parameters<Client['autofill']>[0], wallet: Wallet) {
  const prepared = await h.client.autofill(tx);
  const signed = wallet.sign(prepared);
  const submitted = await h.client.request({ command: 'submit', tx_blob: signed.tx_blob });
  h.ledger.closeLedger();
  return { submitted: submitted.result, hash: signed.hash, tx_blob: signed.tx_blob };
}

export async function fund(h: Harness, drops = '100000000', wallet = Wallet.generate()): Promise<Wallet> {
  const payment: Payment = {
    TransactionType: 'Payment',
    Account: genesis.address,
    Destination: wallet.address,
    Amount: drops,
  };
  const { submitted } = await submitAndClose(h, payment, genesis);
  if (submitted.engine_result !== 'tesSUCCESS') throw new Error(`funding failed: ${submitted.engine_result}`);
  return wallet;
}

/** A raw WebSocket that resolves each sent frame with the next frame received. */
export async function rawSocket(url: string) {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const inbox: unknown[] = [];
  const waiters: Array<(m: unknown) => void> = [];
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as unknown;
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else inbox.push(message);
  });
  const next = (): Promise<Record<string, unknown>> =>
    new Promise((resolve) => {
      if (inbox.length > 0) resolve(inbox.shift() as Record<string, unknown>);
      else waiters.push(resolve as (m: unknown) => void);
    });
  return {
    send: async (frame: string | object): Promise<Record<string, unknown>> => {
      ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
      return next();
    },
    next,
    close: () => ws.close(),
  };
}

export async function rpc(
  h: Harness,
  body: unknown,
): Promise<{ status: number; json?: Record<string, unknown>; text: string }> {
  const res = await fetch(h.ledger.httpUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}
