// Amounts as the engine handles them: XRP as bigint drops, issued currencies as IouValue plus issue.
import { isValidAddress } from '../account-id';
import { currencyToHex, normalizeCurrency } from './currency';
import { IouValue } from './iou-value';

export interface XrpAmount {
  readonly kind: 'xrp';
  readonly drops: bigint;
}

export interface IouAmount {
  readonly kind: 'iou';
  /** rippled's JSON form (3-letter or 40-hex). */
  readonly currency: string;
  readonly issuer: string;
  readonly value: IouValue;
}

export type Amount = XrpAmount | IouAmount;

export type AmountJson = string | { currency: string; issuer: string; value: string };

export interface Issue {
  currency: string;
  issuer: string;
}

/** 100 billion XRP: rippled's INITIAL_XRP / the largest legal XRP amount. */
export const MAX_DROPS = 100_000_000_000_000_000n;

export function xrp(drops: bigint): XrpAmount {
  return { kind: 'xrp', drops };
}

export function iou(currency: string, issuer: string, value: IouValue | string): IouAmount {
  return { kind: 'iou', currency, issuer, value: typeof value === 'string' ? IouValue.parse(value) : value };
}

/** Parse a JSON amount as it appears in decoded transactions and ledger entries. */
// Module-level: a regular expression literal inside the function is a new RegExp per call.
const DROPS_RE = /^-?[0-9]+$/;

export function parseAmount(json: unknown): Amount | undefined {
  if (typeof json === 'string') {
    if (!DROPS_RE.test(json)) return undefined;
    return { kind: 'xrp', drops: BigInt(json) };
  }
  if (json && typeof json === 'object') {
    const o = json as Record<string, unknown>;
    if (typeof o.currency !== 'string' || typeof o.value !== 'string') return undefined;
    const currency = normalizeCurrency(o.currency);
    if (currency === undefined) return undefined;
    if (currency === 'XRP' && o.issuer === undefined) {
      try {
        const v = IouValue.parse(o.value);
        return { kind: 'xrp', drops: BigInt(v.toString().split('.')[0] ?? '0') };
      } catch {
        return undefined;
      }
    }
    if (!isValidAddress(o.issuer)) return undefined;
    try {
      return { kind: 'iou', currency, issuer: o.issuer, value: IouValue.parse(o.value) };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Like parseAmount but for trusted ledger data: throws instead of returning undefined. */
export function amountOf(json: unknown): Amount {
  const a = parseAmount(json);
  if (!a) throw new TypeError(`bad amount ${JSON.stringify(json)}`);
  return a;
}

export function iouOf(json: unknown): IouAmount {
  const a = amountOf(json);
  if (a.kind !== 'iou') throw new TypeError('expected an issued amount');
  return a;
}

export function dropsOf(json: unknown): bigint {
  const a = amountOf(json);
  if (a.kind !== 'xrp') throw new TypeError('expected XRP');
  return a.drops;
}

export function amountToJson(a: Amount): AmountJson {
  if (a.kind === 'xrp') return a.drops.toString();
  return { currency: a.currency, issuer: a.issuer, value: a.value.toString() };
}

export function iouJson(currency: string, issuer: string, value: IouValue): AmountJson {
  return { currency, issuer, value: value.toString() };
}

export function isZero(a: Amount): boolean {
  return a.kind === 'xrp' ? a.drops === 0n : a.value.isZero();
}

export function isNegative(a: Amount): boolean {
  return a.kind === 'xrp' ? a.drops < 0n : a.value.signum() < 0;
}

export function sameIssue(a: Amount, b: Amount): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'xrp') return true;
  const bb = b as IouAmount;
  return a.issuer === bb.issuer && currencyToHex(a.currency) === currencyToHex(bb.currency);
}

export function sameCurrency(a: string, b: string): boolean {
  return a === b || currencyToHex(a) === currencyToHex(b);
}

/** Compare two amounts of the same kind. */
export function compareAmounts(a: Amount, b: Amount): number {
  if (a.kind === 'xrp' && b.kind === 'xrp') return a.drops < b.drops ? -1 : a.drops > b.drops ? 1 : 0;
  if (a.kind === 'iou' && b.kind === 'iou') return a.value.compare(b.value);
  throw new TypeError('cannot compare XRP with an issued amount');
}

/** rippled's isLegalNet for XRP amounts. */
export function isLegalXrp(drops: bigint): boolean {
  return drops <= MAX_DROPS && drops >= -MAX_DROPS;
}
