import pg from 'pg';
import type { Database } from '../db/client';
import { TopicRegistry, type EventBus } from './event-bus';

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; stay safely below. */
export const NOTIFY_MAX_BYTES = 7900;
/** Larger payloads go through the event_payloads table, up to this size; beyond it publish() rejects. */
const EVENT_MAX_BYTES = 1024 * 1024;

interface Envelope {
  /** topic */
  t: string;
  /** payload inline … */
  p?: unknown;
  /** … or the id of its event_payloads row */
  r?: number;
}

export interface PostgresBusOptions {
  database: Database;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Reconnect delay of the LISTEN connection after it drops (doubles to 30 s). */
  reconnectBaseMs?: number;
}

/**
 * LISTEN/NOTIFY channels are per database, not per schema, so the channel is prefixed with the
 * schema: test files (one schema each) sharing one database don't hear each other.
 */
export const channelName = (schema: string): string => `${schema}_ledgerpad_events`.slice(0, 63);

/**
 * Event bus over PostgreSQL LISTEN/NOTIFY: one dedicated connection listens on the channel and
 * dispatches by topic locally; publish() is a pg_notify on the pool. Every instance (the publisher
 * too) receives each event exactly once from the notification, so there is one delivery path.
 */
export async function createPostgresBus(opts: PostgresBusOptions): Promise<EventBus> {
  const { database, log } = opts;
  if (!database.postgres) throw new Error('the PostgreSQL event bus needs a PostgreSQL database');
  const { url, schema } = database.postgres;
  const channel = channelName(schema);
  const registry = new TopicRegistry((err, topic) => log?.error({ err, topic }, 'event handler failed'));
  let client: pg.Client | undefined;
  let closed = false;
  let attempt = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let sinceCleanup = 0;

  const deliver = async (raw: string | undefined) => {
    if (!raw) return;
    let env: Envelope;
    try {
      env = JSON.parse(raw) as Envelope;
    } catch {
      log?.warn({ channel }, 'ignored a malformed notification');
      return;
    }
    if (typeof env.t !== 'string' || !registry.has(env.t)) return;
    let payload = env.p;
    if (typeof env.r === 'number') {
      const rows = await database.sql.query<{ payload: string }>(
        'select payload from event_payloads where id = $1',
        [env.r],
      );
      if (!rows[0]) {
        log?.warn({ id: env.r }, 'large event payload already cleaned up');
        return;
      }
      payload = JSON.parse(rows[0].payload);
    }
    registry.dispatch(env.t, payload);
  };

  const connect = async (): Promise<void> => {
    // Named so operators (and the reconnect test) can find the listener in pg_stat_activity.
    const c = new pg.Client({ connectionString: url, application_name: `ledgerpad-events:${schema}` });
    c.on('notification', (msg) => {
      if (msg.channel !== channel) return;
      deliver(msg.payload).catch((err: unknown) => log?.error({ err }, 'event delivery failed'));
    });
    c.on('error', (err) => {
      log?.warn({ err }, 'event bus connection lost; reconnecting');
      lost(c);
    });
    c.on('end', () => lost(c));
    try {
      await c.connect();
      await c.query(`LISTEN "${channel}"`);
    } catch (err) {
      c.end().catch(() => {});
      throw err;
    }
    client = c;
    attempt = 0;
  };

  // Events published while the LISTEN connection is down are missed: live events are best-effort
  // and clients refetch state on reconnect (docs/realtime.md).
  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = undefined;
    c.end().catch(() => {});
    scheduleReconnect();
  };

  const scheduleReconnect = () => {
    if (closed || reconnectTimer) return;
    const delay = Math.min(30_000, (opts.reconnectBaseMs ?? 1000) * 2 ** attempt++);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      if (closed) return;
      connect().catch((err: unknown) => {
        log?.warn({ err }, 'event bus reconnect failed');
        scheduleReconnect();
      });
    }, delay);
  };

  // Notifications leave in publish order, as few statements as possible, on the listening
  // connection: a statement per event through the shared pool waited behind every other query, and
  // a hot launch's ledger of 600 trades, announced one after another, reached the sockets 10 s after
  // its close (docs/realtime.md).
  // Whatever is queued while a statement runs goes in the next one, so statements never overlap
  // and a later event never overtakes an earlier one. PostgreSQL delivers identical payloads on one
  // channel in one transaction once, so a repeated message waits for the next statement.
  const queue: Array<{ message: string; resolve: () => void; reject: (err: unknown) => void }> = [];
  let flushing = false;
  const flush = async () => {
    flushing = true;
    try {
      while (queue.length > 0) {
        const seen = new Set<string>();
        let n = 0;
        while (n < queue.length && !seen.has(queue[n]!.message)) seen.add(queue[n++]!.message);
        const batch = queue.splice(0, n);
        const text = 'select pg_notify($1, m) from unnest($2::text[]) as m';
        const values = [channel, batch.map((e) => e.message)];
        try {
          // On the LISTEN connection, which is otherwise idle: through the pool a ledger's
          // announcement queued behind a burst's statements (up to ~45 waiting at a 300-buy launch).
          // While that connection is being re-established, through the pool as before.
          const listener = client;
          if (!listener) await database.sql.query(text, values);
          else
            await listener.query(text, values).catch(async () => {
              // The listening connection failed under the statement (killed, dropped): once more
              // through the pool, whose error, if any, is the batch's.
              await database.sql.query(text, values);
            });
          for (const e of batch) e.resolve();
        } catch (err) {
          for (const e of batch) e.reject(err);
        }
      }
    } finally {
      flushing = false;
    }
  };
  const notify = (message: string) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ message, resolve, reject });
      if (!flushing) void flush();
    });

  await connect();

  return {
    kind: 'postgres',
    async publish(topic, payload) {
      if (closed) throw new Error('event bus is closed');
      let message = JSON.stringify({ t: topic, p: payload } satisfies Envelope);
      const bytes = Buffer.byteLength(message);
      if (bytes > NOTIFY_MAX_BYTES) {
        if (bytes > EVENT_MAX_BYTES) {
          throw new Error(`event on ${topic} is ${bytes} bytes; the limit is ${EVENT_MAX_BYTES}`);
        }
        const [row] = await database.sql.query<{ id: string | number }>(
          'insert into event_payloads (payload) values ($1) returning id',
          [JSON.stringify(payload)],
        );
        message = JSON.stringify({ t: topic, r: Number(row!.id) } satisfies Envelope);
        // Readers fetch the row within milliseconds; keep the table small without a separate job.
        if (++sinceCleanup >= 100) {
          sinceCleanup = 0;
          await database.sql.query(
            "delete from event_payloads where created_at < now() - interval '5 minutes'",
          );
        }
      }
      await notify(message);
    },
    subscribe: (topic, handler) => registry.add(topic, handler),
    async close() {
      closed = true;
      clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      registry.clear();
      const c = client;
      client = undefined;
      if (c) await c.end().catch(() => {});
    },
  };
}
