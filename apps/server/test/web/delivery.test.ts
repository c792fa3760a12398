import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { tokens } from '../../src/modules/tokens/schema';
import {
  LANDING_DATA_MAX_BYTES,
  LANDING_INLINE_CSS_MAX_BYTES,
  TOKEN_HEAD_DESCRIPTION_MAX,
  inlineStylesheets,
  landingDataBlock,
  tokenDataBlock,
  tokenShell,
  withTokenHead,
} from '../../src/web/delivery';
import type { TokenView } from '@ledgerpad/shared';

// Static delivery of the built web app through the real server, on a small fake build.

const CSS = '.hero h1{font-size:2.5rem}';
const INDEX =
  '<!doctype html><html><head><title>Ledgerpad</title>' +
  '<link rel="stylesheet" crossorigin href="/assets/index-abc123.css"></head><body><div id="root"></div></body></html>';
const SHELL = '<div class="app"><h1>Launch and trade XRPL tokens in seconds</h1></div>\n';
const JS = `console.log(${JSON.stringify('x'.repeat(4000))});`;
const TOKEN_JS = 'export const TokenPage = 1;';
const TOKEN_CSS = '.token-description{font-size:1rem}';

let dist: string;
let t: TestApp;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'ledgerpad-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  writeFileSync(path.join(dist, 'index.html.br'), brotliCompressSync(INDEX));
  writeFileSync(path.join(dist, 'landing-shell.html'), SHELL);
  writeFileSync(path.join(dist, 'assets', 'index-abc123.css'), CSS);
  // The token page's route chunk and stylesheet, as Vite names them.
  writeFileSync(path.join(dist, 'assets', 'token-page-abc123.js'), TOKEN_JS);
  writeFileSync(path.join(dist, 'assets', 'token-page-abc123.css'), TOKEN_CSS);
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const js = path.join(dist, 'assets', 'app-abc123.js');
  writeFileSync(js, JS);
  writeFileSync(`${js}.br`, brotliCompressSync(JS));
  writeFileSync(`${js}.gz`, gzipSync(JS));
  writeFileSync(`${js}.map`, '{"version":3,"sources":["secret.ts"]}');
  t = await createTestApp({ ledger: 'none', webDistDir: dist });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

describe('web delivery', () => {
  it('serves hashed assets precompressed by Accept-Encoding, cached immutably', async () => {
    const br = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(JS);

    const gz = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(JS);

    const plain = await get('/assets/app-abc123.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(JS);
  });

  it('never serves source maps, nor the compressed copies by their own names', async () => {
    expect((await get('/assets/app-abc123.js.map')).statusCode).toBe(404);
    expect((await get('/assets/app-abc123.js.br')).statusCode).toBe(404);
    expect((await get('/assets/app-abc123.js.gz')).statusCode).toBe(404);
  });

  it('sends index.html compressed when accepted', async () => {
    const res = await get('/swap', { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(INDEX);
  });

  it('a conditional reload of an unknown page still gets the page', async () => {
    const first = await get('/no-such-page');
    expect(first.headers.etag).toBeUndefined();
    const again = await get('/no-such-page', {
      'if-none-match': '*',
      'if-modified-since': new Date().toUTCString(),
    });
    expect(again.statusCode).toBe(404);
    expect(again.body).toBe(INDEX);
  });

  it('sets the security headers even on a refused Host', async () => {
    const res = await get('/', { host: 'rebind.attacker.example' });
    expect(res.statusCode).toBe(403);
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('revalidates index.html and unhashed files on every load', async () => {
    const index = await get('/wallets');
    expect(index.statusCode).toBe(200);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.body).toBe(INDEX);
    const icon = await get('/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('sets the security headers on pages and API answers alike', async () => {
    for (const url of ['/', '/api/auth/methods']) {
      const res = await get(url);
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-powered-by']).toBeUndefined();
      // No HSTS outside production (plain http on localhost).
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it("answers unknown pages with the app's 404 page and a 404 status; unknown files and API routes plainly", async () => {
    for (const url of ['/no-such-page', '/terms/', '/token/abc/extra/more']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toBe(INDEX);
    }
    const file = await get('/missing.js');
    expect(file.statusCode).toBe(404);
    expect(file.body).toBe('Not found');
    const api = await get('/api/nope');
    expect(api.statusCode).toBe(404);
    expect(api.json().error).toBe('not_found');
  });
});

describe('the CSP names the sign-in providers only when they are configured', () => {
  it('adds Telegram and Google sources with their configuration', async () => {
    const configured = await createTestApp({
      ledger: 'none',
      env: { TELEGRAM_BOT_TOKEN: '123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', GOOGLE_CLIENT_ID: 'cid' },
    });
    try {
      const csp = String(
        (await configured.app.inject('/api/auth/methods')).headers['content-security-policy'],
      );
      expect(csp).toContain('https://telegram.org');
      expect(csp).toContain('https://accounts.google.com');
      expect(csp).toContain('https://accounts.google.com/gsi/style');
    } finally {
      await configured.close();
    }
    const plainRes = await t.app.inject('/api/auth/methods');
    expect(plainRes.headers['cross-origin-opener-policy']).toBe('same-origin');
    const plain = String(plainRes.headers['content-security-policy']);
    expect(plain).not.toContain('telegram.org');
  });
});

describe('the landing page carries its first screen and first reads', () => {
  const landingParts = (html: string) => {
    const data = /<script type="application\/json" id="landing-data">(.*?)<\/script>/.exec(html)?.[1];
    return { data: data === undefined ? undefined : (JSON.parse(data) as Record<string, unknown>) };
  };

  it('puts the static shell inside #root and the market snapshot as a JSON block on / only', async () => {
    const res = await get('/', { 'accept-encoding': 'identity' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toBeUndefined();
    expect(res.body).toContain(`<div id="root">${SHELL.trim()}</div>`);
    // Its stylesheet inline: the shell's first paint waits for no second request.
    expect(res.body).toContain(`<style>${CSS}</style>`);
    expect(res.body).not.toContain('index-abc123.css');
    const { data } = landingParts(res.body);
    // The same bodies the public reads serve.
    expect(data?.tokens).toEqual((await get('/api/tokens')).json());
    expect(data?.prices).toEqual((await get('/api/prices')).json());
    expect(data?.holders).toEqual((await get('/api/holders')).json());
    // Compressed when accepted, the same page.
    const br = await get('/', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(res.body);
    const gz = await get('/', { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gz.rawPayload).toString()).toBe(res.body);
    // Every other page is the build's index.html as it is.
    expect((await get('/terms')).body).toBe(INDEX);
  });

  it('keeps a stylesheet that could end its element (or is missing or large) as a link', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ledgerpad-css-'));
    try {
      mkdirSync(path.join(dir, 'assets'));
      writeFileSync(path.join(dir, 'assets', 'a.css'), 'a::after{content:"</style>"}');
      writeFileSync(path.join(dir, 'assets', 'b.css'), `b{x:${'y'.repeat(LANDING_INLINE_CSS_MAX_BYTES)}}`);
      writeFileSync(path.join(dir, 'assets', 'c.css'), 'c{color:red}');
      const links = ['a', 'b', 'missing', 'c'].map((n) => `<link rel="stylesheet" href="/assets/${n}.css">`);
      const out = await inlineStylesheets(`<head>${links.join('')}</head>`, dir);
      expect(out).toBe(`<head>${links.slice(0, 3).join('')}<style>c{color:red}</style></head>`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never serves the shell as a file', async () => {
    expect((await get('/landing-shell.html')).statusCode).toBe(404);
  });

  it('writes a block no token text can close or rewrite', () => {
    const name = '</script><script>alert(1)</script><!-- $& $1 \u2028';
    const tokens = JSON.stringify([{ name }]);
    const block = landingDataBlock({ tokens, prices: '[]', holders: '[]' });
    const inner = block.slice(block.indexOf('>') + 1, block.lastIndexOf('</script>'));
    expect(inner).not.toContain('<');
    expect((JSON.parse(inner) as { tokens: Array<{ name: string }> }).tokens[0]?.name).toBe(name);
  });

  it('leaves out a market too large to embed (the page fetches it)', () => {
    const tokens = JSON.stringify(['x'.repeat(LANDING_DATA_MAX_BYTES)]);
    expect(landingDataBlock({ tokens, prices: '[]', holders: '[]' })).toBe('');
  });
});

describe("a token's page names the token before any script runs (link previews, crawlers)", () => {
  const ISSUER = 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY';
  const OTHER = 'rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf';
  const row = (over: Partial<typeof tokens.$inferInsert>) => ({
    name: 'Comet Coin',
    ticker: 'COMET',
    currency: '434F4D4554000000000000000000000000000000',
    issuerAddress: ISSUER,
    supply: '1000000',
    source: 'deploy',
    ...over,
  });
  const tag = (html: string, key: string) =>
    new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)" />`).exec(html)?.[1];

  beforeAll(async () => {
    await t.database.db.insert(tokens).values([
      row({
        description: 'A comet </title><script>alert(1)</script> worth $& "quoted"',
        logoUrl: '/images/comet.png',
      }),
      // Two tokens of one issuer: /token/{issuer} is a chooser, not one token's page.
      row({ issuerAddress: OTHER, name: 'Two A', ticker: 'TWA', currency: 'TWA' }),
      row({ issuerAddress: OTHER, name: 'Two B', ticker: 'TWB', currency: 'TWB', isActive: false }),
    ]);
  });

  it("writes the token's title, description and preview tags, every text escaped", async () => {
    const res = await get(`/token/${ISSUER}/434F4D4554000000000000000000000000000000`, {
      host: 'ledgerpad.test',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<title>Comet Coin (COMET) · Ledgerpad</title>');
    const description =
      'A comet &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; worth $&amp; &quot;quoted&quot;';
    expect(tag(res.body, 'description')).toBe(description);
    expect(tag(res.body, 'og:title')).toBe('Comet Coin (COMET) · Ledgerpad');
    expect(tag(res.body, 'og:description')).toBe(description);
    expect(tag(res.body, 'og:url')).toBe(
      `http://ledgerpad.test/token/${ISSUER}/434F4D4554000000000000000000000000000000`,
    );
    expect(tag(res.body, 'og:image')).toBe('http://ledgerpad.test/images/comet.png');
    expect(tag(res.body, 'twitter:card')).toBe('summary');
    expect(res.body).not.toContain('<script>alert');
    // An issuer's only token has its page at /token/{issuer} too.
    expect((await get(`/token/${ISSUER}`)).body).toContain('<title>Comet Coin (COMET) · Ledgerpad</title>');
  });

  it('carries its first screen as escaped static markup and its first read as inert JSON (issue 40)', async () => {
    const url = `/token/${ISSUER}/434F4D4554000000000000000000000000000000`;
    const res = await get(url, { 'accept-encoding': 'identity' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    const root = /<div id="root">(.*)<\/div>\s*<\/body>/s.exec(res.body)?.[1] ?? '';
    // The token's header and description inside #root, every text escaped (a description is the
    // lister's input): the hostile one stays text, no element of its own.
    expect(root).toContain('data-shell="token"');
    expect(root).toContain('<h1>COMET</h1><p class="muted tp-name">Comet Coin</p>');
    expect(root).toContain(`<span class="issuer-address">${ISSUER}</span>`);
    expect(root).toContain(
      '<img class="token-page-logo" src="/images/comet.png" alt="" width="56" height="56" />',
    );
    expect(root).toContain(
      '<p class="token-description">A comet &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; worth $&amp; &quot;quoted&quot;</p>',
    );
    expect(res.body).not.toContain('<script>alert');
    // The page's first read, the same body the API serves, in a block nothing in it can close.
    const block = /<script type="application\/json" id="token-data">(.*?)<\/script>/.exec(res.body)?.[1];
    expect(block).toBeDefined();
    const data = JSON.parse(block!) as Record<string, unknown>;
    const api = (
      await get(`/api/tokens/issuer/${ISSUER}?currency=434F4D4554000000000000000000000000000000`)
    ).json();
    expect(data).toEqual({
      issuer: ISSUER,
      currency: '434F4D4554000000000000000000000000000000',
      token: api,
    });
    // The route's chunk preloaded, the stylesheets inline (the shell paints with the HTML).
    expect(res.body).toContain('<link rel="modulepreload" crossorigin href="/assets/token-page-abc123.js">');
    expect(res.body).toContain(`<style>${TOKEN_CSS}</style>`);
    expect(res.body).toContain(`<style>${CSS}</style>`);
    // Compressed when accepted, the same page.
    const br = await get(url, { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(res.body);
    const gz = await get(url, { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gz.rawPayload).toString()).toBe(res.body);
    // /token/{issuer} (its one token): both reads the page starts with.
    const short = await get(`/token/${ISSUER}`);
    const shortData = JSON.parse(
      /<script type="application\/json" id="token-data">(.*?)<\/script>/.exec(short.body)![1]!,
    ) as Record<string, unknown>;
    expect(shortData).toEqual({
      issuer: ISSUER,
      currency: null,
      token: (await get(`/api/tokens/issuer/${ISSUER}`)).json(),
      issuerTokens: (await get(`/api/tokens/issuer/${ISSUER}/tokens`)).json(),
    });
  });

  it('escapes a hostile name and description everywhere it is written', async () => {
    const name = '<img src=x onerror=alert(1)>"\'&';
    const description = '</script><script>alert(2)</script><!-- $& \u2028 </p></main>';
    const token = {
      name,
      ticker: '<b>',
      description,
      issuer_address: ISSUER,
      currency: 'X',
      logoUrl: null,
      liquidity_pair: 'XRP',
      is_bonding_curve: false,
      bonding_active: false,
      has_graduated_to_amm: true,
      links: { Website: 'https://x.test/a"><script>alert(3)</script>', Twitter: 'javascript:alert(4)' },
      metadata_by: 'lister',
    } as unknown as TokenView;
    const shell = tokenShell(token);
    expect(shell).not.toMatch(/<(img|script|b)\b[^>]*alert|<b>|<script|<!--|<\/p><\/main>/);
    expect(shell).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;');
    expect(shell).toContain('&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;&lt;!-- $&amp;');
    // Links only over http(s), their addresses escaped too.
    expect(shell).not.toContain('javascript:');
    expect(shell).toMatch(
      /<a href="https:\/\/x\.test\/a[^"<>]*" target="_blank" rel="noopener noreferrer nofollow">Website<\/a>/,
    );
    const block = tokenDataBlock({ issuer: ISSUER, currency: 'X', token });
    const inner = block.slice(block.indexOf('>') + 1, block.lastIndexOf('</script>'));
    expect(inner).not.toContain('<');
    expect((JSON.parse(inner) as { token: TokenView }).token).toEqual(token);
  });

  it('sends the page as built for an unknown or hidden token and for a chooser', async () => {
    expect((await get(`/token/${ISSUER}/ABC`)).body).toBe(INDEX);
    expect((await get(`/token/${OTHER}/TWB`)).body).toBe(INDEX);
    expect((await get(`/token/${OTHER}`)).body).toBe(INDEX);
    expect((await get('/token/not-an-address')).body).toBe(INDEX);
    const shown = await get(`/token/${OTHER}/TWA`);
    expect(shown.body).toContain('<title>Two A (TWA) · Ledgerpad</title>');
    // No logo, no image tag; no description, a sentence of its own.
    expect(tag(shown.body, 'og:image')).toBeUndefined();
    expect(tag(shown.body, 'og:description')).toBe(
      'TWA on the XRP Ledger: price, chart, holders and trading on Ledgerpad.',
    );
  });

  it('cuts a long description at a word, and replaces a description the build has', () => {
    const long = `${'word '.repeat(80)}end`;
    const html = withTokenHead(
      '<head><meta name="description" content="build" /><title>x</title></head>',
      { title: 'T', description: long, image: null },
      'https://ledgerpad.example',
      '/token/r/X',
    );
    const d = tag(html, 'description')!;
    expect(d.length).toBeLessThanOrEqual(TOKEN_HEAD_DESCRIPTION_MAX);
    expect(d.endsWith('word…')).toBe(true);
    expect(html.match(/name="description"/g)).toHaveLength(1);
    expect(html).not.toContain('content="build"');
  });
});
