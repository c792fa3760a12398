// Exact decimal arithmetic on issued-currency value strings (as rippled prints them), for the
// RPC-side summaries (gateway_balances, account_currencies). Values are mantissa × 10^exponent
// bigints; results are normalised to rippled's 16-digit mantissa and printed like STAmount::getText.

export interface Decimal {
  mantissa: bigint;
  exponent: number;
}

export function parseDecimal(text: string): Decimal {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!match) throw new Error(`not a decimal: ${text}`);
  const [, sign, intPart = '', fracPart = '', exp = '0'] = match;
  const digits = (intPart + fracPart).replace(/^0+/, '') || '0';
  let mantissa = BigInt(digits);
  if (sign === '-') mantissa = -mantissa;
  return { mantissa, exponent: Number(exp) - fracPart.length };
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const exponent = Math.min(a.exponent, b.exponent);
  return [
    a.mantissa * 10n ** BigInt(a.exponent - exponent),
    b.mantissa * 10n ** BigInt(b.exponent - exponent),
    exponent,
  ];
}

export function compareDecimal(a: Decimal, b: Decimal): number {
  if (a.mantissa === 0n || b.mantissa === 0n) {
    return Number(
      (a.mantissa > 0n ? 1n : a.mantissa < 0n ? -1n : 0n) -
        (b.mantissa > 0n ? 1n : b.mantissa < 0n ? -1n : 0n),
    );
  }
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function addDecimal(a: Decimal, b: Decimal): Decimal {
  const [x, y, exponent] = align(a, b);
  return { mantissa: x + y, exponent };
}

export function negateDecimal(a: Decimal): Decimal {
  return { mantissa: -a.mantissa, exponent: a.exponent };
}

/** Normalise to rippled's range (10^15 ≤ |mantissa| < 10^16), truncating extra digits as rippled does. */
function normalise(value: Decimal): Decimal {
  let { mantissa, exponent } = value;
  if (mantissa === 0n) return { mantissa: 0n, exponent: -100 };
  const negative = mantissa < 0n;
  if (negative) mantissa = -mantissa;
  while (mantissa < 1_000_000_000_000_000n) {
    mantissa *= 10n;
    exponent -= 1;
  }
  while (mantissa >= 10_000_000_000_000_000n) {
    mantissa /= 10n;
    exponent += 1;
  }
  return { mantissa: negative ? -mantissa : mantissa, exponent };
}

/** STAmount::getText for issued values. */
export function formatDecimal(value: Decimal): string {
  const { mantissa, exponent } = normalise(value);
  if (mantissa === 0n) return '0';
  const negative = mantissa < 0n;
  const abs = negative ? -mantissa : mantissa;
  let text: string;
  if (exponent < -25 || exponent > -5) {
    // rippled prints the raw normalised mantissa here, trailing zeros included.
    text = `${abs}e${exponent}`;
  } else {
    const digits = abs.toString().padStart(-exponent + 1, '0');
    const intPart = digits.slice(0, digits.length + exponent);
    const fracPart = digits.slice(digits.length + exponent).replace(/0+$/, '');
    text = fracPart ? `${intPart}.${fracPart}` : intPart;
  }
  return negative ? `-${text}` : text;
}

/** Negates a printed value textually, so it keeps the printer's form (ripple-binary-codec's). */
export function negateText(text: string): string {
  if (text.startsWith('-')) return text.slice(1);
  if (parseDecimal(text).mantissa === 0n) return text;
  return `-${text}`;
}
