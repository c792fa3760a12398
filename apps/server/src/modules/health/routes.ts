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

/** The request comes from this machine (an operator's curl, a local monitor). */
export function isLoopbackIp(ip: string): boolean {
  return ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.');
}

export function healthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  // Public and outside the rate limit, so load balancers and monitors can poll it freely. The public
  // answer is the status alone: versions and the internal ledger URL help an attacker, not a visitor.
  app.get('/api/health', { config: { access: 'public', rateLimit: false } }, async (request, reply) => {
    const dbUp = await deps.pingDatabase();
    const ledgerUp = deps.ledger.isConnected();
    const ok = dbUp && ledgerUp;
    reply.code(ok ? 200 : 503).header('cache-control', 'no-store');
    const status = ok ? 'ok' : 'degraded';
    if (!isLoopbackIp(request.ip) && !(await request.isAdmin())) return { status };
    return {
      status,
      versions,
      database: { driver: deps.databaseDriver, connected: dbUp },
      ledger: { network: deps.ledger.network, url: deps.ledger.url, connected: ledgerUp },
      uptimeSeconds: Math.round(process.uptime()),
    };
  });
}
