import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVER_DIR } from '../../paths';
import { buildOpenApiDocument } from './openapi';

/** GET /api/docs: the public API's OpenAPI 3.1 document (JSON, the same for everyone). */
export function registerApiDocs(app: FastifyInstance, deps: { version?: string } = {}): void {
  const version =
    deps.version ??
    (JSON.parse(readFileSync(path.join(SERVER_DIR, 'package.json'), 'utf8')) as { version: string }).version;
  // Built and serialized once: the schemas do not change while the process runs.
  const body = JSON.stringify(buildOpenApiDocument(version));
  app.get('/api/docs', { config: { access: 'public' } }, async (_request, reply) =>
    reply
      // Changes only with a deploy: shared caches may keep it a few minutes.
      .header('cache-control', 'public, max-age=300')
      .type('application/json; charset=utf-8')
      .send(body),
  );
}
