import { SOCKET_TOKEN_TTL_MS } from '@ledgerpad/shared';
import { hmacSha256, safeEqual } from '../../lib/crypto';
import type { SocketClaims } from '../../realtime/routes';

/**
 * Short-lived socket credentials: `base64url(JSON {sub, exp}).base64url(HMAC-SHA-256)`. Not the
 * session cookie, so a leaked URL (tokens travel in the query string) is worth ten minutes of
 * read-only events, never a session. `sub` is null for anonymous visitors (public events only).
 */
// The claims' shape belongs to the socket layer that reads them (realtime); this module signs them.
export type { SocketClaims };

export function signSocketToken(
  secret: Buffer,
  sub: number | null,
  now = Date.now(),
  sid: number | null = null,
): string {
  const claims: SocketClaims = { sub, sid, exp: now + SOCKET_TOKEN_TTL_MS };
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
  const positive = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
  if (c.sub !== null && !positive(c.sub)) return null;
  const sid = c.sid ?? null;
  if (sid !== null && !positive(sid)) return null;
  // A user's token always names its session: one without it cannot be revoked, so it is refused.
  if (c.sub !== null && sid === null) return null;
  return { sub: c.sub ?? null, sid, exp: c.exp };
}
