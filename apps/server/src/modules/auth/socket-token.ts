import { SOCKET_TOKEN_TTL_MS } from '@ledgerpad/shared';
import { hmacSha256, safeEqual } from '../../lib/crypto';

/**
 * Short-lived socket credentials: `base64url(JSON {sub, exp}).base64url(HMAC-SHA-256)`. Not the
 * session cookie, so a leaked URL (tokens travel in the query string) is worth ten minutes of
 * read-only events, never a session. `sub` is null for anonymous visitors (public events only).
 */
export interface SocketClaims {
  sub: number | null;
  /** Expiry, milliseconds since the epoch. */
  exp: number;
}

export function signSocketToken(secret: Buffer, sub: number | null, now = Date.now()): string {
  const claims: SocketClaims = { sub, exp: now + SOCKET_TOKEN_TTL_MS };
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${body}.${hmacSha256(secret, `socket:${body}`).toString('base64url')}`;
}

export function verifySocketToken(secret: Buffer, token: string, now = Date.now()): SocketClaims | null {
  if (token.length > 512) return null;
  const dot = token.indexOf('.');
  if (dot < 1) return null;
  const body = token.slice(0, dot);
  const mac = token.slice(dot + 1);
  if (!safeEqual(mac, hmacSha256(secret, `socket:${body}`).toString('base64url'))) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const c = claims as Partial<SocketClaims>;
  if (typeof c.exp !== 'number' || c.exp <= now) return null;
  if (c.sub !== null && !(typeof c.sub === 'number' && Number.isSafeInteger(c.sub) && c.sub > 0)) return null;
  return { sub: c.sub, exp: c.exp };
}
