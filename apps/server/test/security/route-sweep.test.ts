import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { CURRENCY_MESSAGES, EDGE_MESSAGES } from '@ledgerpad/shared';
import type { ApiRoute } from '../../src/plugins/access';
import { TokenRegistry } from '../../src/modules/tokens';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/test-app';

// The authorization and fuzz suite the project keeps. It reads every route from Fastify's route
// table (app.apiRoutes, filled by the access plugin), so a route added by any later module is swept
// without editing this file:
// - anonymous callers are refused on every non-public route, non-admins on every admin route;
// - a foreign user never reads or changes another user's resources through any route;
// - malformed bodies get a 4xx and never a 5xx, and the server still answers afterwards.

let t: TestApp;
let owner: SignedIn;
let alice: SignedIn;
let mallory: SignedIn;
let aliceWallet: { id: number; wallet_address: string };
let malloryWallet: { id: number; wallet_address: string };
let routes: ApiRoute[];

const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Sign-in and sign-out routes replace or end the caller's session; they are swept anonymously, so
 * the signed-in sweep keeps its session (checked at the end) and every other route sees a user.
 */
const endsSession = (r: ApiRoute) => r.method === 'POST' && r.url.startsWith('/api/auth/');
const callerOf = (r: ApiRoute, who: SignedIn) => (endsSession(r) ? null : who);

/** Fills `:params`: user-like ones with `userId`, every other one with `id`. */
const fill = (url: string, ids: { userId: number; id: number | string }) =>
  url.replace(/:(\w+)/g, (_m, name: string) =>
    encodeURIComponent(String(/user/i.test(name) ? ids.userId : ids.id)),
  );

const send = (
  route: ApiRoute,
  who: SignedIn | null,
  opts: { url?: string; payload?: string | object; contentType?: string } = {},
) =>
  t.app.inject({
    method: route.method as InjectOptions['method'],
    url: opts.url ?? route.url,
    headers: {
      ...(who ? who.headers : {}),
      ...(opts.payload !== undefined ? { 'content-type': opts.contentType ?? 'application/json' } : {}),
    },
    ...(opts.payload !== undefined
      ? { payload: typeof opts.payload === 'string' ? opts.payload : JSON.stringify(opts.payload) }
      : {}),
  });

const describeFailure = (route: ApiRoute, what: string, res: LightMyRequestResponse) =>
  `${route.method} ${route.url} (${what}) → ${res.statusCode} ${res.body.slice(0, 200)}`;

/**
 * The query fields a route reads, recorded while set (test-only; the huge-number sweep uses it to
 * try each number only in the fields the route reads). A preValidation hook of this test, after the
 * edge checks (which scan every query value the same way on every route), hands the route a Proxy
 * of its query: a key read, tested with `in` or described is recorded; a route that enumerates the
 * query (spread, Object.keys/entries, for…in, a schema checking for unknown keys) reads them all.
 */
type QueryReads = { keys: Set<string>; all: boolean; hooked: boolean };
let queryReads: QueryReads | null = null;
const recordQueryReads = (query: object, reads: QueryReads) =>
  new Proxy(query, {
    get(target, key, receiver) {
      if (typeof key === 'string') reads.keys.add(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
    has(target, key) {
      if (typeof key === 'string') reads.keys.add(key);
      return Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      if (typeof key === 'string') reads.keys.add(key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys(target) {
      reads.all = true;
      return Reflect.ownKeys(target);
    },
  });

beforeAll(async () => {
  t = await createTestApp({
    closeIntervalMs: 100,
    env: {
      // Every sign-in method configured, so each route runs its real code path.
      TELEGRAM_BOT_TOKEN: '123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      GOOGLE_CLIENT_ID: 'sweep-client-id',
      GOOGLE_TOKENINFO_URL: 'http://127.0.0.1:9/tokeninfo',
      GOOGLE_USERINFO_URL: 'http://127.0.0.1:9/userinfo',
    },
  });
  // Added last, so it runs after the app's own preValidation hooks (the edge checks).
  t.app.addHook('preValidation', async (request) => {
    const reads = queryReads;
    if (!reads) return;
    reads.hooked = true;
    if (typeof request.query === 'object' && request.query !== null) {
      request.query = recordQueryReads(request.query, reads);
    } else reads.all = true;
  });
  await t.app.ready();
  routes = t.app.apiRoutes;
  owner = await t.signInOwner();
  alice = await t.signIn('alice');
  mallory = await t.signIn('mallory');
  const create = async (who: SignedIn, name: string) =>
    (
      await t.app.inject({ method: 'POST', url: '/api/wallets', headers: who.headers, payload: { name } })
    ).json() as { id: number; wallet_address: string };
  aliceWallet = await create(alice, 'alice main');
  malloryWallet = await create(mallory, 'mallory main');
  // A token alice deployed, under the id the sweep puts in every path: the dashboard's token routes
  // then point at a real resource of the victim.
  await new TokenRegistry(t.database.db).insert({
    id: aliceWallet.id,
    name: 'Alice Token',
    ticker: 'ALC',
    currency: 'ALC',
    issuerAddress: aliceWallet.wallet_address,
    supply: '1000',
    source: 'deploy',
    deployerUserId: alice.user.id,
  });
  await t.database.sql.query(
    `select setval(pg_get_serial_sequence('tokens', 'id'), (select max(id) from tokens))`,
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('the route table', () => {
  it('lists every API route with its access, and a sample of known routes has the right one', () => {
    const find = (method: string, url: string) => routes.find((r) => r.method === method && r.url === url);
    expect(find('GET', '/api/wallets')?.access).toBe('user');
    expect(find('POST', '/api/wallets/transfer')?.access).toBe('user');
    expect(find('GET', '/api/admin/check')?.access).toBe('admin');
    expect(find('GET', '/api/health')?.access).toBe('public');
    expect(routes.length).toBeGreaterThan(15);
  });

  it("checks a path's user id at the edge, one rule for every route that names one", async () => {
    const own = routes.filter((r) => r.ownUser);
    expect(own.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'GET /api/burn/wallets/:userId',
      'GET /api/dashboard/user-tokens/:userId',
      'GET /api/orders/get-orders/:userId',
      'GET /api/positions/:userId',
    ]);
    // Every signed-in route whose path names a user is among them (the plugin decides, not the route).
    expect(routes.filter((r) => r.access === 'user' && r.url.includes(':userId'))).toEqual(own);
    const failures: string[] = [];
    for (const route of own) {
      const foreign = await send(route, mallory, { url: fill(route.url, { userId: alice.user.id, id: 0 }) });
      if (
        foreign.statusCode !== 403 ||
        foreign.json<{ message: string }>().message !== EDGE_MESSAGES.notOwnUser
      ) {
        failures.push(describeFailure(route, 'foreign user id', foreign));
      }
      const bad = await send(route, mallory, { url: route.url.replace(':userId', 'abc') });
      if (bad.statusCode !== 400 || bad.json<{ message: string }>().message !== EDGE_MESSAGES.id('userId')) {
        failures.push(describeFailure(route, 'malformed user id', bad));
      }
      const mine = await send(route, mallory, { url: fill(route.url, { userId: mallory.user.id, id: 0 }) });
      if (mine.statusCode !== 200) failures.push(describeFailure(route, 'own user id', mine));
    }
    expect(failures).toEqual([]);
  });
});

describe('lists that grow are paged', () => {
  /**
   * GET routes whose list is bounded by something other than the number of users or tokens, each
   * with the bound. Every other GET route answering a list (an array, or an object holding one)
   * must page it: `?limit=&offset=` and `X-Total-Count` (lib/paging.ts, docs/paging.md).
   */
  const BOUNDED: Record<string, string> = {
    'GET /api/admin/admins': 'the admins the owner named (a handful)',
    'GET /api/admin/fee-config': 'one row of settings',
    'GET /api/admin/platform-config': 'one row of settings',
    'GET /api/admin/audit': 'paged already by ?page= (50 a page, the spec shape)',
    'GET /api/auth/methods': 'the configured sign-in methods',
    'GET /api/config/fees': 'one row of settings',
    'GET /api/admin/rewards-overview': 'totals, one row per fee kind',
    'GET /api/admin/wallet-overview': 'totals of the platform wallets',
    'GET /api/tradingview/history': 'at most 5,000 bars (from/to and the resolution)',
    'GET /api/docs': 'the OpenAPI document: its lists are the fixed set of documented routes',
    'GET /api/docs/openapi.json': 'the same OpenAPI document at its stable JSON address',
    'GET /api/tokens/:issuer/trades': 'bounded by ?limit (at most 100)',
    'GET /api/wallets/open-orders/:issuer/:ticker': 'the top 50 offers of each side of the book',
    'GET /api/swapsearch/search-tokens/:query': 'at most SEARCH_MAX matches',
    'GET /api/tokens/issuer/:issuerAddress/tokens': 'one issuer’s listed tokens (a handful)',
    'GET /api/tokens/:issuer/identity-history': 'one token’s identity events, the latest 200',
    'GET /api/listing/lost-control': 'the listings the caller lost, one row per token',
    'GET /api/admin/fee-overrides': 'at most 100 users matching the search',
    'GET /api/check-orders-status': "an action's result: the user's resting orders that changed",
    'GET /api/referrals/me': 'one balance per reward currency (XRP, RLUSD)',
    'GET /api/admin/referrals': 'totals per currency and the 500 biggest referrers',
    'GET /api/rewards/splits/:tokenId': 'at most 5 recipients and the last 100 changes',
  };

  it('pages every GET route that answers a list, or names the bound that keeps it short', async () => {
    const failures: string[] = [];
    const seen: string[] = [];
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const key = `${route.method} ${route.url}`;
      // Alice's own resources for user routes (her wallet, her token), the owner for admin ones.
      const who = route.access === 'public' ? null : route.access === 'admin' ? owner : alice;
      const url = fill(route.url, { userId: (who ?? alice).user.id, id: aliceWallet.id });
      const res = await send(route, who, { url });
      // Routes needing a real issuer or a ledger answer 4xx/503 here; the lists among them are in BOUNDED.
      if (res.statusCode !== 200 || !String(res.headers['content-type']).includes('json')) continue;
      const body = res.json() as unknown;
      const isList =
        Array.isArray(body) ||
        (typeof body === 'object' && body !== null && Object.values(body).some((v) => Array.isArray(v)));
      if (!isList) continue;
      seen.push(key);
      if (key in BOUNDED) continue;
      if (res.headers['x-total-count'] === undefined) failures.push(`${key}: a list without X-Total-Count`);
      // A page of one asks for one row, and a bad limit is refused with a sentence.
      const one = await send(route, who, { url: `${url}?limit=1` });
      if (one.statusCode !== 200) failures.push(`${key}?limit=1 → ${one.statusCode}`);
      else {
        const page = one.json() as unknown;
        const lists = Array.isArray(page) ? [page] : Object.values(page as object).filter(Array.isArray);
        if (lists.some((l: unknown[]) => l.length > 1))
          failures.push(`${key}?limit=1 answered more than one row`);
      }
      const bad = await send(route, who, { url: `${url}?limit=0x10` });
      if (bad.statusCode !== 400) failures.push(`${key}?limit=0x10 → ${bad.statusCode}`);
    }
    expect(failures).toEqual([]);
    // The sweep did meet lists (a sweep that sees none would pass for the wrong reason).
    expect(seen.length).toBeGreaterThan(5);
  });
});

describe('authorization on every route', () => {
  it('refuses anonymous callers on every non-public route (401) and non-admins on admin routes (403)', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.access !== 'public')) {
      const url = fill(route.url, { userId: alice.user.id, id: aliceWallet.id });
      const anon = await send(route, null, { url, ...(WRITE.has(route.method) ? { payload: {} } : {}) });
      if (anon.statusCode !== 401) failures.push(describeFailure(route, 'anonymous', anon));
      if (route.access === 'admin') {
        const plain = await send(route, mallory, {
          url,
          ...(WRITE.has(route.method) ? { payload: {} } : {}),
        });
        if (plain.statusCode !== 403) failures.push(describeFailure(route, 'non-admin', plain));
        const admin = await send(route, owner, { url, ...(WRITE.has(route.method) ? { payload: {} } : {}) });
        if (admin.statusCode === 401 || admin.statusCode === 403 || admin.statusCode >= 500) {
          failures.push(describeFailure(route, 'admin', admin));
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers every signed-in route with Cache-Control: private, no-store, whatever the outcome', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.access !== 'public')) {
      const url = fill(route.url, { userId: mallory.user.id, id: malloryWallet.id });
      const body = WRITE.has(route.method) ? { payload: {} } : {};
      // Anonymous (401), and as a signed-in caller (the owner: admin routes answer too). A write
      // with an empty body is refused by validation before it could change anything.
      for (const who of [null, callerOf(route, owner)]) {
        const res = await send(route, who, { url, ...body });
        if (res.headers['cache-control'] !== 'private, no-store') {
          failures.push(
            `${describeFailure(route, who ? 'owner' : 'anonymous', res)} cache-control=${String(res.headers['cache-control'])}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("never lets a foreign user read or change another user's resources", async () => {
    const before = (
      await t.app.inject({ url: '/api/wallets', headers: { cookie: alice.cookie } })
    ).json() as unknown;
    const failures: string[] = [];
    // Alice's ids everywhere an id can go: path parameters and the id fields of bodies.
    const foreignBody = {
      walletId: aliceWallet.id,
      wallet_id: aliceWallet.id,
      id: aliceWallet.id,
      userId: alice.user.id,
      wallet: aliceWallet.wallet_address,
      walletAddress: aliceWallet.wallet_address,
      wallets: [aliceWallet.id, aliceWallet.wallet_address],
      recipient: malloryWallet.wallet_address,
      amount: '1',
      name: 'owned by mallory',
      issuer: aliceWallet.wallet_address,
      currency: 'USD',
    };
    for (const route of routes.filter((r) => r.access === 'user' && !endsSession(r))) {
      const hasParams = route.url.includes(':');
      const url = fill(route.url, { userId: alice.user.id, id: aliceWallet.id });
      const res = await send(route, mallory, {
        url,
        ...(WRITE.has(route.method) ? { payload: foreignBody } : {}),
      });
      if (res.statusCode >= 500) failures.push(describeFailure(route, 'foreign ids, 5xx', res));
      if (hasParams && res.statusCode < 400) failures.push(describeFailure(route, 'foreign path id', res));
      // No response carries anything of alice's (errors never echo the ids they were given).
      if (res.body.includes(aliceWallet.wallet_address)) {
        failures.push(describeFailure(route, "leaked alice's wallet", res));
      }
    }
    expect(failures).toEqual([]);

    // Alice's wallets are exactly as they were, and nothing was signed for her.
    const after = (await t.app.inject({ url: '/api/wallets', headers: { cookie: alice.cookie } })).json();
    expect(after).toEqual(before);
    const signed = await t.database.sql.query<{ n: number }>(
      'select count(*)::int as n from ledger_submissions where wallet_id = $1 or user_id = $2',
      [aliceWallet.id, alice.user.id],
    );
    expect(signed[0]!.n).toBe(0);
  });
});

describe('malformed input on every route', () => {
  const FIVE_MB = `{"name":"${'a'.repeat(5 * 1024 * 1024)}"}`;
  const DEEP = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  /** Refused by the shared layers (parser, body limit, edge checks) before any handler runs. */
  const alwaysRefused: Array<{ what: string; payload: string }> = [
    { what: 'not JSON', payload: '{"name": "unterminated' },
    { what: '5 MB', payload: FIVE_MB },
    { what: 'deep nesting', payload: DEEP },
    { what: '__proto__ key', payload: '{"__proto__": {"isAdmin": true}, "name": "x"}' },
    { what: 'constructor.prototype key', payload: '{"constructor": {"prototype": {"isAdmin": true}}}' },
    { what: 'NUL in a value', payload: JSON.stringify({ name: 'a\u0000b', username: 'a\u0000' }) },
    { what: 'NUL in a key', payload: JSON.stringify({ 'name\u0000': 'x' }) },
  ];
  /** Routes may ignore these or refuse them, but never fail on them. */
  const neverFatal: Array<{ what: string; payload: unknown }> = [
    { what: 'array body', payload: [] },
    { what: 'string body', payload: 'just a string' },
    { what: 'number body', payload: 12345 },
    { what: 'null body', payload: null },
    {
      what: 'wrong types',
      payload: { walletId: 'x', name: 5, amount: {}, recipient: [], seed: 7, token: 9, username: {} },
    },
    {
      what: 'bad addresses',
      payload: {
        walletId: 1,
        recipient: 'rNotAnAddressAtAll',
        issuer: 'XVLhHMPHU98es4dbozjVtdWzVrDjtV8AqEL4xcZj5tLn6Ug',
        wallet: 'r' + 'z'.repeat(40),
        amount: '1',
        currency: 'USD',
      },
    },
    {
      what: 'bad ids',
      payload: { walletId: '0x1', wallet_id: -1, id: '1e3', userId: 1.5, wallets: ['+1', { id: 'a' }] },
    },
    { what: 'huge numbers', payload: { amount: '9'.repeat(400), walletId: 1e308, destinationTag: 2 ** 40 } },
  ];
  /**
   * Ids are integers as written (docs/server-conventions.md): hex, exponent, padding, decimals, a
   * sign or a leading zero are not id 6, and a number past the int4/int8 columns is no id at all.
   */
  const BAD_IDS = [
    '0x6',
    '0xf',
    '-1',
    '0',
    '6e0',
    '15e0',
    '+6',
    '6.0',
    '15.0',
    '%206',
    '6%20',
    '06',
    '2147483648',
    '4294967296',
    '9007199254740993',
    '9223372036854775808',
    '99999999999999999999',
    '%00',
    'NaN',
  ];
  /** The same forms as JSON values of a body's id fields (numbers where JSON can say them). */
  const BAD_BODY_IDS: unknown[] = [
    '0xf',
    '15e0',
    ' 15',
    '15.0',
    '+15',
    '015',
    '',
    0,
    -1,
    1.5,
    2147483648,
    2 ** 53 + 2,
    1e308,
    '2147483648',
    '9223372036854775808',
    true,
    null,
    [15],
  ];
  /** Every id field name a body of ours may carry. */
  const ID_FIELDS = [
    'id',
    'walletId',
    'wallet_id',
    'sourceWalletId',
    'destinationWalletId',
    'userId',
    'tokenId',
    'token_id',
    'escrowSequence',
    'orderId',
    'airdropId',
  ];
  /** Numbers a search, filter or page parameter may be fed: past int4, int8, 2^53 and the float range. */
  const HUGE_NUMBERS = [
    '2147483648',
    '-2147483649',
    '9223372036854775808',
    '99999999999999999999999999',
    '1e309',
  ];
  /** Every query parameter name a route of ours reads. */
  const QUERY_FIELDS = [
    'search',
    'q',
    'page',
    'limit',
    'offset',
    'from',
    'to',
    'token_id',
    'tokenId',
    'id',
    'userId',
    'walletId',
    'wallet_id',
    'all',
    'status',
    'type',
    'wallet',
    'issuer',
    'symbol',
    'ticker',
    'tokenCode',
    'currency',
    'resolution',
  ];
  /** Path parameters that are free text (a search box): any text is a query, but never a NUL. */
  const FREE_TEXT = new Set([':query']);

  it('answers every malformed body with a 4xx, on every route that takes a body', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => WRITE.has(r.method))) {
      const url = fill(route.url, { userId: mallory.user.id, id: malloryWallet.id });
      for (const { what, payload } of alwaysRefused) {
        const res = await send(route, callerOf(route, mallory), { url, payload });
        if (res.statusCode < 400 || res.statusCode >= 500) failures.push(describeFailure(route, what, res));
      }
      for (const { what, payload } of neverFatal) {
        const res = await send(route, callerOf(route, mallory), { url, payload: JSON.stringify(payload) });
        if (res.statusCode >= 500) failures.push(describeFailure(route, what, res));
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers malformed path ids with a 4xx on every route that has one', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.url.includes(':'))) {
      const freeText = [...FREE_TEXT].some((p) => route.url.endsWith(p));
      // The caller's own ids written another way (`0x…`, `…e0`, `+…`, `….0`, padded, a leading
      // zero): read as the id, they would answer her resource with a 2xx.
      const own = (name: string) => (/user/i.test(name) ? mallory.user.id : malloryWallet.id);
      const spelled = (name: string) => {
        const id = own(name);
        return [`0x${id.toString(16)}`, `${id}e0`, `%2B${id}`, `${id}.0`, `%20${id}`, `${id}%20`, `0${id}`];
      };
      const forms = [
        ...BAD_IDS.map((bad) => ({ what: bad, url: route.url.replace(/:(\w+)/g, bad) })),
        ...[0, 1, 2, 3, 4, 5, 6].map((i) => ({
          what: `own id spelled #${i}`,
          url: route.url.replace(/:(\w+)/g, (_m, name: string) => spelled(name)[i]!),
        })),
      ];
      for (const { what: bad, url } of forms) {
        const res = await send(route, route.access === 'admin' ? owner : callerOf(route, mallory), {
          url,
          ...(WRITE.has(route.method) ? { payload: {} } : {}),
        });
        const refused = res.statusCode >= 400 && res.statusCode < 500;
        if (freeText ? res.statusCode >= 500 || (bad === '%00' && !refused) : !refused) {
          failures.push(describeFailure(route, bad, res));
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('refuses every malformed or out-of-range id in a body with a 400 naming the field, on every route that reads one', async () => {
    const failures: string[] = [];
    const readers: string[] = [];
    for (const route of routes.filter((r) => WRITE.has(r.method))) {
      const url = fill(route.url, { userId: mallory.user.id, id: malloryWallet.id });
      const who = route.access === 'admin' ? owner : callerOf(route, mallory);
      for (const field of ID_FIELDS) {
        // Which routes read this field: their schema names it when it holds no id at all.
        const probe = await send(route, who, { url, payload: { [field]: 'not-an-id' } });
        const named = (res: LightMyRequestResponse) =>
          res.statusCode === 400 &&
          ((res.json() as { fields?: Array<{ path: string }> }).fields ?? []).some((f) => f.path === field);
        if (probe.statusCode >= 500) failures.push(describeFailure(route, `${field} not-an-id`, probe));
        if (!named(probe)) continue;
        readers.push(`${route.method} ${route.url} ${field}`);
        for (const bad of BAD_BODY_IDS) {
          // An escrow's sequence is a UInt32 of the ledger, not a row id: 2^31 is one.
          if (field === 'escrowSequence' && String(bad) === '2147483648') continue;
          const res = await send(route, who, { url, payload: { [field]: bad } });
          // Refused naming the field — or by a limit that counts refused forms too (the deploy's
          // attempts): never accepted, never a 5xx.
          if (!(named(res) || res.statusCode === 429))
            failures.push(describeFailure(route, `${field}=${JSON.stringify(bad)}`, res));
        }
      }
    }
    expect(failures).toEqual([]);
    // The sweep met the body ids it is about (the vesting routes' among them).
    expect(readers).toEqual(
      expect.arrayContaining([
        'POST /api/dashboard/vesting/release tokenId',
        'POST /api/dashboard/vesting/release escrowSequence',
        'PUT /api/dashboard/vesting/auto-release tokenId',
        'POST /api/wallets/transfer walletId',
        'POST /api/admin/refund wallet_id',
        'POST /api/admin/admins/add userId',
        'POST /api/admin/fee-overrides/update userId',
        'POST /api/listing/claims token_id',
        'POST /api/airdrops/:id/claim destinationWalletId',
      ]),
    );
  }, 240_000);

  it('answers huge numbers in every search, filter and page parameter of every route without a 5xx', async () => {
    const failures: string[] = [];
    /** Per route, the query fields it was seen reading ('*': it enumerates its query). */
    const readers = new Map<string, string[]>();
    try {
      // Queries are read by GET routes (a write's query is ignored; the bad-query sweep above covers it).
      for (const route of routes.filter((r) => r.method === 'GET' && r.url !== '/ws')) {
        const base = fill(route.url, { userId: mallory.user.id, id: malloryWallet.id });
        // Admin routes as the owner (the fee-override search is one), every other one as mallory.
        const who = route.access === 'admin' ? owner : callerOf(route, mallory);
        // Every field the route reads, in any of the calls below (one may read more once a field is set).
        const reads: QueryReads = { keys: new Set<string>(), all: false, hooked: false };
        queryReads = reads;
        const clean = await send(route, who, { url: base });
        // A route whose handler answered is one the recorder saw (one the hook did not reach would
        // seem to read nothing, and be swept only with every field at once).
        if (clean.statusCode < 300 && !reads.hooked)
          failures.push(`${route.method} ${route.url}: not recorded`);
        const check = async (query: string, what: string) => {
          const res = await send(route, who, { url: `${base}?${query}` });
          if (res.statusCode >= 500 && clean.statusCode < 500)
            failures.push(describeFailure(route, what, res));
        };
        // Each number in every field at once: the checks every request gets meet each field, and the
        // route is seen reading any field it reads only beside another.
        for (const n of HUGE_NUMBERS) {
          await check(QUERY_FIELDS.map((f) => `${f}=${encodeURIComponent(n)}`).join('&'), `every field ${n}`);
        }
        // Then one field at a time (a route may refuse the first bad one before it reads the next),
        // in the fields it reads: a field it never reads cannot change its answer.
        const probed = new Set<string>();
        for (;;) {
          const next = QUERY_FIELDS.filter((f) => !probed.has(f) && (reads.all || reads.keys.has(f)));
          if (next.length === 0) break;
          for (const field of next) {
            probed.add(field);
            for (const n of HUGE_NUMBERS) await check(`${field}=${encodeURIComponent(n)}`, `?${field}=${n}`);
          }
        }
        readers.set(`${route.method} ${route.url}`, reads.all ? ['*'] : [...probed]);
      }
    } finally {
      queryReads = null;
    }
    expect(failures).toEqual([]);
    // The discovery sees what known routes read (a discovery that sees nothing would test nothing).
    expect(readers.get('GET /api/admin/fee-overrides')).toContain('search');
    expect(readers.get('GET /api/admin/audit')).toContain('page');
    expect(readers.get('GET /api/wallets')).toEqual(expect.arrayContaining(['limit', 'offset']));
    expect(readers.get('GET /api/tradingview/history')).toEqual(
      expect.arrayContaining(['symbol', 'issuer', 'resolution', 'from', 'to']),
    );
  }, 600_000);

  it('answers the admin user search with the users it matches for any number, never a 500', async () => {
    for (const search of ['2147483648', '2147483647', '9223372036854775808', String(mallory.user.id)]) {
      const res = await t.app.inject({
        url: `/api/admin/fee-overrides?search=${search}`,
        headers: { cookie: owner.cookie },
      });
      expect(res.statusCode, search).toBe(200);
      const ids = (res.json() as Array<{ id: number }>).map((u) => u.id);
      // Only mallory's own id finds mallory (by id); a number past int4 finds nobody by id.
      if (search === String(mallory.user.id)) expect(ids).toContain(mallory.user.id);
      else expect(ids).not.toContain(mallory.user.id);
    }
  });

  /** Values a field may be fed that are not what it wants (issue 23's list and friends). */
  const BAD_VALUES: Array<{ what: string; value: unknown }> = [
    { what: 'empty', value: '' },
    { what: 'hex number', value: '0x10' },
    { what: 'exponent', value: '1e0' },
    { what: 'boolean', value: true },
    { what: 'negative', value: -1 },
    { what: 'fraction', value: 1.5 },
    { what: 'NaN text', value: 'NaN' },
    { what: 'XRP as a token', value: 'XRP' },
    { what: 'non-ASCII', value: 'é' },
    { what: 'lone surrogate', value: '\ud800' },
    { what: 'SQL-looking', value: "' OR '1'='1" },
    { what: 'right-to-left override', value: 'AB\u202eCD' },
    { what: 'huge string', value: 'a'.repeat(100_000) },
    { what: 'object', value: { $gt: '' } },
    { what: 'array', value: ['1', '2'] },
  ];
  /** Every field name a route of ours reads (the union over the shared schemas). */
  const FIELDS = [
    'walletId',
    'wallet_id',
    'wallet',
    'walletAddress',
    'sourceWalletId',
    'destinationWalletId',
    'userId',
    'id',
    'issuer',
    'issuerAddress',
    'token',
    'tokenCode',
    'currency',
    'ticker',
    'symbol',
    'amount',
    'amountXrp',
    'amountToken',
    'amountLp',
    'price',
    'limitPrice',
    'maxPrice',
    'slippage',
    'type',
    'tradeType',
    'mode',
    'baseAsset',
    'tradingFee',
    'percent',
    'recipient',
    'destinationTag',
    'destination_address',
    'limit',
    'limitAmount',
    'accountAddress',
    'holderAddress',
    'expiresInMinutes',
    'name',
    'supply',
    'totalTokenAmount',
    'custom_fee_percentage',
    'fee_percentage',
    'key',
    'value',
    'wallets',
    'orders',
    'selectedAsset',
    'memo',
  ];

  it('answers each bad value in each field of each write route with a 4xx or a clean answer, never a 5xx', async () => {
    const failures: string[] = [];
    // Each body written once (the huge string's is ~5 MB), sent to every route.
    const bodies = BAD_VALUES.map(({ what, value }) => ({
      what,
      payload: JSON.stringify(Object.fromEntries(FIELDS.map((f) => [f, value]))),
    }));
    for (const route of routes.filter((r) => WRITE.has(r.method))) {
      const url = fill(route.url, { userId: mallory.user.id, id: malloryWallet.id });
      for (const { what, payload } of bodies) {
        const res = await send(route, callerOf(route, mallory), { url, payload });
        if (res.statusCode >= 500) failures.push(describeFailure(route, `every field ${what}`, res));
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);

  /**
   * Query strings: NUL bytes are refused; nothing may fail. The chart's resolution is tried on a
   * listed token (alice's), where `__proto__` used to reach the bar arithmetic.
   */
  const badQueries = (): Array<{ what: string; query: string; refused: boolean }> => [
    { what: 'NUL in a value', query: 'symbol=a%00b&issuer=%00&resolution=%00', refused: true },
    { what: 'NUL in a key', query: 'a%00b=1', refused: true },
    {
      what: '__proto__ resolution',
      query: `resolution=__proto__&symbol=ALC&issuer=${aliceWallet.wallet_address}&from=0&to=1`,
      refused: false,
    },
    {
      what: 'constructor resolution',
      query: `resolution=constructor&symbol=ALC&issuer=${aliceWallet.wallet_address}&from=0&to=1`,
      refused: false,
    },
    { what: 'prototype keys', query: '__proto__[isAdmin]=1&constructor[prototype][x]=1', refused: false },
    { what: 'hex and exponent numbers', query: 'limit=0x10&from=1e3&to=0x20&page=1e0', refused: false },
    {
      what: 'bad codes and issuers',
      query: 'tokenCode=XRP&ticker=%C3%A9&issuer=NaN&currency=%ED%A0%80',
      refused: false,
    },
    { what: 'huge value', query: `q=${'a'.repeat(50_000)}`, refused: false },
  ];

  it('answers bad query strings on every route: NUL bytes with a 4xx, nothing with a 5xx', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const base = fill(route.url, { userId: mallory.user.id, id: malloryWallet.id });
      // A route that cannot answer at all here (a 503 without the XRP/RLUSD pool) is not failing on
      // its input: compare with the same call without the query.
      const clean = await send(route, callerOf(route, mallory), {
        url: base,
        ...(WRITE.has(route.method) ? { payload: {} } : {}),
      });
      for (const { what, query, refused } of badQueries()) {
        const res = await send(route, callerOf(route, mallory), {
          url: `${base}?${query}`,
          ...(WRITE.has(route.method) ? { payload: {} } : {}),
        });
        const fails = res.statusCode >= 500 && clean.statusCode < 500;
        const bad = fails || (refused && (res.statusCode < 400 || res.statusCode >= 500));
        if (bad) failures.push(describeFailure(route, what, res));
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers prototype names, codes and huge segments in paths with a 4xx (free text never a 5xx)', async () => {
    const failures: string[] = [];
    const segments = [
      '__proto__',
      'constructor',
      '%C3%A9',
      '%ED%A0%80',
      "'%20OR%20'1'%3D'1",
      'a'.repeat(5_000),
    ];
    for (const route of routes.filter((r) => r.url.includes(':'))) {
      const freeText = [...FREE_TEXT].some((p) => route.url.endsWith(p));
      for (const bad of segments) {
        const res = await send(route, callerOf(route, mallory), {
          url: route.url.replace(/:(\w+)/g, bad),
          ...(WRITE.has(route.method) ? { payload: {} } : {}),
        });
        const refused = res.statusCode >= 400 && res.statusCode < 500;
        if (freeText ? res.statusCode >= 500 : !refused)
          failures.push(describeFailure(route, bad.slice(0, 20), res));
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers the chart a 400 for a resolution that is a prototype name', async () => {
    for (const resolution of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const res = await t.app.inject({
        url: `/api/tradingview/history?symbol=ALC&issuer=${aliceWallet.wallet_address}&resolution=${resolution}&from=0&to=600`,
      });
      expect([res.statusCode, res.json().message], resolution).toEqual([
        400,
        'resolution must be one of 1, 5, 15, 60, 240, 1D.',
      ]);
    }
  });

  it('refuses the malformed codes, addresses and numbers of issue 23 with a 400 that says why', async () => {
    const w = malloryWallet.wallet_address;
    const swap = (token: unknown, extra: Record<string, unknown> = {}) => ({
      walletAddress: w,
      issuer: aliceWallet.wallet_address,
      token,
      amount: '1',
      type: 'BUY',
      ...extra,
    });
    const SELECT = 'Please select a wallet and token.';
    const cases: Array<[string, string, Record<string, unknown>, string, SignedIn]> = [
      ['POST', '/api/swap', swap('XRP'), CURRENCY_MESSAGES.xrp, mallory],
      ['POST', '/api/swap', swap('xrp'), CURRENCY_MESSAGES.xrp, mallory],
      ['POST', '/api/swap', swap('é'), SELECT, mallory],
      ['POST', '/api/swap', swap('\ud800'), SELECT, mallory],
      ['POST', '/api/limit-order', swap('XRP', { price: '1' }), CURRENCY_MESSAGES.xrp, mallory],
      ['POST', '/api/limit-order', swap('é', { price: '1' }), SELECT, mallory],
      [
        'POST',
        '/api/limit-order',
        swap('ABC', { price: '1', expiresInMinutes: '1e0' }),
        'expiresInMinutes must be a whole number from 1 to 525600.',
        mallory,
      ],
      [
        'POST',
        '/api/add-trustline',
        { wallet: w, issuer: aliceWallet.wallet_address, token: "' OR '1'='1" },
        SELECT,
        mallory,
      ],
      [
        'POST',
        '/api/add-trustline',
        { wallet: w, issuer: aliceWallet.wallet_address, token: 'AB\u202eCD' },
        SELECT,
        mallory,
      ],
      [
        'POST',
        '/api/add-trustline',
        { wallet: w, issuer: aliceWallet.wallet_address, token: 'XRP' },
        CURRENCY_MESSAGES.xrp,
        mallory,
      ],
      [
        'POST',
        '/api/burn/burn',
        { walletAddress: w, issuerAddress: 'NaN', tokenCode: 'ALC', amount: '1' },
        'issuerAddress must be a valid XRPL address',
        mallory,
      ],
      [
        'POST',
        '/api/wallets/transfer',
        {
          walletId: malloryWallet.id,
          recipient: aliceWallet.wallet_address,
          amount: '1',
          destinationTag: '',
        },
        'destinationTag must be a whole number from 0 to 4294967295.',
        mallory,
      ],
      [
        'POST',
        '/api/wallets/transfer',
        {
          walletId: malloryWallet.id,
          recipient: aliceWallet.wallet_address,
          amount: '1',
          destinationTag: '0x10',
        },
        'destinationTag must be a whole number from 0 to 4294967295.',
        mallory,
      ],
      ['POST', '/api/admin/admins/add', { userId: '0x10' }, 'Enter valid user ID', owner],
      ['POST', '/api/admin/admins/add', { userId: true }, 'Enter valid user ID', owner],
      ['POST', '/api/admin/admins/add', { userId: '1e0' }, 'Enter valid user ID', owner],
      ['POST', '/api/admin/admins/remove', { userId: '' }, 'Enter valid user ID', owner],
      [
        'POST',
        '/api/admin/fee-overrides/update',
        { userId: '0x10', custom_fee_percentage: '1' },
        'Enter valid user ID',
        owner,
      ],
      [
        'POST',
        '/api/admin/platform-config/update',
        { key: 'service_fee', value: '1000000' },
        'service_fee must be at most 10000 XRP.',
        owner,
      ],
      [
        'POST',
        '/api/admin/platform-config/update',
        { key: 'issuer_reserve', value: '5000' },
        'issuer_reserve must be at most 1000 XRP.',
        owner,
      ],
    ];
    const failures: string[] = [];
    for (const [method, url, payload, message, who] of cases) {
      const res = await t.app.inject({ method: method as 'POST', url, headers: who.headers, payload });
      if (res.statusCode !== 400 || res.json().message !== message)
        failures.push(
          `${url} ${JSON.stringify(payload).slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 160)}`,
        );
    }
    expect(failures).toEqual([]);
    // Queries go through the same checks: a NUL byte is a 400, not a 500.
    const nul = await t.app.inject({
      url: `/api/price?tokenCode=A%00B&issuer=${aliceWallet.wallet_address}`,
    });
    expect(nul.statusCode).toBe(400);
    // Nothing was signed for any of them.
    const signed = await t.database.sql.query<{ n: number }>(
      'select count(*)::int as n from ledger_submissions where user_id = $1',
      [mallory.user.id],
    );
    expect(signed[0]!.n).toBe(0);
  });

  it('still answers afterwards, with the sweeping session still signed in', async () => {
    expect((await t.app.inject('/api/health')).statusCode).toBe(200);
    const mine = await t.app.inject({ url: '/api/wallets', headers: { cookie: mallory.cookie } });
    expect(mine.statusCode).toBe(200);
    // (Her own first wallet may be gone: DELETE /api/wallets/:id with her own id is a valid request.)
    expect(Array.isArray(mine.json().wallets)).toBe(true);
  });
});
