// Shapes a stored transaction the way rippled prints it for each API version (tx, account_tx,
// ledger, streams). v2 moves the transaction under `tx_json`, the hash beside it, and replaces a
// Payment's `Amount` with `DeliverMax`; v1 keeps the flat shape and adds `DeliverMax` beside `Amount`.
import type { JsonObject, LedgerNodeApi, TxRecord } from '../core/contract';
import { RIPPLE_EPOCH_OFFSET } from '../core/ledger-node';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export type ApiVersion = 1 | 2;

export function closeTimeIso(closeTime: number): string {
  return new Date((closeTime + RIPPLE_EPOCH_OFFSET) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** rippled's to_string(NetClock::time_point): "2024-Jan-01 00:00:00.000000000 UTC". */
export function closeTimeHuman(closeTime: number): string {
  const d = new Date((closeTime + RIPPLE_EPOCH_OFFSET) * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${MONTHS[d.getUTCMonth()]}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(
    d.getUTCMinutes(),
  )}:${pad(d.getUTCSeconds())}.000000000 UTC`;
}

/** rippled's RPC::insertDeliverMax. */
export function txJsonForApi(tx: JsonObject, apiVersion: ApiVersion): JsonObject {
  const out: JsonObject = { ...tx };
  if (out.TransactionType === 'Payment' && out.Amount !== undefined) {
    out.DeliverMax = out.Amount;
    if (apiVersion > 1) delete out.Amount;
  }
  return out;
}

/** rippled's Concise Transaction ID (XLS-37): C | ledger seq (28 bits) | tx index (16) | network id (16). */
export function encodeCtid(ledgerIndex: number, txIndex: number, networkId: number): string | undefined {
  if (ledgerIndex >= 0x0fffffff || txIndex > 0xffff || networkId > 0xffff) return undefined;
  return (
    'C' +
    ledgerIndex.toString(16).padStart(7, '0') +
    txIndex.toString(16).padStart(4, '0') +
    networkId.toString(16).padStart(4, '0')
  ).toUpperCase();
}

export function decodeCtid(
  ctid: string,
): { ledgerIndex: number; txIndex: number; networkId: number } | undefined {
  if (!/^[Cc][0-9A-Fa-f]{15}$/.test(ctid)) return undefined;
  return {
    ledgerIndex: parseInt(ctid.slice(1, 8), 16),
    txIndex: parseInt(ctid.slice(8, 12), 16),
    networkId: parseInt(ctid.slice(12, 16), 16),
  };
}

export interface TxLocation {
  ledgerHash?: string;
  validated: boolean;
}

export function locateTx(node: LedgerNodeApi, record: TxRecord): TxLocation {
  if (record.closeTime === undefined) return { validated: false };
  const view = node.ledger({ ledger_index: record.ledgerIndex });
  return { ledgerHash: view?.header.ledger_hash, validated: Boolean(view?.closed) };
}

/** A validated transaction's CTID on this node's network. */
const ctidOf = (node: LedgerNodeApi, record: TxRecord): string | undefined =>
  encodeCtid(record.ledgerIndex, Number(record.meta.TransactionIndex ?? 0), node.config.networkId ?? 0);

/** The `tx` method's result. */
export function formatTxResult(
  node: LedgerNodeApi,
  record: TxRecord,
  apiVersion: ApiVersion,
  binary: boolean,
): JsonObject {
  const where = locateTx(node, record);
  const closed = where.validated && record.closeTime !== undefined;
  if (apiVersion > 1) {
    const out: JsonObject = binary
      ? { tx_blob: record.blob }
      : { tx_json: txJsonForApi(record.tx, apiVersion) };
    out.hash = record.hash;
    if (closed) {
      const ctid = ctidOf(node, record);
      if (ctid) out.ctid = ctid;
      if (binary) out.meta_blob = record.metaBlob;
      else {
        out.meta = record.meta;
        const txJson = out.tx_json as JsonObject;
        txJson.date = record.closeTime;
        txJson.ledger_index = record.ledgerIndex;
      }
      out.ledger_index = record.ledgerIndex;
      out.ledger_hash = where.ledgerHash;
      out.close_time_iso = closeTimeIso(record.closeTime as number);
    }
    out.validated = closed;
    return out;
  }
  const out: JsonObject = binary ? { tx: record.blob } : txJsonForApi(record.tx, apiVersion);
  out.hash = record.hash;
  if (closed) {
    const ctid = ctidOf(node, record);
    if (ctid) out.ctid = ctid;
    out.meta = binary ? record.metaBlob : record.meta;
    out.ledger_index = record.ledgerIndex;
    out.inLedger = record.ledgerIndex;
    out.date = record.closeTime;
  }
  out.validated = closed;
  return out;
}

/** One element of account_tx's `transactions`. */
export function formatAccountTxEntry(
  node: LedgerNodeApi,
  record: TxRecord,
  apiVersion: ApiVersion,
  binary: boolean,
  ledgerHashes: Map<number, string | undefined>,
): JsonObject {
  const closeTime = record.closeTime ?? 0;
  if (binary) {
    return apiVersion > 1
      ? {
          ledger_index: record.ledgerIndex,
          meta_blob: record.metaBlob,
          tx_blob: record.blob,
          validated: true,
        }
      : { ledger_index: record.ledgerIndex, meta: record.metaBlob, tx_blob: record.blob, validated: true };
  }
  if (apiVersion > 1) {
    let ledgerHash = ledgerHashes.get(record.ledgerIndex);
    if (!ledgerHashes.has(record.ledgerIndex)) {
      ledgerHash = node.ledger({ ledger_index: record.ledgerIndex })?.header.ledger_hash;
      ledgerHashes.set(record.ledgerIndex, ledgerHash);
    }
    return {
      close_time_iso: closeTimeIso(closeTime),
      hash: record.hash,
      ledger_hash: ledgerHash,
      ledger_index: record.ledgerIndex,
      meta: record.meta,
      tx_json: { ...txJsonForApi(record.tx, 2), date: closeTime, ledger_index: record.ledgerIndex },
      validated: true,
    };
  }
  return {
    meta: record.meta,
    tx: {
      ...txJsonForApi(record.tx, 1),
      date: closeTime,
      hash: record.hash,
      inLedger: record.ledgerIndex,
      ledger_index: record.ledgerIndex,
    },
    validated: true,
  };
}

/** One element of `ledger`'s `transactions` when expanded (LedgerToJson fillJsonTx). */
export function formatLedgerTx(
  record: TxRecord,
  apiVersion: ApiVersion,
  binary: boolean,
  closedLedgerHash: string | undefined,
): JsonObject {
  const closed = closedLedgerHash !== undefined;
  if (binary) {
    return apiVersion > 1
      ? { hash: record.hash, meta_blob: record.metaBlob, tx_blob: record.blob }
      : { meta: record.metaBlob, tx_blob: record.blob };
  }
  if (apiVersion > 1) {
    const out: JsonObject = { hash: record.hash, tx_json: txJsonForApi(record.tx, 2) };
    if (closed) {
      out.meta = record.meta;
      out.ledger_hash = closedLedgerHash;
      out.ledger_index = record.ledgerIndex;
      if (record.closeTime !== undefined) out.close_time_iso = closeTimeIso(record.closeTime);
      out.validated = true;
    }
    return out;
  }
  const out: JsonObject = { ...txJsonForApi(record.tx, 1), hash: record.hash };
  if (closed) out.metaData = record.meta;
  return out;
}
