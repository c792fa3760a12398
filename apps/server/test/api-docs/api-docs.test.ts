import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Wallet } from 'xrpl';
import {
  PUBLIC_API_ROUTES,
  publicErrorSchema,
  transferResponseSchema,
  type IntentRequired,
  type AirdropAllocation,
  type ClaimAirdropResult,
  type CreateAirdropResult,
  type DeployStarted,
  type UploadResponse,
  type AmmAuctionView,
  Decimal,
  type LimitOrderResult,
  type LpBalanceResult,
  type OrderView,
  type TransferResponse,
  type DeployResult,
} from '@ledgerpad/shared';
import type { SignedIn } from '../helpers/test-app';
import { ammLaunchBody, seed, type TradingWorld } from '../helpers/trading-world';
import { launchCurve } from '../bonding/bonding-world';
import { multipart } from '../uploads/helpers';
import sharp from 'sharp';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// GET /api/docs (issue 29): the OpenAPI document lists every public route, and every one of
// them, called for real on a world with an AMM token that has traded and a token on a bonding curve,
// answers a body its documented schema accepts. The shared zod schema validates (the document is
// generated from it), and the document's JSON Schema is checked to be that same schema's.

let t: WalletTestApp;
let world: TradingWorld;
let owner: SignedIn;
let alice: SignedIn;
let amm: DeployResult;
let curve: DeployResult;
let trader: { id: number; address: string };

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  world = seed(t);
  await t.app.platform.accounts.bootstrapped();
  owner = await t.signInOwner();
  const ownerWallet = await world.wallet(owner);
  amm = await world.deploy(owner, ownerWallet.id, { name: 'Docs Token', ticker: 'DOCS' });
  const curveWallet = await world.wallet(owner);
  curve = await launchCurve(t, owner, curveWallet.id, { name: 'Docs Curve', ticker: 'DCRV' });
  // One trade, so the trades list and the chart's bars are not empty.
  alice = await t.signIn('alice_docs');
  trader = await world.wallet(alice);
  await world.swap(alice, {
    walletAddress: trader.address,
    issuer: amm.issuer_address,
    token: 'DOCS',
    amount: '1',
    type: 'BUY',
    slippage: '5',
  });
  await t.app.platform.indexer!.caughtUp();
  await t.app.marketSnapshot.refresh();
}, 120_000);

afterAll(async () => {
  await t?.close();
});

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content: Record<string, { schema: unknown }> }> }>
  >;
};

const docs = async () => {
  const res = await t.app.inject({ url: '/api/docs' });
  expect(res.statusCode).toBe(200);
  return { res, doc: res.json() as Doc };
};

/** A call of a route that declares its schemas (declared(…)): who calls, which route, its URL. */
interface DeclaredCall {
  who: SignedIn | null;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  route: string;
  url: string;
  payload?: object;
  /** Besides the caller's session headers (a multipart body's content type). */
  headers?: Record<string, string>;
}

/**
 * Each call answers 200 with a body the schema its route declared accepts (or 202 with one its
 * `accepted` schema accepts, where it declares one), and the document carries that schema (as zod's
 * JSON Schema) under that status, its request body and its security.
 */
async function expectDeclaredAnswers(calls: DeclaredCall[]): Promise<unknown[]> {
  const bodies: unknown[] = [];
  const { doc } = await docs();
  const opOf = (method: string, path: string) =>
    doc.paths[path]![method] as unknown as {
      security?: unknown;
      requestBody?: { content: Record<string, { schema: unknown }> };
      responses: Record<string, { content: Record<string, { schema: unknown }> }>;
    };
  for (const call of calls) {
    const name = `${call.method} ${call.route}`;
    const route = t.app.apiRoutes.find((r) => r.method === call.method && r.url === call.route);
    expect(route?.docs, name).toBeDefined();
    const res = await t.app.inject({
      method: call.method,
      url: call.url,
      headers: { ...(call.who?.headers ?? {}), ...call.headers },
      ...(call.payload ? { payload: call.payload as Record<string, unknown> } : {}),
    });
    const status = route!.docs!.accepted && res.statusCode === 202 ? '202' : '200';
    expect(String(res.statusCode), `${name}: ${res.body.slice(0, 200)}`).toBe(status);
    bodies.push(res.json());
    const declaredSchema = status === '202' ? route!.docs!.accepted! : route!.docs!.response;
    const parsed = declaredSchema.safeParse(res.json());
    expect(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues.slice(0, 3))}`).toBe(true);
    const op = opOf(call.method.toLowerCase(), route!.docs!.path);
    const { $schema: _s, ...schema } = z.toJSONSchema(declaredSchema, {
      io: 'output',
      unrepresentable: 'any',
    });
    expect(op.responses[status]!.content['application/json']!.schema, name).toEqual(schema);
    if (route!.docs!.body) expect(op.requestBody, name).toBeDefined();
    expect(op.security, name).toEqual(
      route!.access === 'public'
        ? undefined
        : [call.method === 'GET' ? { session: [] } : { session: [], csrf: [] }],
    );
  }
  return bodies;
}

describe('GET /api/docs', () => {
  it('is a public OpenAPI 3.1 JSON document, cacheable, with a path for every public route', async () => {
    const { res, doc } = await docs();
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(PUBLIC_API_ROUTES.map((r) => r.path)));
    const served = new Set(t.app.apiRoutes.map((r) => `${r.method} ${r.url}`));
    for (const [path, ops] of Object.entries(doc.paths)) {
      // The document's {param} is Fastify's :param; each documented operation is a served route.
      for (const method of Object.keys(ops)) {
        const route = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
        expect(served.has(route), route).toBe(true);
      }
    }
  });

  it('answers every documented route with a body its schema accepts (real responses)', async () => {
    const { doc } = await docs();
    const now = Math.floor(Date.now() / 1000);
    const bonding = (await t.app.inject({ url: `/api/bonding/${curve.issuer_address}` })).json() as {
      token_id: number;
    };
    // The real call of each documented path, with parameters of the world's tokens.
    const calls: Record<string, string | { url: string; payload: Record<string, unknown> }> = {
      '/api/tokens': '/api/tokens',
      '/api/prices': '/api/prices',
      '/api/holders': '/api/holders',
      '/api/price': `/api/price?tokenCode=${amm.currency}&issuer=${amm.issuer_address}`,
      '/api/tradingview/history': `/api/tradingview/history?symbol=DOCS&issuer=${amm.issuer_address}&resolution=1&from=${now - 3600}&to=${now + 60}`,
      '/api/amm_info': `/api/amm_info?issuer=${amm.issuer_address}&ticker=DOCS`,
      '/api/tokens/{issuer}/stats': `/api/tokens/${amm.issuer_address}/stats`,
      '/api/tokens/{issuer}/trades': `/api/tokens/${amm.issuer_address}/trades`,
      '/api/tokens/{issuer}/risk': `/api/tokens/${amm.issuer_address}/risk`,
      '/api/bonding/{issuer}': `/api/bonding/${curve.issuer_address}`,
      '/api/pump/bonding/marketcap/{id}': `/api/pump/bonding/marketcap/${bonding.token_id}`,
      '/api/tokens/issuer/{issuerAddress}': `/api/tokens/issuer/${amm.issuer_address}`,
      '/api/tokens/issuer/{issuerAddress}/tokens': `/api/tokens/issuer/${amm.issuer_address}/tokens`,
      '/api/tokens/{issuer}/identity-history': `/api/tokens/${amm.issuer_address}/identity-history`,
      '/api/swapsearch/search-tokens/{query}': '/api/swapsearch/search-tokens/docs',
      '/api/wallets/open-orders/{issuer}/{ticker}': `/api/wallets/open-orders/${amm.issuer_address}/DOCS`,
      '/api/xrp-usd-price': '/api/xrp-usd-price',
      '/api/blackhole-status/bulk': {
        url: '/api/blackhole-status/bulk',
        payload: { issuers: [amm.issuer_address, curve.issuer_address] },
      },
      '/api/config/fees': '/api/config/fees',
      '/api/config/rlusd': '/api/config/rlusd',
      '/api/auth/methods': '/api/auth/methods',
      '/api/session': '/api/session',
      '/api/wallets/xrpl/status': '/api/wallets/xrpl/status',
      '/api/health': '/api/health',
      '/api/demo/status': '/api/demo/status',
      '/api/airdrops': '/api/airdrops',
    };
    expect(Object.keys(calls).sort()).toEqual(PUBLIC_API_ROUTES.map((r) => r.path).sort());
    for (const route of PUBLIC_API_ROUTES) {
      const call = calls[route.path]!;
      const res = await t.app.inject(
        typeof call === 'string' ? { url: call } : { method: 'POST', url: call.url, payload: call.payload },
      );
      expect(res.statusCode, `${route.path}: ${res.body.slice(0, 200)}`).toBe(200);
      const body: unknown = res.json();
      const parsed = route.response.safeParse(body);
      expect(parsed.success, `${route.path}: ${JSON.stringify(parsed.error?.issues.slice(0, 3))}`).toBe(true);
      // The document carries exactly this schema (generated from it, not written twice).
      const { $schema: _s, ...schema } = z.toJSONSchema(route.response, {
        io: 'output',
        unrepresentable: 'any',
      });
      expect(
        doc.paths[route.path]![route.method ?? 'get']!.responses['200']!.content['application/json']!.schema,
      ).toEqual(schema);
    }
    // The lists are not trivially empty: the world's tokens, its trade and its chart bar are there.
    const list = (url: string) => t.app.inject({ url }).then((r) => r.json() as unknown[]);
    expect((await list('/api/tokens')).length).toBeGreaterThanOrEqual(2);
    expect(await list('/api/swapsearch/search-tokens/dcrv')).toEqual([
      expect.objectContaining({ ticker: 'DCRV', issuer_address: curve.issuer_address }),
    ]);
    // The curve launch blackholes its issuer; the AMM token of the world keeps its keys.
    const bulk = await t.app.inject({
      method: 'POST',
      url: '/api/blackhole-status/bulk',
      payload: { issuers: [amm.issuer_address, curve.issuer_address] },
    });
    expect(bulk.json()).toEqual({ [amm.issuer_address]: false, [curve.issuer_address]: true });
    expect((await list(`/api/tokens/${amm.issuer_address}/trades`)).length).toBe(1);
    const bars = (await t.app.inject({ url: calls['/api/tradingview/history'] as string })).json() as {
      s: string;
    };
    expect(bars.s).toBe('ok');
  }, 60_000);

  it('answers the signed-in and admin routes that declare their schemas with bodies those accept (real responses)', async () => {
    // Issue 41: the private routes declare their schemas too (declared(…)); a sample of them, called
    // for real by the token's creator (owner, an admin) and a trader (alice), each answer checked
    // against the schema its route declared, and the document carrying that schema and its security.
    const calls: DeclaredCall[] = [
      { who: alice, method: 'GET', route: '/api/referrals/me', url: '/api/referrals/me' },
      { who: alice, method: 'GET', route: '/api/referrals/claims', url: '/api/referrals/claims' },
      { who: alice, method: 'GET', route: '/api/referrals/earnings', url: '/api/referrals/earnings' },
      { who: owner, method: 'GET', route: '/api/admin/referrals', url: '/api/admin/referrals' },
      { who: owner, method: 'GET', route: '/api/rewards/summary', url: '/api/rewards/summary' },
      { who: owner, method: 'GET', route: '/api/rewards/claim-totals', url: '/api/rewards/claim-totals' },
      {
        who: owner,
        method: 'GET',
        route: '/api/rewards/payouts',
        url: `/api/rewards/payouts?token_id=${amm.token_id}`,
      },
      {
        who: owner,
        method: 'POST',
        route: '/api/rewards/splits/:tokenId',
        url: `/api/rewards/splits/${amm.token_id}`,
        payload: { recipients: [] },
      },
      { who: owner, method: 'GET', route: '/api/dashboard/vesting', url: '/api/dashboard/vesting' },
      { who: alice, method: 'GET', route: '/api/positions/:userId', url: `/api/positions/${alice.user.id}` },
      { who: alice, method: 'GET', route: '/api/user', url: '/api/user' },
      { who: alice, method: 'GET', route: '/api/csrf-token', url: '/api/csrf-token' },
      { who: null, method: 'GET', route: '/api/auth/socket-token', url: '/api/auth/socket-token' },
      { who: null, method: 'GET', route: '/api/docs/openapi.json', url: '/api/docs/openapi.json' },
      {
        who: alice,
        method: 'PUT',
        route: '/api/user/slippage',
        url: '/api/user/slippage',
        payload: { slippage: '1.5' },
      },
      {
        who: null,
        method: 'GET',
        route: '/api/rewards/splits/:tokenId',
        url: `/api/rewards/splits/${amm.token_id}`,
      },
    ];
    await expectDeclaredAnswers(calls);
    // Not trivially empty: the creator earns on the trade of the world, and alice has her code.
    const summary = (
      await t.app.inject({ url: '/api/rewards/summary', headers: owner.headers })
    ).json() as Array<{
      id: number;
    }>;
    expect(summary.map((r) => r.id)).toContain(amm.token_id);
    const me = (await t.app.inject({ url: '/api/referrals/me', headers: alice.headers })).json() as {
      code: string;
    };
    expect(me.code.length).toBeGreaterThan(0);
  }, 60_000);

  it('answers the admin, listing, dashboard and burn routes with bodies their declared schemas accept (real responses)', async () => {
    // Issue 41, the admin panel, listing, dashboard (trust lines, vesting) and burn modules: each
    // called for real by the token's creator (owner, an admin) or a trader (alice).
    const get = (who: SignedIn, url: string, route = url.split('?')[0]!): DeclaredCall => ({
      who,
      method: 'GET',
      route,
      url,
    });
    const token = amm.token_id;
    await expectDeclaredAnswers([
      get(owner, '/api/admin/check'),
      get(owner, '/api/admin/fee-config'),
      get(owner, '/api/admin/platform-config'),
      get(owner, '/api/admin/admins'),
      get(owner, '/api/admin/fee-overrides?search=alice'),
      get(owner, '/api/admin/rewards-overview'),
      get(owner, '/api/admin/wallet-overview'),
      get(owner, '/api/admin/all-wallets'),
      get(owner, '/api/admin/audit?page=1'),
      get(owner, '/api/admin/staged-wallets?all=true'),
      get(owner, '/api/admin/staged-wallets/balances'),
      get(owner, '/api/admin/tokens'),
      {
        who: owner,
        method: 'POST',
        route: '/api/gateway-balances',
        url: '/api/gateway-balances',
        payload: { account: amm.issuer_address },
      },
      get(owner, `/api/listing/control?token_id=${token}`),
      get(alice, '/api/listing/lost-control'),
      get(owner, '/api/dashboard/has-deployed-token'),
      get(owner, `/api/dashboard/user-tokens/${owner.user.id}`, '/api/dashboard/user-tokens/:userId'),
      get(owner, `/api/dashboard/issuer-wallet/${token}`, '/api/dashboard/issuer-wallet/:tokenId'),
      get(owner, `/api/dashboard/trust-lines/${token}`, '/api/dashboard/trust-lines/:tokenId'),
      get(owner, '/api/dashboard/vesting'),
      get(alice, `/api/burn/wallets/${alice.user.id}`, '/api/burn/wallets/:userId'),
    ]);
    // Not trivially empty: the owner is an admin and the deployer, the issuer issues DOCS, alice
    // holds it and her line is among the token's holders.
    const balances = (
      await t.app.inject({
        method: 'POST',
        url: '/api/gateway-balances',
        headers: owner.headers,
        payload: { account: amm.issuer_address },
      })
    ).json() as { tokens: Array<{ ascii: string }> };
    expect(balances.tokens.map((x) => x.ascii)).toContain('DOCS');
    const lines = (
      await t.app.inject({ url: `/api/dashboard/trust-lines/${token}`, headers: owner.headers })
    ).json() as { trustLines: unknown[] };
    expect(lines.trustLines.length).toBeGreaterThan(0);
    const mine = (
      await t.app.inject({ url: `/api/dashboard/user-tokens/${owner.user.id}`, headers: owner.headers })
    ).json() as { tokens: Array<{ id: number }> };
    expect(mine.tokens.map((x) => x.id)).toContain(token);
    const burnable = (
      await t.app.inject({ url: `/api/burn/wallets/${alice.user.id}`, headers: alice.headers })
    ).json() as { wallets: Array<{ tokens: Array<{ ascii: string }> }> };
    expect(burnable.wallets.flatMap((w) => w.tokens.map((x) => x.ascii))).toContain('DOCS');
  }, 60_000);

  it('answers the wallet and signing routes with bodies their declared schemas accept (real responses)', async () => {
    // Issue 41, the wallets module: alice's trader wallet (holding DOCS) read, renamed and its limit
    // set; a new wallet created, funded by the faucets, paid 1 XRP by the trader, then removed.
    const w = `/api/wallets/${trader.id}`;
    const call = (method: DeclaredCall['method'], route: string, url: string, payload?: object) => ({
      who: alice,
      method,
      route,
      url,
      ...(payload ? { payload } : {}),
    });
    await expectDeclaredAnswers([
      call('GET', '/api/wallets', '/api/wallets'),
      call('POST', '/api/wallets/balances', '/api/wallets/balances', { wallets: [trader.id] }),
      call('GET', '/api/wallets/:id/trustlines', `${w}/trustlines`),
      call('GET', '/api/wallets/:id/ledger-objects', `${w}/ledger-objects`),
      call('GET', '/api/wallets/:id/delegation', `${w}/delegation`),
      call('PUT', '/api/wallets/:id/name', `${w}/name`, { name: 'Trader' }),
      call('POST', '/api/wallets/set-trustline-limit', '/api/wallets/set-trustline-limit', {
        walletId: trader.id,
        issuer: amm.issuer_address,
        currency: 'DOCS',
        limit: '1000000000',
      }),
      call('POST', '/api/wallets/challenge', '/api/wallets/challenge', {
        address: Wallet.generate().classicAddress,
        kind: 'browser',
      }),
      call('POST', '/api/wallets', '/api/wallets', { name: 'Spare' }),
      call('POST', '/api/wallets/import', '/api/wallets/import', {
        seed: Wallet.generate().seed,
        name: 'Imported',
      }),
    ]);
    const wallets = (await t.app.inject({ url: '/api/wallets', headers: alice.headers })).json() as {
      wallets: Array<{ id: number; wallet_name: string; wallet_address: string }>;
    };
    const spare = wallets.wallets.find((x) => x.wallet_name === 'Spare')!;
    const s = `/api/wallets/${spare.id}`;
    await expectDeclaredAnswers([
      call('POST', '/api/wallets/:id/fund', `${s}/fund`),
      call('POST', '/api/wallets/:id/fund-rlusd', `${s}/fund-rlusd`),
      call('POST', '/api/wallets/transfer', '/api/wallets/transfer', {
        walletId: trader.id,
        recipient: spare.wallet_address,
        amount: '1',
      }),
      call('DELETE', '/api/wallets/:id', s),
    ]);
    // A self-custody (browser) wallet: its ownership proof, a transfer it signs (the intent, its
    // status, its signed submission answered as the custodial transfer is) and its delegation's intent.
    const browser = Wallet.generate();
    const [challenge] = (await expectDeclaredAnswers([
      call('POST', '/api/wallets/challenge', '/api/wallets/challenge', {
        address: browser.classicAddress,
        kind: 'browser',
      }),
    ])) as [{ challengeId: string; tx: Record<string, unknown> }];
    const [added] = (await expectDeclaredAnswers([
      call('POST', '/api/wallets/self-custody', '/api/wallets/self-custody', {
        challengeId: challenge.challengeId,
        signedTx: browser.sign(challenge.tx as never).tx_blob,
      }),
      call('POST', '/api/wallets/transfer', '/api/wallets/transfer', {
        walletId: trader.id,
        recipient: browser.classicAddress,
        amount: '50',
      }),
    ])) as [{ id: number }];
    const [sign] = (await expectDeclaredAnswers([
      call('POST', '/api/wallets/transfer', '/api/wallets/transfer', {
        walletId: added.id,
        recipient: trader.address,
        amount: '1',
      }),
      call('POST', '/api/wallets/:id/delegation', `/api/wallets/${added.id}/delegation`),
    ])) as [IntentRequired];
    expect(sign.status).toBe('sign');
    const blobs = sign.intent.txs.map((tx) => browser.sign(tx as never).tx_blob);
    const [, sent] = (await expectDeclaredAnswers([
      call('GET', '/api/intents/:id', `/api/intents/${sign.intent.id}`),
      call('POST', '/api/intents/:id/submit', `/api/intents/${sign.intent.id}/submit`, { blobs }),
    ])) as [unknown, TransferResponse];
    expect(transferResponseSchema.parse(sent).delivered_amount).toBe('1');
    // Not trivially empty: the trader holds DOCS at its new limit, and was renamed.
    const lines = (await t.app.inject({ url: `${w}/trustlines`, headers: alice.headers })).json() as {
      trustlines: Array<{ currency: string; limit: string }>;
    };
    expect(lines.trustlines).toContainEqual(
      expect.objectContaining({ currency: 'DOCS', limit: '1000000000' }),
    );
    expect(wallets.wallets.find((x) => x.id === trader.id)?.wallet_name).toBe('Trader');
  }, 60_000);

  it('answers the trading and liquidity routes with bodies their declared schemas accept (real responses)', async () => {
    // Issue 41, the trading and liquidity modules: alice's trader wallet quotes and trades DOCS (one
    // wallet and as a batch), places a limit order far above the market and cancels it, then
    // deposits XRP into the pool, votes, reads its LP figures, bids for the slot and withdraws.
    const market = { issuer: amm.issuer_address, token: 'DOCS' };
    const mine = { ...market, wallet: trader.address };
    const post = (route: string, payload: object): DeclaredCall => ({
      who: alice,
      method: 'POST',
      route,
      url: route,
      payload,
    });
    const batch = {
      ...market,
      type: 'BUY',
      slippage: '5',
      orders: [{ walletAddress: trader.address, amount: '1' }],
    };
    const [, , , , placed, line] = (await expectDeclaredAnswers([
      post('/api/amm-info', { ...mine, amountXrp: '1', tradeType: 'BUY' }),
      post('/api/swap/batch/quote', batch),
      post('/api/swap', {
        ...market,
        walletAddress: trader.address,
        amount: '1',
        type: 'BUY',
        slippage: '5',
      }),
      post('/api/swap/batch', batch),
      post('/api/limit-order', {
        ...market,
        walletAddress: trader.address,
        amount: '1',
        type: 'SELL',
        price: '1000',
      }),
      // A new line (to the curve's token), then its removal (its balance is 0).
      post('/api/add-trustline', { ...mine, issuer: curve.issuer_address, token: 'DCRV' }),
      post('/api/wallets/remove-trustline', {
        walletId: trader.id,
        issuer: curve.issuer_address,
        currency: 'DCRV',
      }),
    ])) as [unknown, unknown, unknown, unknown, LimitOrderResult, { status: string; existed?: boolean }];
    const orders = `/api/orders/get-orders/${alice.user.id}`;
    await expectDeclaredAnswers([
      { who: alice, method: 'GET', route: '/api/orders/get-orders/:userId', url: orders },
      { who: alice, method: 'GET', route: '/api/check-orders-status', url: '/api/check-orders-status' },
      {
        who: alice,
        method: 'DELETE',
        route: '/api/cancel-order/:orderId',
        url: `/api/cancel-order/${placed.order.id}`,
      },
    ]);
    const [, , lp, , slot] = (await expectDeclaredAnswers([
      post('/api/add-liquidity', {
        ...mine,
        mode: 'single-asset',
        selectedAsset: { currency: 'XRP' },
        amountXrp: '5',
      }),
      post('/api/amm-vote', { ...mine, tradingFee: 500 }),
      post('/api/lp-token-balance', mine),
      post('/api/get-lp-price', { ...market, amountLp: '1', depositBase: '1' }),
      post('/api/amm-auction', market),
      post('/api/lp-position', mine),
    ])) as [unknown, unknown, LpBalanceResult, unknown, AmmAuctionView];
    await expectDeclaredAnswers([
      post('/api/amm-bid', { ...mine, maxPrice: slot.price }),
      post('/api/remove-liquidity', {
        ...mine,
        mode: 'double',
        amountLp: new Decimal(lp.balance).div(4).toFixed(6),
      }),
    ]);
    // Not trivially empty: the line was new; the order was listed, then cancelled; alice held LP tokens.
    expect(line).toMatchObject({ status: 'success' });
    expect(line.existed).toBeUndefined();
    const listed = (await t.app.inject({ url: orders, headers: alice.headers })).json() as OrderView[];
    expect(listed.find((o) => o.id === placed.order.id)?.status).toBe('canceled');
    expect(new Decimal(lp.balance).gt(0)).toBe(true);
  }, 90_000);

  it('answers the upload, deploy and airdrop routes with bodies their declared schemas accept (real responses)', async () => {
    // Issue 41, the uploads, deploy and airdrops modules: the owner uploads a logo and launches a
    // token with it (202: the deploy job); alice airdrops DOCS from her trader wallet (202: its job),
    // reads her allocation, and the owner claims a share into a wallet of his.
    const logo = await multipart([
      { name: 'purpose', value: 'deploy' },
      {
        name: 'logo',
        data: await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3a7' } })
          .png()
          .toBuffer(),
      },
    ]);
    const [uploaded] = (await expectDeclaredAnswers([
      {
        who: owner,
        method: 'POST',
        route: '/api/upload',
        url: '/api/upload',
        payload: logo.payload,
        headers: { 'content-type': logo.contentType },
      },
    ])) as [UploadResponse];
    const launcher = await world.wallet(owner);
    const [started] = (await expectDeclaredAnswers([
      {
        who: owner,
        method: 'POST',
        route: '/api/deploy-token',
        url: '/api/deploy-token',
        payload: ammLaunchBody(launcher.id, { name: 'Docs Two', ticker: 'DOCTWO' }, uploaded.servedUrl),
      },
    ])) as [DeployStarted];
    const deployed = await t.app.platform.jobs.waitFor(started.jobId, { timeoutMs: 60_000 });
    expect(deployed.status, deployed.error ?? '').toBe('completed');

    const [created] = (await expectDeclaredAnswers([
      {
        who: alice,
        method: 'POST',
        route: '/api/airdrops',
        url: '/api/airdrops',
        payload: {
          sourceWalletId: trader.id,
          tokenCode: 'DOCS',
          issuerAddress: amm.issuer_address,
          projectName: 'Docs Drop',
          tagline: 'Free DOCS',
          logoUrl: '',
          description: 'An airdrop',
          perUserType: 'fixed',
          totalTokenAmount: '150',
          fixedAmount: '10',
          deadline: new Date(Date.now() + 3600_000).toISOString(),
          website: '',
          twitter: '',
          trustlineMode: 'auto',
        },
      },
    ])) as [CreateAirdropResult];
    const job = await t.app.platform.jobs.waitFor(created.jobId, { timeoutMs: 30_000 });
    expect(job.status, job.error ?? '').toBe('completed');
    const claimer = await world.wallet(owner, 1);
    const [allocation, claimed] = (await expectDeclaredAnswers([
      {
        who: alice,
        method: 'GET',
        route: '/api/airdrops/allocations/:walletId/:tokenCode/:issuer',
        url: `/api/airdrops/allocations/${trader.id}/DOCS/${amm.issuer_address}`,
      },
      {
        who: owner,
        method: 'POST',
        route: '/api/airdrops/:id/claim',
        url: `/api/airdrops/${created.id}/claim`,
        payload: { destinationWalletId: claimer.id },
      },
    ])) as [AirdropAllocation, ClaimAirdropResult];
    // Not trivially empty: the allocation is the airdrop's total, the claim its fixed share.
    expect(allocation.allocated).toBe('150');
    expect(claimed.amount).toBe('10');
  }, 120_000);

  it('documents the error bodies the public routes answer', async () => {
    const res = await t.app.inject({ url: '/api/tokens/not-an-address/risk' });
    expect(res.statusCode).toBe(400);
    const { doc } = await docs();
    expect(doc.paths['/api/tokens/{issuer}/risk']!.get!.responses['400']).toBeDefined();
    expect(publicErrorSchema.safeParse(res.json()).success).toBe(true);
  });
});
