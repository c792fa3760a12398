import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Config } from './config';
import type { Database } from './db/client';
import { AppError } from './lib/errors';
import { healthRoutes } from './modules/health/routes';
import { SPA_ROUTES } from './spa-routes';

/** The ledger connection as the app sees it; built in main.ts (or by tests) around an xrpl.js Client. */
export interface LedgerConnection {
  network: Config['XRPL_NETWORK'];
  url: string;
  isConnected(): boolean;
}

export interface AppDeps {
  config: Config;
  database: Database;
  ledger: LedgerConnection;
  /** Directory of the built web app (index.html + assets); absent in API-only tests. */
  webDistDir?: string;
  logger?: FastifyServerOptions['logger'];
}

/** Builds the whole HTTP app from its dependencies without listening (tests inject requests). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    trustProxy: deps.config.TRUST_PROXY,
    // Request bodies are small JSON documents; uploads go through multipart with their own limit.
    bodyLimit: 1024 * 1024,
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      return reply
        .code(error.status)
        .send({ error: error.code.toLowerCase(), message: error.message, ...error.details });
    }
    const err = error as { validation?: unknown; statusCode?: number; message: string; code?: string };
    if (err.validation) {
      return reply.code(400).send({ error: 'validation', message: err.message });
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send({ error: 'internal', message: 'Internal server error' });
    }
    return reply
      .code(status)
      .send({ error: (err.code ?? 'bad_request').toLowerCase(), message: err.message });
  });

  healthRoutes(app, {
    pingDatabase: () => deps.database.ping(),
    databaseDriver: deps.database.driver,
    ledger: deps.ledger,
  });

  await registerWeb(app, deps.webDistDir);

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api') {
      return reply
        .code(404)
        .send({ error: 'not_found', message: `No API route ${request.method} ${request.url.split('?')[0]}` });
    }
    return reply.code(404).type('text/plain').send('Not found');
  });

  return app;
}

async function registerWeb(app: FastifyInstance, distDir: string | undefined): Promise<void> {
  const indexFile = distDir ? path.join(distDir, 'index.html') : undefined;
  const built = indexFile !== undefined && existsSync(indexFile);
  if (built && distDir) {
    await app.register(fastifyStatic, { root: distDir, index: false, wildcard: false, prefix: '/' });
  }
  for (const route of SPA_ROUTES) {
    app.get(route, (_req, reply) => {
      if (!built) {
        return reply
          .code(503)
          .type('text/plain')
          .send('The web app is not built. Run `npm run build` (npm start does it for you).');
      }
      // index.html must never be cached: it names the hashed asset files of the current build.
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  }
}
