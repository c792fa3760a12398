// What a method handler sees: the ledger node, the request's parameters and API version, and the
// server services (closing ledgers, subscriptions) it may drive.
import type { ClosedLedgerRecord, JsonObject, LedgerNodeApi, PreparedSubmission } from '../core/contract';
import type { AccessPolicy } from './access';
import type { LedgerClock } from './ledger-clock';
import type { SubscriptionHub, Subscriber } from './subscriptions';
import type { ApiVersion } from './tx-format';

export interface ServerServices {
  readonly node: LedgerNodeApi;
  readonly subscriptions: SubscriptionHub;
  /** Milliseconds since the Unix epoch when the server started (server_info uptime). */
  readonly startedAt: number;
  readonly closeIntervalMs: number;
  /** The port the server listens on once started (server_info ports). */
  port: number;
  /** Close the open ledger now (ledger_accept, faucet in manual-close mode). */
  closeLedger(): ClosedLedgerRecord;
  /** Where close times come from: the wall clock, or behind it (`ledger_clock`). */
  readonly clock: LedgerClock;
  /** Who may use the port and who is admin (access.ts). */
  readonly access: AccessPolicy;
}

export interface MethodContext {
  readonly services: ServerServices;
  readonly node: LedgerNodeApi;
  readonly params: JsonObject;
  readonly apiVersion: ApiVersion;
  /**
   * rippled's admin role for this request: a loopback peer with the port's credentials, if it has
   * any (access.ts); the embedding process always.
   */
  readonly admin: boolean;
  /** The WebSocket connection, for subscribe/unsubscribe; absent over JSON-RPC. */
  readonly subscriber?: Subscriber;
  /** For submit: the request's tx_blob, already decoded and signature-checked with its batch. */
  readonly prepared?: PreparedSubmission;
}

export interface MethodSpec {
  handler(ctx: MethodContext): JsonObject | Promise<JsonObject>;
  /** Admin-only command (rippled's Role::ADMIN). */
  admin?: boolean;
}
