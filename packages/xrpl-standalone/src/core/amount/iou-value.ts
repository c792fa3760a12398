// Issued-currency values exactly as rippled's STAmount/IOUAmount represent them: a 16-digit
// mantissa (10^15..10^16-1) and an exponent in -96..80, canonical zero = (0, -100).
// Arithmetic follows rippled with fixUniversalNumber enabled (today's mainnet): results are computed
// like rippled's `Number` (exact then rounded half-to-even to 16 digits) and then narrowed to the
// IOU range (underflow -> zero, overflow -> error). No floats anywhere.

export const MIN_MANTISSA = 1_000_000_000_000_000n;
export const MAX_MANTISSA = 9_999_999_999_999_999n;
export const MIN_EXPONENT = -96;
export const MAX_EXPONENT = 80;
const ZERO_EXPONENT = -100;

export class AmountOverflowError extends Error {
  readonly code = 'AMOUNT_OVERFLOW';
  constructor() {
    super('IOU amount overflow');
  }
}

export type RoundingMode = 'nearest' | 'up' | 'down' | 'towardZero';

const POW10: bigint[] = [];
for (let i = 0n, p = 1n; i < 60n; i++, p *= 10n) POW10.push(p);

export function pow10(n: number): bigint {
  return POW10[n] ?? 10n ** BigInt(n);
}

function digitCount(v: bigint): number {
  // v > 0
  let lo = 0;
  while (lo < POW10.length && (POW10[lo] as bigint) <= v) lo++;
  if (lo < POW10.length) return lo;
  return v.toString().length;
}

export class IouValue {
  /** Magnitude; 0 or within [MIN_MANTISSA, MAX_MANTISSA]. */
  readonly mantissa: bigint;
  readonly exponent: number;
  readonly negative: boolean;

  private constructor(mantissa: bigint, exponent: number, negative: boolean) {
    this.mantissa = mantissa;
    this.exponent = exponent;
    this.negative = negative;
  }

  static readonly ZERO = new IouValue(0n, ZERO_EXPONENT, false);

  /** Trusted constructor for already-canonical parts. */
  static raw(mantissa: bigint, exponent: number, negative: boolean): IouValue {
    if (mantissa === 0n) return IouValue.ZERO;
    return new IouValue(mantissa, exponent, negative);
  }

  /**
   * Canonicalize an exact value `sign * m * 10^e` (m any size) by rounding to 16 digits with the
   * given mode (rippled Number's default is to-nearest, ties to even), then narrowing to IOU range.
   */
  static fromExact(
    m: bigint,
    e: number,
    negative = false,
    mode: RoundingMode = 'nearest',
    sticky = false,
  ): IouValue {
    if (m < 0n) {
      m = -m;
      negative = !negative;
    }
    if (m === 0n) return IouValue.ZERO;
    const digits = digitCount(m);
    if (digits > 16) {
      const drop = digits - 16;
      const div = pow10(drop);
      let q = m / div;
      const r = m % div;
      const half = div / 2n;
      const inexact = r !== 0n || sticky;
      let up = false;
      switch (mode) {
        case 'nearest':
          up = r > half || (r === half && (sticky || (q & 1n) === 1n));
          break;
        case 'up':
          up = !negative && inexact;
          break;
        case 'down':
          up = negative && inexact;
          break;
        case 'towardZero':
          up = false;
          break;
      }
      if (up) q += 1n;
      e += drop;
      if (q > MAX_MANTISSA) {
        q /= 10n;
        e += 1;
      }
      m = q;
    } else if (digits < 16) {
      const add = 16 - digits;
      m *= pow10(add);
      e -= add;
      if (sticky && mode !== 'nearest' && mode !== 'towardZero') {
        // sticky only matters for directed rounding of an already-short value: bump one unit
        if ((mode === 'up' && !negative) || (mode === 'down' && negative)) m += 1n;
      }
    }
    if (e < MIN_EXPONENT) return IouValue.ZERO;
    if (e > MAX_EXPONENT) throw new AmountOverflowError();
    return new IouValue(m, e, negative);
  }

  /** Normalize without rounding surprises for values that fit (used by parsing). */
  static of(m: bigint, e = 0): IouValue {
    return IouValue.fromExact(m, e);
  }

  isZero(): boolean {
    return this.mantissa === 0n;
  }

  signum(): -1 | 0 | 1 {
    if (this.mantissa === 0n) return 0;
    return this.negative ? -1 : 1;
  }

  negate(): IouValue {
    if (this.mantissa === 0n) return this;
    return new IouValue(this.mantissa, this.exponent, !this.negative);
  }

  abs(): IouValue {
    return this.negative ? this.negate() : this;
  }

  compare(other: IouValue): -1 | 0 | 1 {
    const a = this.signum();
    const b = other.signum();
    if (a !== b) return a < b ? -1 : 1;
    if (a === 0) return 0;
    let mag: -1 | 0 | 1;
    if (this.exponent !== other.exponent) mag = this.exponent < other.exponent ? -1 : 1;
    else mag = this.mantissa === other.mantissa ? 0 : this.mantissa < other.mantissa ? -1 : 1;
    return a < 0 ? ((-mag || 0) as -1 | 0 | 1) : mag;
  }

  eq(o: IouValue): boolean {
    return this.compare(o) === 0;
  }
  lt(o: IouValue): boolean {
    return this.compare(o) < 0;
  }
  lte(o: IouValue): boolean {
    return this.compare(o) <= 0;
  }
  gt(o: IouValue): boolean {
    return this.compare(o) > 0;
  }
  gte(o: IouValue): boolean {
    return this.compare(o) >= 0;
  }

  private signedMantissa(): bigint {
    return this.negative ? -this.mantissa : this.mantissa;
  }

  /** rippled operator+ under fixUniversalNumber: exact sum rounded to nearest. */
  add(other: IouValue): IouValue {
    if (other.isZero()) return this;
    if (this.isZero()) return other;
    const e = Math.min(this.exponent, other.exponent);
    // Exponent gaps beyond ~40 digits cannot influence a 16-digit result except as a sticky bit.
    const gapA = this.exponent - e;
    const gapB = other.exponent - e;
    if (gapA > 40 || gapB > 40) {
      const big = gapA > gapB ? this : other;
      const small = gapA > gapB ? other : this;
      // big dominates: scale big by 20 digits, small becomes a sticky nudge
      const m = big.signedMantissa() * pow10(20) + (small.negative ? -1n : 1n);
      return IouValue.fromExact(m, big.exponent - 20);
    }
    const m = this.signedMantissa() * pow10(gapA) + other.signedMantissa() * pow10(gapB);
    return IouValue.fromExact(m, e);
  }

  sub(other: IouValue): IouValue {
    return this.add(other.negate());
  }

  /** rippled multiply (Number): exact product rounded to nearest. */
  mul(other: IouValue, mode: RoundingMode = 'nearest'): IouValue {
    if (this.isZero() || other.isZero()) return IouValue.ZERO;
    return IouValue.fromExact(
      this.mantissa * other.mantissa,
      this.exponent + other.exponent,
      this.negative !== other.negative,
      mode,
    );
  }

  /** rippled Number division: quotient truncated at 10^17 scale then rounded to 16 digits. */
  div(other: IouValue, mode: RoundingMode = 'nearest'): IouValue {
    if (other.isZero()) throw new RangeError('division by zero');
    if (this.isZero()) return IouValue.ZERO;
    const q = (this.mantissa * pow10(17)) / other.mantissa;
    return IouValue.fromExact(q, this.exponent - other.exponent - 17, this.negative !== other.negative, mode);
  }

  /**
   * rippled `mulRatio(IOUAmount, num, den, roundUp)`: used for transfer rates and line qualities.
   * Keeps as many digits as fit in an int64, then bumps one unit in the rounding direction when inexact.
   */
  mulRatio(num: bigint, den: bigint, roundUp: boolean): IouValue {
    if (den === 0n) throw new RangeError('division by zero');
    const neg = this.negative;
    const mul = this.mantissa * num;
    let low = mul / den;
    let rem = mul - low * den;
    let exponent = this.exponent;
    const FL64 = 18;
    const log10Ceil = (v: bigint): number => {
      if (v <= 1n) return 0;
      let k = 0;
      while (pow10(k) < v) k++;
      return k;
    };
    if (rem !== 0n) {
      const room = FL64 - log10Ceil(low);
      if (room > 0) {
        exponent -= room;
        low *= pow10(room);
        rem *= pow10(room);
      }
      const addRem = rem / den;
      low += addRem;
      rem -= addRem * den;
    }
    let hasRem = rem !== 0n;
    const mustShrink = log10Ceil(low) - FL64;
    if (mustShrink > 0) {
      const sav = low;
      exponent += mustShrink;
      low /= pow10(mustShrink);
      if (!hasRem) hasRem = sav - low * pow10(mustShrink) !== 0n;
    }
    if (low === 0n && !hasRem) return IouValue.ZERO;
    const result = IouValue.fromExact(low, exponent, neg);
    if (hasRem) {
      if (roundUp && !neg) {
        if (result.isZero()) return IouValue.raw(MIN_MANTISSA, MIN_EXPONENT, false);
        return IouValue.fromExact(result.mantissa + 1n, result.exponent, false);
      }
      if (!roundUp && neg) {
        if (result.isZero()) return IouValue.raw(MIN_MANTISSA, MIN_EXPONENT, true);
        return IouValue.fromExact(result.mantissa + 1n, result.exponent, true);
      }
    }
    return result;
  }

  min(o: IouValue): IouValue {
    return this.lte(o) ? this : o;
  }

  max(o: IouValue): IouValue {
    return this.gte(o) ? this : o;
  }

  /**
   * Parse a value as a decoded binary amount or a ledger entry prints it (rippled's grammar, no
   * length limit). A binary amount holds any 16-digit mantissa and exponent, and the codec prints
   * it in plain notation: 9999999999999999e80 is 96 digits, 1234567890123456e-32 is 32 after the
   * point. rippled reads binary amounts as they are; only JSON text has the 32-digit rule
   * (parseJsonText). Throws on bad syntax.
   */
  static parse(text: string): IouValue {
    return IouValue.parseDigits(text, Infinity);
  }

  /**
   * Parse a value given as JSON text (rippled's amountFromString): the same grammar, and at most
   * 32 digits before and after the point together.
   */
  static parseJsonText(text: string): IouValue {
    return IouValue.parseDigits(text, 32);
  }

  private static parseDigits(text: string, maxDigits: number): IouValue {
    // Same grammar as rippled's amountFromString: an integer part is mandatory, no leading zeros.
    const m = /^([-+]?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([-+]?[0-9]+))?$/.exec(text);
    if (!m) throw new SyntaxError(`invalid amount '${text}'`);
    const intPart = m[2] ?? '';
    const frac = m[3] ?? '';
    if (intPart.length + frac.length > maxDigits) throw new SyntaxError(`invalid amount '${text}'`);
    const digits = (intPart + frac).replace(/^0+/, '');
    const exp = Number(m[4] ?? '0') - frac.length;
    if (digits === '') return IouValue.ZERO;
    return IouValue.fromExact(BigInt(digits), exp, m[1] === '-');
  }

  /** rippled STAmount::getText for IOUs. */
  toString(): string {
    return iouText(this.mantissa, this.exponent, this.negative);
  }

  toJSON(): string {
    return this.toString();
  }
}

/**
 * rippled's STAmount::getText for a token value: `mantissa` × 10^`exponent` (mantissa ≥ 0, in
 * rippled's normalized range), plain decimal between 1e-25 and 1e-5 scale, else `<m>e<exp>`.
 */
export function iouText(mantissa: bigint, exponent: number, negative: boolean): string {
  if (mantissa === 0n) return '0';
  const raw = mantissa.toString();
  const sign = negative ? '-' : '';
  if (exponent !== 0 && (exponent < -25 || exponent > -5)) return `${sign}${raw}e${exponent}`;
  const val = '0'.repeat(27) + raw + '0'.repeat(23);
  const cut = exponent + 43;
  const pre = val.slice(0, cut).replace(/^0+/, '');
  const post = val.slice(cut).replace(/0+$/, '');
  return sign + (pre === '' ? '0' : pre) + (post === '' ? '' : `.${post}`);
}
