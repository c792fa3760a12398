import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { LedgerHealth } from '../../ledger/connection';
import { SERVER_DIR } from '../../paths';
import { documented } from '../../plugins/access';

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
    JSON.parse(readFileSync(path.join(SERVER_DIR, 'package.json'), 'utf8')) as {
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
  ledger: { network: string; url: string; isConnected(): boolean; health?(): LedgerHealth };
  /** admin: details only to signed-in admins; public: to everyone (HEALTH_DETAILS). */
  details: 'admin' | 'public';
}

const seconds = (ms: number | undefined): number | null =>
  ms === undefined ? null : Math.round(ms / 100) / 10;

export function registerHealth(app: FastifyInstance, deps: HealthDeps): void {
  // Public and outside the rate limit, so load balancers and monitors can poll it freely. The public
  // answer is the status alone: versions and the internal ledger URL help an attacker, not a visitor.
  // No exception for loopback callers: behind a reverse proxy on the same host every visitor's
  // request comes from 127.0.0.1.
  app.get(
    '/api/health',
    documented('/api/health', { config: { rateLimit: false } }),
    async (request, reply) => {
      const dbUp = await deps.pingDatabase();
      // Connected is not enough: a hung ledger keeps its socket open, a stalled one answers pings
      // (ledger/liveness.ts). Either is a 503, so a load balancer stops sending traffic here.
      const ledger = deps.ledger.health?.();
      const ledgerUp = ledger ? ledger.healthy : deps.ledger.isConnected();
      const ok = dbUp && ledgerUp;
      reply.code(ok ? 200 : 503).header('cache-control', 'no-store');
      const status = ok ? 'ok' : 'degraded';
      if (deps.details !== 'public' && !(await request.isAdmin())) return { status };
      return {
        status,
        versions,
        database: { driver: deps.databaseDriver, connected: dbUp },
        ledger: {
          network: deps.ledger.network,
          url: deps.ledger.url,
          connected: ledger ? ledger.connected : ledgerUp,
          ...(ledger
            ? {
                healthy: ledger.healthy,
                ...(ledger.reason ? { problem: ledger.reason } : {}),
                responsive: ledger.responsive,
                validatedIndex: ledger.validatedIndex,
                lagSeconds: seconds(ledger.lagMs),
                maxLagSeconds: seconds(ledger.maxLagMs),
                pingMs: ledger.pingMs ?? null,
              }
            : {}),
        },
        uptimeSeconds: Math.round(process.uptime()),
      };
    },
  );
}
