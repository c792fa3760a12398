import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pkgVersion = (name: string): string => {
  try {
    return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
};

// Read once: versions don't change while the process runs.
const versions = {
  ledgerpad: (
    JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version,
  node: process.versions.node,
  fastify: pkgVersion('fastify'),
  xrpl: pkgVersion('xrpl'),
};

export interface HealthDeps {
  pingDatabase(): Promise<boolean>;
  databaseDriver: string;
  ledger: { network: string; url: string; isConnected(): boolean };
}

export function healthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  app.get('/api/health', async (_req, reply) => {
    const dbUp = await deps.pingDatabase();
    const ledgerUp = deps.ledger.isConnected();
    const ok = dbUp && ledgerUp;
    return reply.code(ok ? 200 : 503).send({
      status: ok ? 'ok' : 'degraded',
      versions,
      database: { driver: deps.databaseDriver, connected: dbUp },
      ledger: { network: deps.ledger.network, url: deps.ledger.url, connected: ledgerUp },
      uptimeSeconds: Math.round(process.uptime()),
    });
  });
}
