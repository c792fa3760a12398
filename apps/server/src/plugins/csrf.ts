import type { FastifyInstance, FastifyRequest } from 'fastify';
import { safeEqual } from '../lib/crypto';
import { csrfRefused } from '../lib/errors';
import type { OriginPolicy } from './origin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false only for sign-in routes, which check Origin instead (there is no session yet). */
    csrf?: boolean;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const CSRF_HEADER = 'x-csrf-token';
const CSRF_BODY_FIELD = 'csrf_token';

const csrfError = () => csrfRefused('Invalid or missing CSRF token');

/** The token a request carries: the header first, then a `csrf_token` field of a JSON/form body. */
function requestCsrfToken(request: FastifyRequest): string | undefined {
  const header = request.headers[CSRF_HEADER];
  if (typeof header === 'string' && header) return header;
  const body = request.body;
  if (body && typeof body === 'object' && CSRF_BODY_FIELD in body) {
    const field = (body as Record<string, unknown>)[CSRF_BODY_FIELD];
    if (typeof field === 'string') return field;
    // @fastify/multipart with attachFieldsToBody gives { value } objects.
    if (field && typeof field === 'object' && typeof (field as { value?: unknown }).value === 'string') {
      return (field as { value: string }).value;
    }
  }
  return undefined;
}

/** The origin a browser says the request comes from: Origin, else the origin of the Referer. */
function requestOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  // 'null' is what a sandboxed frame or a privacy-stripped redirect sends: an origin that hides
  // itself, never the app's own page. It is refused like a foreign one (isAllowed('null') is false).
  if (typeof origin === 'string' && origin) return origin;
  const referer = request.headers.referer;
  if (typeof referer !== 'string' || !referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

const originError = () =>
  csrfRefused('This request must come from the Ledgerpad web app (Origin missing or not allowed)');

/**
 * Every state-changing request of a signed-in session must echo the session's CSRF token, and its
 * Origin (or the Referer's origin) must be an allowed one. Two independent checks: a leaked token
 * used from another site is refused all the same.
 * Runs in preValidation so body fields are parsed. Requests without a session carry no ambient
 * authority, so there is nothing to forge; routes that need a user reject them with 401 anyway.
 */
export function registerCsrf(app: FastifyInstance, origins: OriginPolicy): void {
  app.addHook('preValidation', async (request) => {
    if (!UNSAFE.has(request.method)) return;
    // No route matched: let the 404 handler answer instead of a misleading CSRF error.
    if (!request.routeOptions.url) return;
    if (request.routeOptions.config?.csrf === false) return;
    if (!request.session) return;
    const token = requestCsrfToken(request);
    if (!token || !safeEqual(token, request.session.csrfToken)) throw csrfError();
    // Browsers send an Origin (or a Referer) on every state change, cross-site ones included, so a
    // forged request always carries its foreign origin. A client that sends neither is not a
    // browser, has no ambient cookie to abuse, and still needs the token.
    const origin = requestOrigin(request);
    if (origin && !origins.isAllowed(origin, request)) throw originError();
  });
}
