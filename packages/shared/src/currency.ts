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

/** Ticker as written by users -> the code sent to the ledger. */
export function tickerToCurrency(ticker: string): string {
  if (ticker.length <= 3) return ticker;
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
