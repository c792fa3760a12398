import { createHash, createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferralSummary } from '@ledgerpad/shared';
import { referrals } from '../../src/modules/referrals/schema';
import { startFakeGoogle } from '../helpers/fake-google';
import { createTestApp, TEST_ORIGIN, type SignedIn, type TestApp } from '../helpers/test-app';

// The referral binds at the first sign-in by any method — Telegram and Google as well as the demo
// sign-in — from the link's `?ref=` on the sign-in request (Telegram's signed body is left as
// Telegram signed it); a later sign-in of the same account binds nothing.

const BOT_TOKEN = '123456789:AAE-test-bot-token-for-ledgerpad-tests';
const CLIENT_ID = '1234567890-ledgerpad.apps.googleusercontent.com';

/** Signs a widget payload the way Telegram's servers do. */
function signTelegram(fields: Record<string, string | number>): Record<string, string | number> {
  const check = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('\n');
  const secret = createHash('sha256').update(BOT_TOKEN).digest();
  return { ...fields, hash: createHmac('sha256', secret).update(check).digest('hex') };
}

let t: TestApp;
let fake: Awaited<ReturnType<typeof startFakeGoogle>>;
let referrer: SignedIn;
let code: string;

const referrerOf = async (userId: number) =>
  (await t.database.db.select().from(referrals).where(eq(referrals.referredUserId, userId)))[0]
    ?.referrerUserId;

beforeAll(async () => {
  fake = await startFakeGoogle({
    'ya29.new': {
      aud: CLIENT_ID,
      sub: '5001',
      email: 'new@example.com',
      scope: 'openid email',
      expiresIn: 3599,
    },
  });
  t = await createTestApp({
    ledger: 'none',
    env: {
      TELEGRAM_BOT_TOKEN: BOT_TOKEN,
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_TOKENINFO_URL: `${fake.base}/tokeninfo`,
      GOOGLE_USERINFO_URL: `${fake.base}/v1/userinfo`,
    },
  });
  referrer = await t.signIn('referrer_signin');
  code = (
    (
      await t.app.inject({ url: '/api/referrals/me', headers: { cookie: referrer.cookie } })
    ).json() as ReferralSummary
  ).code;
});

afterAll(async () => {
  await t?.close();
  await new Promise((r) => fake.server.close(r));
});

describe('referral binding at the first sign-in', () => {
  it('binds a Telegram user signing up through a link, once', async () => {
    const body = signTelegram({ id: 4242, first_name: 'Tess', auth_date: Math.floor(Date.now() / 1000) - 5 });
    const first = await t.app.inject({
      method: 'POST',
      url: `/api/auth/telegram?ref=${code}`,
      headers: { origin: TEST_ORIGIN },
      payload: body,
    });
    expect(first.statusCode, first.body).toBe(200);
    const id = (first.json() as { user: { id: number } }).user.id;
    expect(await referrerOf(id)).toBe(referrer.user.id);
    // Signing in again (any code) is the same user, bound as before.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/auth/telegram?ref=zzzzzzzz`,
      headers: { origin: TEST_ORIGIN },
      payload: body,
    });
    expect(again.statusCode).toBe(200);
    expect(await referrerOf(id)).toBe(referrer.user.id);
  });

  it('binds a Google user signing up through a link', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/auth/google?ref=${code}`,
      headers: { origin: TEST_ORIGIN },
      payload: { token: 'ya29.new' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await referrerOf((res.json() as { user: { id: number } }).user.id)).toBe(referrer.user.id);
    const me = (
      await t.app.inject({ url: '/api/referrals/me', headers: { cookie: referrer.cookie } })
    ).json() as ReferralSummary;
    expect(me.referred).toBe(2);
  });
});
