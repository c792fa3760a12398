// tx: one transaction by hash, v1/v2 shapes, binary.
import type { MethodSpec } from '../context';
import { RpcError, invalidField } from '../errors';
import { isHash256, optionalBool } from '../params';
import type { TxRecord } from '../../core/contract';
import { decodeCtid, formatTxResult } from '../tx-format';

export const txMethod: MethodSpec = {
  handler: ({ node, params, apiVersion }) => {
    const hash = params.transaction;
    const binary = optionalBool(params, 'binary');
    if (hash !== undefined && params.ctid !== undefined) {
      throw new RpcError('invalidParams', 'Specify only one of transaction or ctid.');
    }
    let record: TxRecord | undefined;
    if (params.ctid !== undefined) {
      const ctid = typeof params.ctid === 'string' ? decodeCtid(params.ctid) : undefined;
      if (!ctid) throw invalidField('ctid');
      if (ctid.networkId !== (node.config.networkId ?? 0)) throw new RpcError('wrongNetwork');
      record = node
        .ledger({ ledger_index: ctid.ledgerIndex })
        ?.transactions.find((t) => Number(t.meta.TransactionIndex) === ctid.txIndex);
    } else {
      if (hash === undefined) throw new RpcError('invalidParams', "Missing field 'transaction'.");
      if (!isHash256(hash)) throw invalidField('transaction');
      record = node.txByHash(hash.toUpperCase());
    }
    if (!record) {
      const extra: Record<string, unknown> = {};
      // rippled reports whether the requested range was fully searched; every ledger is local here.
      if (params.min_ledger !== undefined && params.max_ledger !== undefined) extra.searched_all = true;
      throw new RpcError('txnNotFound', undefined, extra);
    }
    return formatTxResult(node, record, apiVersion, binary);
  },
};
