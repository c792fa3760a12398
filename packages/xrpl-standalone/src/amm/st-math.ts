// STAmount arithmetic that AMM code calls directly (rippled's divide(STAmount, STAmount, Issue)):
// the mantissas are divided with 17 extra digits, truncated, nudged by 5 and normalized. XRP
// operands are first scaled to a 16-digit mantissa, as rippled does.
import { Num, iouOf, toIouPrecision } from '../core/number';

const MIN = 10n ** 15n;
const TEN17 = 10n ** 17n;

function parts(n0: Num): [bigint, number, boolean] {
  // STAmount operands have 16-digit mantissas (exact for values that came from amounts).
  const n = toIouPrecision(n0);
  let m = n.mantissa < 0n ? -n.mantissa : n.mantissa;
  let e = n.exponent;
  while (m !== 0n && m < MIN) {
    m *= 10n;
    e--;
  }
  return [m, e, n.mantissa < 0n];
}

export function stDivide(num: Num, den: Num): Num {
  if (den.isZero()) throw new RangeError('division by zero');
  if (num.isZero()) return Num.zero;
  const [nm, ne, nneg] = parts(num);
  const [dm, de, dneg] = parts(den);
  const q = (nm * TEN17) / dm + 5n;
  return iouOf(nneg !== dneg ? -q : q, ne - de - 17);
}
