// deposit_authorized: whether the source may pay the destination (DepositAuth + DepositPreauth).
import { depositPreauthKey } from '../../core/keylets';
import type { MethodSpec } from '../context';
import { RpcError, invalidField, missingField } from '../errors';
import { accountRootIndex } from '../keylets';
import { resolveLedger } from '../params';
import { isValidClassicAddress } from 'ripple-address-codec';
import { LSF } from '../../core/ledger-flags';

function readAddress(
  value: unknown,
  field: string,
  malformed: 'srcActMalformed' | 'dstActMalformed',
): string {
  if (value === undefined) throw missingField(field);
  if (typeof value !== 'string') throw invalidField(field);
  if (!isValidClassicAddress(value)) throw new RpcError(malformed);
  return value;
}

export const depositAuthorizedMethod: MethodSpec = {
  handler: ({ node, params }) => {
    const source = readAddress(params.source_account, 'source_account', 'srcActMalformed');
    const destination = readAddress(params.destination_account, 'destination_account', 'dstActMalformed');
    const { view, fields } = resolveLedger(node, params);
    if (!view.read(accountRootIndex(source))) throw new RpcError('srcActNotFound', undefined, fields);
    const dest = view.read(accountRootIndex(destination));
    if (!dest) throw new RpcError('dstActNotFound', undefined, fields);
    const requiresAuth = (Number(dest.Flags ?? 0) & LSF.depositAuth) !== 0;
    const authorized =
      source === destination ||
      !requiresAuth ||
      view.read(depositPreauthKey(destination, source)) !== undefined;
    return {
      deposit_authorized: authorized,
      destination_account: destination,
      source_account: source,
      ...fields,
    };
  },
};
