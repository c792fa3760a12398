// rippled's InfoSub streams: `ledger`, `transactions`, `transactions_proposed`, `accounts`,
// `accounts_proposed`. Each subscriber keeps the API version of its subscribe request, as rippled
// does, so messages are shaped for v1 or v2 per connection.
import type { ClosedLedgerRecord, JsonObject, LedgerNodeApi, SubmitResult, TxRecord } from '../core/contract';
import { terCode, terMessage } from '../core/results';
import { closeTimeIso, txJsonForApi, type ApiVersion } from './tx-format';
import { ledgerStreamFields } from './ledger-info';

export interface Subscriber {
  readonly id: number;
  apiVersion: ApiVersion;
  readonly streams: Set<string>;
  readonly accounts: Set<string>;
  readonly accountsProposed: Set<string>;
  /** Per-extension subscription state (e.g. order books, added by the DEX code). */
  readonly extensions: Map<string, unknown>;
  send(message: JsonObject): void;
}

/** A hook for extra subscription kinds (books): called after each close with the new ledger. */
export type ClosePublisher = (record: ClosedLedgerRecord, hub: SubscriptionHub) => void;

export const KNOWN_STREAMS = new Set([
  'ledger',
  'transactions',
  'transactions_proposed',
  'validations',
  'manifests',
  'peer_status',
  'consensus',
  'server',
  'book_changes',
]);

const ADDRESS_FIELDS = [
  'Account',
  'Destination',
  'Owner',
  'Issuer',
  'RegularKey',
  'Authorize',
  'Unauthorize',
  'Holder',
];

/** Accounts a transaction touches, as rippled's getAffectedAccounts: tx fields plus every account in its metadata. */
export function affectedAccounts(record: Pick<TxRecord, 'tx' | 'meta'>): Set<string> {
  const out = new Set<string>();
  const visit = (obj: unknown): void => {
    if (!obj || typeof obj !== 'object') return;
    const o = obj as JsonObject;
    for (const field of ADDRESS_FIELDS) {
      if (typeof o[field] === 'string') out.add(o[field] as string);
    }
    for (const field of [
      'LowLimit',
      'HighLimit',
      'Amount',
      'LimitAmount',
      'SendMax',
      'DeliverMin',
      'TakerPays',
      'TakerGets',
    ]) {
      const amount = o[field] as JsonObject | undefined;
      if (amount && typeof amount === 'object' && typeof amount.issuer === 'string') out.add(amount.issuer);
    }
  };
  visit(record.tx);
  const nodes = (record.meta?.AffectedNodes as JsonObject[] | undefined) ?? [];
  for (const wrapper of nodes) {
    const inner = Object.values(wrapper)[0] as JsonObject | undefined;
    if (!inner) continue;
    visit(inner.FinalFields);
    visit(inner.NewFields);
    visit(inner.PreviousFields);
  }
  return out;
}

export class SubscriptionHub {
  readonly subscribers = new Set<Subscriber>();
  readonly closePublishers: ClosePublisher[] = [];
  private nextId = 1;

  constructor(private readonly node: LedgerNodeApi) {}

  add(send: (message: JsonObject) => void): Subscriber {
    const subscriber: Subscriber = {
      id: this.nextId++,
      apiVersion: 1,
      streams: new Set(),
      accounts: new Set(),
      accountsProposed: new Set(),
      extensions: new Map(),
      send,
    };
    this.subscribers.add(subscriber);
    return subscriber;
  }

  remove(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
  }

  /** After a close: ledgerClosed first, then each validated transaction (NetworkOPs::pubLedger order). */
  publishClosed(record: ClosedLedgerRecord): void {
    if (this.subscribers.size === 0 && this.closePublishers.length === 0) return;
    const ledgerMessage = {
      type: 'ledgerClosed',
      ...ledgerStreamFields(this.node, record.header),
      txn_count: record.transactions.length,
    };
    for (const sub of this.subscribers) {
      if (sub.streams.has('ledger')) sub.send(ledgerMessage);
    }
    // Only connections that asked for transactions are worth the per-transaction work.
    const listeners = [...this.subscribers].filter(
      (sub) =>
        sub.streams.has('transactions') ||
        sub.streams.has('transactions_proposed') ||
        sub.accounts.size > 0 ||
        sub.accountsProposed.size > 0,
    );
    for (const tx of listeners.length > 0 ? record.transactions : []) {
      const accounts = affectedAccounts(tx);
      const cache = new Map<ApiVersion, JsonObject>();
      for (const sub of listeners) {
        const wants =
          sub.streams.has('transactions') ||
          sub.streams.has('transactions_proposed') ||
          [...accounts].some((a) => sub.accounts.has(a) || sub.accountsProposed.has(a));
        if (!wants) continue;
        let message = cache.get(sub.apiVersion);
        if (!message) {
          message = validatedTxMessage(tx, record.header.ledger_hash, sub.apiVersion);
          cache.set(sub.apiVersion, message);
        }
        sub.send(message);
      }
    }
    for (const publish of this.closePublishers) publish(record, this);
  }

  /** After a tentative apply to the open ledger: the proposed streams (pubProposedTransaction). */
  publishProposed(result: SubmitResult): void {
    if (!result.tx || this.subscribers.size === 0) return;
    const tx = result.tx;
    let accounts: Set<string> | undefined;
    for (const sub of this.subscribers) {
      let wants = sub.streams.has('transactions_proposed');
      if (!wants && sub.accountsProposed.size > 0) {
        accounts ??= affectedAccounts({ tx, meta: {} });
        wants = [...accounts].some((a) => sub.accountsProposed.has(a));
      }
      if (!wants) continue;
      const message: JsonObject = {
        type: 'transaction',
        engine_result: result.engine_result,
        engine_result_code: result.engine_result_code,
        engine_result_message: result.engine_result_message,
        ledger_current_index: this.node.current().header.ledger_index,
        status: 'proposed',
        validated: false,
      };
      if (sub.apiVersion > 1) {
        message.tx_json = txJsonForApi(tx, 2);
        message.hash = result.hash;
      } else {
        message.transaction = { ...txJsonForApi(tx, 1), hash: result.hash };
      }
      sub.send(message);
    }
  }
}

export function validatedTxMessage(record: TxRecord, ledgerHash: string, apiVersion: ApiVersion): JsonObject {
  const token = String(record.meta.TransactionResult ?? 'tesSUCCESS');
  const closeTime = record.closeTime ?? 0;
  const message: JsonObject = {
    type: 'transaction',
    close_time_iso: closeTimeIso(closeTime),
    engine_result: token,
    engine_result_code: terCode(token),
    engine_result_message: terMessage(token),
    ledger_hash: ledgerHash,
    ledger_index: record.ledgerIndex,
    meta: record.meta,
    status: 'closed',
    validated: true,
  };
  if (apiVersion > 1) {
    message.tx_json = { ...txJsonForApi(record.tx, 2), date: closeTime, ledger_index: record.ledgerIndex };
    message.hash = record.hash;
  } else {
    delete message.close_time_iso;
    message.transaction = { ...txJsonForApi(record.tx, 1), date: closeTime, hash: record.hash };
  }
  return message;
}
