// Request-parameter parsing shared by the method handlers, with rippled's error wording.
import { isValidClassicAddress, decodeAccountID } from 'ripple-address-codec';
import type { JsonObject, LedgerNodeApi, LedgerView } from '../core/contract';
import { RpcError, invalidField, missingField } from './errors';

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const HASH_RE = /^[0-9A-Fa-f]{64}$/;
export function isHash256(value: unknown): value is string {
  return typeof value === 'string' && HASH_RE.test(value);
}

/** A required classic address; rippled answers actMalformed for anything undecodable. */
export function requireAccount(params: JsonObject, field = 'account'): string {
  const value = params[field];
  if (value === undefined) throw missingField(field);
  if (typeof value !== 'string') throw invalidField(field);
  if (!isValidClassicAddress(value)) throw new RpcError('actMalformed');
  return value;
}

export function optionalAccount(params: JsonObject, field: string): string | undefined {
  const value = params[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !isValidClassicAddress(value)) {
    throw new RpcError('actMalformed');
  }
  return value;
}

export function accountIdHex(address: string): string {
  return Buffer.from(decodeAccountID(address)).toString('hex').toUpperCase();
}

export function optionalBool(params: JsonObject, field: string): boolean {
  const value = params[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalidField(field, 'a boolean');
  return value;
}

/** rippled's RPC::readLimitField: clamp to the handler's tuning range (admins aren't clamped, we are). */
export function readLimit(params: JsonObject, range: { min: number; default: number; max: number }): number {
  const value = params.limit;
  if (value === undefined) return range.default;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalidField('limit', 'unsigned integer');
  }
  return Math.min(range.max, Math.max(range.min, value));
}

export interface ResolvedLedger {
  view: LedgerView;
  /** Fields rippled adds to every ledger-scoped result. */
  fields: JsonObject;
}

/** rippled's RPC::lookupLedger: ledger_hash, or ledger_index (number, numeric string, shortcut). */
export function resolveLedger(
  node: LedgerNodeApi,
  params: JsonObject,
  fallback: 'current' | 'validated' = 'current',
): ResolvedLedger {
  const hash = params.ledger_hash;
  const index = params.ledger_index;
  let view: LedgerView | undefined;
  if (hash !== undefined) {
    if (!isHash256(hash)) throw new RpcError('invalidParams', 'ledgerHashMalformed');
    view = node.ledger({ ledger_hash: hash.toUpperCase() });
  } else if (index === undefined || index === null || index === '') {
    view = fallback === 'current' ? node.current() : node.validated();
  } else if (index === 'current') {
    view = node.current();
  } else if (index === 'validated' || index === 'closed') {
    view = node.validated();
  } else if (typeof index === 'number' || (typeof index === 'string' && /^\d+$/.test(index))) {
    const seq = Number(index);
    if (!Number.isSafeInteger(seq) || seq < 0) throw new RpcError('invalidParams', 'ledgerIndexMalformed');
    view = node.ledger({ ledger_index: seq });
  } else {
    throw new RpcError('invalidParams', 'ledgerIndexMalformed');
  }
  if (!view) throw new RpcError('lgrNotFound', 'ledgerNotFound');
  return { view, fields: ledgerFields(view) };
}

export function ledgerFields(view: LedgerView): JsonObject {
  if (!view.closed) {
    return { ledger_current_index: view.header.ledger_index, validated: false };
  }
  return { ledger_hash: view.header.ledger_hash, ledger_index: view.header.ledger_index, validated: true };
}
