// account_tx: an account's validated transactions, newest first unless `forward`, paged by
// {ledger, seq} markers, in the v1 or v2 shape.
import type { AccountTxQuery, JsonObject } from '../../core/contract';
import type { MethodSpec } from '../context';
import { RpcError, invalidField } from '../errors';
import { isObject, optionalBool, requireAccount, resolveLedger } from '../params';
import { ledgerRange } from '../ledger-info';
import { formatAccountTxEntry } from '../tx-format';

function readIndex(params: JsonObject, field: string): number | undefined {
  const value = params[field];
  if (value === undefined || value === -1) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < -1)
    throw invalidField(field, 'an integer');
  return value;
}

export const accountTxMethod: MethodSpec = {
  handler: ({ node, params, apiVersion }) => {
    const account = requireAccount(params);
    const binary = optionalBool(params, 'binary');
    const forward = optionalBool(params, 'forward');
    let limit = 200;
    if (params.limit !== undefined) {
      if (typeof params.limit !== 'number' || !Number.isInteger(params.limit) || params.limit < 0) {
        throw invalidField('limit', 'unsigned integer');
      }
      limit = params.limit === 0 ? 200 : Math.min(params.limit, 1000);
    }
    let marker: AccountTxQuery['marker'];
    if (params.marker !== undefined) {
      const m = params.marker;
      if (!isObject(m) || typeof m.ledger !== 'number' || typeof m.seq !== 'number')
        throw invalidField('marker');
      marker = { ledger: m.ledger, seq: m.seq };
    }
    const validatedIndex = node.validated().header.ledger_index;
    let min = readIndex(params, 'ledger_index_min');
    let max = readIndex(params, 'ledger_index_max');
    const hasRange = min !== undefined || max !== undefined;
    if (params.ledger_index !== undefined || params.ledger_hash !== undefined) {
      if (hasRange && apiVersion > 1) throw new RpcError('invalidParams', 'Invalid parameters.');
      const { view } = resolveLedger(node, params, 'validated');
      if (!view.closed) throw new RpcError('lgrNotValidated');
      min = view.header.ledger_index;
      max = view.header.ledger_index;
    } else {
      // API v2 rejects a range reaching outside the retained history (rippled's validated range);
      // v1 clamps it to what is held.
      const held = ledgerRange(node);
      if (
        apiVersion > 1 &&
        ((max !== undefined && max > validatedIndex) || (min !== undefined && min < held.first))
      ) {
        throw new RpcError('lgrIdxMalformed');
      }
      if (min !== undefined && max !== undefined && min > max) {
        throw new RpcError(apiVersion > 1 ? 'invalidLgrRange' : 'lgrIdxsInvalid');
      }
    }
    const page = node.accountTx({
      account,
      ledgerIndexMin: min,
      ledgerIndexMax: max === undefined ? validatedIndex : Math.min(max, validatedIndex),
      forward,
      limit,
      marker,
    });
    const hashes = new Map<number, string | undefined>();
    const result: JsonObject = {
      account,
      ledger_index_min: page.ledgerIndexMin,
      ledger_index_max: page.ledgerIndexMax,
      limit,
      transactions: page.transactions.map((record) =>
        formatAccountTxEntry(node, record, apiVersion, binary, hashes),
      ),
      validated: true,
    };
    if (page.marker) result.marker = page.marker;
    return result;
  },
};
