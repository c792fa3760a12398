import { Client } from 'xrpl';
import { basicAuthorization, type AdminCredentials } from 'xrpl-standalone/access';
import { RECONNECT_BASE_MS, RECONNECT_CAP_MS } from '@ledgerpad/shared';
import type { Config } from '../config';
import { LedgerLiveness, type LedgerHealth } from './liveness';
import type { LocalLedgerRequest } from './local-ledger';

export type { LedgerHealth } from './liveness';

/** The ledger connection as the app sees it: built in main.ts (or by tests), usually an XrplConnection. */
export interface LedgerConnection {
  network: Config['XRPL_NETWORK'];
  url: string;
  isConnected(): boolean;
  /** Connected, answering and keeping up (ledger/liveness.ts); without it, connected is all that is known. */
  health?(): LedgerHealth;
}

/** One xrpl.js Client for the whole server: the only way the app touches a ledger. */
export interface XrplConnection extends LedgerConnection {
  client: Client;
  /** The embedded ledger's in-process entry when it runs in this thread (ledger/local-ledger.ts). */
  local?: LocalLedgerRequest;
  /** First connection; rejects if the ledger cannot be reached now. Later drops reconnect on their own. */
  connect(): Promise<void>;
  close(): Promise<void>;
  /** Runs after every successful (re)connection: streams must be subscribed again on a new socket. */
  onConnected(listener: () => void): () => void;
  onDisconnected(listener: () => void): () => void;
  health(): LedgerHealth;
  /** Runs when the verdict of `health()` changes (healthy or not). */
  onHealthChange(listener: (health: LedgerHealth) => void): () => void;
}

/** A connection with an xrpl.js client (API-only tests pass a bare LedgerConnection instead). */
export function isXrplConnection(ledger: LedgerConnection): ledger is XrplConnection {
  return 'client' in ledger && typeof (ledger as Partial<XrplConnection>).onConnected === 'function';
}

export interface ConnectionOptions {
  baseDelayMs?: number;
  capDelayMs?: number;
  /** Spread retries (public servers: many clients reconnect at once); default: not for a local ledger. */
  jitter?: boolean;
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** The embedded ledger in this thread: reads may be answered in-process (ledger/local-ledger.ts). */
  local?: LocalLedgerRequest;
  /**
   * The embedded ledger's admin credentials (embedded-ledger.ts): sent on the WebSocket upgrade,
   * so this connection's admin requests (ledger_clock, ledger_accept) are answered and nobody
   * else's are. Never given to a ledger elsewhere.
   */
  admin?: AdminCredentials;
  /** The ledger's configured close interval when known (ledger/liveness.ts); 0: closes on request. */
  closeIntervalMs?: number;
  /** A ping unanswered this long drops the connection (LEDGER_RESPONSE_TIMEOUT_MS); default 2000. */
  responseTimeoutMs?: number;
  /** Lagging beyond this many closes (LEDGER_MAX_LAG_CLOSES; 0: no lag rule); default 5. */
  maxLagCloses?: number;
}

/**
 * A ledger on this machine (the embedded one, a local rippled) comes back in milliseconds and has
 * no crowd of clients to spread: retry every 100 ms doubling to at most 500 ms, so the app serves
 * ledger routes within a second of it returning. Public servers keep the slow, jittered schedule.
 */
const LOCAL_RECONNECT = { baseDelayMs: 100, capDelayMs: 500, jitter: false } as const;
const PUBLIC_RECONNECT = {
  baseDelayMs: RECONNECT_BASE_MS,
  capDelayMs: RECONNECT_CAP_MS,
  jitter: true,
} as const;

export const DEFAULT_RESPONSE_TIMEOUT_MS = 2_000;
export const DEFAULT_MAX_LAG_CLOSES = 5;

export function isLocalLedgerUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || host.startsWith('127.') || host.endsWith('.localhost');
  } catch {
    return false;
  }
}

/**
 * Delay before reconnect attempt `attempt` (0-based): base × 2^attempt, capped; with `random`
 * (jitter) a uniformly drawn point of its upper half, so clients that lost a server together don't
 * return together.
 */
export function reconnectDelay(
  attempt: number,
  base: number = RECONNECT_BASE_MS,
  cap: number = RECONNECT_CAP_MS,
  random?: () => number,
): number {
  const delay = Math.min(cap, base * 2 ** Math.min(attempt, 30));
  return random ? Math.round(delay / 2 + (delay / 2) * random()) : delay;
}

/**
 * xrpl.js's `request` first tries every request's `account` as an X-address: a base58 decode and a
 * JavaScript double SHA-256 that fail for every classic address (issue 40: ~0.4 ms of the server's
 * thread per buy of a hot launch, whose buys read several accounts each). A classic address starts
 * with "r"; an X-address never does (its version bytes encode to "X" or "T"), so those requests go
 * to the socket as they are, with the API version `request` adds. `account_tx` keeps xrpl.js's path:
 * its answer carries transactions, whose partial payments xrpl.js flags.
 */
function skipClassicAddressCheck(client: Client): void {
  const checked = client.request.bind(client);
  const direct = client.connection;
  client.request = ((req: { command: string; account?: unknown; api_version?: number }) =>
    typeof req.account === 'string' && req.account.startsWith('r') && req.command !== 'account_tx'
      ? direct.request({ ...req, api_version: req.api_version ?? client.apiVersion } as never)
      : checked(req as never)) as Client['request'];
}

export function createXrplConnection(
  network: Config['XRPL_NETWORK'],
  url: string,
  opts: ConnectionOptions = {},
): XrplConnection {
  const client = new Client(url, {
    connectionTimeout: 10_000,
    // Basic credentials on the upgrade, over loopback only (xrpl.js's `authorization` option
    // insists on wss://, which a ledger on this machine does not need).
    ...(opts.admin ? { headers: { Authorization: basicAuthorization(opts.admin) } } : {}),
  });
  const internals = client.connection as unknown as {
    intentionalDisconnect: () => void;
    startHeartbeatInterval: () => void;
    ws: { terminate(): void } | null;
  };
  // xrpl.js retries dropped sockets itself (100 ms … 60 s); our own schedule replaces it so there is
  // exactly one reconnect loop, with the backoff the operators expect.
  internals.intentionalDisconnect = () => {};
  // Its heartbeat (a ping every 20 s, reconnecting after 20 s more) is replaced by the liveness
  // check below, which notices a hung ledger within seconds.
  internals.startHeartbeatInterval = () => {};
  skipClassicAddressCheck(client);

  const defaults = isLocalLedgerUrl(url) ? LOCAL_RECONNECT : PUBLIC_RECONNECT;
  const schedule = {
    baseDelayMs: opts.baseDelayMs ?? defaults.baseDelayMs,
    capDelayMs: opts.capDelayMs ?? defaults.capDelayMs,
  };
  const jitter = (opts.jitter ?? defaults.jitter) ? Math.random : undefined;
  const connectedListeners = new Set<() => void>();
  const disconnectedListeners = new Set<() => void>();
  const liveness = new LedgerLiveness(client, {
    responseTimeoutMs: opts.responseTimeoutMs ?? DEFAULT_RESPONSE_TIMEOUT_MS,
    closeIntervalMs: opts.closeIntervalMs,
    maxLagCloses: opts.maxLagCloses ?? DEFAULT_MAX_LAG_CLOSES,
    // A socket whose peer stopped answering: dropped, so every request waiting on it fails now (503)
    // instead of at its own timeout, and the reconnect loop takes over.
    onUnresponsive: (sinceMs) => {
      opts.log?.warn({ sinceMs }, 'ledger not answering: dropping the connection');
      internals.ws?.terminate();
    },
  });
  let closing = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;

  const emit = (set: Set<() => void>) => {
    for (const l of set) {
      try {
        l();
      } catch (err) {
        opts.log?.warn({ err }, 'ledger connection listener failed');
      }
    }
  };

  client.on('connected', () => {
    attempt = 0;
    liveness.connected();
    emit(connectedListeners);
  });
  client.on('disconnected', () => {
    liveness.disconnected();
    emit(disconnectedListeners);
    scheduleReconnect();
  });
  // eventemitter3 does not throw on unhandled 'error'; listen anyway so failures reach the log.
  client.on('error', (...args: unknown[]) => {
    opts.log?.warn({ kind: String(args[0]), message: String(args[1] ?? '') }, 'ledger client error');
  });

  function scheduleReconnect(): void {
    if (closing || timer) return;
    const delay = reconnectDelay(attempt, schedule.baseDelayMs, schedule.capDelayMs, jitter);
    opts.log?.info({ attempt, delay }, 'ledger disconnected, reconnecting');
    timer = setTimeout(() => {
      timer = undefined;
      if (closing || client.isConnected()) return;
      client.connect().catch(() => {
        attempt += 1;
        scheduleReconnect();
      });
    }, delay);
    timer.unref?.();
  }

  return {
    network,
    url,
    client,
    ...(opts.local ? { local: opts.local } : {}),
    isConnected: () => client.isConnected(),
    connect: async () => {
      closing = false;
      liveness.start();
      await client.connect();
    },
    close: async () => {
      closing = true;
      liveness.stop();
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (client.isConnected()) await client.disconnect();
    },
    health: () => liveness.health(),
    onHealthChange: (l) => liveness.onChange(l),
    onConnected: (l) => {
      connectedListeners.add(l);
      return () => connectedListeners.delete(l);
    },
    onDisconnected: (l) => {
      disconnectedListeners.add(l);
      return () => disconnectedListeners.delete(l);
    },
  };
}
