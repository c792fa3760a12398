import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageQuerySchema, type PageQuery } from '@ledgerpad/shared';
import { parseInput } from './validation';

/**
 * The page a list request asks for (`?limit=&offset=`, 400 naming a bad one), and the headers that
 * tell the client where the next page is: `X-Total-Count` when known and a `Link: <…>; rel="next"`
 * while more rows follow. The body stays the list itself (the spec's shapes are arrays).
 */
export function pageOf(request: FastifyRequest, page: { default: number; max: number }): PageQuery {
  return parseInput(pageQuerySchema(page.default, page.max), request.query ?? {});
}

export function sendPageHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  page: PageQuery,
  total: number,
): void {
  reply.header('x-total-count', String(total));
  if (page.offset + page.limit >= total) return;
  const next = new URL(request.url, 'http://x');
  next.searchParams.set('limit', String(page.limit));
  next.searchParams.set('offset', String(page.offset + page.limit));
  reply.header('link', `<${next.pathname}${next.search}>; rel="next"`);
}

/**
 * One page of a list the route has in hand (read from the ledger, or small per-user tables): the
 * headers as `sendPageHeaders`, and the rows of the page. Ask for the page with `pageOf` before
 * doing the work, so a malformed `limit` is a 400 that costs nothing.
 */
export function pageSlice<T>(request: FastifyRequest, reply: FastifyReply, page: PageQuery, items: T[]): T[] {
  sendPageHeaders(request, reply, page, items.length);
  return items.slice(page.offset, page.offset + page.limit);
}
