import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { PUBLIC_API_ROUTES } from '@ledgerpad/shared';
import { documented, registerAccessControl } from '../../src/plugins/access';
import { buildOpenApiDocument } from '../../src/modules/api-docs/openapi';
import { documentedRoutes } from '../../src/modules/api-docs/routes';
import { createTestApp, type TestApp } from '../helpers/test-app';

// GET /api/docs as a page (issue 39): a browser gets readable HTML of the OpenAPI routes, under the
// app's own CSP and with nothing from another origin; the JSON stays at /api/docs/openapi.json (and
// at /api/docs for any client that does not ask for HTML). The document's content is tested in
// api-docs.test.ts.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ ledger: 'none' });
});

afterAll(async () => {
  await t?.close();
});

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('GET /api/docs in a browser', () => {
  it('is an HTML page of every documented route, with a link to the JSON', async () => {
    const res = await t.app.inject({ url: '/api/docs', headers: { accept: BROWSER_ACCEPT } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers.vary).toContain('Accept');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const html = res.body;
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<h1>Ledgerpad API</h1>');
    expect(html).toContain('<a href="/api/docs/openapi.json">');
    const declared = documentedRoutes(t.app).map((r) => r.docs);
    expect(html).toContain(`<h2>${declared.length} routes</h2>`);
    for (const route of declared) {
      const method = (route.method ?? 'get').toUpperCase();
      // Paths hold { } (never HTML-special); summaries are escaped.
      expect(html).toContain(`<code>${route.path}</code>`);
      expect(html).toContain(`${method} ${route.path}`);
    }
    // A private route says what it needs (issue 41: they are documented too).
    expect(html).toContain('Needs the session cookie and the CSRF header.');
    // The 200 body of a route, as its JSON schema.
    expect(html).toContain('200 response (JSON schema)');
    // A route that starts a job (a deploy, an airdrop) also shows its 202 body, not as an error.
    const deploy = html.slice(html.indexOf('<section class="op" id="post-api-deploy-token">'));
    expect(deploy.startsWith('<section')).toBe(true);
    expect(deploy.slice(0, deploy.indexOf('</section>'))).toContain('202 response (JSON schema)');
    expect(html).not.toContain('<li><code>202</code>');
  });

  it('runs under the app CSP and loads nothing but its icon: no script, no stylesheet link, no other origin', async () => {
    const res = await t.app.inject({ url: '/api/docs', headers: { accept: BROWSER_ACCEPT } });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    const html = res.body;
    expect(html).not.toMatch(/<script\b/i);
    // One link: the app's own icon (same origin; without it the browser asks for /favicon.ico).
    expect(html.match(/<link\b[^>]*>/gi)).toEqual([
      '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    ]);
    expect(html).not.toMatch(/<img\b/i);
    expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//i);
    expect(html).not.toMatch(/@import|url\(/i);
  });
});

describe('the JSON document', () => {
  it('stays at /api/docs/openapi.json, and at /api/docs for clients that do not ask for HTML', async () => {
    const expected = JSON.parse(JSON.stringify(buildOpenApiDocument('0', documentedRoutes(t.app)))) as {
      paths: unknown;
    };
    for (const [url, accept] of [
      ['/api/docs/openapi.json', BROWSER_ACCEPT],
      ['/api/docs/openapi.json', undefined],
      ['/api/docs', undefined],
      ['/api/docs', '*/*'],
      ['/api/docs', 'application/json'],
      ['/api/docs', 'application/json, text/html'],
    ] as const) {
      const res = await t.app.inject({ url, headers: accept ? { accept } : {} });
      expect(res.statusCode, `${url} ${accept}`).toBe(200);
      expect(res.headers['content-type'], `${url} ${accept}`).toBe('application/json; charset=utf-8');
      const doc = res.json() as { openapi: string; paths: unknown };
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.paths).toEqual(expected.paths);
    }
  });
});

describe('the document is generated from the route table', () => {
  it('has one operation per route that declares its documentation, each catalogue entry declared by one route', () => {
    const declared = t.app.apiRoutes.filter((r) => r.docs);
    // Every declaring route documents itself (its path in OpenAPI form, its method).
    for (const r of declared) {
      expect(r.docs!.path).toBe(r.url.replace(/:(\w+)/g, '{$1}'));
      expect(r.docs!.method ?? 'get').toBe(r.method.toLowerCase());
    }
    const key = (d: { path: string; method?: string }) => `${d.method ?? 'get'} ${d.path}`;
    const catalogue = new Set(PUBLIC_API_ROUTES);
    expect(
      declared
        .filter((r) => catalogue.has(r.docs!))
        .map((r) => key(r.docs!))
        .sort(),
    ).toEqual(PUBLIC_API_ROUTES.map(key).sort());
    // Each operation carries its route's security: none when public, the session cookie when signed
    // in, and the CSRF header on a write.
    const doc = buildOpenApiDocument('0', documentedRoutes(t.app));
    for (const r of declared) {
      const op = doc.paths[r.docs!.path]![r.method.toLowerCase()] as { security?: unknown };
      const expected =
        r.access === 'public'
          ? undefined
          : [r.method === 'GET' ? { session: [] } : { session: [], csrf: [] }];
      expect(op.security, `${r.method} ${r.url}`).toEqual(expected);
    }
    expect(doc.components.securitySchemes.csrf).toMatchObject({ in: 'header', name: 'x-csrf-token' });
  });

  it('refuses to register a route that declares the documentation of another route or is not public', async () => {
    const app = Fastify();
    registerAccessControl(app);
    expect(() =>
      app.get('/api/tokens/:issuer/trades', documented('/api/tokens/{issuer}/stats'), async () => ({})),
    ).toThrow(/declares the documentation of get \/api\/tokens\/\{issuer\}\/stats/);
    expect(() => app.post('/api/tokens', documented('/api/tokens'), async () => ({}))).toThrow(
      /declares the documentation/,
    );
    expect(() => documented('/api/not-documented')).toThrow(
      /No public API documentation for GET \/api\/not-documented/,
    );
    await app.close();
  });
});
