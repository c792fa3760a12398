// tx: one transaction by hash, v1/v2 shapes, binary.
import type { MethodSpec } from '../context';
import { RpcError, invalidField } from '../errors';
import { isHash256, optionalBool } from '../params';
import { formatTxResult } from '../tx-format';

export const txMethod: MethodSpec = {
  handler: ({ node, params, apiVersion }) => {
    const hash = params.transaction;
    if (hash === undefined) {
      if (params.ctid !== undefined) throw new RpcError('txnNotFound');
      throw new RpcError('invalidParams', "Missing field 'transaction'.");
    }
    if (!isHash256(hash)) throw invalidField('transaction');
    const binary = optionalBool(params, 'binary');
    const record = node.txByHash(hash.toUpperCase());
    if (!record) {
      const extra: Record<string, unknown> = {};
      // rippled reports whether the requested range was fully searched; every ledger is local here.
      if (params.min_ledger !== undefined && params.max_ledger !== undefined) extra.searched_all = true;
      throw new RpcError('txnNotFound', undefined, extra);
    }
    return formatTxResult(node, record, apiVersion, binary);
  },
};
