import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { Socket } from 'node:net';
import type { Client, LedgerStream } from 'xrpl';
import { until } from './wait';

// Issue 40's hot launch, the page side: `n` browsers on the token's page, each a live socket
// subscribed to the token as the web app's socket is (/api/auth/socket-token, then /ws), receiving
// every `new_trade`. Each arrival is timed against the moment the trade's ledger closed, as this
// process saw the ledger stream's `ledgerClosed`, on the same machine as the server, so a figure is
// never flattered by a second machine's idle cores.
//
// Each socket is a real WebSocket (RFC 6455 handshake, masked frames out, pings answered) read by
// `LeanSocket` below rather than the ws package: 1,000 browsers each parse their own ~100 messages a
// ledger, but one process standing in for all of them parsed 100,000 a ledger through ws's per-message
// events (~4.5 µs each, ~0.45 of this machine's two cores), and timed a socket's trades only when its
// turn came, up to ~0.5 s after the bytes had arrived. A message is timed when its bytes are read.

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

const NEW_TRADE = Buffer.from('{"event":"new_trade","data":{');
const HASH = Buffer.from('"hash":"');
const QUOTE = 0x22;

/**
 * The hash of a `new_trade` message in `buf[start, end)` as the hub writes it
 * (`{"event":"new_trade","data":{…}}`, its one `"hash"` key a hex string), else undefined and the
 * caller parses the JSON.
 */
function tradeHash(buf: Buffer, start: number, end: number): string | undefined {
  if (end - start < NEW_TRADE.length || NEW_TRADE.compare(buf, start, start + NEW_TRADE.length))
    return undefined;
  const at = buf.indexOf(HASH, start + NEW_TRADE.length);
  if (at < 0 || at >= end) return undefined;
  const close = buf.indexOf(QUOTE, at + HASH.length);
  return close < 0 || close >= end ? undefined : buf.toString('latin1', at + HASH.length, close);
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
  const arrivals: Array<Map<string, number>> = [];
  const repeated: Array<Set<string>> = [];
  const sockets: LeanSocket[] = [];
  const open = async (i: number) => {
    // Each trade's first arrival; one that comes again is noted in `repeated`.
    const got = new Map<string, number>();
    const again = new Set<string>();
    arrivals[i] = got;
    repeated[i] = again;
    let subscribed!: () => void;
    let refused!: (err: Error) => void;
    const ready = new Promise<void>((resolve, reject) => ((subscribed = resolve), (refused = reject)));
    const trade = (hash: string, now: number) => {
      if (got.has(hash)) again.add(hash);
      else got.set(hash, now);
    };
    const ws = await LeanSocket.connect(url, {
      trade,
      other(msg, now) {
        if (msg.event === 'subscribed') subscribed();
        else if (msg.event === 'error') refused(new Error(`subscribe refused: ${JSON.stringify(msg)}`));
        else if (msg.event === 'new_trade' && msg.data?.hash) trade(msg.data.hash, now);
      },
    });
    sockets[i] = ws;
    ws.sendText(JSON.stringify({ event: 'subscribe', token: token.currency, issuer: token.issuer }));
    await ready;
  };
  // A hundred at a time: a thousand handshakes at once would measure the setup, not the launch.
  for (let i = 0; i < n; i += 100)
    await Promise.all(Array.from({ length: Math.min(100, n - i) }, (_, j) => open(i + j)));

  const close = () => {
    client.off('ledgerClosed', onClose);
    for (const ws of sockets) ws?.destroy();
  };
  return {
    close,
    async finish(trades, timeoutMs = 30_000) {
      const hashes = [...trades.keys()];
      const complete = () => arrivals.every((got) => hashes.every((h) => got.has(h)));
      await until(complete, { timeoutMs, what: 'every trade on every socket' }).catch(() => undefined);
      close();
      let missing = 0;
      let duplicates = 0;
      const latencies: number[] = [];
      arrivals.forEach((got, i) => {
        for (const [hash, ledger] of trades) {
          const first = got.get(hash);
          if (first === undefined) {
            missing++;
            continue;
          }
          if (repeated[i]!.has(hash)) duplicates++;
          const closed = closedAt.get(ledger);
          if (closed !== undefined) latencies.push(Math.max(0, first - closed));
        }
      });
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

interface LeanHandlers {
  /** A `new_trade` message's hash, and when the bytes that completed it were read. */
  trade(hash: string, now: number): void;
  /** Any other message, parsed. */
  other(msg: { event: string; data?: { hash?: string } }, now: number): void;
}

const TEXT = 0x1;
const CLOSE = 0x8;
const PING = 0x9;
const PONG = 0xa;

/**
 * A WebSocket client reduced to what a page socket does: the RFC 6455 handshake, masked text frames
 * out, pongs for the server's pings, and unmasked frames in (the hub never fragments a message:
 * `writeFramed` writes whole frames; a fragment fails the socket). A `new_trade` frame's hash is read
 * from its bytes (`tradeHash`); every other message is parsed as JSON.
 */
class LeanSocket {
  private pending: Buffer | undefined;

  private constructor(
    private readonly socket: Socket,
    private readonly on: LeanHandlers,
  ) {}

  static connect(url: string, on: LeanHandlers): Promise<LeanSocket> {
    return new Promise((resolve, reject) => {
      const key = randomBytes(16).toString('base64');
      const req = request(url.replace(/^ws/, 'http'), {
        headers: {
          Connection: 'Upgrade',
          Upgrade: 'websocket',
          'Sec-WebSocket-Version': '13',
          'Sec-WebSocket-Key': key,
        },
      });
      req.on('upgrade', (res, socket, head) => {
        if (res.statusCode !== 101) return reject(new Error(`socket refused: ${res.statusCode}`));
        socket.setNoDelay(true);
        const ws = new LeanSocket(socket, on);
        socket.on('data', (chunk: Buffer) => ws.read(chunk, performance.now()));
        socket.on('error', () => undefined);
        if (head.length) ws.read(head, performance.now());
        resolve(ws);
      });
      req.on('response', (res) => reject(new Error(`socket refused: ${res.statusCode}`)));
      req.on('error', reject);
      req.end();
    });
  }

  sendText(text: string): void {
    this.write(TEXT, Buffer.from(text));
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** A client's frame: FIN, the opcode, the mask bit and a masked payload. */
  private write(opcode: number, payload: Buffer): void {
    const len = payload.length;
    const header = len < 126 ? Buffer.alloc(2) : Buffer.alloc(4);
    header[0] = 0x80 | opcode;
    if (len < 126) header[1] = 0x80 | len;
    else {
      header[1] = 0x80 | 126;
      header.writeUInt16BE(len, 2);
    }
    const mask = randomBytes(4);
    const masked = Buffer.alloc(len);
    for (let i = 0; i < len; i++) masked[i] = payload[i]! ^ mask[i & 3]!;
    this.socket.write(Buffer.concat([header, mask, masked]));
  }

  private read(chunk: Buffer, now: number): void {
    const buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    let at = 0;
    while (buf.length - at >= 2) {
      const b0 = buf[at]!;
      const opcode = b0 & 0x0f;
      let len = buf[at + 1]! & 0x7f;
      let start = at + 2;
      if (len === 126) {
        if (buf.length - at < 4) break;
        len = buf.readUInt16BE(at + 2);
        start = at + 4;
      } else if (len === 127) {
        if (buf.length - at < 10) break;
        len = Number(buf.readBigUInt64BE(at + 2));
        start = at + 10;
      }
      if (buf.length < start + len) break;
      const end = start + len;
      at = end;
      if (!(b0 & 0x80)) throw new Error('the hub sent a fragmented message');
      if (opcode === TEXT) {
        const hash = tradeHash(buf, start, end);
        if (hash) this.on.trade(hash, now);
        else this.on.other(JSON.parse(buf.toString('utf8', start, end)) as { event: string }, now);
      } else if (opcode === PING) this.write(PONG, Buffer.from(buf.subarray(start, end)));
      else if (opcode === CLOSE) this.socket.end();
    }
    if (at < buf.length) this.pending = Buffer.from(buf.subarray(at));
  }
}
