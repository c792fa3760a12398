import type { WebSocket } from 'ws';
import {
  SOCKET_MAX_SUBSCRIPTIONS,
  socketClientMessageSchema,
  socketSubscriptionSchema,
  type NewTrade,
  type OrderUpdated,
  type SocketServerMessage,
} from '@ledgerpad/shared';
import type { EventBus } from './event-bus';

import { tradeTopic, userTopic } from './topics';

export interface HubOptions {
  bus: EventBus;
  /** Close a socket whose unsent data exceeds this many bytes (a slow consumer). */
  maxBufferedBytes: number;
  heartbeatMs: number;
  maxSubscriptions?: number;
  /** Client messages allowed per second per socket; beyond it the socket is closed. */
  maxMessagesPerSecond?: number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

interface Connection {
  ws: WebSocket;
  userId: number | null;
  /** The session its token was issued to (null: anonymous). */
  sessionId: number | null;
  /** Trade topics this socket subscribed to (the user topic is not counted). */
  topics: Set<string>;
  alive: boolean;
  windowStart: number;
  messagesInWindow: number;
}

interface TopicEntry {
  conns: Set<Connection>;
  unsubscribe: () => void;
  /** Events heard this turn of the event loop, fanned out together at its end. */
  pending: unknown[];
}

/**
 * One final, unmasked text frame (RFC 6455 §5.2) around `payload`: byte for byte what ws's Sender
 * writes for `ws.send(text)` on a socket without compression, which ours never negotiate.
 */
export function textFrame(payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81; // FIN + opcode 1 (text)
  if (length < 126) frame[1] = length;
  else if (length < 65536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  payload.copy(frame, header);
  return frame;
}

/** The parts of ws's WebSocket a pre-framed write needs (not in its public types). */
interface WsInternals {
  _socket?: { write(chunk: Buffer): boolean } | null;
  _sender?: { _state: number } | null;
  extensions: string;
}

/**
 * Writes an already framed message straight to the socket when ws would write it unchanged: no
 * compression negotiated and nothing queued in ws's Sender (its state DEFAULT, 0), so the frame
 * cannot overtake an earlier one. Otherwise false, and the caller sends the payload through ws.
 */
function writeFramed(ws: WebSocket, frame: Buffer): boolean {
  const inner = ws as unknown as WsInternals;
  const socket = inner._socket;
  if (!socket || inner._sender?._state !== 0 || inner.extensions !== '') return false;
  socket.write(frame);
  return true;
}

/** Sockets written per turn of the event loop by a fan-out (docs/realtime.md). */
export const FAN_OUT_SLICE = 2_500;

/** Close code 1008: policy violation (flooding). Slow consumers are terminated without a close frame. */
const CLOSE_POLICY = 1008;
/** Application close code: the socket's session ended (sign-out); the client reconnects anonymously. */
const CLOSE_SIGNED_OUT = 4401;

/**
 * Holds this instance's sockets and their topics. Subscribes to a bus topic while at least one
 * local socket wants it, so an instance only hears what its own clients need. A bus event is
 * serialised once and written to every socket of the topic.
 */
export class SocketHub {
  private readonly topics = new Map<string, TopicEntry>();
  private readonly conns = new Set<Connection>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly maxSubscriptions: number;
  private readonly maxMessagesPerSecond: number;
  /** Counters for tests, the bench and health checks. */
  readonly stats = {
    droppedSlow: 0,
    droppedDead: 0,
    /** Messages delivered to sockets. */
    sent: 0,
    /** Deliveries of a fan-out: one per socket, however many messages it carried. */
    fanOutWrites: 0,
    lastFanOutMs: 0,
    lastFanOutSockets: 0,
  };

  constructor(private readonly opts: HubOptions) {
    this.maxSubscriptions = opts.maxSubscriptions ?? SOCKET_MAX_SUBSCRIPTIONS;
    this.maxMessagesPerSecond = opts.maxMessagesPerSecond ?? 20;
    this.heartbeat = setInterval(() => this.beat(), opts.heartbeatMs);
    this.heartbeat.unref();
  }

  get connectionCount(): number {
    return this.conns.size;
  }

  /** Takes ownership of an accepted socket. */
  accept(ws: WebSocket, userId: number | null, sessionId: number | null = null): void {
    const conn: Connection = {
      ws,
      userId,
      sessionId,
      topics: new Set(),
      alive: true,
      windowStart: Date.now(),
      messagesInWindow: 0,
    };
    this.conns.add(conn);
    if (userId !== null) this.join(conn, userTopic(userId));
    ws.on('pong', () => {
      conn.alive = true;
    });
    ws.on('message', (data, isBinary) => this.onMessage(conn, data, isBinary));
    ws.on('close', () => this.drop(conn));
    ws.on('error', () => this.drop(conn));
    this.send(conn, JSON.stringify({ event: 'ready', data: { userId } } satisfies SocketServerMessage));
  }

  async publishTrade(trade: NewTrade): Promise<void> {
    const frame = { event: 'new_trade', data: trade } satisfies SocketServerMessage;
    const topics = new Set<string>();
    if (trade.baseIssuer) topics.add(tradeTopic(trade.baseCurrency, trade.baseIssuer));
    if (trade.quoteIssuer) topics.add(tradeTopic(trade.quoteCurrency, trade.quoteIssuer));
    await Promise.all([...topics].map((t) => this.opts.bus.publish(t, frame)));
  }

  async publishOrderUpdate(userId: number, update: OrderUpdated): Promise<void> {
    const frame = { event: 'orderUpdated', data: update } satisfies SocketServerMessage;
    await this.opts.bus.publish(userTopic(userId), frame);
  }

  /** Closes this instance's sockets of sessions that ended; the number closed. */
  closeSessions(sessionIds: Iterable<number>): number {
    const ended = new Set(sessionIds);
    let closed = 0;
    for (const conn of [...this.conns]) {
      if (conn.sessionId === null || !ended.has(conn.sessionId)) continue;
      conn.ws.close(CLOSE_SIGNED_OUT, 'signed out');
      this.drop(conn);
      closed++;
    }
    return closed;
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const conn of [...this.conns]) {
      conn.ws.close(1001, 'server shutting down');
      this.drop(conn);
    }
  }

  private onMessage(conn: Connection, data: unknown, isBinary: boolean): void {
    const now = Date.now();
    if (now - conn.windowStart >= 1000) {
      conn.windowStart = now;
      conn.messagesInWindow = 0;
    }
    if (++conn.messagesInWindow > this.maxMessagesPerSecond) {
      this.error(conn, 'rate_limited', 'Too Many Requests: too many socket messages');
      conn.ws.close(CLOSE_POLICY, 'too many messages');
      this.drop(conn);
      return;
    }
    if (isBinary) return this.error(conn, 'invalid_message', 'Messages must be JSON text');
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(data));
    } catch {
      return this.error(conn, 'invalid_json', 'Messages must be JSON: { "event": ..., ... }');
    }
    const msg = socketClientMessageSchema.safeParse(parsed);
    if (!msg.success) {
      const event = (parsed as { event?: unknown } | null)?.event;
      return typeof event === 'string' && event !== 'subscribe' && event !== 'unsubscribe'
        ? this.error(conn, 'unknown_event', `Unknown event: ${event.slice(0, 40)}`)
        : this.error(
            conn,
            'invalid_message',
            'Expected { event: "subscribe" | "unsubscribe", token, issuer }',
          );
    }
    const sub = socketSubscriptionSchema.safeParse({
      token: msg.data.token ?? msg.data.data?.token,
      issuer: msg.data.issuer ?? msg.data.data?.issuer,
    });
    if (!sub.success) {
      return this.error(conn, 'invalid_message', sub.error.issues[0]?.message ?? 'Invalid subscription');
    }
    let topic: string;
    try {
      topic = tradeTopic(sub.data.token, sub.data.issuer);
    } catch {
      return this.error(conn, 'invalid_message', 'token must be a currency code');
    }
    if (msg.data.event === 'subscribe') {
      if (!conn.topics.has(topic)) {
        if (conn.topics.size >= this.maxSubscriptions) {
          return this.error(
            conn,
            'too_many_subscriptions',
            `At most ${this.maxSubscriptions} subscriptions per socket`,
          );
        }
        conn.topics.add(topic);
        this.join(conn, topic);
      }
      this.send(conn, JSON.stringify({ event: 'subscribed', data: sub.data } satisfies SocketServerMessage));
    } else {
      if (conn.topics.delete(topic)) this.leave(conn, topic);
      this.send(
        conn,
        JSON.stringify({ event: 'unsubscribed', data: sub.data } satisfies SocketServerMessage),
      );
    }
  }

  private join(conn: Connection, topic: string): void {
    let entry = this.topics.get(topic);
    if (!entry) {
      const created: TopicEntry = { conns: new Set(), unsubscribe: () => {}, pending: [] };
      created.unsubscribe = this.opts.bus.subscribe(topic, (payload) => this.queue(created, payload));
      entry = created;
      this.topics.set(topic, entry);
    }
    entry.conns.add(conn);
  }

  private leave(conn: Connection, topic: string): void {
    const entry = this.topics.get(topic);
    if (!entry) return;
    entry.conns.delete(conn);
    if (entry.conns.size === 0) {
      entry.unsubscribe();
      this.topics.delete(topic);
    }
  }

  /**
   * A ledger's trades reach a topic as one event each, all in one turn of the event loop: they are
   * gathered and written to each socket together at the end of that callback. Each is still its own
   * WebSocket message, but a socket gets one write of all of them instead of one per trade — a hot
   * launch's ledger of 200 trades to 1,000 page sockets was 200,000 write calls (10–25 µs each,
   * seconds of CPU per ledger, and as many write requests held on the heap while a reader lagged).
   */
  private queue(entry: TopicEntry, payload: unknown): void {
    entry.pending.push(payload);
    // process.nextTick runs once the current callback and every promise job it queued are done:
    // the indexer's announce loop (a chain of promise jobs) or a socket chunk's notifications have
    // all been queued by then, and nothing else (I/O, timers) has run in between.
    if (entry.pending.length === 1) process.nextTick(() => this.fanOut(entry));
  }

  private fanOut(entry: TopicEntry): void {
    const payloads = entry.pending.splice(0);
    if (payloads.length === 0) return;
    // Serialised, UTF-8 encoded and framed once for all sockets: each socket gets one write of the
    // same buffer (ws.send would build a header and write twice per socket, per message).
    const start = performance.now();
    const data = payloads.map((p) => Buffer.from(JSON.stringify(p)));
    const frames = data.length === 1 ? textFrame(data[0]!) : Buffer.concat(data.map(textFrame));
    // A socket dropped during the loop (a slow consumer) leaves the set; iterating a Set while
    // deleting visited entries is safe, so no copy of 10,000 entries per frame.
    const sockets = entry.conns.values();
    let sent = 0;
    // In slices of FAN_OUT_SLICE sockets (10–25 µs each, nearly all the write system call),
    // yielding to the event loop between them: 10,000 subscribers would otherwise hold every request
    // for 100–250 ms. (1,000 per slice added ~25 ms to a 10,000-socket fan-out; 2,500 nothing
    // measurable: docs/realtime.md.) Each socket still gets the frames in publish order: the slices of two fan-outs
    // alternate in the immediate queue, the earlier one's slice first, and a socket that
    // subscribes meanwhile joins the end of the set, where the earlier fan-out's slices reach it first.
    const slice = () => {
      let n = 0;
      for (let next = sockets.next(); !next.done; next = sockets.next()) {
        this.sendMany(next.value, data, frames);
        this.stats.fanOutWrites++;
        sent++;
        if (++n === FAN_OUT_SLICE) {
          setImmediate(slice);
          return;
        }
      }
      this.stats.lastFanOutMs = performance.now() - start;
      this.stats.lastFanOutSockets = sent;
    };
    slice();
  }

  /** Messages already framed together in `frames`; through ws one by one where a direct write can't be made. */
  private sendMany(conn: Connection, data: Buffer[], frames: Buffer): void {
    if (data.length === 1) return this.send(conn, data[0]!, frames);
    const { ws } = conn;
    if (ws.readyState !== ws.OPEN) return;
    if (this.dropIfSlow(conn)) return;
    if (!writeFramed(ws, frames)) for (const d of data) ws.send(d, { binary: false });
    this.stats.sent += data.length;
  }

  /** A client that doesn't read would make us buffer without bound: drop it instead. */
  private dropIfSlow(conn: Connection): boolean {
    if (conn.ws.bufferedAmount <= this.opts.maxBufferedBytes) return false;
    // It reconnects (spec: exponential backoff) and refetches.
    this.stats.droppedSlow++;
    conn.ws.terminate();
    this.drop(conn);
    return true;
  }

  private send(conn: Connection, data: string | Buffer, frame?: Buffer): void {
    const { ws } = conn;
    if (ws.readyState !== ws.OPEN) return;
    if (this.dropIfSlow(conn)) return;
    if (!frame || !writeFramed(ws, frame)) ws.send(data, { binary: false });
    this.stats.sent++;
  }

  private error(conn: Connection, code: string, message: string): void {
    this.send(
      conn,
      JSON.stringify({ event: 'error', data: { code, message } } satisfies SocketServerMessage),
    );
  }

  private beat(): void {
    for (const conn of [...this.conns]) {
      if (!conn.alive) {
        this.stats.droppedDead++;
        conn.ws.terminate();
        this.drop(conn);
        continue;
      }
      conn.alive = false;
      try {
        conn.ws.ping();
      } catch {
        this.drop(conn);
      }
    }
  }

  private drop(conn: Connection): void {
    if (!this.conns.delete(conn)) return;
    for (const topic of conn.topics) this.leave(conn, topic);
    conn.topics.clear();
    if (conn.userId !== null) this.leave(conn, userTopic(conn.userId));
  }
}
