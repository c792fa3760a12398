import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  displayTicker,
  IDENTITY_MESSAGES,
  onrampOrigin,
  priceChanges,
  tokenBadge,
  tokenLinks,
  type TokenView,
} from '@ledgerpad/shared';
import type { Config } from '../config';
import { SPA_ROUTES } from '../spa-routes';

// How the built web app reaches browsers: precompressed (brotli, gzip) files chosen by
// Accept-Encoding, hashed assets cached for a year, index.html revalidated on every load, no source
// maps, security headers on every response, and unknown pages answered by the app's own 404 page.

const YEAR_S = 365 * 24 * 3600;
const NOT_BUILT = 'The web app is not built. Run `npm run build` (npm start does it for you).';

/**
 * The Content-Security-Policy of the SPA: everything from our own origin; images only from our
 * origin and data: (logos are uploaded here; a stored external URL is never rendered, and no
 * listing or airdrop can make a visitor's browser fetch another site); Telegram's login widget,
 * Google's sign-in and the card on-ramp's frame are allowed only when they are configured.
 */
function contentSecurityPolicy(
  config: Pick<Config, 'TELEGRAM_BOT_TOKEN' | 'GOOGLE_CLIENT_ID' | 'ONRAMP_API_KEY' | 'ONRAMP_ENVIRONMENT'>,
) {
  const scripts = ["'self'"];
  const frames: string[] = [];
  const connect = ["'self'"];
  if (config.TELEGRAM_BOT_TOKEN) {
    scripts.push('https://telegram.org');
    frames.push('https://oauth.telegram.org');
  }
  const styles = ["'self'", "'unsafe-inline'"];
  if (config.GOOGLE_CLIENT_ID) {
    scripts.push('https://accounts.google.com');
    styles.push('https://accounts.google.com/gsi/style');
    frames.push('https://accounts.google.com');
    connect.push('https://openidconnect.googleapis.com', 'https://www.googleapis.com');
  }
  // The card on-ramp widget is the provider's page in an iframe (no script of theirs runs here).
  if (config.ONRAMP_API_KEY) frames.push(onrampOrigin(config.ONRAMP_ENVIRONMENT));
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: scripts,
      // React and Radix set inline style attributes (positions of popovers, animations).
      styleSrc: styles,
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      // 'self' covers same-origin ws:/wss: in current browsers; the socket is same-origin.
      connectSrc: connect,
      frameSrc: frames.length ? frames : ["'none'"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
    },
  };
}

/**
 * What the landing page (`/`) shows first, as the JSON texts of the public reads it would otherwise
 * fetch right after the app starts (`/api/tokens`, `/api/prices`, `/api/holders`); null when not
 * available yet.
 */
export type LandingData = () => Promise<{ tokens: string; prices: string; holders: string } | null>;

/** Above this the landing data is not embedded (a large market): the page fetches it as before. */
export const LANDING_DATA_MAX_BYTES = 256 * 1024;

/** The element id of the embedded data block; apps/web/src/lib/landing-data.ts reads it. */
const LANDING_DATA_ID = 'landing-data';

/**
 * The landing data as an inert JSON data block (type application/json: never executed, so the CSP's
 * script-src does not apply and no nonce is needed). Every `<` is written as \u003c, which JSON
 * reads back as the same character, so no token name or description can close the element.
 */
export function landingDataBlock(data: { tokens: string; prices: string; holders: string }): string {
  const json = `{"tokens":${data.tokens},"prices":${data.prices},"holders":${data.holders}}`;
  if (json.length > LANDING_DATA_MAX_BYTES) return '';
  return `<script type="application/json" id="${LANDING_DATA_ID}">${json.replace(/</g, '\\u003c')}</script>`;
}

/**
 * The landing page's first screen as static markup (apps/web/public/landing-shell.html: the header
 * and the hero, the same elements and classes React renders), put inside #root on `/` so the hero
 * paints with the HTML; React replaces it with the same elements on its first render. Never served
 * as a file.
 */
const LANDING_SHELL_FILE = 'landing-shell.html';
const ROOT = '<div id="root"></div>';

/** Above this a stylesheet stays a link on the landing page (inlining it would delay the HTML more). */
export const LANDING_INLINE_CSS_MAX_BYTES = 64 * 1024;

/**
 * The landing page's own stylesheets (`/assets/*.css` links of index.html) written into the page as
 * `<style>` elements: the shell's first paint then waits for the HTML alone, not for a second
 * request (a stylesheet link blocks rendering). The CSP allows inline styles ('unsafe-inline' for
 * React's style attributes). A file too large, missing, or holding `</` (it could end the element)
 * stays a link. Other pages keep the link: they are cached, the landing page is not.
 */
export async function inlineStylesheets(html: string, distDir: string): Promise<string> {
  const links = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*>/g)];
  let out = html;
  for (const [link] of links) {
    const href = /\bhref="\/(assets\/[\w.-]+\.css)"/.exec(link)?.[1];
    if (!href) continue;
    const css = await readFile(path.join(distDir, href), 'utf8').catch(() => undefined);
    if (css === undefined || css.length > LANDING_INLINE_CSS_MAX_BYTES || css.includes('</')) continue;
    out = out.replace(link, () => `<style>${css}</style>`);
  }
  return out;
}

/**
 * What a token's page says about the token before any script runs: link previews (Telegram, X,
 * Discord) and crawlers read the HTML only. Null for a token that is not listed (or not shown).
 */
export type TokenHead = (
  issuer: string,
  currency: string | undefined,
) => Promise<{
  title: string;
  description: string;
  image: string | null;
  /** The body of `GET /api/tokens/issuer/{issuer}[?currency=]`: the page's first read. */
  token?: TokenView;
  /** On `/token/{issuer}`: the body of `GET /api/tokens/issuer/{issuer}/tokens` (its one token). */
  issuerTokens?: TokenView[];
} | null>;

/** Text for an HTML attribute or element: every character that could end or open markup escaped. */
const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Link previews show about this much of a description; a longer one is cut at a word. */
export const TOKEN_HEAD_DESCRIPTION_MAX = 200;

/**
 * index.html with a token's own title, description and Open Graph / Twitter card tags (absolute
 * URLs on `origin`, as the protocols require). Every text is escaped; a `$` stays literal.
 */
export function withTokenHead(
  html: string,
  head: { title: string; description: string; image: string | null },
  origin: string,
  pagePath: string,
): string {
  const cut = (text: string) => {
    const t = text.replace(/\s+/g, ' ').trim();
    if (t.length <= TOKEN_HEAD_DESCRIPTION_MAX) return t;
    const room = t.slice(0, TOKEN_HEAD_DESCRIPTION_MAX - 1);
    const space = room.lastIndexOf(' ');
    return `${(space > TOKEN_HEAD_DESCRIPTION_MAX / 2 ? room.slice(0, space) : room).trimEnd()}…`;
  };
  const title = escapeHtml(head.title);
  const description = escapeHtml(cut(head.description));
  const meta = (attr: 'name' | 'property', key: string, content: string) =>
    `<meta ${attr}="${key}" content="${content}" />`;
  const tags = [
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', 'Ledgerpad'),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', escapeHtml(`${origin}${pagePath}`)),
    ...(head.image ? [meta('property', 'og:image', escapeHtml(`${origin}${head.image}`))] : []),
    meta('name', 'twitter:card', 'summary'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', description),
  ].join('');
  const described = meta('name', 'description', description);
  const hasDescription = /<meta\s+name="description"[^>]*>/.test(html);
  return html
    .replace(/<title>[^<]*<\/title>/, () => `<title>${title}</title>`)
    .replace(/<meta\s+name="description"[^>]*>/, () => described)
    .replace('</head>', () => `${hasDescription ? '' : described}${tags}</head>`);
}

/** The element id of a token page's embedded first reads; apps/web/src/features/token/token-data.ts reads it. */
const TOKEN_DATA_ID = 'token-data';

/**
 * A token page's first reads as an inert JSON data block (as the landing's: never executed, every
 * `<` written \u003c so no name or description can close the element). `currency` is the page's
 * own (the URL's, absent on `/token/{issuer}`): the app uses the block only for that page.
 */
export function tokenDataBlock(data: {
  issuer: string;
  currency: string | undefined;
  token: TokenView;
  issuerTokens?: TokenView[];
}): string {
  const json = JSON.stringify({
    issuer: data.issuer,
    currency: data.currency ?? null,
    token: data.token,
    ...(data.issuerTokens ? { issuerTokens: data.issuerTokens } : {}),
  });
  if (json.length > LANDING_DATA_MAX_BYTES) return '';
  return `<script type="application/json" id="${TOKEN_DATA_ID}">${json.replace(/</g, '\\u003c')}</script>`;
}

/**
 * A token page's first screen as static markup, put inside #root before any script runs: the
 * layout's header, the token's header (logo, ticker and badge, name, issuer, links; the figures
 * wait for the app), the stats row, the chart's frame and the token's description in the 'About'
 * panel (first in its column here: the page's largest text on the first screen, its LCP element) —
 * with the same elements and classes React renders (components/layout.tsx, features/token/
 * token-page.tsx, token-header.tsx, about-panel.tsx: keep them in step). Every text is escaped: a
 * name or description is whatever its lister wrote. The app keeps it until the route's chunk is in
 * (src/boot.tsx) and then renders the same page from the embedded read.
 */
export function tokenShell(token: TokenView): string {
  const ticker = escapeHtml(displayTicker(token.ticker));
  const name = escapeHtml(token.name);
  const badge = tokenBadge(token);
  const quote = token.liquidity_pair === 'RLUSD' ? 'RLUSD' : 'XRP';
  const bonding = token.is_bonding_curve && token.bonding_active;
  const query = (params: Record<string, string>) => escapeHtml(new URLSearchParams(params).toString());
  const logo = token.logoUrl
    ? `<img class="token-page-logo" src="${escapeHtml(token.logoUrl)}" alt="" width="56" height="56" />`
    : `<span class="token-page-logo token-logo-empty" aria-hidden="true">${escapeHtml(token.ticker.slice(0, 1))}</span>`;
  const links = tokenLinks(token.links);
  const linkNav = links.length
    ? '<nav class="token-links" aria-label="Token links">' +
      links
        .map(
          (l) =>
            `<a href="${escapeHtml(l.url)}" target="_blank" rel="noopener noreferrer nofollow">${l.label}</a>`,
        )
        .join('') +
      (token.metadata_by === 'lister'
        ? `<span class="lister-links-note">${escapeHtml(IDENTITY_MESSAGES.linksByLister)}</span>`
        : '') +
      '</nav>'
    : '';
  const claim = `<a class="claim-link" href="/list-token?${query({ claim: token.issuer_address, currency: token.currency })}">${
    token.verified ? 'Issuer? Update this listing' : 'Is this your token? Claim this listing'
  }</a>`;
  const stats = (bonding ? ['Market Cap'] : ['Market Cap', 'Liquidity', 'Holders'])
    .map((label) => `<div class="stat"><dt>${label}</dt><dd class="figure">Loading...</dd></div>`)
    .join('');
  const description = token.description
    ? `<p class="token-description">${escapeHtml(token.description)}</p>`
    : '<p class="muted small">No description.</p>';
  return (
    '<div class="app"><a href="#main" class="skip-link">Skip to content</a>' +
    '<header class="header"><div class="header-inner"><a class="logo" aria-label="Ledgerpad home" href="/">' +
    '<img src="/favicon.svg" alt="" width="28" height="28" /><span>Ledgerpad</span></a></div></header>' +
    '<main class="main" id="main" tabindex="-1"><div class="token-page" data-shell="token">' +
    `<header class="panel token-header"><div class="token-identity">${logo}<div class="token-titles">` +
    `<h1>${ticker}${badge ? `<span class="badge badge-${badge.toLowerCase()}">${badge}</span>` : ''}</h1>` +
    `<p class="muted tp-name">${name}</p><span class="issuer-copy">` +
    `<span class="issuer-label">Issuer</span><span class="issuer-address">${escapeHtml(token.issuer_address)}</span>` +
    '</span></div></div><div class="token-price-block"><p class="token-price"><span class="figure">…</span></p>' +
    '<p class="muted small token-last">Last trade <span><span class="figure">—</span></span></p>' +
    '<ul class="price-changes" aria-label="Price change">' +
    // The strip's intervals as the app shows them while its candles load.
    priceChanges(undefined, 0, 300)
      .map(({ label }) => `<li><span class="muted">${label}</span> <span class="muted">…</span></li>`)
      .join('') +
    '</ul>' +
    `${linkNav}${claim}</div></header>` +
    `<div class="token-actions"><dl class="stats-bar">${stats}</dl>` +
    `<a class="button-link trade-button" href="/swap?${query({ issuer: token.issuer_address, currency: token.currency })}">Open in Swap</a></div>` +
    '<div class="token-grid"><div class="tp-main"><section class="panel chart-panel">' +
    `<div class="chart-toolbar"><h2 class="panel-title">Price (${quote})</h2></div><div class="chart-area"></div>` +
    '</section></div><aside class="tp-side"><section class="panel about-panel">' +
    `<h2 class="panel-title">About ${name}</h2>${description}</section></aside></div>` +
    '</div></main></div>'
  );
}

/**
 * The build's token page chunk and its stylesheet (`assets/token-page-*.js` / `.css`, Vite's names
 * for src/features/token/token-page.tsx), when the build has exactly one of each.
 */
async function tokenPageAssets(distDir: string): Promise<{ js?: string; css?: string }> {
  const names = await readdir(path.join(distDir, 'assets')).catch(() => [] as string[]);
  const one = (re: RegExp) => {
    const found = names.filter((n) => re.test(n));
    return found.length === 1 ? `assets/${found[0]}` : undefined;
  };
  return { js: one(/^token-page-[\w-]+\.js$/), css: one(/^token-page-[\w-]+\.css$/) };
}

export interface WebDelivery {
  /** Answers a non-API path no route matched: the SPA's 404 page (status 404), or plain text. */
  notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply>;
}

/**
 * Security headers on every response. Registered before the Host check and everything else, so even
 * a refused request carries them.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: contentSecurityPolicy(config),
    // Cross-origin isolation would block the third-party sign-in and on-ramp frames; not needed by the app.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // HSTS only where the app is served over TLS for real.
    strictTransportSecurity: config.NODE_ENV === 'production' ? { maxAge: YEAR_S } : false,
    // Google's sign-in popup talks back to its opener.
    crossOriginOpenerPolicy: { policy: config.GOOGLE_CLIENT_ID ? 'same-origin-allow-popups' : 'same-origin' },
  });
}

export async function registerWebDelivery(
  app: FastifyInstance,
  config: Config,
  distDir: string | undefined,
  landingData?: LandingData,
  tokenHead?: TokenHead,
): Promise<WebDelivery> {
  const built = distDir !== undefined && existsSync(path.join(distDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: false,
      prefix: '/',
      preCompressed: true,
      // Source maps are never built for production; refuse any that are lying around.
      // The .br/.gz copies are chosen by Accept-Encoding, never fetched by their own names.
      allowedPath: (pathName) =>
        !/\.(map|br|gz)$/.test(pathName) && path.basename(pathName) !== LANDING_SHELL_FILE,
      setHeaders: (reply, filePath) => {
        const hashed = filePath.startsWith(path.join(distDir, 'assets') + path.sep);
        // Hashed names change with their content: cache forever. Everything else: revalidate.
        reply.header('cache-control', hashed ? `public, max-age=${YEAR_S}, immutable` : 'no-cache');
      },
    });
  }

  // The landing page: index.html with its first screen (static shell) and its first data inside, so
  // the hero paints with the HTML and the token list renders as soon as the app runs. Built
  // once per change of the build or of the data (at most once per ledger), compressed once.
  type Page = { key: string; html: string; br: Buffer; gzip: Buffer };
  let landing: Page | undefined;
  const landingPage = async (): Promise<Page> => {
    const files = await Promise.all(
      ['index.html', LANDING_SHELL_FILE].map((name) =>
        stat(path.join(distDir!, name)).then(
          (st) => st.mtimeMs,
          () => 0,
        ),
      ),
    );
    const data = await landingData?.().catch((err: unknown) => {
      app.log.warn({ err }, 'landing data not embedded');
      return null;
    });
    const block = data ? landingDataBlock(data) : '';
    const key = `${files.join(',')}:${block}`;
    if (landing?.key === key) return landing;
    const [html, shell] = await Promise.all([
      readFile(path.join(distDir!, 'index.html'), 'utf8'),
      readFile(path.join(distDir!, LANDING_SHELL_FILE), 'utf8').catch(() => ''),
    ]);
    // Replacement functions, not strings: a `$&` in a token's name must stay literal text.
    const page = (await inlineStylesheets(html, distDir!))
      .replace('</head>', () => `${block}</head>`)
      .replace(ROOT, () => `<div id="root">${shell.trim()}</div>`);
    const buf = Buffer.from(page);
    landing = {
      key,
      html: page,
      br: brotliCompressSync(buf, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
      gzip: gzipSync(buf, { level: 6 }),
    };
    return landing;
  };
  const sendLanding = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const page = await landingPage();
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
    reply
      .code(200)
      .type('text/html; charset=utf-8')
      // It carries the current market: never cached, sent whole without validators.
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding');
    if (!encoding) return reply.send(page.html);
    return reply.header('content-encoding', encoding).send(page[encoding]);
  };

  const sendIndex = (reply: FastifyReply, status: number): FastifyReply | Promise<FastifyReply> => {
    if (!built)
      return reply
        .code(status === 404 ? 404 : 503)
        .type('text/plain')
        .send(status === 404 ? 'Not found' : NOT_BUILT);
    // index.html names the hashed asset files of the current build: never cache it.
    // The 404 page is sent whole, without validators: a conditional reload (If-None-Match) must get
    // the page, never an empty not-modified answer.
    if (status === 404) {
      return readFile(path.join(distDir!, 'index.html')).then((html) =>
        reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html),
      );
    }
    return reply.code(status).header('cache-control', 'no-cache').sendFile('index.html');
  };
  // A token's page names the token in its title and preview tags; anything else (an unknown or
  // hidden token, a failed read) gets index.html as built, and the app says what it says.
  const sendTokenPage = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const params = request.params as { issuerAddress?: string; currency?: string };
    const head = await tokenHead?.(params.issuerAddress ?? '', params.currency).catch((err: unknown) => {
      app.log.warn({ err }, 'token page head not written');
      return null;
    });
    if (!head) return sendIndex(reply, 200);
    const origin = config.PUBLIC_ORIGIN?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;
    const base = await tokenPageBuild();
    let page = withTokenHead(base.html, head, origin, request.url.split('?')[0] ?? '/');
    // Its first screen and first read (issue 40: the page's LCP): the shell inside #root, the
    // token's read as a data block, the route's chunk preloaded and its stylesheet inline.
    if (head.token) {
      const data = tokenDataBlock({
        issuer: params.issuerAddress ?? '',
        currency: params.currency,
        token: head.token,
        issuerTokens: head.issuerTokens,
      });
      page = page
        .replace('</head>', () => `${base.head}${data}</head>`)
        .replace(ROOT, () => `<div id="root">${tokenShell(head.token!)}</div>`);
    }
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
    reply
      .code(200)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding');
    if (!encoding) return reply.send(page);
    // A few tens of KB (the stylesheets inline): compressed per request, quickly.
    const buf = Buffer.from(page);
    return reply
      .header('content-encoding', encoding)
      .send(
        encoding === 'br'
          ? brotliCompressSync(buf, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } })
          : gzipSync(buf, { level: 6 }),
      );
  };
  // What every token page adds to index.html (its stylesheets inline, the route's chunk preloaded),
  // read once per build.
  let tokenBuild: { key: number; html: string; head: string } | undefined;
  const tokenPageBuild = async (): Promise<{ html: string; head: string }> => {
    const key = await stat(path.join(distDir!, 'index.html')).then(
      (st) => st.mtimeMs,
      () => 0,
    );
    if (tokenBuild?.key === key) return tokenBuild;
    const html = await inlineStylesheets(await readFile(path.join(distDir!, 'index.html'), 'utf8'), distDir!);
    const assets = await tokenPageAssets(distDir!);
    const css = assets.css ? await readFile(path.join(distDir!, assets.css), 'utf8').catch(() => '') : '';
    const head =
      (assets.js ? `<link rel="modulepreload" crossorigin href="/${assets.js}">` : '') +
      (css && css.length <= LANDING_INLINE_CSS_MAX_BYTES && !css.includes('</')
        ? `<style>${css}</style>`
        : assets.css
          ? `<link rel="stylesheet" crossorigin href="/${assets.css}">`
          : '');
    tokenBuild = { key, html, head };
    return tokenBuild;
  };
  for (const route of SPA_ROUTES) {
    app.get(route, (request, reply) =>
      !built
        ? sendIndex(reply, 200)
        : route === '/'
          ? sendLanding(request, reply)
          : route.startsWith('/token/')
            ? sendTokenPage(request, reply)
            : sendIndex(reply, 200),
    );
  }

  return {
    notFound(request, reply) {
      const pathname = request.url.split('?')[0] ?? '/';
      // A missing file (it has an extension) is a plain 404; a missing page gets the app's 404 page.
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return reply.code(404).type('text/plain').send('Not found');
      if (/\.[A-Za-z0-9]+$/.test(pathname)) return reply.code(404).type('text/plain').send('Not found');
      return sendIndex(reply, 404);
    },
  };
}
