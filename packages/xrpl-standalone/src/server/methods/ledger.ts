// ledger / ledger_closed / ledger_current.
import { encode } from 'ripple-binary-codec';
import type { JsonObject, LedgerEntry } from '../../core/contract';
import type { MethodSpec } from '../context';
import { RpcError } from '../errors';
import { ledgerHeaderJson } from '../ledger-info';
import { optionalBool, resolveLedger } from '../params';
import { formatLedgerTx } from '../tx-format';

export function entryBlob(entry: LedgerEntry): string {
  const { index: _index, ...fields } = entry;
  return encode(fields);
}

export const ledgerMethod: MethodSpec = {
  handler: ({ node, params, apiVersion, admin }) => {
    const { view, fields } = resolveLedger(node, params);
    const transactions = optionalBool(params, 'transactions');
    const expand = optionalBool(params, 'expand');
    const binary = optionalBool(params, 'binary');
    const full = optionalBool(params, 'full');
    const accounts = optionalBool(params, 'accounts');
    if ((full || accounts) && !admin) throw new RpcError('noPermission');
    const ledger = ledgerHeaderJson(view, apiVersion);
    if (transactions || full) {
      ledger.transactions = view.transactions.map((record) =>
        expand || full
          ? formatLedgerTx(record, apiVersion, binary, view.closed ? view.header.ledger_hash : undefined)
          : record.hash,
      );
    }
    if (accounts || full) {
      const state: unknown[] = [];
      for (const entry of view.entries()) {
        if (binary) state.push({ data: entryBlob(entry), index: entry.index });
        else state.push(expand || full ? entry : entry.index);
      }
      ledger.accountState = state;
    }
    const result: JsonObject = { ledger, ...fields };
    if (view.closed) {
      result.ledger_hash = view.header.ledger_hash;
      result.ledger_index = view.header.ledger_index;
    }
    return result;
  },
};

export const ledgerClosedMethod: MethodSpec = {
  handler: ({ node }) => {
    const header = node.validated().header;
    return { ledger_hash: header.ledger_hash, ledger_index: header.ledger_index };
  },
};

export const ledgerCurrentMethod: MethodSpec = {
  handler: ({ node }) => ({ ledger_current_index: node.current().header.ledger_index }),
};
