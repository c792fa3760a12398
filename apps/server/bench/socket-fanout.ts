import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { tickerToCurrency } from '@ledgerpad/shared';

// 5,000 sockets subscribed to one token on one server instance; one new_trade fanned out to all.
// Measures the time from the publish request until the last socket has the frame (target ≤ 250 ms)
// and the server process's RSS (target < 1 GB). The server runs in a child process so its RSS is
// its own; the clients are spread over several loopback source addresses (127.0.0.1-4).

export interface SocketFanoutResult {
  name: string;
  subscribers: number;
  connectMs: number;
  /** Time until the last subscriber received the frame, per round. */
  fanoutMs: number[];
  fanoutMedianMs: number;
  fanoutMaxMs: number;
  /** Time the server spent writing the frame to all sockets, per round. */
  serverLoopMs: number[];
  serverRssMb: number;
  ok: boolean;
}

const ISSUER = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const TICKER = 'BENCH';
const here = path.dirname(fileURLToPath(import.meta.url));

function request<T>(child: ChildProcess, msg: object, reply: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      if ((m as { type?: string }).type === reply) {
        child.off('message', onMessage);
        resolve(m as T);
      }
    };
    child.on('message', onMessage);
    child.send(msg);
  });
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export async function benchSocketFanout(
  opts: { subscribers?: number; rounds?: number; sourceAddresses?: number } = {},
): Promise<SocketFanoutResult> {
  const subscribers = opts.subscribers ?? 5000;
  const rounds = opts.rounds ?? 5;
  const sources = opts.sourceAddresses ?? 4;
  const child = fork(path.join(here, 'socket-fanout-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const sockets: WebSocket[] = [];
  try {
    const { port, token } = await withTimeout(
      new Promise<{ port: number; token: string }>((resolve, reject) => {
        child.once('message', (m) => resolve(m as { port: number; token: string }));
        child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
      }),
      // A cold start (tsx, PGlite, migrations) takes well over a minute on a busy 2-core machine.
      180_000,
      'server start',
    );

    let received = 0;
    let lastAt = 0;
    let expected = 0;
    let onAll: (() => void) | undefined;
    const frameTag = '"event":"new_trade"';

    const open = (i: number) =>
      new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`, {
          localAddress: `127.0.0.${1 + (i % sources)}`,
          perMessageDeflate: false,
        });
        sockets.push(ws);
        ws.on('error', reject);
        ws.on('message', (data) => {
          const text = String(data);
          if (text.includes(frameTag)) {
            received++;
            if (received === expected) {
              lastAt = performance.now();
              onAll?.();
            }
          } else if (text.includes('"event":"ready"')) {
            ws.send(JSON.stringify({ event: 'subscribe', token: TICKER, issuer: ISSUER }));
          } else if (text.includes('"event":"subscribed"')) {
            resolve();
          }
        });
      });

    // Connect in bounded batches: a burst of 5,000 handshakes at once only measures the accept queue.
    const connectStart = performance.now();
    const batch = 250;
    for (let i = 0; i < subscribers; i += batch) {
      const n = Math.min(batch, subscribers - i);
      await withTimeout(Promise.all(Array.from({ length: n }, (_, k) => open(i + k))), 60_000, 'connecting');
    }
    const connectMs = performance.now() - connectStart;
    const stats = await request<{ connections: number }>(child, { type: 'stats' }, 'stats');
    if (stats.connections !== subscribers) throw new Error(`server holds ${stats.connections} sockets`);

    const fanoutMs: number[] = [];
    // The server's own share: the loop that writes the frame to every socket.
    const serverLoopMs: number[] = [];
    for (let r = 0; r < rounds; r++) {
      received = 0;
      expected = subscribers;
      const done = new Promise<void>((resolve) => {
        onAll = resolve;
      });
      const start = performance.now();
      child.send({ type: 'publish', issuer: ISSUER, currency: tickerToCurrency(TICKER) });
      await withTimeout(done, 30_000, 'fan-out');
      fanoutMs.push(Math.round((lastAt - start) * 10) / 10);
      const hub = await request<{ lastFanOutMs: number }>(child, { type: 'stats' }, 'stats');
      serverLoopMs.push(Math.round(hub.lastFanOutMs * 10) / 10);
      await new Promise((r) => setTimeout(r, 200));
    }
    const { rss } = await request<{ rss: number }>(child, { type: 'rss' }, 'rss');
    const sorted = [...fanoutMs].sort((a, b) => a - b);
    const fanoutMedianMs = sorted[Math.floor(sorted.length / 2)]!;
    const fanoutMaxMs = sorted[sorted.length - 1]!;
    const serverRssMb = Math.round(rss / 1024 / 1024);
    return {
      name: 'socket fan-out',
      subscribers,
      connectMs: Math.round(connectMs),
      fanoutMs,
      fanoutMedianMs,
      fanoutMaxMs,
      serverLoopMs,
      serverRssMb,
      ok: fanoutMedianMs <= 250 && serverRssMb < 1024,
    };
  } finally {
    for (const ws of sockets) ws.terminate();
    if (child.connected) child.send({ type: 'exit' });
    await withTimeout(
      new Promise<void>((resolve) =>
        child.exitCode !== null ? resolve() : child.once('exit', () => resolve()),
      ),
      10_000,
      'server exit',
    ).catch(() => child.kill('SIGKILL'));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchSocketFanout({ subscribers: Number(process.argv[2] ?? 5000) });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (!result.ok) process.exitCode = 1;
}
