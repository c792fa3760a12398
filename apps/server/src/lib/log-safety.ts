import type { FastifyRequest } from 'fastify';
import { stdSerializers } from 'pino';
import { scrubLogLine } from './secrets';

// What the logs may carry. A failed query's parameters can include a wallet's sealed secret, its
// nonce and wrapped data key, and a request URL can carry a socket token or a sign-in link token:
// none of them may reach a log line, whatever level or transport is configured.

/** Query parameters whose values are credentials. */
const SECRET_QUERY_PARAMS = new Set(['token', 'code', 'secret', 'seed']);

/** `/ws?token=abc&x=1` → `/ws?token=[redacted]&x=1`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = decodeURIComponent(eq === -1 ? pair : pair.slice(0, eq)).toLowerCase();
      return SECRET_QUERY_PARAMS.has(key) && eq !== -1 ? `${pair.slice(0, eq)}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

interface QueryFailure {
  query: string;
  params: unknown;
  cause?: unknown;
}

const isQueryFailure = (e: unknown): e is QueryFailure =>
  typeof e === 'object' && e !== null && 'query' in e && 'params' in e && typeof e.query === 'string';

/** `insert into "wallets" (...) values ($1, ...)` → `insert into "wallets"`: what ran, never with what. */
function statementName(query: string): string {
  const q = query.replace(/\s+/g, ' ').trim();
  const head = /^(insert into|update|delete from)\s+("?[\w.]+"?(?:\."?[\w]+"?)?)/i.exec(q);
  if (head) return `${head[1]!.toLowerCase()} ${head[2]}`;
  const from = /^(select|with)\b.*?\bfrom\s+("?[\w.]+"?(?:\."?[\w]+"?)?)/i.exec(q);
  if (from) return `${from[1]!.toLowerCase()} … from ${from[2]}`;
  return q.split(' ', 1)[0]?.toLowerCase() ?? 'query';
}

/** The database's error code (PostgreSQL SQLSTATE) and the statement, nothing else. */
function describeQueryFailure(e: QueryFailure) {
  const cause = e.cause as { code?: unknown; constraint?: unknown; table?: unknown } | undefined;
  return {
    type: 'DatabaseError',
    message: 'database query failed',
    code: typeof cause?.code === 'string' ? cause.code : undefined,
    constraint: typeof cause?.constraint === 'string' ? cause.constraint : undefined,
    statement: statementName(e.query),
  };
}

type SerializedError = { [key: string]: unknown; type: string; message: string; stack: string };

/** pino `err` serializer: database failures (anywhere in the cause chain) lose parameters and values. */
function safeErrorSerializer(err: unknown): SerializedError {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (isQueryFailure(e)) {
      const outer = err === e ? undefined : (err as { message?: unknown }).message;
      // No stack either: its first line is the failed query's message, parameters included.
      return {
        ...describeQueryFailure(e),
        stack: '',
        ...(typeof outer === 'string' ? { context: outer } : {}),
      };
    }
  }
  if (err instanceof Error) {
    const s = stdSerializers.err(err) as SerializedError;
    // PostgreSQL puts the conflicting values in `detail` ("Key (address)=(r…) already exists").
    delete s.detail;
    delete s.where;
    return s;
  }
  return { type: typeof err, message: String(err), stack: '' };
}

/** pino `req` serializer: Fastify's fields, with credentials in the query string redacted. */
function safeRequestSerializer(req: FastifyRequest | { method?: string; url?: string }) {
  const r = req as FastifyRequest;
  return {
    method: r.method,
    url: typeof r.url === 'string' ? redactUrl(r.url) : r.url,
    host: r.host,
    remoteAddress: r.ip,
    remotePort: r.socket?.remotePort,
  };
}

export const safeSerializers = { err: safeErrorSerializer, req: safeRequestSerializer };

/** Where pino writes its lines: stdout's sonic-boom, pino-pretty's stream, a test's buffer. */
export interface LogDestination {
  write(chunk: string): unknown;
  flushSync?(): void;
  flush?(cb?: (err?: Error | null) => void): void;
}

/**
 * Every line on its way to `dest` without secrets (lib/secrets.ts scrubLogLine): whatever a future
 * log call passes — a request body, an error quoting its input — a seed never reaches the output.
 */
export function scrubbingStream(dest: LogDestination): LogDestination {
  return {
    write: (chunk: string) => dest.write(scrubLogLine(String(chunk))),
    ...(dest.flushSync ? { flushSync: () => dest.flushSync!() } : {}),
    ...(dest.flush ? { flush: (cb?: (err?: Error | null) => void) => dest.flush!(cb) } : {}),
  };
}
