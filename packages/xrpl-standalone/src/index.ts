// Public entry point: start a stand-alone XRP Ledger server speaking rippled's API.
import type { ClosedLedgerRecord, CoreConfig, JsonObject, LedgerNodeApi } from './core/contract';
import { LedgerNode } from './core/ledger-node';
import { accessPolicy, type AdminCredentials, type RefusedRequest } from './server/access';
import type { ServerServices } from './server/context';
import { Faucet } from './server/faucet';
import { LedgerClock } from './server/ledger-clock';
import { handleLocal } from './server/dispatcher';
import { listen } from './server/http-server';
import { LedgerStore } from './server/store';
import { SubscriptionHub } from './server/subscriptions';

export type { ClosedLedgerRecord, CoreConfig, LedgerNodeApi } from './core/contract';
export {
  basicAuthorization,
  refusalReporter,
  type AdminCredentials,
  type RefusedRequest,
} from './server/access';
export { methods } from './server/methods';
export { subscribeExtensions } from './server/methods/subscribe';
export { GENESIS_SEED } from './server/faucet';

export const GENESIS_ADDRESS = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';

/** Amounts in drops; numbers and decimal strings are accepted for convenience and converted exactly. */
export type Drops = bigint | number | string;

export interface StandaloneLedgerOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /**
   * Interface to bind; default 127.0.0.1. Only peers on the loopback interface are ever admin
   * (rippled's `admin = 127.0.0.1`); see `admin`.
   */
  host?: string;
  /**
   * rippled's `admin_user` / `admin_password`. Set: admin methods (`ledger_accept`,
   * `ledger_clock`, `sign`, trusted `submit`, `ledger` full/accounts) and the faucet answer only a
   * loopback peer that shows them — in the request's params (`admin_user`, `admin_password`), as
   * HTTP Basic credentials of the request, or on the WebSocket upgrade for the whole connection
   * (xrpl.js: `new Client(url, { headers: { Authorization: basicAuthorization(admin) } })`; its
   * `authorization` option refuses ws://). Unset (the default): every loopback peer is admin, as
   * rippled's admin port without a password.
   */
  admin?: AdminCredentials;
  /**
   * Host names accepted in the Host header besides localhost, 127.0.0.0/8 and ::1 (and the bound
   * address). Any other Host is refused (DNS rebinding); so is every request carrying an Origin
   * header (a web page).
   */
  allowedHosts?: readonly string[];
  /** Told of every request the access rules refused (a web page, a foreign Host). */
  onRefused?: (request: RefusedRequest) => void;
  /** Close the open ledger every this many ms (default 1000); 0 = only on `ledger_accept`. */
  closeIntervalMs?: number;
  /** Directory for the crash-safe ledger store; none = in memory only. */
  dataDir?: string;
  /** Account reserve in drops (default 1 XRP). */
  reserveBase?: Drops;
  /** Owner reserve per object in drops (default 0.2 XRP). */
  reserveIncrement?: Drops;
  /** Reference transaction cost in drops (default 10). */
  baseFee?: Drops;
  networkId?: number;
  /**
   * Closed ledgers kept in memory (rippled's [ledger_history]); older ones are dropped, with their
   * transactions. Default 10,000 (~2.8 h at one close per second). State is never dropped.
   */
  ledgerHistory?: number;
  /**
   * Enabled amendments, by name (rippled's `[features]`); default: mainnet's set as implemented
   * (DEFAULT_AMENDMENTS). Decides e.g. fixAMMv1_3 rounding and the 19-digit Number range.
   */
  amendments?: readonly string[];
  /** Serve the faucet on POST /accounts (default true); admin only, as `ledger_accept`. */
  faucet?: boolean;
  /**
   * Run the ledger clock this many ms behind the wall clock (default 0): close times start in the
   * past, and `ledger_clock` / `setClockOffset` move them forward. Never backward: a restarted
   * ledger closes after its last close whatever the offset.
   */
  clockOffsetMs?: number;
}

export interface StandaloneLedger extends AsyncDisposable {
  /** ws://host:port */
  readonly url: string;
  /** http://host:port (JSON-RPC) */
  readonly httpUrl: string;
  /** host:port, as xrpl.js fundWallet's `faucetHost`. */
  readonly faucetHost: string;
  readonly port: number;
  readonly node: LedgerNodeApi;
  /** Close the open ledger now (same as `ledger_accept`). */
  closeLedger(): ClosedLedgerRecord;
  /**
   * One request from this thread, answered by the same handlers as over the WebSocket and in the
   * same envelope ({ result, status, type, id?, api_version? } or rippled's error fields), without
   * the socket and JSON both ways. The answer's objects may be shared with the ledger's memos: read
   * them, never change them. `subscribe` is refused (no connection to stream to).
   */
  request(request: JsonObject): Promise<JsonObject>;
  /** Moves the ledger clock to `offsetMs` behind the wall clock (same as `ledger_clock`); only forward. */
  setClockOffset(offsetMs: number): void;
  /**
   * Closes every `ms` from now on (the next close `ms` after this call); not below 1 ms. For a test
   * that measures a pipeline in ledger closes: a longer interval for that step keeps the figure about
   * the pipeline, not about how fast a loaded machine reacts within one close. Only a ledger started
   * with a close timer has one to change.
   */
  setCloseInterval(ms: number): void;
  close(): Promise<void>;
}

function toDrops(value: Drops | undefined, fallback: bigint, name: string): bigint {
  if (value === undefined) return fallback;
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  throw new TypeError(`${name} must be a whole number of drops`);
}

export async function startStandaloneLedger(
  options: StandaloneLedgerOptions = {},
): Promise<StandaloneLedger> {
  const host = options.host ?? '127.0.0.1';
  // Checked before anything is opened: malformed credentials or host names throw here.
  const access = accessPolicy({ admin: options.admin, allowedHosts: options.allowedHosts, host });
  let closeIntervalMs = options.closeIntervalMs ?? 1000;
  const timed = closeIntervalMs > 0;
  const config: CoreConfig = {
    baseFee: toDrops(options.baseFee, 10n, 'baseFee'),
    reserveBase: toDrops(options.reserveBase, 1_000_000n, 'reserveBase'),
    reserveIncrement: toDrops(options.reserveIncrement, 200_000n, 'reserveIncrement'),
    networkId: options.networkId,
    amendments: options.amendments ? Object.freeze([...options.amendments]) : undefined,
  };
  const clock = new LedgerClock(options.clockOffsetMs ?? 0);
  const node: LedgerNodeApi = new LedgerNode(config, {
    ledgerHistory: options.ledgerHistory,
    now: () => clock.now(),
  });
  let store: LedgerStore | undefined;
  if (options.dataDir) {
    store = new LedgerStore(options.dataDir);
    try {
      const records = store.load();
      if (records.length > 0) node.restore(records);
      // A fresh store starts with this node's genesis ledgers, so the persisted chain is complete.
      else for (const record of node.initialRecords()) store.append(record);
    } catch (err) {
      store.close();
      throw err;
    }
  }
  const subscriptions = new SubscriptionHub(node);
  const services: ServerServices = {
    node,
    subscriptions,
    startedAt: Date.now(),
    closeIntervalMs,
    port: 0,
    closeLedger: () => node.closeLedger(),
    clock,
    access,
  };
  // Persist before publishing: no client ever sees a ledger a crash could lose.
  const stopListening = node.onLedgerClosed((record) => {
    if (store) {
      try {
        store.append(record);
      } catch (err) {
        console.error('xrpl-standalone: could not persist ledger', record.header.ledger_index, err);
      }
    }
    subscriptions.publishClosed(record);
  });
  const faucet = options.faucet === false ? undefined : new Faucet(services);
  let server: Awaited<ReturnType<typeof listen>>;
  try {
    server = await listen(services, faucet, {
      host,
      port: options.port ?? 0,
      onRefused: options.onRefused,
    });
  } catch (err) {
    // e.g. EADDRINUSE: release the data directory for the next attempt.
    stopListening();
    store?.close();
    throw err;
  }
  services.port = server.port;

  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const schedule = (): void => {
    if (closeIntervalMs <= 0 || closed) return;
    timer = setTimeout(() => {
      try {
        node.closeLedger();
      } catch (err) {
        console.error('xrpl-standalone: ledger close failed', err);
      }
      schedule();
    }, closeIntervalMs);
  };
  schedule();

  const urlHost = host.includes(':') ? `[${host}]` : host;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    if (timer) clearTimeout(timer);
    await server.close();
    stopListening();
    store?.close();
  };
  return {
    url: `ws://${urlHost}:${server.port}`,
    httpUrl: `http://${urlHost}:${server.port}`,
    faucetHost: `${urlHost}:${server.port}`,
    port: server.port,
    node,
    closeLedger: () => services.closeLedger(),
    request: (request) => handleLocal(services, request),
    setClockOffset: (offsetMs) => clock.setOffset(offsetMs),
    setCloseInterval: (ms) => {
      if (!timed) throw new Error('this ledger closes only on ledger_accept: it has no close timer');
      if (!Number.isFinite(ms) || ms < 1) throw new RangeError('close interval must be at least 1 ms');
      closeIntervalMs = ms;
      if (timer) clearTimeout(timer);
      schedule();
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
