// Amount fields (issue 25 "inputs behave", issue 39 "never rewrites input"). A field holds what was
// typed: a character that makes the amount invalid ('-5', '1e3', '5 XRP', '1.2.3') is kept and the
// field reads invalid, instead of being dropped silently ('-5' used to become '5', '1e3' '13'). Two
// normalisations keep the value the user meant: a comma is the decimal point, and a well-formed
// amount with more decimals than the asset has keeps what fits ('1.1234567' pasted into a 6-decimal
// field becomes '1.123456' instead of emptying the field).

/** Digits with at most one decimal point ('', '.', '5.' included: a field being typed). */
const PLAIN_AMOUNT = /^\d*\.?\d*$/;

/** What an amount field holds after a keystroke or a paste (see above). */
export function sanitizeAmount(value: string, decimals?: number): string {
  const out = value.trim().replace(/,/g, '.');
  if (!PLAIN_AMOUNT.test(out)) return value;
  const dot = out.indexOf('.');
  if (dot === -1 || decimals === undefined) return out;
  return decimals === 0 ? out.slice(0, dot) : out.slice(0, dot + 1 + decimals);
}

/** Why the text is not an amount at all (a sign, a letter, an exponent, a second point), or null. */
export function amountTextError(value: string): string | null {
  return PLAIN_AMOUNT.test(value.trim().replace(/,/g, '.'))
    ? null
    : 'Not an amount: use digits and one decimal point (no sign, letters or exponent).';
}
