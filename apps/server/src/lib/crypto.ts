import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

export const hmacSha256 = (key: string | Buffer, data: string | Buffer): Buffer =>
  createHmac('sha256', key).update(data).digest();

/** URL-safe random token carrying `bytes` bytes of entropy. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/**
 * Constant-time string comparison. Lengths are compared first (that leaks only the length, which
 * is public for fixed-size tokens); contents never short-circuit.
 */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) return false;
  return timingSafeEqual(ab, bb);
}
