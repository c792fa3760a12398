// The codec's encoding of a transaction, from the package's own serializer when that is provably
// the same: its blob decodes back to the given JSON. Programs that encode many transactions they
// sign (the server's trades, a simulate per buy) skip the codec's base58 checks of every address
// and its object per field; anything the serializer does not write, or writes otherwise, is left
// to the codec (the caller's fallback).
import definitions from 'ripple-binary-codec/dist/enums/definitions.json';
import type { JsonObject } from './contract';
import { serializeHexFast } from './serializer';
import { decodeTransaction } from './tx-decoder';

/** The fields of type Amount: their XRP values are what the codec checks and the serializer does not. */
const AMOUNT_FIELDS: ReadonlySet<string> = new Set(
  (definitions.FIELDS as Array<[string, { type: string }]>)
    .filter(([, f]) => f.type === 'Amount')
    .map(([name]) => name),
);

/** rippled's largest XRP amount in drops (100 billion XRP), the codec's bound. */
const MAX_DROPS = 10n ** 17n;

/**
 * Every XRP amount in `value` (at any depth: a Batch's inner transactions) is one the codec
 * encodes: whole drops, not negative, at most MAX_DROPS. The codec refuses the others (a negative
 * amount, a fraction of a drop), and so must its stand-in.
 */
function xrpAmountsValid(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(xrpAmountsValid);
  if (typeof value !== 'object' || value === null) return true;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string') {
      if (AMOUNT_FIELDS.has(k) && !(/^[0-9]{1,18}$/.test(v) && BigInt(v) <= MAX_DROPS)) return false;
    } else if (!xrpAmountsValid(v)) return false;
  }
  return true;
}

/** An issued value's exact decimal (sign, digits, exponent) as text; undefined when not plain decimal text. */
function exactDecimal(text: string): string | undefined {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([-+]?[0-9]+))?$/.exec(text);
  if (!m) return undefined;
  const frac = m[3] ?? '';
  let digits = (m[2] + frac).replace(/^0+/, '');
  if (digits === '') return m[1] === '' ? '0' : undefined;
  let exponent = Number(m[4] ?? '0') - frac.length;
  const significant = digits.replace(/0+$/, '');
  exponent += digits.length - significant.length;
  digits = significant;
  return `${m[1]}${digits}e${exponent}`;
}

/**
 * deepEqual, except that an amount's `value` may be spelled otherwise (the app's "1e30") if it is
 * exactly the same number: the codec encodes the number, whatever the spelling.
 */
function sameJson(decoded: unknown, given: unknown, key?: string): boolean {
  if (decoded === given) return true;
  if (key === 'value' && typeof decoded === 'string' && typeof given === 'string') {
    const exact = exactDecimal(decoded);
    return exact !== undefined && exact === exactDecimal(given);
  }
  if (typeof decoded !== 'object' || typeof given !== 'object' || decoded === null || given === null)
    return false;
  if (Array.isArray(decoded) !== Array.isArray(given)) return false;
  const a = decoded as Record<string, unknown>;
  const b = given as Record<string, unknown>;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k], k));
}

/**
 * The codec's encoding of `tx` (hex, upper case) when the package's serializer provably gives the
 * same bytes: its blob decodes back to `tx` — the codec's encoding of a JSON is the blob that
 * decodes to it; an amount's value compared as the exact number it spells. Undefined otherwise
 * (X-addresses, lower-case hex, non-canonical values, XRP amounts the codec refuses, fields it
 * does not write, errors): encode with the codec then, which also words any error.
 */
export function encodeTransactionFast(tx: JsonObject): string | undefined {
  try {
    const fast = serializeHexFast(tx);
    if (fast !== undefined && xrpAmountsValid(tx) && sameJson(decodeTransaction(fast), tx)) return fast;
  } catch {
    // The codec decides.
  }
  return undefined;
}
