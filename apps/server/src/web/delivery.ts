import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { onrampOrigin } from '@ledgerpad/shared';
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
export function contentSecurityPolicy(
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
      allowedPath: (pathName) => !/\.(map|br|gz)$/.test(pathName),
      setHeaders: (reply, filePath) => {
        const hashed = filePath.startsWith(path.join(distDir, 'assets') + path.sep);
        // Hashed names change with their content: cache forever. Everything else: revalidate.
        reply.header('cache-control', hashed ? `public, max-age=${YEAR_S}, immutable` : 'no-cache');
      },
    });
  }

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
  for (const route of SPA_ROUTES) app.get(route, (_req, reply) => sendIndex(reply, 200));

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
