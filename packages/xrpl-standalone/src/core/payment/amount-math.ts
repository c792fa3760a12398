// Arithmetic over the Amount union used by the payment engine (XRP bigint or IouValue).
import type { Amount } from '../amount/amount';
import { IouValue } from '../amount/iou-value';

export function amtValue(a: Amount): IouValue {
  return a.kind === 'xrp' ? IouValue.fromExact(a.drops, 0) : a.value;
}

export function withValue(like: Amount, v: IouValue): Amount {
  if (like.kind === 'xrp') {
    // XRP results are whole drops; callers round explicitly before reaching here.
    const s = v.toString();
    return { kind: 'xrp', drops: BigInt(s.includes('e') || s.includes('.') ? truncate(v) : s) };
  }
  return { ...like, value: v };
}

function truncate(v: IouValue): string {
  if (v.isZero()) return '0';
  let m = v.mantissa;
  let e = v.exponent;
  while (e < 0) {
    m /= 10n;
    e++;
  }
  const r = m * 10n ** BigInt(e);
  return (v.negative ? -r : r).toString();
}

export function amtCmp(a: Amount, b: Amount): number {
  if (a.kind === 'xrp' && b.kind === 'xrp') return a.drops < b.drops ? -1 : a.drops > b.drops ? 1 : 0;
  return amtValue(a).compare(amtValue(b));
}

export function amtMin(a: Amount, b: Amount): Amount {
  return amtCmp(a, b) <= 0 ? a : b;
}

export function amtAdd(a: Amount, b: Amount): Amount {
  if (a.kind === 'xrp' && b.kind === 'xrp') return { kind: 'xrp', drops: a.drops + b.drops };
  return withValue(a, amtValue(a).add(amtValue(b)));
}

export function amtSub(a: Amount, b: Amount): Amount {
  if (a.kind === 'xrp' && b.kind === 'xrp') return { kind: 'xrp', drops: a.drops - b.drops };
  return withValue(a, amtValue(a).sub(amtValue(b)));
}

export function amtIsZero(a: Amount): boolean {
  return a.kind === 'xrp' ? a.drops === 0n : a.value.isZero();
}

export function amtSignum(a: Amount): number {
  return a.kind === 'xrp' ? (a.drops > 0n ? 1 : a.drops < 0n ? -1 : 0) : a.value.signum();
}

export function amtZero(like: Amount): Amount {
  return like.kind === 'xrp' ? { kind: 'xrp', drops: 0n } : { ...like, value: IouValue.ZERO };
}
