import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGoogle } from '../helpers/fake-google';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../helpers/test-app';

const CLIENT_ID = '1234567890-ledgerpad.apps.googleusercontent.com';

describe('POST /api/auth/google', () => {
  let t: TestApp;
  let fake: Awaited<ReturnType<typeof startFakeGoogle>>;
  const post = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/auth/google', headers: { origin: TEST_ORIGIN }, payload });

  beforeAll(async () => {
    const scope =
      'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile';
    fake = await startFakeGoogle({
      'ya29.good': {
        aud: CLIENT_ID,
        sub: '110169484474386276334',
        email: 'grace@example.com',
        scope,
        expiresIn: 3599,
      },
      'ya29.other-app': {
        aud: '999-evil.apps.googleusercontent.com',
        sub: '2',
        email: 'x@example.com',
        scope,
        expiresIn: 3599,
      },
      'ya29.no-email': { aud: CLIENT_ID, sub: '3', scope: 'openid', expiresIn: 3599 },
      'ya29.expired': { aud: CLIENT_ID, sub: '4', email: 'old@example.com', scope, expiresIn: 0 },
    });
    t = await createTestApp({
      ledger: 'none',
      env: {
        GOOGLE_CLIENT_ID: CLIENT_ID,
        GOOGLE_TOKENINFO_URL: `${fake.base}/tokeninfo`,
        GOOGLE_USERINFO_URL: `${fake.base}/v1/userinfo`,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => fake.server.close(r));
  });

  it('signs in with what Google says, ignoring the browser’s userInfo', async () => {
    const res = await post({
      token: 'ya29.good',
      userInfo: { sub: '1', email: 'ceo@ledgerpad.example', given_name: 'Owner' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      google_id: '110169484474386276334',
      email: 'grace@example.com',
      first_name: 'Grace',
      photo_url: 'https://lh3.googleusercontent.com/a/grace=s96-c',
      telegram_id: null,
    });
    expect(fake.hits).toEqual(['/tokeninfo', '/v1/userinfo']);
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).json().user.email).toBe(
      'grace@example.com',
    );
  });

  it('rejects a token issued to another client id', async () => {
    const res = await post({ token: 'ya29.other-app', userInfo: { email: 'x@example.com' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: 'unauthorized',
      message: 'Google token was not issued for Ledgerpad',
    });
  });

  it('rejects an account without an email', async () => {
    const res = await post({ token: 'ya29.no-email', userInfo: { email: 'claimed@example.com' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/no email/);
  });

  it('rejects invalid and expired tokens', async () => {
    for (const token of ['ya29.bogus', 'ya29.expired']) {
      const res = await post({ token });
      expect(res.statusCode, token).toBe(401);
      expect(res.json().message).toBe('Google sign-in could not be verified');
    }
  });

  it('requires a token', async () => {
    const res = await post({ userInfo: { email: 'a@b.c' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].path).toBe('token');
  });

  it('answers 502 when Google is unreachable', async () => {
    const t2 = await createTestApp({
      ledger: 'none',
      env: { GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_TOKENINFO_URL: 'http://127.0.0.1:9/tokeninfo' },
    });
    try {
      const res = await t2.app.inject({
        method: 'POST',
        url: '/api/auth/google',
        headers: { origin: TEST_ORIGIN },
        payload: { token: 'ya29.good' },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toBe('bad_gateway');
    } finally {
      await t2.close();
    }
  });
});
