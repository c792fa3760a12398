import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { telegramAuthSchema, type TelegramAuth } from '@ledgerpad/shared';
import { unauthorized } from '../../lib/errors';
import { parseInput } from '../../lib/validation';

/** Telegram's own guidance: reject auth results older than a day. */
const TELEGRAM_AUTH_MAX_AGE_S = 24 * 3600;
/** Clock skew tolerated for an auth_date slightly in the future. */
const FUTURE_SKEW_S = 300;

const failed = () => unauthorized('Telegram sign-in could not be verified');

/**
 * Verifies a Login Widget auth result exactly as https://core.telegram.org/widgets/login#checking-authorization
 * describes: the data-check-string is every received field except `hash`, as `key=value`, sorted by
 * key and joined with '\n'; the key is SHA-256(bot token); the hash is the hex HMAC-SHA-256.
 * Every field the browser sent is signed, so unknown fields are included, not dropped.
 */
export function verifyTelegramAuth(body: unknown, botToken: string, nowSeconds: number): TelegramAuth {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw failed();
  const fields = body as Record<string, unknown>;
  const hash = fields.hash;
  if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/i.test(hash)) throw failed();
  const pairs: string[] = [];
  for (const key of Object.keys(fields).sort()) {
    if (key === 'hash') continue;
    const value = fields[key];
    if (typeof value !== 'string' && typeof value !== 'number') throw failed();
    pairs.push(`${key}=${value}`);
  }
  const secret = createHash('sha256').update(botToken).digest();
  const expected = createHmac('sha256', secret).update(pairs.join('\n')).digest();
  const given = Buffer.from(hash.toLowerCase(), 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw failed();

  const auth = parseInput(telegramAuthSchema, fields);
  if (nowSeconds - auth.auth_date > TELEGRAM_AUTH_MAX_AGE_S) {
    throw unauthorized('Telegram sign-in has expired; please sign in again');
  }
  if (auth.auth_date - nowSeconds > FUTURE_SKEW_S) throw failed();
  return auth;
}
