// tx: one transaction by hash, v1/v2 shapes, binary.
import type { MethodSpec } from '../context';
import { RpcError, invalidField } from '../errors';
import { isHash256, optionalBool } from '../params';
import type { TxRecord } from '../../core/contract';
import { ledgerRange } from '../ledger-info';
import { decodeCtid, formatTxResult } from '../tx-format';

/** min_ledger/max_ledger as rippled's Tx handler checks them (both or neither, at most 1000 apart). */
function ledgerRangeParams(params: Record<string, unknown>): { min: number; max: number } | undefined {
  const { min_ledger: min, max_ledger: max } = params;
  if (min === undefined || max === undefined) return undefined;
  const valid = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (!valid(min) || !valid(max) || max < min) throw new RpcError('invalidLgrRange');
  if (max - min > 1000) throw new RpcError('excessiveLgrRange');
  return { min, max };
}

export const txMethod: MethodSpec = {
  handler: ({ node, params, apiVersion }) => {
    const hash = params.transaction;
    const binary = optionalBool(params, 'binary');
    if (hash !== undefined && params.ctid !== undefined) {
      throw new RpcError('invalidParams', 'Specify only one of transaction or ctid.');
    }
    const range = ledgerRangeParams(params);
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
      // rippled reports whether the requested range was fully searched: false once part of it has
      // been dropped from history (or is not closed yet).
      if (range) {
        const held = ledgerRange(node);
        extra.searched_all = range.min >= held.first && range.max <= held.last;
      }
      throw new RpcError('txnNotFound', undefined, extra);
    }
    return formatTxResult(node, record, apiVersion, binary);
  },
};
