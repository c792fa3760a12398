import WebSocket from 'ws';
import type { Client, LedgerStream } from 'xrpl';
import { until } from './wait';

// Issue 40's hot launch, the page side: `n` browsers on the token's page, each a live socket
// subscribed to the token as the web app's socket is (/api/auth/socket-token, then /ws), receiving
// every `new_trade`. Each arrival is timed against the moment the trade's ledger closed, as this
// process saw the ledger stream's `ledgerClosed` — the same process and event loop as the server,
// so a figure is never flattered by a second machine's idle cores.

export interface SocketFigures {
  sockets: number;
  /** Trades every socket should have received (the burst's executed trades). */
  trades: number;
  /** (socket, trade) pairs never received within the wait. */
  missing: number;
  /** (socket, trade) pairs received more than once. */
  duplicates: number;
  /** From the trade's ledger close to its arrival on a socket, over every (socket, trade) pair. */
  latencyMs: { median: number; p99: number; max: number };
}

export interface TradeWatchers {
  /**
   * Waits (up to `timeoutMs`) until every socket has every trade of `trades` (hash → the ledger it
   * was validated in), then closes the sockets and answers the figures.
   */
  finish(trades: Map<string, number>, timeoutMs?: number): Promise<SocketFigures>;
  close(): void;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;

/** Opens `n` sockets on `base` subscribed to the token, and starts timing the ledger's closes. */
export async function watchTrades(
  base: string,
  client: Client,
  token: { currency: string; issuer: string },
  n: number,
): Promise<TradeWatchers> {
  const closedAt = new Map<number, number>();
  const onClose = (l: LedgerStream) => closedAt.set(l.ledger_index, performance.now());
  client.on('ledgerClosed', onClose);
  await client.request({ command: 'subscribe', streams: ['ledger'] });

  // One anonymous socket token serves them all, as one visitor's tabs share it.
  const { token: socketToken } = (await (await fetch(`${base}/api/auth/socket-token`)).json()) as {
    token: string;
  };
  const url = `${base.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(socketToken)}`;
  const arrivals: Array<Map<string, number[]>> = [];
  const sockets: WebSocket[] = [];
  const open = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const got = new Map<string, number[]>();
      arrivals[i] = got;
      const ws = new WebSocket(url);
      sockets[i] = ws;
      ws.on('error', reject);
      ws.on('open', () =>
        ws.send(JSON.stringify({ event: 'subscribe', token: token.currency, issuer: token.issuer })),
      );
      ws.on('message', (raw: Buffer) => {
        const now = performance.now();
        const msg = JSON.parse(raw.toString()) as { event: string; data?: { hash?: string } };
        if (msg.event === 'subscribed') resolve();
        else if (msg.event === 'new_trade' && msg.data?.hash)
          got.set(msg.data.hash, [...(got.get(msg.data.hash) ?? []), now]);
      });
    });
  // A hundred at a time: a thousand handshakes at once would measure the setup, not the launch.
  for (let i = 0; i < n; i += 100)
    await Promise.all(Array.from({ length: Math.min(100, n - i) }, (_, j) => open(i + j)));

  const close = () => {
    client.off('ledgerClosed', onClose);
    for (const ws of sockets) ws.terminate();
  };
  return {
    close,
    async finish(trades, timeoutMs = 30_000) {
      const complete = () => arrivals.every((got) => [...trades.keys()].every((h) => got.has(h)));
      await until(complete, { timeoutMs, what: 'every trade on every socket' }).catch(() => undefined);
      close();
      let missing = 0;
      let duplicates = 0;
      const latencies: number[] = [];
      for (const got of arrivals)
        for (const [hash, ledger] of trades) {
          const times = got.get(hash);
          if (!times) {
            missing++;
            continue;
          }
          if (times.length > 1) duplicates++;
          const closed = closedAt.get(ledger);
          if (closed !== undefined) latencies.push(Math.max(0, times[0]! - closed));
        }
      latencies.sort((a, b) => a - b);
      return {
        sockets: n,
        trades: trades.size,
        missing,
        duplicates,
        latencyMs: {
          median: Math.round(percentile(latencies, 50)),
          p99: Math.round(percentile(latencies, 99)),
          max: Math.round(latencies[latencies.length - 1] ?? 0),
        },
      };
    },
  };
}
