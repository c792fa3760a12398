// Currency codes as rippled sees them: 160-bit values. JSON uses the 3-character ISO-like form for
// "standard" codes (12 zero bytes, 3 ASCII bytes, 5 zero bytes) and 40 hex digits otherwise.

const ISO_CHARS = /^[A-Za-z0-9?!@#$%^&*<>(){}[\]|]{3}$/;
const ZERO_CURRENCY = '0'.repeat(40);

export const XRP_CURRENCY_HEX = ZERO_CURRENCY;

/** 40 uppercase hex digits for any accepted JSON currency; undefined when malformed. */
export function currencyToHex(code: string): string | undefined {
  if (code.length === 3) {
    if (!ISO_CHARS.test(code)) return undefined;
    if (code === 'XRP') return ZERO_CURRENCY;
    let hex = '000000000000000000000000';
    for (let i = 0; i < 3; i++) hex += code.charCodeAt(i).toString(16).padStart(2, '0').toUpperCase();
    return hex + '0000000000';
  }
  if (/^[0-9A-Fa-f]{40}$/.test(code)) return code.toUpperCase();
  return undefined;
}

/** The JSON form rippled prints (and ripple-binary-codec decodes to). */
export function currencyToJson(hex: string): string {
  if (hex === ZERO_CURRENCY) return 'XRP';
  if (hex.startsWith('000000000000000000000000') && hex.endsWith('0000000000')) {
    let s = '';
    for (let i = 24; i < 30; i += 2) s += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16));
    if (ISO_CHARS.test(s) && s !== 'XRP') return s;
  }
  return hex;
}

/** Normalize a JSON currency to rippled's printed form (undefined when malformed). */
export function normalizeCurrency(code: string): string | undefined {
  const hex = currencyToHex(code);
  return hex === undefined ? undefined : currencyToJson(hex);
}

/** rippled's badCurrency(): the ISO code "XRP" encoded as a non-native currency. */
export function isBadCurrency(hex: string): boolean {
  return hex === '0000000000000000000000005852500000000000';
}
