import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EDGE_MESSAGES, IDEMPOTENCY_KEY, parseId, type RouteSchemas } from '@ledgerpad/shared';
import type { z } from 'zod';
import { fieldError, validationError } from '../lib/errors';
import { parseInput, type Parsed } from '../lib/validation';

// Checks every request gets before any route runs, so no route can forget them: a malformed
// Idempotency-Key, NUL bytes anywhere in a JSON body, a query or a path (PostgreSQL refuses them in
// text, which used to surface as a 500), and bodies nested deeper than any of our shapes.

/** No request shape of ours nests deeper than a few levels; 32 leaves room and stops recursion abuse. */
const MAX_BODY_DEPTH = 32;

type Problem = { path: string; message: string };

function scan(value: unknown, path: string, depth: number): Problem | undefined {
  if (typeof value === 'string') {
    return value.includes('\u0000')
      ? { path, message: EDGE_MESSAGES.controlChars(path || 'body') }
      : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > MAX_BODY_DEPTH) return { path, message: 'Request body is nested too deeply' };
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
  for (const [k, v] of entries) {
    const key = String(k);
    const child = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return { path: child, message: 'Field names must not contain NUL bytes' };
    const found = scan(v, child, depth + 1);
    if (found) return found;
  }
  return undefined;
}

export function registerEdgeChecks(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const key = request.headers['idempotency-key'];
    if (key === undefined) return;
    if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
      throw validationError([{ path: 'Idempotency-Key', message: EDGE_MESSAGES.idempotencyKey }]);
    }
  });
  app.addHook('preValidation', async (request) => {
    // API query and path parameters get the same checks as bodies: a NUL byte in `?symbol=` or a
    // path segment is as much a 400 as one in JSON (PostgreSQL refuses it in text). Static content
    // (/images, /cdn) answers such names 404 itself, like any name it does not hold.
    const api = request.url.startsWith('/api/');
    for (const part of api ? [request.params, request.query, request.body] : [request.body]) {
      if (part === undefined || part === null) continue;
      const problem = scan(part, '', 0);
      if (problem) throw validationError([problem]);
    }
  });
}

/** The request's well-formed Idempotency-Key (the edge hook already refused malformed ones). */
export function idempotencyKey(request: FastifyRequest): string | undefined {
  const v = request.headers['idempotency-key'];
  return typeof v === 'string' ? v : undefined;
}

/**
 * A signed-in user's POST whose JSON body is parsed at the edge with its shared schema (a 400 with
 * the schema's message otherwise): the handler gets the user's id, the parsed body and the
 * Idempotency-Key. The answer is `private, no-store` as every signed-in route's (plugins/caching.ts).
 * The route declares its schemas (issue 41): the body schema, and `docs`' summary and response
 * schema (packages/shared), from which GET /api/docs documents it.
 */
export function userPost<S extends z.ZodType, T>(
  app: FastifyInstance,
  path: string,
  schema: S,
  docs: Omit<RouteSchemas, 'body'>,
  handle: (userId: number, body: Parsed<S>, key: string | undefined) => Promise<T>,
): void {
  // What `declared('user', …)` (plugins/access.ts) puts in a route's config.
  app.post(path, { config: { access: 'user', schemas: { ...docs, body: schema } } }, async (request) =>
    handle(request.user!.id, parseInput(schema, request.body), idempotencyKey(request)),
  );
}

/**
 * An id in the path: the shared id rule (`parseId`: decimal digits as written, 1 to ID_MAX), else
 * 400 naming the parameter — or `message` where the module has its own sentence.
 */
export function idParam(
  request: FastifyRequest,
  name = 'id',
  message: string = EDGE_MESSAGES.id(name),
): number {
  const raw = (request.params as Record<string, unknown> | undefined)?.[name];
  const id = parseId(raw);
  if (id === undefined) throw fieldError(name, message);
  return id;
}
