// transaction_entry: one transaction as recorded in one specific closed ledger.
import type { JsonObject } from '../../core/contract';
import type { MethodSpec } from '../context';
import { RpcError, invalidField, missingField } from '../errors';
import { isHash256, resolveLedger } from '../params';
import { closeTimeIso, txJsonForApi } from '../tx-format';

export const transactionEntryMethod: MethodSpec = {
  handler: ({ node, params, apiVersion }) => {
    const hash = params.tx_hash;
    if (hash === undefined) throw missingField('tx_hash');
    if (!isHash256(hash)) throw invalidField('tx_hash');
    // rippled requires a specific ledger here and refuses the open one.
    if (params.ledger_index === undefined && params.ledger_hash === undefined) {
      throw new RpcError('notYetImplemented', 'Current ledger is not supported.');
    }
    const { view } = resolveLedger(node, params);
    if (!view.closed) throw new RpcError('notYetImplemented', 'Current ledger is not supported.');
    const record = view.transactions.find((t) => t.hash === hash.toUpperCase());
    if (!record) throw new RpcError('transactionNotFound', 'Transaction not found.');
    const out: JsonObject = {
      ledger_hash: view.header.ledger_hash,
      ledger_index: view.header.ledger_index,
      validated: true,
    };
    if (apiVersion > 1) {
      out.tx_json = {
        ...txJsonForApi(record.tx, 2),
        date: view.header.close_time,
        ledger_index: view.header.ledger_index,
      };
      out.hash = record.hash;
      out.meta = record.meta;
      out.close_time_iso = closeTimeIso(view.header.close_time);
    } else {
      out.tx_json = { ...txJsonForApi(record.tx, 1), hash: record.hash };
      out.metadata = record.meta;
    }
    return out;
  },
};
