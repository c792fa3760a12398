// Field knowledge the metadata builder needs: rippled's per-field metadata flags (sfields.macro)
// and canonical field order (type code, then field code) for JSON that reads like rippled's.
import definitions from 'ripple-binary-codec/dist/enums/definitions.json';
import { KeySequenceCache } from '../key-sequence-cache';

type FieldInfo = { nth: number; type: string; isSerialized: boolean };

const typeCodes = definitions.TYPES as Record<string, number>;
const fieldInfo = new Map<string, FieldInfo>();
for (const [name, info] of definitions.FIELDS as Array<[string, FieldInfo]>) fieldInfo.set(name, info);

/** Fields never reported in metadata (sMD_Never). */
const NEVER = new Set(['LedgerEntryType', 'Indexes', 'index']);
/** Fields reported only as final values of deleted entries (sMD_DeleteFinal). */
const DELETE_FINAL_ONLY = new Set(['PreviousTxnID', 'PreviousTxnLgrSeq']);
/** Fields reported whenever their entry is affected (sMD_Always). */
const ALWAYS = new Set(['RootIndex']);

/** PreviousFields: original values that changed (sMD_ChangeOrig). */
export function metaChangeOrig(name: string): boolean {
  return !NEVER.has(name) && !DELETE_FINAL_ONLY.has(name) && !ALWAYS.has(name);
}
/** FinalFields of a modified entry (sMD_Always | sMD_ChangeNew). */
export function metaChangeNew(name: string): boolean {
  return !NEVER.has(name) && !DELETE_FINAL_ONLY.has(name);
}
/** FinalFields of a deleted entry (sMD_Always | sMD_DeleteFinal). */
export function metaDeleteFinal(name: string): boolean {
  return !NEVER.has(name);
}
/** NewFields of a created entry (sMD_Create | sMD_Always). */
export function metaCreate(name: string): boolean {
  return !NEVER.has(name) && !DELETE_FINAL_ONLY.has(name);
}

export function fieldType(name: string): string | undefined {
  return fieldInfo.get(name)?.type;
}

function ordinal(name: string): number {
  const f = fieldInfo.get(name);
  if (!f) return Number.MAX_SAFE_INTEGER;
  return (typeCodes[f.type] ?? 0) * 65536 + f.nth;
}

function byOrdinal(a: string, b: string): number {
  return ordinal(a) - ordinal(b);
}

/** An object's keys in canonical order, and the subsets each kind of metadata node reports. */
export interface KeyPlan {
  readonly all: readonly string[];
  /** metaChangeOrig: candidates for PreviousFields. */
  readonly changeOrig: readonly string[];
  /** metaChangeNew (= metaCreate): FinalFields of a modified entry, NewFields of a created one. */
  readonly changeNew: readonly string[];
  /** metaDeleteFinal: FinalFields of a deleted entry. */
  readonly deleteFinal: readonly string[];
}

const plans = new KeySequenceCache<KeyPlan>();

function makePlan(keys: string[]): KeyPlan {
  // Array sort is stable: keys unknown to the definitions keep their relative order, last.
  const all = keys.sort(byOrdinal);
  return {
    all,
    changeOrig: all.filter(metaChangeOrig),
    changeNew: all.filter(metaChangeNew),
    deleteFinal: all.filter(metaDeleteFinal),
  };
}

/**
 * The KeyPlan of an object's key sequence, cached per sequence (KeySequenceCache); filtering the
 * canonical key list gives the same order as filtering first and sorting after.
 */
export function keyPlan(obj: object): KeyPlan {
  return plans.get(obj, planOf);
}

function planOf(obj: object): KeyPlan {
  return makePlan(Object.keys(obj));
}

/** The same object with keys in rippled's canonical (serialization) order. */
export function canonicalOrder<T extends Record<string, unknown>>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const k of keyPlan(obj).all) out[k] = obj[k];
  return out as T;
}

/** rippled's STBase::isDefault for the JSON value of a field (CreatedNode omits defaults). */
export function isDefaultValue(name: string, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  const t = fieldType(name);
  switch (t) {
    case 'UInt8':
    case 'UInt16':
    case 'UInt32':
      return value === 0;
    case 'UInt64':
      return typeof value === 'string' && /^0*$/.test(value);
    case 'Hash128':
    case 'Hash160':
    case 'Hash192':
    case 'Hash256':
      return typeof value === 'string' && /^0*$/.test(value);
    case 'Blob':
      return value === '';
    case 'Amount':
      return value === '0';
    case 'Vector256':
    case 'STArray':
      return Array.isArray(value) && value.length === 0;
    default:
      return false;
  }
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  // Own enumerable keys walked in place rather than listed with Object.keys (two arrays per
  // modified entry of every transaction's metadata): equal when every key of `a` holds an equal
  // value in `b` and both have as many keys, as before; a difference ends the walk early.
  let count = 0;
  for (const k in a) {
    if (!Object.hasOwn(a, k)) continue;
    count++;
    if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  for (const k in b) if (Object.hasOwn(b, k)) count--;
  return count === 0;
}
