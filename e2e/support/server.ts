import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnServer } from '../../apps/server/test/helpers/server-process';
import { until } from '../../apps/server/test/helpers/wait';

export interface RunningServer {
  url: string;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * The ledger closes every 400 ms in the servers a spec starts for itself (the demo seed of the
 * token spec, the wallet and admin specs) instead of `npm start`'s 1 s: they wait on ledger closes
 * (deploys, the seed's swaps), and this keeps the suite within its time on 2 cores. The shared
 * server of global-setup.ts keeps 1 s.
 */
export const E2E_CLOSE_INTERVAL_MS = '400';

/**
 * Starts the real server as `npm start` does (embedded PGlite and ledger, built web app; only the
 * close interval differs) on a free port with a throw-away data directory, and waits for the URL it
 * prints. The process is started by the spawner the server's crash tests use.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledgerpad-e2e-'));
  const server = await spawnServer({
    startTimeoutMs: 90_000,
    env: {
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      LEDGER_CLOSE_INTERVAL_MS: E2E_CLOSE_INTERVAL_MS,
      // Every spec's users come from 127.0.0.1: the per-address quotas would count them all as one
      // visitor (their own tests: apps/server/test/security/abuse.test.ts).
      DEMO_USERS_PER_IP_PER_DAY: '100000',
      FAUCET_PER_IP_PER_HOUR: '100000',
      // The same for the tighter limit on reads computed per question (chart history, trades,
      // quotes…): every spec's page loads count against one anonymous address.
      RATE_LIMIT_EXPENSIVE_PER_MIN: '100000',
      ...env,
    },
  }).catch((err: unknown) => {
    // Best effort: the process may still be letting go of its files.
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    throw err;
  });
  return {
    url: server.base,
    dataDir,
    output: () => server.output.join(''),
    stop: async () => {
      await server.stop(10_000);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The one-time owner sign-in link the server printed at start (the line follows the 'running at'
 * line), on the server's own address. Each start prints one; it signs in once.
 */
export async function ownerLink(server: RunningServer): Promise<string> {
  const printed = await until(
    'the owner link printed',
    () => /Owner sign-in[^:]*: (http:\/\/\S+)/.exec(server.output())?.[1],
    {
      timeoutMs: 15_000,
      everyMs: 100,
    },
  ).catch((err: Error) => {
    throw new Error(`${err.message}:\n${server.output()}`);
  });
  const link = new URL(printed);
  return `${server.url}${link.pathname}${link.search}`;
}
