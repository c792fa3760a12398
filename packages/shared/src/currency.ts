// Ticker <-> XRPL currency code. XRPL allows 3-character ISO-style codes as-is; anything longer is
// a 160-bit code written as 40 uppercase hex characters, the ASCII bytes padded with zeros.
// Codes starting with 0x03 are AMM LP tokens (rippled derives them from the pool's assets), so they
// have no ticker of their own and are shown as LP-{TICKER} by the callers that know the pool.

const HEX40 = /^[0-9A-Fa-f]{40}$/;

export function isHexCurrency(code: string): boolean {
  return HEX40.test(code);
}

/** True for AMM LP token codes: 40 hex characters beginning with 03. */
export function isLpCurrency(code: string): boolean {
  return isHexCurrency(code) && code.slice(0, 2) === '03';
}

/**
 * Ticker as written by users -> the code sent to the ledger. A 3-character ticker is a standard
 * code as-is; any other length (2 to 20 bytes: the deploy form allows 2-character tickers, which
 * the ledger only accepts as 160-bit codes) becomes the 40-hex code of its bytes.
 */
export function tickerToCurrency(ticker: string): string {
  if (ticker.length === 3) return ticker;
  if (isHexCurrency(ticker)) return ticker.toUpperCase();
  const bytes = new TextEncoder().encode(ticker);
  if (bytes.length > 20) throw new RangeError(`Ticker is longer than 20 bytes: ${ticker}`);
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex.toUpperCase().padEnd(40, '0');
}

/**
 * Ledger currency code -> ticker for display. Hex codes decode to their ASCII text with the zero
 * padding removed; LP codes and codes that are not printable text stay as the hex code.
 */
export function currencyToTicker(code: string): string {
  if (!isHexCurrency(code) || isLpCurrency(code)) return code;
  const upper = code.toUpperCase();
  const bytes: number[] = [];
  for (let i = 0; i < 40; i += 2) bytes.push(parseInt(upper.slice(i, i + 2), 16));
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  const text = bytes.slice(0, end);
  if (text.length === 0 || text.some((b) => b < 0x20 || b > 0x7e)) return upper;
  return String.fromCharCode(...text);
}

/** Two codes name the same currency (case of hex ignored, ticker vs hex form equal). */
export function sameCurrency(a: string, b: string): boolean {
  return tickerToCurrency(a) === tickerToCurrency(b);
}

/** Display name of an LP token for a pool whose token has the given ticker. */
export function lpName(ticker: string): string {
  return `LP-${ticker}`;
}

// --- The one currency-code check (docs/money.md "Currency codes") ---
// Every route that takes a token code parses it with `tokenCodeSchema`, so 'XRP', 'é', a lone
// surrogate, quotes, right-to-left overrides or an LP code never reach the ledger or a query.

/** The characters XRPL allows in a standard (3-character) code; tickers here use the same set. */
const XRPL_CODE_CHARS = /^[A-Za-z0-9?!@#$%^&*<>(){}[\]|]+$/;
/** Longest ticker that fits a 160-bit code. */
const TICKER_MAX_BYTES = 20;

export const CURRENCY_MESSAGES = {
  invalid: (field: string) =>
    `${field} must be a token code: 3 letters or digits, a ticker of up to ${TICKER_MAX_BYTES} of A-Z a-z 0-9 ?!@#$%^&*<>(){}[]|, or 40 hexadecimal characters.`,
  xrp: 'XRP is the XRP Ledger’s own currency, not a token.',
  lp: 'LP tokens (codes starting with 03) cannot be used here.',
} as const;

export type TokenCodeProblem = 'empty' | 'invalid' | 'xrp' | 'lp';

export interface TokenCodeOptions {
  /** Accept tickers that map to a 40-hex code (default true); false: only ledger codes. */
  tickers?: boolean;
  /** Accept AMM LP codes (03…); the spec hides them from token choices, so default false. */
  allowLp?: boolean;
}

/**
 * A token code as users or screens send it → the ledger's currency code (3 characters as-is, else
 * 40 uppercase hex), or why it is not one. Hex codes follow XRPL's rules: the first byte is not 0x00
 * (that is XRP or the binary form of a standard code), and a code that reads as 'XRP' is refused.
 */
export function parseTokenCode(
  input: string,
  opts: TokenCodeOptions = {},
): { currency: string } | { problem: TokenCodeProblem } {
  const v = input.trim();
  if (v === '') return { problem: 'empty' };
  if (isHexCurrency(v)) {
    const hex = v.toUpperCase();
    if (hex.startsWith('00')) return { problem: hex === '0'.repeat(40) ? 'xrp' : 'invalid' };
    if (isLpCurrency(hex)) return opts.allowLp ? { currency: hex } : { problem: 'lp' };
    if (currencyToTicker(hex).toUpperCase() === 'XRP') return { problem: 'xrp' };
    return { currency: hex };
  }
  if (!XRPL_CODE_CHARS.test(v)) return { problem: 'invalid' };
  if (v.toUpperCase() === 'XRP') return { problem: 'xrp' };
  if (v.length === 3) return { currency: v };
  if (opts.tickers === false || v.length < 2 || v.length > TICKER_MAX_BYTES) return { problem: 'invalid' };
  return { currency: tickerToCurrency(v) };
}
