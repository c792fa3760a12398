import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Wallet } from 'xrpl';
import { MAX_WALLETS_PER_USER, WALLET_MESSAGES } from '@ledgerpad/shared';
import { generateMasterKey, Keyring } from '../../src/keys/envelope';
import { issueOwnerLink, OWNER_LINK_PATH } from '../../src/modules/auth/sign-in-links';
import { signInLinks } from '../../src/modules/auth/schema';
import { insertWallet } from '../../src/platform/custody';
import { wallets } from '../../src/platform/custody-schema';
import { TestSocket } from '../helpers/socket-client';
import {
  createTestApp,
  deviceCookie,
  sessionCookie,
  TEST_ORIGIN,
  type SignedIn,
  type TestApp,
} from '../helpers/test-app';

// The fixes of the security probe (issue 10), each through the real HTTP server (and the socket
// for its items). Every test here failed on the code before the fix.

const demo = (t: TestApp, username: string, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/demo',
    headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
    payload: { username },
  });

describe('sign-in: nobody can become the owner or someone else', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ledger: 'none' });
  });
  afterAll(() => t.close());

  it('the owner (id 1, admin) exists before anyone signs in; demo names never reach it', async () => {
    const owner = await t.database.sql.query<{ id: number; username: string }>(
      'select u.id, u.username from users u join admins a on a.user_id = u.id',
    );
    expect(owner).toEqual([{ id: 1, username: 'owner' }]);
    const first = await demo(t, 'earlybird');
    expect(first.statusCode).toBe(200);
    expect(first.json().user.id).toBeGreaterThan(1);
    const check = await t.app.inject({
      url: '/api/admin/check',
      headers: { cookie: sessionCookie(first.headers['set-cookie']) },
    });
    expect(check.statusCode).toBe(403);
    // The owner's own name is reserved rather than a second "owner" look-alike.
    const reserved = await demo(t, 'Owner');
    expect(reserved.statusCode).toBe(400);
    expect(reserved.json().message).toBe('This name is reserved. Please choose another name.');
  });

  it('a demo name is re-entered only from the browser that created it', async () => {
    const created = await demo(t, 'victim');
    expect(created.statusCode).toBe(200);
    const device = deviceCookie(created.headers['set-cookie']);
    expect(device).toMatch(/^ledgerpad_device=[A-Za-z0-9_-]{43}$/);
    const raw = ([] as string[]).concat(created.headers['set-cookie'] ?? []).join('\n');
    expect(raw).toMatch(/ledgerpad_device=[^;]+;.*HttpOnly/);

    // Another browser (no device cookie, or a different one) is refused; no session is issued.
    const stranger = await demo(t, 'VICTIM');
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().message).toBe(
      'This demo name belongs to another browser. Please choose another name.',
    );
    expect(() => sessionCookie(stranger.headers['set-cookie'])).toThrow();
    const otherDevice = deviceCookie((await demo(t, 'attacker')).headers['set-cookie'])!;
    expect((await demo(t, 'victim', otherDevice)).statusCode).toBe(403);

    // The same browser signs back in as the same user.
    const again = await demo(t, 'victim', device);
    expect(again.statusCode).toBe(200);
    expect(again.json().user.id).toBe(created.json().user.id);
  });

  it('the owner signs in with a one-time link; it works once, and using one revokes the others', async () => {
    // Two instances each printed a link at start: both work until one of them is used.
    const older = await issueOwnerLink(t.database.db);
    const token = await issueOwnerLink(t.database.db);

    const res = await t.app.inject(`${OWNER_LINK_PATH}?token=${token}`);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
    expect(res.headers['cache-control']).toBe('no-store');
    const cookie = sessionCookie(res.headers['set-cookie']);
    const me = await t.app.inject({ url: '/api/admin/check', headers: { cookie } });
    expect(me.json()).toEqual({ isAdmin: true, isOwner: true });

    // A spent link opens a page that says so and how to get a new one (a person clicked it).
    for (const spent of [token, older]) {
      const reused = await t.app.inject(`${OWNER_LINK_PATH}?token=${spent}`);
      expect(reused.statusCode).toBe(410);
      expect(reused.headers['content-type']).toMatch(/^text\/html/);
      expect(reused.body).toContain('This sign-in link has already been used.');
      expect(reused.body).toContain('npm run owner-link');
      expect(() => sessionCookie(reused.headers['set-cookie'])).toThrow();
    }
    // Only the hash is stored.
    const stored = await t.database.db.select().from(signInLinks);
    expect(stored.some((r) => r.tokenHash === token)).toBe(false);
  });

  it('an expired or unknown link does not sign in and says why', async () => {
    const token = await issueOwnerLink(t.database.db, Date.now() - 8 * 24 * 3600_000);
    const expired = await t.app.inject(`${OWNER_LINK_PATH}?token=${token}`);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('This sign-in link has expired.');
    const unknown = await t.app.inject(`${OWNER_LINK_PATH}?token=x`);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toContain('This sign-in link is not valid.');
  });
});

describe('DNS rebinding: only configured hosts are served', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ ledger: 'none' });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('answers loopback names and configured origins, and 403 for any other Host on every route', async () => {
    for (const host of ['localhost:3000', '127.0.0.1:8080', '[::1]:3000', 'ledgerpad.test']) {
      const res = await t.app.inject({ url: '/api/auth/methods', headers: { host } });
      expect(res.statusCode, host).toBe(200);
    }
    for (const path of ['/api/auth/methods', '/api/health', '/', '/wallets', '/api/nope']) {
      const res = await t.app.inject({ url: path, headers: { host: 'rebind.attacker.example' } });
      expect(res.statusCode, path).toBe(403);
    }
    // A rebinding page signing in: its Origin equals its Host, which used to be enough.
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/demo',
      headers: { host: 'rebind.attacker.example', origin: 'http://rebind.attacker.example' },
      payload: { username: 'rebound' },
    });
    expect(signIn.statusCode).toBe(403);
  });

  it('refuses the socket upgrade for a foreign Host', async () => {
    const token = (await t.app.inject('/api/auth/socket-token')).json().token as string;
    const wsUrl = `${url.replace('http', 'ws')}/ws?token=${token}`;
    await expect(TestSocket.open(wsUrl, { host: 'rebind.attacker.example' })).rejects.toThrow('HTTP 403');
    const ok = await TestSocket.open(wsUrl);
    ok.close();
  });
});

describe('validation at the edge', () => {
  let t: TestApp;
  let alice: SignedIn;
  let walletId: number;
  beforeAll(async () => {
    t = await createTestApp({ ledger: 'none' });
    alice = await t.signIn('alice');
    walletId = (
      await t.app.inject({ method: 'POST', url: '/api/wallets', headers: alice.headers, payload: {} })
    ).json().id as number;
  });
  afterAll(() => t.close());

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...alice.headers, ...headers },
      payload: payload as object,
    });

  it('refuses an address with a bad checksum as a 400 naming the field (never a ledger error)', async () => {
    const good = Wallet.generate().classicAddress;
    // Change one character: still base58, same length, wrong checksum.
    const last = good.at(-1) === 'a' ? 'b' : 'a';
    const typo = good.slice(0, -1) + last;
    const res = await post('/api/wallets/remove-trustline', { walletId, issuer: typo, currency: 'USD' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([{ path: 'issuer', message: 'issuer must be a valid XRPL address' }]);
    const transfer = await post('/api/wallets/transfer', { walletId, recipient: typo, amount: '1' });
    expect(transfer.statusCode).toBe(400);
    expect(transfer.json().fields[0]).toEqual({
      path: 'recipient',
      message: 'recipient must be a valid XRPL address',
    });
  });

  it('takes ids in paths and bodies only as positive decimal integers', async () => {
    const tries = [
      `0x${walletId.toString(16)}`,
      `${walletId}e0`,
      `+${walletId}`,
      `${walletId}.0`,
      ` ${walletId}`,
      `0${walletId}`,
      '0',
      '-1',
      '2147483648',
    ];
    for (const id of tries) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/wallets/${encodeURIComponent(id)}/name`,
        headers: alice.headers,
        payload: { name: 'renamed' },
      });
      expect(res.statusCode, id).toBe(400);
      expect(res.json().message).toBe('id must be a whole number from 1 to 2147483647');
      const body = await post('/api/wallets/remove-trustline', {
        walletId: id,
        issuer: Wallet.generate().classicAddress,
        currency: 'USD',
      });
      expect(body.statusCode, id).toBe(400);
      expect(body.json().fields[0].path).toBe('walletId');
    }
    const [row] = await t.database.db.select().from(wallets).where(eq(wallets.id, walletId));
    expect(row!.name).not.toBe('renamed');
  });

  it('refuses control characters in text fields: a NUL in a wallet name is a 400, not a 500', async () => {
    for (const name of ['bad\u0000name', 'tab\there', 'bell\u0007']) {
      const res = await post('/api/wallets', { name });
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(res.json().fields[0]).toEqual({
        path: 'name',
        message: 'name must not contain control characters',
      });
    }
    // A NUL anywhere in a body, in a field no schema reads, or in a key, is refused at the edge.
    const hidden = await post('/api/wallets', { name: 'ok', extra: { deep: ['x\u0000'] } });
    expect(hidden.statusCode).toBe(400);
    expect(hidden.json().fields[0].path).toBe('extra.deep.0');
    const key = await post('/api/wallets', { 'a\u0000': 1 });
    expect(key.statusCode).toBe(400);
  });

  it('a present but malformed Idempotency-Key is a 400, not silently ignored', async () => {
    for (const key of ['short', 'has spaces in it', 'x'.repeat(129), 'semi;colon;key']) {
      const res = await post(
        '/api/wallets/transfer',
        { walletId, recipient: Wallet.generate().classicAddress, amount: '1' },
        { 'idempotency-key': key },
      );
      expect(res.statusCode, key).toBe(400);
      expect(res.json().message).toBe('Idempotency-Key must be 8-128 letters, digits or . _ : -');
    }
  });

  it('a missing amount names amount, a missing recipient names recipient', async () => {
    const noAmount = await post('/api/wallets/transfer', {
      walletId,
      recipient: Wallet.generate().classicAddress,
    });
    expect(noAmount.statusCode).toBe(400);
    expect(noAmount.json().fields).toEqual([{ path: 'amount', message: 'Please fill all fields' }]);
    const neither = await post('/api/wallets/transfer', { walletId });
    expect(neither.json().fields.map((f: { path: string }) => f.path)).toEqual(['recipient', 'amount']);
  });
});

describe('database errors never log query parameters', () => {
  let t: TestApp;
  const keyring = new Keyring(generateMasterKey());
  beforeAll(async () => {
    t = await createTestApp({ ledger: 'none', captureLogs: true });
    // A module bug that reaches the database with a bad value (here: a NUL in a name, which
    // PostgreSQL refuses) while the statement also carries a sealed secret.
    t.app.post('/api/test/bad-insert', async () => {
      await insertWallet(t.database.db, keyring, {
        userId: null,
        role: 'x',
        name: 'a\u0000b',
        wallet: Wallet.generate(),
      });
      return { ok: true };
    });
  });
  afterAll(() => t.close());

  it('logs the error code and statement only: no sealed secret, nonce or wrapped key', async () => {
    const owner = await t.signInOwner();
    const res = await t.app.inject({ method: 'POST', url: '/api/test/bad-insert', headers: owner.headers });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'internal', message: 'Internal server error' });
    const line = t.logs.find((l) => l.includes('unhandled error'));
    expect(line).toBeDefined();
    const entry = JSON.parse(line!) as { err: Record<string, unknown> };
    expect(entry.err).toMatchObject({ type: 'DatabaseError', statement: 'insert into "wallets"' });
    expect(entry.err.code).toMatch(/^[0-9A-Z]{5}$/);
    // Nothing of the statement's values: no base64 blobs of the sealed columns, no params list.
    const all = t.logs.join('\n');
    expect(all).not.toMatch(/params:/);
    expect(all).not.toMatch(/"[A-Za-z0-9+/]{40,}={0,2}"/);
  });
});

describe('abuse limits', () => {
  let t: TestApp;
  let alice: SignedIn;
  beforeAll(async () => {
    t = await createTestApp({
      closeIntervalMs: 100,
      env: { FAUCET_PER_USER_PER_HOUR: '2', WS_MAX_CONNECTIONS_PER_IP: '1' },
    });
    alice = await t.signIn('alice');
  });
  afterAll(() => t.close());

  const newWallet = async (who: SignedIn) =>
    (await t.app.inject({ method: 'POST', url: '/api/wallets', headers: who.headers, payload: {} })).json()
      .id as number;
  const fund = (who: SignedIn, id: number) =>
    t.app.inject({ method: 'POST', url: `/api/wallets/${id}/fund`, headers: who.headers });

  it('the faucet pays a wallet at most once a minute and a user a bounded number of times an hour', async () => {
    const [w1, w2, w3] = [await newWallet(alice), await newWallet(alice), await newWallet(alice)];
    expect((await fund(alice, w1)).statusCode).toBe(200);
    const again = await fund(alice, w1);
    expect(again.statusCode).toBe(429);
    const retry = Number(again.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(again.json().message).toMatch(/less than a minute ago/);

    expect((await fund(alice, w2)).statusCode).toBe(200);
    const third = await fund(alice, w3);
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(60);
    expect(third.json().message).toMatch(/at most 2 times an hour/);
    // Exactly two faucet payments reached the ledger.
    const paid = await t.database.sql.query<{ n: number }>(
      "select count(*)::int as n from ledger_submissions where purpose = 'faucet' and status = 'success'",
    );
    expect(paid[0]!.n).toBe(2);
  });

  it(`holds at most ${MAX_WALLETS_PER_USER} live wallets per user`, async () => {
    const bob = await t.signIn('bob');
    // Fill up to the cap directly; the route is what is under test.
    const keyring = new Keyring(generateMasterKey());
    for (let i = 0; i < MAX_WALLETS_PER_USER; i++) {
      await insertWallet(t.database.db, keyring, { userId: bob.user.id, wallet: Wallet.generate() });
    }
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/wallets',
      headers: bob.headers,
      payload: {},
    });
    expect(create.statusCode).toBe(400);
    expect(create.json().message).toBe(WALLET_MESSAGES.tooManyWallets);
    const imported = await t.app.inject({
      method: 'POST',
      url: '/api/wallets/import',
      headers: bob.headers,
      payload: { seed: Wallet.generate().seed },
    });
    expect(imported.statusCode).toBe(400);
    expect(imported.json().message).toBe(WALLET_MESSAGES.tooManyWallets);
  });

  it('the socket per-IP cap answers 429 with Retry-After', async () => {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const token = (await t.app.inject('/api/auth/socket-token')).json().token as string;
    const wsUrl = `${url.replace('http', 'ws')}/ws?token=${token}`;
    const first = await TestSocket.open(wsUrl);
    const refused = await new Promise<{ status: number; retryAfter: string | undefined }>(
      (resolve, reject) => {
        const ws = new WebSocket(wsUrl);
        ws.once('unexpected-response', (req, res) => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] });
        });
        ws.once('open', () => reject(new Error('second socket was accepted')));
      },
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    first.close();
  });
});

describe('the health check and the rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ledger: 'none', env: { RATE_LIMIT_READ_PER_MIN: '5' } });
  });
  afterAll(() => t.close());

  it('/api/health is not counted in the public rate limit', async () => {
    const ip = '198.51.100.7';
    for (let i = 0; i < 12; i++) {
      // 503: this app has no ledger; what matters is that health never answers 429.
      expect((await t.app.inject({ url: '/api/health', remoteAddress: ip })).statusCode).toBe(503);
    }
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await t.app.inject({ url: '/api/auth/methods', remoteAddress: ip })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('what the server reveals', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ledger: 'none', captureLogs: true });
  });
  afterAll(() => t.close());

  it('public /api/health answers the status only; versions and ledger URL to admins', async () => {
    const remote = await t.app.inject({ url: '/api/health', remoteAddress: '203.0.113.9' });
    expect(remote.json()).toEqual({ status: 'degraded' }); // 'none' ledger: never connected
    // Loopback is no exception: behind a proxy on the same host every visitor comes from 127.0.0.1.
    const local = await t.app.inject({ url: '/api/health', remoteAddress: '127.0.0.1' });
    expect(local.json()).toEqual({ status: 'degraded' });
    const owner = await t.signInOwner();
    const admin = await t.app.inject({
      url: '/api/health',
      remoteAddress: '203.0.113.9',
      headers: { cookie: owner.cookie },
    });
    expect(admin.json().ledger.url).toBe('ws://127.0.0.1:0');
    const bob = await t.signIn('bob');
    const user = await t.app.inject({
      url: '/api/health',
      remoteAddress: '203.0.113.9',
      headers: { cookie: bob.cookie },
    });
    expect(user.json()).toEqual({ status: 'degraded' });
  });

  it('redacts socket tokens and sign-in link tokens from request logs', async () => {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const token = (await t.app.inject('/api/auth/socket-token')).json().token as string;
    const socket = await TestSocket.open(`${url.replace('http', 'ws')}/ws?token=${token}&x=1`);
    socket.close();
    const link = await issueOwnerLink(t.database.db);
    await t.app.inject(`${OWNER_LINK_PATH}?token=${link}`);
    const all = t.logs.join('\n');
    expect(all).toContain('/ws?token=[redacted]&x=1');
    expect(all).toContain(`${OWNER_LINK_PATH}?token=[redacted]`);
    expect(all).not.toContain(token);
    expect(all).not.toContain(link);
  });
});
