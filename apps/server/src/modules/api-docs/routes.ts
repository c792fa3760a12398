import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openApiDocumentSchema } from '@ledgerpad/shared';
import { SERVER_DIR } from '../../paths';
import { declared } from '../../plugins/access';
import { buildOpenApiDocument, type DocumentedRoute } from './openapi';
import { OPENAPI_JSON_PATH, renderApiDocsPage } from './page';

/**
 * A browser's navigation (Accept naming text/html before any JSON) gets the page; every other
 * client — curl, fetch, code generators, which send `*\/*` or application/json — the JSON, as before.
 */
function wantsHtml(request: FastifyRequest): boolean {
  const accept = String(request.headers.accept ?? '');
  const html = accept.indexOf('text/html');
  const json = accept.indexOf('application/json');
  return html !== -1 && (json === -1 || html < json);
}

/** The documentation the routes declared, in the order they were registered. */
export function documentedRoutes(app: FastifyInstance): DocumentedRoute[] {
  return app.apiRoutes.flatMap(({ docs, access, csrf }) => (docs ? [{ docs, access, csrf }] : []));
}

/**
 * GET /api/docs: the API's OpenAPI 3.1 document — a readable page in a browser (issue 39),
 * the JSON for everything else; GET /api/docs/openapi.json: the JSON at a URL that never changes
 * with the client's headers.
 */
export function registerApiDocs(app: FastifyInstance, deps: { version?: string } = {}): void {
  const version =
    deps.version ??
    (JSON.parse(readFileSync(path.join(SERVER_DIR, 'package.json'), 'utf8')) as { version: string }).version;
  // Generated from the route table once every module has registered its routes (onReady), then
  // served as built: the routes and schemas do not change while the process runs.
  let json = '';
  let page = '';
  app.addHook('onReady', async () => {
    const doc = buildOpenApiDocument(version, documentedRoutes(app));
    json = JSON.stringify(doc);
    page = renderApiDocsPage(doc);
  });
  // Changes only with a deploy: shared caches may keep it a few minutes.
  const cached = (reply: FastifyReply) => reply.header('cache-control', 'public, max-age=300');
  const sendJson = (reply: FastifyReply) => cached(reply).type('application/json; charset=utf-8').send(json);
  const docs = (summary: string) => declared('public', { summary, response: openApiDocumentSchema });
  app.get('/api/docs', docs('This document (a readable page for a browser).'), async (request, reply) => {
    reply.header('vary', 'Accept');
    return wantsHtml(request) ? cached(reply).type('text/html; charset=utf-8').send(page) : sendJson(reply);
  });
  app.get(OPENAPI_JSON_PATH, docs('This document, as JSON.'), async (_request, reply) => sendJson(reply));
}
