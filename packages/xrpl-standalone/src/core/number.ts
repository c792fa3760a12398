// rippled's `Number` (src/libxrpl/basics/Number.cpp): a normalized decimal float with a signed
// mantissa and an exponent, where every operation rounds with guard digits according to a
// rounding mode. Two mantissa ranges, as rippled: "small" ([10^15, 10^16), mainnet today) and
// "large" ([10^18, 10^19), under SingleAssetVault/LendingProtocol), chosen per transaction with
// `withMantissaScale`. AMM math must reproduce rippled bit for bit, so this is a faithful
// re-implementation of its arithmetic (including its quirks, such as division ignoring the
// remainder beyond a few guard digits), not a general-purpose decimal library. The rounding mode
// and the range are module state only for the duration of a synchronous call (rippled keeps them
// thread-local), so they never leak between transactions or ledgers.

export type RoundingMode = 'to_nearest' | 'towards_zero' | 'downward' | 'upward';

let currentMode: RoundingMode = 'to_nearest';

export function getRound(): RoundingMode {
  return currentMode;
}

/** Sets the rounding mode and returns the previous one (rippled's Number::setround). */
export function setRound(mode: RoundingMode): RoundingMode {
  const previous = currentMode;
  currentMode = mode;
  return previous;
}

/** rippled's NumberRoundModeGuard / saveNumberRoundMode: run `fn` under `mode`, then restore. */
export function withRound<T>(mode: RoundingMode, fn: () => T): T {
  const previous = setRound(mode);
  try {
    return fn();
  } finally {
    currentMode = previous;
  }
}

/**
 * rippled's mantissa ranges: "small" (16 digits, mainnet today) and "large" (19 digits, switched on
 * by SingleAssetVault/LendingProtocol). Large mantissas above 2^63-1 keep only 18 significant
 * digits (the 19th is 0), because rippled rounds them while they fit an int64.
 */
export type MantissaScale = 'small' | 'large';

interface MantissaRange {
  readonly min: bigint;
  readonly max: bigint;
  /** Digits of `min` minus one (15 or 18). */
  readonly log: number;
}

const SMALL: MantissaRange = { min: 10n ** 15n, max: 10n ** 16n - 1n, log: 15 };
const LARGE: MantissaRange = { min: 10n ** 18n, max: 10n ** 19n - 1n, log: 18 };
const MAX_REP = 2n ** 63n - 1n;

let range: MantissaRange = SMALL;

export function getMantissaScale(): MantissaScale {
  return range === LARGE ? 'large' : 'small';
}

/** rippled's per-transaction `Number::setMantissaScale`, scoped: run `fn` under `scale`, then restore. */
export function withMantissaScale<T>(scale: MantissaScale, fn: () => T): T {
  const previous = range;
  range = scale === 'large' ? LARGE : SMALL;
  try {
    return fn();
  } finally {
    range = previous;
  }
}

const MIN_MANTISSA = SMALL.min;
const MAX_MANTISSA = SMALL.max;
const MIN_EXPONENT = -32768;
const MAX_EXPONENT = 32768;
const ZERO_EXPONENT = -2147483648;
const GUARD_DIGITS = 16;
const POW10: bigint[] = [];
for (let i = 0, p = 1n; i <= 40; i++, p *= 10n) POW10.push(p);
const HALF = 5n * 10n ** 15n;

function pow10(k: number): bigint {
  return k <= 40 ? POW10[k]! : 10n ** BigInt(k);
}

function digitCount(m: bigint): number {
  let n = 1;
  while (n < POW10.length && m >= POW10[n]!) n++;
  return n;
}

/**
 * Extra decimal digits kept while an operation is in flight: the 16 most recently dropped digits
 * (newest most significant) plus a sticky bit for anything dropped beyond them.
 */
class Guard {
  digits = 0n;
  xbit = false;
  negative = false;

  /** Shifts `k` digits off the magnitude `m` into the guard and returns the shortened magnitude. */
  drop(m: bigint, k: number): bigint {
    if (k <= 0) return m;
    const div = pow10(k);
    const dropped = m % div;
    if (k <= GUARD_DIGITS) {
      if (this.digits % pow10(k) !== 0n) this.xbit = true;
      this.digits = this.digits / pow10(k) + dropped * pow10(GUARD_DIGITS - k);
    } else {
      const extra = pow10(k - GUARD_DIGITS);
      if (this.digits !== 0n || dropped % extra !== 0n) this.xbit = true;
      this.digits = dropped / extra;
    }
    return m / div;
  }

  pop(): bigint {
    const d = this.digits / pow10(GUARD_DIGITS - 1);
    this.digits = (this.digits % pow10(GUARD_DIGITS - 1)) * 10n;
    return d;
  }

  /** 1: round the magnitude up, -1: leave it, 0: exactly half (ties to even). */
  round(): number {
    switch (currentMode) {
      case 'towards_zero':
        return -1;
      case 'downward':
        return this.negative && (this.digits > 0n || this.xbit) ? 1 : -1;
      case 'upward':
        if (this.negative) return -1;
        return this.digits > 0n || this.xbit ? 1 : -1;
      default:
        if (this.digits > HALF) return 1;
        if (this.digits < HALF) return -1;
        return this.xbit ? 1 : 0;
    }
  }
}

export type NumberLike = Num | bigint | number;

export class Num {
  /** Signed mantissa: 0, or |mantissa| in [10^15, 10^16). */
  readonly mantissa: bigint;
  readonly exponent: number;

  /** Unchecked: callers pass an already normalized pair (use `Num.of` otherwise). */
  constructor(mantissa: bigint, exponent: number) {
    this.mantissa = mantissa;
    this.exponent = exponent;
  }

  static readonly zero = new Num(0n, ZERO_EXPONENT);
  static readonly one = new Num(MIN_MANTISSA, -15);

  /** rippled's Number(mantissa, exponent): normalizes under the current rounding mode. */
  static of(mantissa: bigint | number, exponent = 0): Num {
    const m = typeof mantissa === 'bigint' ? mantissa : BigInt(mantissa);
    return normalize(m < 0n, m < 0n ? -m : m, exponent);
  }

  /** Builds from an already normalized pair without rounding (STAmount IOU mantissa/exponent). */
  static fromNormalized(mantissa: bigint, exponent: number): Num {
    if (mantissa === 0n) return Num.zero;
    const abs = mantissa < 0n ? -mantissa : mantissa;
    if (abs < MIN_MANTISSA || abs > MAX_MANTISSA) return Num.of(mantissa, exponent);
    return new Num(mantissa, exponent);
  }

  static from(value: NumberLike): Num {
    if (value instanceof Num) return value;
    return Num.of(typeof value === 'number' ? BigInt(value) : value, 0);
  }

  /** Parses a decimal string such as "-12.5e3" (exact when it fits 16 digits). */
  static parse(text: string): Num {
    const match = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
    if (!match || (match[2] === '' && (match[3] ?? '') === '')) {
      throw new Error(`invalid number: ${text}`);
    }
    const digits = (match[2] ?? '') + (match[3] ?? '');
    const exponent = Number.parseInt(match[4] ?? '0', 10) - (match[3] ?? '').length;
    const m = BigInt(digits === '' ? '0' : digits);
    return Num.of(match[1] === '-' ? -m : m, exponent);
  }

  isZero(): boolean {
    return this.mantissa === 0n;
  }

  signum(): number {
    return this.mantissa > 0n ? 1 : this.mantissa < 0n ? -1 : 0;
  }

  neg(): Num {
    return this.mantissa === 0n ? this : new Num(-this.mantissa, this.exponent);
  }

  abs(): Num {
    return this.mantissa < 0n ? this.neg() : this;
  }

  add(other: NumberLike): Num {
    return add(this, Num.from(other));
  }

  sub(other: NumberLike): Num {
    return add(this, Num.from(other).neg());
  }

  mul(other: NumberLike): Num {
    return mul(this, Num.from(other));
  }

  div(other: NumberLike): Num {
    return div(this, Num.from(other));
  }

  cmp(other: NumberLike): number {
    const y = Num.from(other);
    const xneg = this.mantissa < 0n;
    const yneg = y.mantissa < 0n;
    if (xneg !== yneg) return xneg ? -1 : 1;
    if (this.mantissa === 0n) return y.mantissa === 0n ? 0 : y.mantissa > 0n ? -1 : 1;
    if (y.mantissa === 0n) return this.mantissa > 0n ? 1 : -1;
    let xm = this.mantissa;
    let ym = y.mantissa;
    if (this.exponent !== y.exponent) {
      // A 16-digit and a 19-digit Number (STAmount value vs large-range result): widen exactly.
      const xl = (xneg ? -xm : xm) >= LARGE.min;
      const yl = (yneg ? -ym : ym) >= LARGE.min;
      if (xl === yl) {
        const larger = this.exponent > y.exponent;
        return larger !== xneg ? 1 : -1;
      }
      const xe = xl ? this.exponent : this.exponent - 3;
      const ye = xl ? y.exponent - 3 : y.exponent;
      if (xe !== ye) return xe > ye !== xneg ? 1 : -1;
      if (xl) ym *= 1000n;
      else xm *= 1000n;
    }
    return xm === ym ? 0 : xm > ym ? 1 : -1;
  }

  eq(other: NumberLike): boolean {
    return this.cmp(other) === 0;
  }

  lt(other: NumberLike): boolean {
    return this.cmp(other) < 0;
  }

  le(other: NumberLike): boolean {
    return this.cmp(other) <= 0;
  }

  gt(other: NumberLike): boolean {
    return this.cmp(other) > 0;
  }

  ge(other: NumberLike): boolean {
    return this.cmp(other) >= 0;
  }

  /** Multiplies by 10^delta without touching the mantissa (rippled's shiftExponent). */
  shiftExponent(delta: number): Num {
    if (this.mantissa === 0n) return this;
    const e = this.exponent + delta;
    if (e >= MAX_EXPONENT) throw new RangeError('Number::shiftExponent');
    if (e < MIN_EXPONENT) return Num.zero;
    return new Num(this.mantissa, e);
  }

  /** rippled's `operator rep()`: to an integer, rounded by the current mode. */
  toBigInt(): bigint {
    if (this.mantissa === 0n) return 0n;
    const g = new Guard();
    let drops = this.mantissa;
    if (drops < 0n) {
      g.negative = true;
      drops = -drops;
    }
    if (this.exponent < 0) {
      drops = g.drop(drops, -this.exponent);
    } else if (this.exponent > 0) {
      drops *= pow10(this.exponent);
      if (drops > 9223372036854775807n) throw new RangeError('Number::operator rep() overflow');
    }
    const r = g.round();
    if (r === 1 || (r === 0 && (drops & 1n) === 1n)) drops += 1n;
    return g.negative ? -drops : drops;
  }

  /** rippled's to_string(Number). */
  toString(): string {
    if (this.mantissa === 0n) return '0';
    const negative = this.mantissa < 0n;
    let mantissa = negative ? -this.mantissa : this.mantissa;
    let exponent = this.exponent;
    // Scientific notation outside rippled's window for the mantissa's range (log 15 or 18).
    const log = mantissa >= LARGE.min ? 18 : 15;
    if (exponent !== 0 && (exponent < -(log + 10) || exponent > -(log - 10))) {
      while (mantissa % 10n === 0n) {
        mantissa /= 10n;
        exponent++;
      }
      return `${negative ? '-' : ''}${mantissa}e${exponent}`;
    }
    const raw = mantissa.toString();
    const pointAt = raw.length + exponent;
    let intPart: string;
    let fracPart: string;
    if (pointAt <= 0) {
      intPart = '0';
      fracPart = '0'.repeat(-pointAt) + raw;
    } else {
      intPart = raw.slice(0, pointAt);
      fracPart = raw.slice(pointAt);
    }
    fracPart = fracPart.replace(/0+$/, '');
    return `${negative ? '-' : ''}${intPart}${fracPart ? `.${fracPart}` : ''}`;
  }
}

/** rippled's Guard::doRoundUp (the pre-cusp-fix form) followed by bringIntoRange. */
function roundUpMagnitude(g: Guard, m: bigint, e: number, r: MantissaRange): [bigint, number] {
  const dir = g.round();
  if (dir === 1 || (dir === 0 && (m & 1n) === 1n)) {
    m += 1n;
    if (m > r.max || m > MAX_REP) {
      m /= 10n;
      e++;
    }
  }
  return [m, e];
}

function finish(negative: boolean, m: bigint, e: number, r: MantissaRange): Num {
  if (m < r.min) {
    m *= 10n;
    e--;
  }
  if (e < MIN_EXPONENT || m === 0n) return Num.zero;
  if (e > MAX_EXPONENT) throw new RangeError('Number overflow');
  return new Num(negative ? -m : m, e);
}

/** rippled's doNormalize into range `r`, rounding with the current mode. */
function normalizeIn(negative: boolean, m: bigint, e: number, r: MantissaRange): Num {
  if (m === 0n) return Num.zero;
  if (m < r.min) {
    const shift = Math.min(r.log + 1 - digitCount(m), e - MIN_EXPONENT);
    if (shift > 0) {
      m *= pow10(shift);
      e -= shift;
    }
  }
  const g = new Guard();
  g.negative = negative;
  if (m > r.max) {
    const k = digitCount(m) - (r.log + 1);
    if (e + k > MAX_EXPONENT) throw new RangeError('Number::normalize 1');
    m = g.drop(m, k);
    e += k;
  }
  if (e < MIN_EXPONENT || m < r.min) return Num.zero;
  if (m > MAX_REP) {
    // Large range: round while the mantissa fits an int64, then scale back (trailing 0).
    if (e >= MAX_EXPONENT) throw new RangeError('Number::normalize 1.5');
    m = g.drop(m, 1);
    e++;
  }
  [m, e] = roundUpMagnitude(g, m, e, r);
  return finish(negative, m, e, r);
}

function normalize(negative: boolean, m: bigint, e: number): Num {
  return normalizeIn(negative, m, e, range);
}

/** `x` as a normalized Number of the current range: exact when widening, rounded when narrowing. */
function inRange(x: Num): Num {
  const m = x.mantissa;
  if (m === 0n) return x;
  const a = m < 0n ? -m : m;
  if (a >= range.min && a <= range.max) return x;
  return normalizeIn(m < 0n, a, x.exponent, range);
}

/**
 * rippled's IOUAmount(Number): a Number brought to an STAmount's 16-digit mantissa, rounding with
 * the current mode (a no-op for a 16-digit Number).
 */
export function toIouPrecision(x: Num): Num {
  const m = x.mantissa;
  if (m === 0n) return x;
  const a = m < 0n ? -m : m;
  if (a >= MIN_MANTISSA && a <= MAX_MANTISSA) return x;
  return normalizeIn(m < 0n, a, x.exponent, SMALL);
}

/** An STAmount-style value (16-digit mantissa) from any mantissa/exponent, rounding with the current mode. */
export function iouOf(mantissa: bigint, exponent: number): Num {
  return normalizeIn(mantissa < 0n, mantissa < 0n ? -mantissa : mantissa, exponent, SMALL);
}

function add(x0: Num, y0: Num): Num {
  if (y0.mantissa === 0n) return x0;
  if (x0.mantissa === 0n) return y0;
  const x = inRange(x0);
  const y = inRange(y0);
  if (x.mantissa === -y.mantissa && x.exponent === y.exponent) return Num.zero;
  const r = range;
  let xn = x.mantissa < 0n;
  let xm = xn ? -x.mantissa : x.mantissa;
  let xe = x.exponent;
  const yn = y.mantissa < 0n;
  let ym = yn ? -y.mantissa : y.mantissa;
  let ye = y.exponent;
  const g = new Guard();
  if (xe < ye) {
    g.negative = xn;
    xm = g.drop(xm, ye - xe);
    xe = ye;
  } else if (xe > ye) {
    g.negative = yn;
    ym = g.drop(ym, xe - ye);
    ye = xe;
  }
  if (xn === yn) {
    xm += ym;
    if (xm > r.max || xm > MAX_REP) {
      xm = g.drop(xm, 1);
      xe++;
    }
    [xm, xe] = roundUpMagnitude(g, xm, xe, r);
    return finish(xn, xm, xe, r);
  }
  if (xm > ym) {
    xm -= ym;
  } else {
    xm = ym - xm;
    xe = ye;
    xn = yn;
  }
  while (xm < r.min && xm * 10n <= MAX_REP) {
    xm = xm * 10n - g.pop();
    xe--;
  }
  const dir = g.round();
  if (dir === 1 || (dir === 0 && (xm & 1n) === 1n)) {
    xm -= 1n;
    if (xm < r.min) {
      xm *= 10n;
      xe--;
    }
  }
  return finish(xn, xm, xe, r);
}

function mul(x0: Num, y0: Num): Num {
  if (x0.mantissa === 0n) return x0;
  if (y0.mantissa === 0n) return y0;
  const x = inRange(x0);
  const y = inRange(y0);
  const r = range;
  let zm = x.mantissa * y.mantissa;
  const negative = zm < 0n;
  if (negative) zm = -zm;
  let ze = x.exponent + y.exponent;
  const g = new Guard();
  g.negative = negative;
  if (zm > r.max) {
    const k = digitCount(zm) - (r.log + 1);
    zm = g.drop(zm, k);
    ze += k;
  }
  if (zm > MAX_REP) {
    zm = g.drop(zm, 1);
    ze++;
  }
  [zm, ze] = roundUpMagnitude(g, zm, ze, r);
  return finish(negative, zm, ze, r);
}

function div(x0: Num, y0: Num): Num {
  if (y0.mantissa === 0n) throw new RangeError('Number: divide by 0');
  if (x0.mantissa === 0n) return x0;
  const x = inRange(x0);
  const y = inRange(y0);
  const nm = x.mantissa < 0n ? -x.mantissa : x.mantissa;
  const dm = y.mantissa < 0n ? -y.mantissa : y.mantissa;
  const negative = x.mantissa < 0n !== y.mantissa < 0n;
  // rippled scales the numerator by 10^17 and truncates: with the small range the remainder never
  // reaches the guard.
  const numerator = nm * POW10[17]!;
  let zm = numerator / dm;
  let ze = x.exponent - y.exponent - 17;
  if (range === LARGE) {
    // Large range: a second pass over the remainder adds up to 5 more digits (rippled's
    // "correction factor"), still truncating what is left after them.
    const rem = numerator % dm;
    if (rem !== 0n) {
      const correction = (rem * POW10[5]!) / dm;
      if (correction !== 0n) {
        zm = zm * POW10[5]! + correction;
        ze -= 5;
      }
    }
  }
  return normalize(negative, zm, ze);
}

/** rippled's root2: square root by a curve-fit guess and Newton iterations in the current mode. */
export function root2(value: NumberLike): Num {
  let f = inRange(Num.from(value));
  if (f.eq(Num.one)) return f;
  if (f.isZero()) return f;
  if (f.signum() < 0) throw new RangeError('Number::root2 of a negative number');
  let e = f.exponent + range.log + 1;
  if (e % 2 !== 0) e++;
  f = f.shiftExponent(-e);
  let r = Num.of(-60).mul(f).add(Num.of(144)).mul(f).add(Num.of(18)).div(Num.of(105));
  let rm1 = Num.zero;
  let rm2 = Num.zero;
  const two = Num.of(2);
  do {
    rm2 = rm1;
    rm1 = r;
    r = r.add(f.div(r)).div(two);
  } while (!r.eq(rm1) && !r.eq(rm2));
  return r.shiftExponent(e / 2);
}

/** rippled's power(f, n): exponentiation by squaring. */
export function power(f: Num, n: number): Num {
  if (n === 0) return Num.one;
  if (n === 1) return f;
  let r = power(f, Math.floor(n / 2));
  r = r.mul(r);
  if (n % 2 !== 0) r = r.mul(f);
  return r;
}

export function minNum(a: Num, b: Num): Num {
  return a.le(b) ? a : b;
}

export function maxNum(a: Num, b: Num): Num {
  return a.ge(b) ? a : b;
}
