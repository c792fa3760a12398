import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRoute } from '../../src/plugins/access';
import { createTestApp, type TestApp } from '../helpers/test-app';

// Every /api route declares its response schema (issue 41): a public one through its catalogue
// entry (`documented`), every other one through `declared(access, { summary, body, response })`
// with schemas from packages/shared, and GET /api/docs is generated from those declarations. There
// is no list of routes left to convert: a new route that declares nothing fails the test.

/**
 * Routes that answer no JSON, so have no response schema to declare: the owner's one-time sign-in
 * link is a top-level navigation answered with a redirect into the app (or an HTML page).
 */
const NOT_JSON = new Set(['GET /api/auth/owner-link']);

let t: TestApp;
let routes: ApiRoute[];

beforeAll(async () => {
  t = await createTestApp({ ledger: 'none' });
  await t.app.ready();
  routes = t.app.apiRoutes.filter((r) => r.url.startsWith('/api'));
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const key = (r: ApiRoute) => `${r.method} ${r.url}`;

describe('the route table', () => {
  it('has a response schema declared by every /api route that answers JSON', () => {
    expect(routes.filter((r) => !r.docs && !NOT_JSON.has(key(r))).map(key)).toEqual([]);
    // The one exception is a served route, and declares nothing.
    for (const k of NOT_JSON) expect(routes.find((r) => key(r) === k)?.docs, k).toBeUndefined();
    // Not vacuous: the table has the app's routes (over a hundred), each with its documentation.
    expect(routes.filter((r) => r.docs).length).toBeGreaterThan(100);
  });

  it('documents each declared route with its own path, method, parameters and access', () => {
    for (const r of routes.filter((route) => route.docs)) {
      expect(r.docs!.path, key(r)).toBe(r.url.replace(/:(\w+)/g, '{$1}'));
      expect(r.docs!.method ?? 'get', key(r)).toBe(r.method.toLowerCase());
      const pathParams = [...r.url.matchAll(/:(\w+)/g)].map((m) => m[1]);
      expect(
        r.docs!.parameters.filter((p) => p.in === 'path').map((p) => p.name),
        key(r),
      ).toEqual(pathParams);
      // A write with a JSON body declares it; a read never has one.
      if (r.method === 'GET') expect(r.docs!.body, key(r)).toBeUndefined();
    }
  });
});
