// rippled reads a tx_json (sign, submit with a secret, submit_multisigned, simulate) through
// STParsedJSON, where an issued amount's value is JSON text: amountFromString's grammar with at
// most 32 digits. The engine itself reads amounts from the binary blob, which has no such limit
// (9999999999999999e80 is 96 digits in plain notation), so the rule is applied here, before the
// JSON is encoded.
import definitions from 'ripple-binary-codec/dist/enums/definitions.json';
import { IouValue } from '../core/amount/iou-value';
import type { JsonObject } from '../core/contract';
import { RpcError } from './errors';

const AMOUNT_FIELDS = new Set(
  (definitions.FIELDS as Array<[string, { type: string }]>)
    .filter(([, info]) => info.type === 'Amount')
    .map(([name]) => name),
);

/** Throws rippled's "Field 'tx_json.X' has invalid data." for an issued value it would not parse. */
export function checkJsonAmounts(tx: JsonObject, object = 'tx_json'): void {
  for (const [field, value] of Object.entries(tx)) {
    if (!AMOUNT_FIELDS.has(field) || typeof value !== 'object' || value === null) continue;
    const text = (value as { value?: unknown }).value;
    if (typeof text !== 'string') continue;
    try {
      IouValue.parseJsonText(text);
    } catch {
      throw new RpcError('invalidParams', `Field '${object}.${field}' has invalid data.`);
    }
  }
}
