// Shared benchmark plumbing: a ledger, funded accounts, and pipelined WebSocket submission.
import { Worker } from 'node:worker_threads';
import WebSocket from 'ws';
import { Wallet, type Transaction } from 'xrpl';
import { GENESIS_SEED, startStandaloneLedger, type StandaloneLedger } from '../src/index';

export const genesis = Wallet.fromSeed(GENESIS_SEED, { algorithm: 'secp256k1' as never });

/** A WebSocket reply; `result` is left loosely typed because each benchmark reads its own fields. */
export interface Reply {
  id?: number;
  status?: string;
  error?: string;
  result?: Record<string, unknown> & { engine_result?: string };
}

export interface Rpc {
  request(body: Record<string, unknown>): Promise<Reply>;
  /** Sends every request without waiting, resolves with all replies in order. */
  pipeline(bodies: Array<Record<string, unknown>>): Promise<Reply[]>;
  close(): void;
}

export async function connect(url: string): Promise<Rpc> {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map<number, (reply: Reply) => void>();
  ws.on('message', (data) => {
    const reply = JSON.parse(String(data)) as Reply;
    const resolve = pending.get(reply.id as number);
    if (resolve) {
      pending.delete(reply.id as number);
      resolve(reply);
    }
  });
  const request = (body: Record<string, unknown>) =>
    new Promise<Reply>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ ...body, id, api_version: 2 }));
    });
  return {
    request,
    pipeline: (bodies) => Promise.all(bodies.map((b) => request(b))),
    close: () => ws.close(),
  };
}

export interface BenchLedger {
  ledger: StandaloneLedger;
  rpc: Rpc;
  close(): Promise<void>;
}

export async function startBenchLedger(): Promise<BenchLedger> {
  const ledger = await startStandaloneLedger({ port: 0, closeIntervalMs: 0, faucet: false });
  const rpc = await connect(ledger.url);
  return {
    ledger,
    rpc,
    close: async () => {
      rpc.close();
      await ledger.close();
    },
  };
}

export async function accountSequence(rpc: Rpc, address: string): Promise<number> {
  const reply = await rpc.request({ command: 'account_info', account: address, ledger_index: 'current' });
  return Number((reply.result?.account_data as { Sequence: number }).Sequence);
}

/** Signs transactions with consecutive sequences (Fee fixed), ready to submit. */
export function signSequence(
  wallet: Wallet,
  txs: Array<Record<string, unknown>>,
  firstSequence: number,
  fee: string,
): string[] {
  return txs.map(
    (tx, i) =>
      wallet.sign({
        Fee: fee,
        Flags: 0,
        ...tx,
        Account: wallet.address,
        Sequence: firstSequence + i,
      } as Transaction).tx_blob,
  );
}

/**
 * The payment benchmarks' set: `perSender` XRP payments from each sender (Fee 10, to the receivers
 * in turn, consecutive sequences from `sequences[s]`), interleaved by sender so each ledger holds
 * many accounts, as real traffic would.
 */
export function signPayments(
  senders: Wallet[],
  receivers: Wallet[],
  sequences: number[],
  perSender: number,
): string[] {
  const bySender = senders.map((wallet, s) =>
    signSequence(
      wallet,
      Array.from({ length: perSender }, (_, i) => ({
        TransactionType: 'Payment',
        Destination: receivers[(s + i) % receivers.length]?.address,
        Amount: String(1000 + i),
      })),
      sequences[s] as number,
      '10',
    ),
  );
  const blobs: string[] = [];
  for (let i = 0; i < perSender; i += 1) for (const list of bySender) blobs.push(list[i] as string);
  return blobs;
}

/** Funds `count` fresh accounts from genesis with `drops` each, closes, and returns their wallets. */
export async function fundAccounts(
  bench: BenchLedger,
  count: number,
  drops: string,
  algorithm?: 'ed25519' | 'secp256k1',
): Promise<Wallet[]> {
  const wallets = Array.from({ length: count }, () => Wallet.generate(algorithm as never));
  await fundWallets(bench, wallets, drops);
  return wallets;
}

/** Funds the given wallets from genesis with `drops` each, in one ledger, and closes it. */
export async function fundWallets(bench: BenchLedger, wallets: Wallet[], drops: string): Promise<void> {
  const sequence = await accountSequence(bench.rpc, genesis.address);
  const blobs = signSequence(
    genesis,
    wallets.map((w) => ({ TransactionType: 'Payment', Destination: w.address, Amount: drops })),
    sequence,
    '10',
  );
  const replies = await bench.rpc.pipeline(blobs.map((tx_blob) => ({ command: 'submit', tx_blob })));
  const failed = replies.filter((r) => r.result?.engine_result !== 'tesSUCCESS');
  if (failed.length > 0) throw new Error(`funding failed: ${JSON.stringify(failed[0])}`);
  await bench.rpc.request({ command: 'ledger_accept' });
}

let submitWorker: Worker | undefined;

/**
 * Submits pre-signed blobs from a worker thread (a separate core, as a real client would be),
 * closing a ledger after every `closeEvery`; resolves with the elapsed seconds. One worker serves
 * every call, one call at a time (see submit-worker.mjs); it never keeps the process alive.
 */
export function submitFromWorker(
  url: string,
  blobs: string[],
  closeEvery: number,
): Promise<{ seconds: number; failures: string[] }> {
  const worker = (submitWorker ??= new Worker(new URL('./submit-worker.mjs', import.meta.url)));
  return new Promise((resolve, reject) => {
    const onExit = (code: number) => reject(new Error(`submit worker exited with ${code}`));
    const settle = () => {
      worker.off('error', reject);
      worker.off('exit', onExit);
      worker.unref();
    };
    worker.once('message', (message: { seconds: number; failures: string[] } | { error: string }) => {
      settle();
      if ('error' in message) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
    worker.once('exit', onExit);
    worker.ref();
    worker.postMessage({ url, blobs, closeEvery });
  });
}
