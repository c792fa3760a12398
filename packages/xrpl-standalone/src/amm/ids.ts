// Identifiers derived as rippled derives them: the AMM ledger entry index (keylet::amm), the AMM
// pseudo-account (ammAccountID) and the LP token currency (ammLPTCurrency, "03" + 19 hash bytes).
import { createHash } from 'node:crypto';
import { decodeAccountID, encodeAccountID } from 'ripple-address-codec';
import type { Issue } from './amount';

const AMM_SPACE = 0x0041; // 'A'

function sha512Half(...parts: Uint8Array[]): Buffer {
  const h = createHash('sha512');
  for (const p of parts) h.update(p);
  return h.digest().subarray(0, 32);
}

/** 20-byte currency code: XRP is all zeros, 3-letter codes sit at bytes 12..14. */
export function currencyBytes(currency: string): Uint8Array {
  const out = new Uint8Array(20);
  if (currency === 'XRP') return out;
  if (/^[0-9A-Fa-f]{40}$/.test(currency)) return Uint8Array.from(Buffer.from(currency, 'hex'));
  if (currency.length !== 3) throw new Error(`bad currency code: ${currency}`);
  for (let i = 0; i < 3; i++) out[12 + i] = currency.charCodeAt(i);
  return out;
}

function accountBytes(issuer: string): Uint8Array {
  return issuer === '' ? new Uint8Array(20) : Uint8Array.from(decodeAccountID(issuer));
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** rippled's Issue ordering: currency first, then issuer (XRP has none). */
export function compareIssues(a: Issue, b: Issue): number {
  const c = compareBytes(currencyBytes(a.currency), currencyBytes(b.currency));
  if (c !== 0 || a.currency === 'XRP') return c;
  return compareBytes(accountBytes(a.issuer), accountBytes(b.issuer));
}

function u16(n: number): Uint8Array {
  return Uint8Array.of((n >> 8) & 0xff, n & 0xff);
}

/** The AMM ledger entry index for an asset pair (order-independent). */
export function ammIndex(a: Issue, b: Issue): string {
  const [lo, hi] = compareIssues(a, b) <= 0 ? [a, b] : [b, a];
  return sha512Half(
    u16(AMM_SPACE),
    accountBytes(lo.issuer),
    currencyBytes(lo.currency),
    accountBytes(hi.issuer),
    currencyBytes(hi.currency),
  )
    .toString('hex')
    .toUpperCase();
}

/** The AMM pseudo-account for attempt `prefix` (rippled tries 0, 1, ... until the account is free). */
export function ammAccountId(prefix: number, parentHash: string, ammId: string): string {
  const hash = sha512Half(u16(prefix), Buffer.from(parentHash, 'hex'), Buffer.from(ammId, 'hex'));
  const sha = createHash('sha256').update(hash).digest();
  const rip = createHash('ripemd160').update(sha).digest();
  return encodeAccountID(rip);
}

/** LP token currency: 0x03 followed by the first 19 bytes of sha512Half(minCurrency, maxCurrency). */
export function ammLptCurrency(a: string, b: string): string {
  const ca = currencyBytes(a);
  const cb = currencyBytes(b);
  const [lo, hi] = compareBytes(ca, cb) <= 0 ? [ca, cb] : [cb, ca];
  const hash = sha512Half(lo, hi);
  return ('03' + hash.subarray(0, 19).toString('hex')).toUpperCase();
}
