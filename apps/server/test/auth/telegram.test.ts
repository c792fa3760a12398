import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { createTestDatabase } from '../db';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../helpers/test-app';

const BOT_TOKEN = '123456789:AAE-test-bot-token-for-ledgerpad-tests';

/** Signs a widget payload the way Telegram's servers do (independently of the server's code). */
function signTelegram(
  fields: Record<string, string | number>,
  botToken = BOT_TOKEN,
): Record<string, string | number> {
  const dataCheckString = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('\n');
  const secret = createHash('sha256').update(botToken).digest();
  return { ...fields, hash: createHmac('sha256', secret).update(dataCheckString).digest('hex') };
}

const now = () => Math.floor(Date.now() / 1000);

// One database for the whole file: the extra apps below only need users and sessions tables.
let shared: Database;
beforeAll(async () => {
  shared = await createTestDatabase();
});
afterAll(async () => {
  await shared.close();
});

describe('POST /api/auth/telegram', () => {
  let t: TestApp;
  const post = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/auth/telegram', headers: { origin: TEST_ORIGIN }, payload });

  beforeAll(async () => {
    t = await createTestApp({ ledger: 'none', env: { TELEGRAM_BOT_TOKEN: BOT_TOKEN } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('accepts a correctly signed payload, creates the user and a session', async () => {
    const payload = signTelegram({
      id: 987654321,
      first_name: 'Ada',
      last_name: 'Lovelace',
      username: 'ada',
      photo_url: 'https://t.me/i/userpic/320/ada.jpg',
      auth_date: now() - 60,
    });
    const res = await post(payload);
    expect(res.statusCode).toBe(200);
    // Never the owner: user id 1 exists from the first start and signs in with its own link.
    const id = res.json().user.id as number;
    expect(id).toBeGreaterThan(1);
    expect(res.json().user).toMatchObject({
      telegram_id: 987654321,
      username: 'ada',
      first_name: 'Ada',
      photo_url: 'https://t.me/i/userpic/320/ada.jpg',
      google_id: null,
    });
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;
    const me = await t.app.inject({ url: '/api/user', headers: { cookie } });
    expect(me.json().user.telegram_id).toBe(987654321);

    // Signing in again updates the profile of the same user.
    const again = await post(
      signTelegram({ id: 987654321, first_name: 'Ada', username: 'ada2', auth_date: now() }),
    );
    expect(again.json().user).toMatchObject({ id, username: 'ada2', first_name: 'Ada' });
  });

  it('rejects a payload with a tampered field', async () => {
    const payload = signTelegram({ id: 111, first_name: 'Mallory', auth_date: now() });
    const res = await post({ ...payload, id: 1 });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'unauthorized', message: 'Telegram sign-in could not be verified' });
  });

  it('rejects an added field that was not signed', async () => {
    const payload = signTelegram({ id: 112, first_name: 'Eve', auth_date: now() });
    expect((await post({ ...payload, username: 'admin' })).statusCode).toBe(401);
  });

  it('rejects a wrong hash and a hash made with another bot token', async () => {
    const payload = signTelegram({ id: 113, auth_date: now() });
    expect((await post({ ...payload, hash: 'a'.repeat(64) })).statusCode).toBe(401);
    expect(
      (await post(signTelegram({ id: 113, auth_date: now() }, '999:other-bot-token-xxxxxxxxxxxxxx')))
        .statusCode,
    ).toBe(401);
    expect((await post({ id: 113, auth_date: now() })).statusCode).toBe(401);
  });

  it('rejects an auth_date older than 24 hours', async () => {
    const res = await post(signTelegram({ id: 114, first_name: 'Old', auth_date: now() - 24 * 3600 - 5 }));
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Telegram sign-in has expired; please sign in again');
    expect((await post(signTelegram({ id: 114, auth_date: now() - 24 * 3600 + 60 }))).statusCode).toBe(200);
  });

  it('checks Origin: a cross-site form post cannot sign a victim in', async () => {
    const payload = signTelegram({ id: 115, auth_date: now() });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/telegram',
      headers: { origin: 'https://evil.example' },
      payload,
    });
    expect(res.statusCode).toBe(403);
  });

  it('reports Telegram as enabled', async () => {
    const res = await t.app.inject({ url: '/api/auth/methods' });
    expect(res.json().telegram.enabled).toBe(true);
  });
});

describe('sign-in methods without configuration', () => {
  it('reports Telegram and Google disabled and answers 503', async () => {
    const t = await createTestApp({ ledger: 'none', database: shared });
    try {
      const methods = await t.app.inject({ url: '/api/auth/methods' });
      expect(methods.json()).toEqual({
        telegram: { enabled: false, botUsername: null },
        google: { enabled: false, clientId: null },
        demo: { enabled: true },
        network: 'standalone',
        onramp: null,
      });
      const tg = await t.app.inject({
        method: 'POST',
        url: '/api/auth/telegram',
        headers: { origin: TEST_ORIGIN },
        payload: signTelegram({ id: 1, auth_date: now() }),
      });
      expect(tg.statusCode).toBe(503);
      expect(tg.json()).toEqual({
        error: 'service_disabled',
        message: 'Telegram sign-in is not configured on this server (TELEGRAM_BOT_TOKEN)',
      });
      const google = await t.app.inject({
        method: 'POST',
        url: '/api/auth/google',
        headers: { origin: TEST_ORIGIN },
        payload: { token: 'x' },
      });
      expect(google.statusCode).toBe(503);
      expect(google.json().message).toMatch(/GOOGLE_CLIENT_ID/);
    } finally {
      await t.close();
    }
  });
});

describe('production cookies', () => {
  it('uses the __Host- prefix with Secure when NODE_ENV=production, and no demo sign-in', async () => {
    const t = await createTestApp({
      ledger: 'none',
      database: shared,
      env: { NODE_ENV: 'production', TELEGRAM_BOT_TOKEN: BOT_TOKEN },
    });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/telegram',
        headers: { origin: TEST_ORIGIN },
        payload: signTelegram({ id: 5, auth_date: now() }),
      });
      expect(res.statusCode).toBe(200);
      const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).join('\n');
      expect(cookie).toMatch(/^__Host-ledgerpad_session=/);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).not.toMatch(/Domain=/);
      const demo = await t.app.inject({
        method: 'POST',
        url: '/api/auth/demo',
        headers: { origin: TEST_ORIGIN },
        payload: { username: 'demo_user' },
      });
      expect(demo.statusCode).toBe(404);
      expect((await t.app.inject({ url: '/api/auth/methods' })).json().demo.enabled).toBe(false);
    } finally {
      await t.close();
    }
  });
});

describe('demo sign-in on a public network', () => {
  it('does not exist when XRPL_NETWORK is not standalone', async () => {
    const t = await createTestApp({
      ledger: 'none',
      database: shared,
      env: { XRPL_NETWORK: 'testnet', XRPL_URL: 'wss://s.altnet.rippletest.net:51233' },
    });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/demo',
        headers: { origin: TEST_ORIGIN },
        payload: { username: 'demo_user' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    } finally {
      await t.close();
    }
  });
});
