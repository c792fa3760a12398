import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { TokenRegistry } from '../../src/modules/tokens';
import { deviceCookie, sessionCookie, TEST_ORIGIN, type TestApp } from '../helpers/test-app';
import { createTestApp } from '../helpers/test-app';
import { TestSocket } from '../helpers/socket-client';
import { multipart, noisePng } from '../uploads/helpers';

// One anonymous visitor (one IP) trying to make the server keep without bound what it keeps per
// visitor and per user: demo users, sessions, faucet payouts, wallets, upload bytes. Every limit
// answers 429 with Retry-After (when the window lets the next one through) and the data directory
// stays under the stated bound: DEMO_USERS_PER_IP_PER_DAY × UPLOAD_BYTES_PER_USER_PER_DAY a day,
// and an unused logo is gone a day after its upload.

const LIMITS = {
  DEMO_USERS_PER_IP_PER_DAY: 3,
  SESSIONS_PER_USER: 2,
  FAUCET_PER_IP_PER_HOUR: 2,
  WALLETS_PER_USER_PER_DAY: 3,
  UPLOAD_BYTES_PER_USER_PER_DAY: 200 * 1024,
};
const ATTACKER = '203.0.113.66';
const DAY_S = 24 * 3600;
const HOUR_S = 3600;

let t: TestApp;

interface Visitor {
  cookie: string;
  device: string;
  csrf: string;
  userId: number;
}

const headersOf = (v: Visitor) => ({ cookie: v.cookie, 'x-csrf-token': v.csrf, origin: TEST_ORIGIN });

function expectLimited(res: LightMyRequestResponse, windowS: number, words: RegExp) {
  expect(res.statusCode, res.body).toBe(429);
  const retry = Number(res.headers['retry-after']);
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(windowS);
  expect(res.json().message).toMatch(/^Too Many Requests: /);
  expect(res.json().message).toMatch(words);
}

const demo = (username: string, device?: string, ip = ATTACKER) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/demo',
    remoteAddress: ip,
    headers: { origin: TEST_ORIGIN, ...(device ? { cookie: device } : {}) },
    payload: { username },
  });

async function visitor(username: string, device?: string): Promise<Visitor> {
  const res = await demo(username, device);
  expect(res.statusCode, res.body).toBe(200);
  const cookie = sessionCookie(res.headers['set-cookie']);
  const csrf = (await t.app.inject({ url: '/api/csrf-token', headers: { cookie } })).json().token as string;
  return {
    cookie,
    csrf,
    device: device ?? deviceCookie(res.headers['set-cookie'])!,
    userId: res.json().user.id as number,
  };
}

const post = (v: Visitor, url: string, payload?: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    remoteAddress: ATTACKER,
    headers: headersOf(v),
    payload: payload ?? {},
  });

function dirBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, name.name);
    total += name.isDirectory() ? dirBytes(full) : statSync(full).size;
  }
  return total;
}

beforeAll(async () => {
  t = await createTestApp({
    closeIntervalMs: 100,
    env: Object.fromEntries(Object.entries(LIMITS).map(([k, v]) => [k, String(v)])),
  });
  await t.app.ready();
});
afterAll(async () => {
  await t?.close();
});

describe('bounded resources per visitor and per user', () => {
  let users: Visitor[] = [];

  it('demo users per IP per day: the next one is 429; signing back in is not counted', async () => {
    users = [await visitor('abuser_1'), await visitor('abuser_2'), await visitor('abuser_3')];
    expectLimited(await demo('abuser_4'), DAY_S, /demo accounts/);
    // The same browser signing back in creates nothing, so it is not counted.
    expect((await demo('abuser_1', users[0]!.device)).statusCode).toBe(200);
    // Another address is not affected.
    expect((await demo('bystander', undefined, '198.51.100.20')).statusCode).toBe(200);
  });

  it('sessions per user: a sign-in beyond the cap revokes the oldest, and closes its socket', async () => {
    const first = await visitor('abuser_2', users[1]!.device);
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const token = (
      await t.app.inject({ url: '/api/auth/socket-token', headers: { cookie: first.cookie } })
    ).json().token as string;
    const socket = await TestSocket.open(`${url.replace('http', 'ws')}/ws?token=${token}`);
    expect((await socket.next('ready')).data).toEqual({ userId: first.userId });
    // users[1] (made above) and `first` are the two allowed; two more sign-ins revoke both.
    const second = await visitor('abuser_2', users[1]!.device);
    const third = await visitor('abuser_2', users[1]!.device);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: users[1]!.cookie } })).statusCode).toBe(
      401,
    );
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: first.cookie } })).statusCode).toBe(
      401,
    );
    expect((await socket.waitClosed()).code).toBe(4401);
    for (const live of [second, third]) {
      expect((await t.app.inject({ url: '/api/user', headers: { cookie: live.cookie } })).statusCode).toBe(
        200,
      );
    }
    const count = await t.database.sql.query<{ n: number }>(
      'select count(*)::int as n from sessions where user_id = $1',
      [first.userId],
    );
    expect(count[0]!.n).toBe(LIMITS.SESSIONS_PER_USER);
    // Its socket token is refused from now on too.
    await expect(TestSocket.open(`${url.replace('http', 'ws')}/ws?token=${token}`)).rejects.toThrow(/401/);
    users[1] = third;
  });

  it('wallet creations per user per day count archived wallets', async () => {
    const v = users[2]!;
    const ids: number[] = [];
    for (let i = 0; i < LIMITS.WALLETS_PER_USER_PER_DAY; i++) {
      const res = await post(v, '/api/wallets');
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().id as number);
    }
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/wallets/${ids[0]}`,
      remoteAddress: ATTACKER,
      headers: headersOf(v),
    });
    expect(removed.statusCode).toBe(200);
    expectLimited(await post(v, '/api/wallets'), DAY_S, /wallets a day/);
    expectLimited(
      await post(v, '/api/wallets/import', { seed: 'sEdTM1uX8pu2do5XvTnutH6HsouMaM2' }),
      DAY_S,
      /wallets a day/,
    );
  });

  it('faucet payouts per IP as well as per user: new users from one address do not multiply them', async () => {
    for (const v of users.slice(0, LIMITS.FAUCET_PER_IP_PER_HOUR)) {
      const wallet = (await post(v, '/api/wallets')).json().id as number;
      const paid = await post(v, `/api/wallets/${wallet}/fund`);
      expect(paid.statusCode, paid.body).toBe(200);
    }
    // A third user of the same address, within its own per-user limit: refused by the address's.
    const third = users[2]!;
    const wallet = (await t.app.inject({ url: '/api/wallets', headers: { cookie: third.cookie } })).json()
      .wallets[0].id as number;
    expectLimited(await post(third, `/api/wallets/${wallet}/fund`), HOUR_S, /per address/);
    const paid = await t.database.sql.query<{ n: number }>(
      "select count(*)::int as n from ledger_submissions where purpose = 'faucet' and status = 'success'",
    );
    expect(paid[0]!.n).toBe(LIMITS.FAUCET_PER_IP_PER_HOUR);
  });

  it('upload bytes per user per day; the data directory stays under the stated bound; unused logos are swept', async () => {
    const upload = async (v: Visitor, image: Buffer) => {
      const { payload, contentType } = await multipart([
        { name: 'purpose', value: 'listing' },
        { name: 'logo', data: image, filename: 'logo.png', type: 'image/png' },
      ]);
      return t.app.inject({
        method: 'POST',
        url: '/api/upload',
        remoteAddress: ATTACKER,
        headers: { ...headersOf(v), 'content-type': contentType },
        payload,
      });
    };
    const stored: string[] = [];
    // Every user of the address uploads distinct incompressible logos (≈ 76 KB each) until refused.
    for (const v of users) {
      let refused: LightMyRequestResponse | undefined;
      for (let i = 0; i < 10 && !refused; i++) {
        const res = await upload(v, await noisePng(160, 160));
        if (res.statusCode === 200) stored.push(res.json().servedUrl as string);
        else refused = res;
      }
      expect(refused, 'the daily upload limit was reached').toBeDefined();
      expectLimited(refused!, DAY_S, /images a day/);
    }
    const bound = LIMITS.DEMO_USERS_PER_IP_PER_DAY * LIMITS.UPLOAD_BYTES_PER_USER_PER_DAY;
    // Logos live in the database (docs/uploads.md): what they hold is the stored bytes.
    const used = (await t.app.uploads.store.totalBytes()) + dirBytes(t.config.dataDir);
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThanOrEqual(bound);

    // One logo a token shows; the rest nobody refers to. A day later the sweep deletes the rest.
    await new TokenRegistry(t.database.db).insert({
      name: 'Kept Logo',
      ticker: 'KEPT',
      currency: 'KEPT',
      issuerAddress: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
      supply: '1000',
      source: 'listing',
      logoUrl: stored[0]!,
    });
    expect(await t.app.uploads.sweep()).toEqual([]); // nothing is a day old yet
    const deleted = await t.app.uploads.sweep(Date.now() + 25 * 3600_000);
    expect(deleted).toHaveLength(stored.length - 1);
    expect(
      (await t.database.sql.query<{ name: string }>('select name from uploaded_logos')).map((r) => r.name),
    ).toEqual([path.basename(stored[0]!)]);
    expect((await t.app.inject(stored[0]!)).statusCode).toBe(200);
    expect((await t.app.inject(stored[1]!)).statusCode).toBe(404);
  }, 60_000);
});

describe('lists are paged', () => {
  it('GET /api/airdrops takes limit and offset and says where the next page is', async () => {
    const first = await t.app.inject('/api/airdrops?limit=1&offset=0');
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-total-count']).toBe('0');
    expect((await t.app.inject('/api/airdrops?limit=0')).statusCode).toBe(400);
    expect((await t.app.inject('/api/airdrops?limit=101')).json().message).toBe(
      'limit must be a whole number from 1 to 100.',
    );
  });
});
