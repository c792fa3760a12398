import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../src/modules/auth/schema';
import { sha256Hex } from '../../src/lib/crypto';
import { createTestApp, deviceCookie, sessionCookie, TEST_ORIGIN, type TestApp } from '../helpers/test-app';
import { TestSocket } from '../helpers/socket-client';

describe('sessions, CSRF and roles', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ ledger: 'none' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('the owner (id 1, admin) exists from the start; the first demo user is a plain user', async () => {
    const first = await t.signIn('first_comer');
    expect(first.user.id).toBeGreaterThan(1);
    const notAdmin = await t.app.inject({ url: '/api/admin/check', headers: { cookie: first.cookie } });
    expect(notAdmin.statusCode).toBe(403);

    const owner = await t.signInOwner();
    expect(owner.user.id).toBe(1);
    const admin = await t.app.inject({ url: '/api/admin/check', headers: { cookie: owner.cookie } });
    expect(admin.statusCode).toBe(200);
    expect(admin.json()).toEqual({ isAdmin: true, isOwner: true });

    const bob = await t.signIn('bob');
    expect(bob.user.id).toBeGreaterThan(1);
    const refused = await t.app.inject({ url: '/api/admin/check', headers: { cookie: bob.cookie } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('forbidden');
    const anonymous = await t.app.inject({ url: '/api/admin/check' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('the owner row in admins cannot be deleted even by SQL', async () => {
    await expect(t.database.sql.exec('delete from admins where user_id = 1')).rejects.toThrow(/owner/);
  });

  it('GET /api/user: 401 anonymous, the user object when signed in', async () => {
    const anon = await t.app.inject({ url: '/api/user' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ error: 'unauthorized', message: 'Sign in required' });
    const alice = await t.signIn('alice');
    const me = await t.app.inject({ url: '/api/user', headers: { cookie: alice.cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json().user).toMatchObject({
      id: alice.user.id,
      username: 'alice',
      first_name: 'alice',
      photo_url: null,
      isAdmin: false,
    });
    // GET /api/session answers a visitor 200 with no user (no failed request in a visitor's console).
    const visitor = await t.app.inject({ url: '/api/session' });
    expect([visitor.statusCode, visitor.json()]).toEqual([200, { user: null }]);
    const mine = await t.app.inject({ url: '/api/session', headers: { cookie: alice.cookie } });
    expect(mine.json().user).toMatchObject({ id: alice.user.id, username: 'alice', isAdmin: false });
    expect(mine.headers['cache-control']).toBe('private, no-store');
    // The user object says who is an admin, so screens never probe /api/admin/check (a 403 for others).
    const owner = await t.signInOwner();
    const ownerMe = await t.app.inject({ url: '/api/user', headers: { cookie: owner.cookie } });
    expect(ownerMe.json().user).toMatchObject({ id: 1, isAdmin: true });
  });

  it('sets an HttpOnly SameSite=Lax cookie and stores only the token hash', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/demo',
      headers: { origin: TEST_ORIGIN },
      payload: { username: 'carol' },
    });
    const raw = ([] as string[]).concat(res.headers['set-cookie'] ?? []).join('\n');
    expect(raw).toMatch(/ledgerpad_session=/);
    expect(raw).toMatch(/HttpOnly/);
    expect(raw).toMatch(/SameSite=Lax/);
    expect(raw).toMatch(/Path=\//);
    expect(raw).not.toMatch(/Secure/); // development/test: plain http on localhost
    const token = sessionCookie(res.headers['set-cookie']).split('=')[1]!;
    const rows = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256Hex(token)));
    expect(rows).toHaveLength(1);
    const plain = await t.database.sql.query('select 1 from sessions where token_hash = $1', [token]);
    expect(plain).toHaveLength(0);
  });

  it('rotates the session at sign-in: the old cookie stops working', async () => {
    const firstRes = await t.app.inject({
      method: 'POST',
      url: '/api/auth/demo',
      headers: { origin: TEST_ORIGIN },
      payload: { username: 'dave' },
    });
    const first = { cookie: sessionCookie(firstRes.headers['set-cookie']) };
    const device = deviceCookie(firstRes.headers['set-cookie'])!;
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/demo',
      headers: { origin: TEST_ORIGIN, cookie: `${first.cookie}; ${device}` },
      payload: { username: 'dave' },
    });
    expect(again.statusCode).toBe(200);
    const second = sessionCookie(again.headers['set-cookie']);
    expect(second).not.toBe(first.cookie);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: first.cookie } })).statusCode).toBe(
      401,
    );
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: second } })).statusCode).toBe(200);
  });

  it('expires sessions idle for more than 7 days', async () => {
    const s = await t.signIn('idle');
    const token = s.cookie.split('=')[1]!;
    await t.database.sql.query(
      "update sessions set last_seen_at = now() - interval '7 days 1 minute' where token_hash = $1",
      [sha256Hex(token)],
    );
    const res = await t.app.inject({ url: '/api/user', headers: { cookie: s.cookie } });
    expect(res.statusCode).toBe(401);
    const left = await t.database.sql.query('select 1 from sessions where token_hash = $1', [
      sha256Hex(token),
    ]);
    expect(left).toHaveLength(0);
  });

  it('expires sessions older than 30 days even when active, and slides the idle timer hourly', async () => {
    const s = await t.signIn('old');
    const hash = sha256Hex(s.cookie.split('=')[1]!);
    await t.database.sql.query(
      "update sessions set last_seen_at = now() - interval '2 hours', created_at = now() - interval '29 days' where token_hash = $1",
      [hash],
    );
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: s.cookie } })).statusCode).toBe(200);
    const [bumped] = await t.database.sql.query<{ idle: number }>(
      'select extract(epoch from now() - last_seen_at)::float as idle from sessions where token_hash = $1',
      [hash],
    );
    expect(bumped!.idle).toBeLessThan(60);
    await t.database.sql.query(
      "update sessions set created_at = now() - interval '30 days 1 minute' where token_hash = $1",
      [hash],
    );
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: s.cookie } })).statusCode).toBe(401);
  });

  it('sweeps expired sessions that are never presented again', async () => {
    const s = await t.signIn('forgotten');
    const hash = sha256Hex(s.cookie.split('=')[1]!);
    await t.database.sql.query(
      "update sessions set last_seen_at = now() - interval '8 days' where token_hash = $1",
      [hash],
    );
    // A fresh app instance (its sweep hasn't run yet) sweeps at its first sign-in.
    const other = await createTestApp({ ledger: 'none', database: t.database });
    try {
      await other.signIn('someone');
      expect(await t.database.sql.query('select 1 from sessions where token_hash = $1', [hash])).toHaveLength(
        0,
      );
    } finally {
      await other.close();
    }
  });

  it('logout deletes the session and clears the cookie', async () => {
    const s = await t.signIn('leaver');
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: s.headers });
    expect(out.statusCode).toBe(200);
    expect(([] as string[]).concat(out.headers['set-cookie'] ?? []).join()).toMatch(/ledgerpad_session=;/);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: s.cookie } })).statusCode).toBe(401);
  });

  it('CSRF: a state-changing request without, with a wrong, and with the right token', async () => {
    const s = await t.signIn('csrf_user');
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: s.cookie },
    });
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toEqual({ error: 'csrf', message: 'Invalid or missing CSRF token' });

    const other = await t.signIn('csrf_other');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: s.cookie, 'x-csrf-token': other.csrfToken },
    });
    expect(wrong.statusCode).toBe(403);
    // The session survived both refused attempts.
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: s.cookie } })).statusCode).toBe(200);

    const viaBody = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: s.cookie },
      payload: { csrf_token: s.csrfToken },
    });
    expect(viaBody.statusCode).toBe(200);
    const viaHeader = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: other.headers });
    expect(viaHeader.statusCode).toBe(200);
  });

  it('CSRF: the right token from a foreign Origin (or Referer) is refused', async () => {
    const s = await t.signIn('origin_user');
    for (const from of [
      { origin: 'https://evil.example' },
      { referer: 'https://evil.example/page' },
      // A sandboxed frame's form posts with Origin: null.
      { origin: 'null' },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { cookie: s.cookie, 'x-csrf-token': s.csrfToken, ...from },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(
        'This request must come from the Ledgerpad web app (Origin missing or not allowed)',
      );
    }
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: s.cookie } })).statusCode).toBe(200);
    // The app's own origin, as a browser sends it.
    const own = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: s.headers });
    expect(own.statusCode).toBe(200);
  });

  it('logout revokes the session’s socket tokens and closes its sockets; other sessions keep theirs', async () => {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const ws = url.replace('http', 'ws');
    const laptop = await t.signIn('two_devices');
    const phone = await t.signIn('two_devices');
    const tokenOf = async (cookie: string) =>
      (await t.app.inject({ url: '/api/auth/socket-token', headers: { cookie } })).json().token as string;
    const laptopToken = await tokenOf(laptop.cookie);
    const laptopSocket = await TestSocket.open(`${ws}/ws?token=${laptopToken}`);
    const phoneSocket = await TestSocket.open(`${ws}/ws?token=${await tokenOf(phone.cookie)}`);
    expect((await laptopSocket.next('ready')).data).toEqual({ userId: laptop.user.id });
    await phoneSocket.next('ready');

    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: laptop.headers });
    expect(out.statusCode).toBe(200);
    expect((await laptopSocket.waitClosed()).code).toBe(4401);
    // A token issued before the logout (still within its 10 minutes) opens nothing any more.
    await expect(TestSocket.open(`${ws}/ws?token=${laptopToken}`)).rejects.toThrow(/401/);
    // The other session's socket still gets its user's events.
    await t.app.realtime.publishOrderUpdate(phone.user.id, { orderId: 7, status: 'filled' });
    expect((await phoneSocket.next('orderUpdated')).data).toEqual({ orderId: 7, status: 'filled' });
    phoneSocket.close();
  });

  it('answers unknown routes with 404 even for a signed-in POST without a token', async () => {
    const s = await t.signIn('lost');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/no-such-thing',
      headers: { cookie: s.cookie },
    });
    expect(res.statusCode).toBe(404);
  });

  it('GET /api/csrf-token gives a token only to a session: 204 and no body without one', async () => {
    const none = await t.app.inject({ url: '/api/csrf-token' });
    expect(none.statusCode).toBe(204);
    expect(none.body).toBe('');
    const s = await t.signIn('csrf_token_owner');
    const own = await t.app.inject({ url: '/api/csrf-token', headers: { cookie: s.cookie } });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({ token: s.csrfToken });
  });

  it('sign-in checks Origin instead of CSRF', async () => {
    const noOrigin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/demo',
      payload: { username: 'eve' },
    });
    expect(noOrigin.statusCode).toBe(403);
    const evil = await t.app.inject({
      method: 'POST',
      url: '/api/auth/demo',
      headers: { origin: 'https://evil.example' },
      payload: { username: 'eve' },
    });
    expect(evil.statusCode).toBe(403);
    expect(evil.json().message).toMatch(/Origin/);
    const self = await t.app.inject({
      method: 'POST',
      url: '/api/auth/demo',
      headers: { origin: 'http://localhost:80', host: 'localhost:80' },
      payload: { username: 'eve' },
    });
    expect(self.statusCode).toBe(200);
  });

  it('validation errors list the fields', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/demo',
      headers: { origin: TEST_ORIGIN },
      payload: { username: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'validation',
      message: 'Username must be 3-32 letters, digits or underscores',
      fields: [{ path: 'username', message: 'Username must be 3-32 letters, digits or underscores' }],
    });
  });
});
