// Amount fields (issue 25 "inputs behave"): what a field may hold is digits and one dot, with at most
// `decimals` after it. Typing or pasting more keeps what fits: '1.1234567' pasted into a 6-decimal
// field becomes '1.123456' instead of emptying the field; a comma reads as the decimal point.

/** Keeps what an amount field may hold: digits and one dot, at most `decimals` after it. */
export function sanitizeAmount(value: string, decimals?: number): string {
  let out = value
    .trim()
    .replace(/,/g, '.')
    .replace(/[^\d.]/g, '');
  const dot = out.indexOf('.');
  if (dot !== -1) {
    out = out.slice(0, dot + 1) + out.slice(dot + 1).replace(/\./g, '');
    if (decimals !== undefined) out = decimals === 0 ? out.slice(0, dot) : out.slice(0, dot + 1 + decimals);
  }
  return out;
}
