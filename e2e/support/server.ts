import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

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
 * prints.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledgerpad-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
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
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /running at (http:\/\/\S+?)\/? /.exec(output);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    dataDir,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The one-time owner sign-in link the server printed at start (the line follows the 'running at'
 * line), on the server's own address. Each start prints one; it signs in once.
 */
export async function ownerLink(server: RunningServer): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const m = /Owner sign-in[^:]*: (http:\/\/\S+)/.exec(server.output());
    if (m?.[1]) {
      const link = new URL(m[1]);
      return `${server.url}${link.pathname}${link.search}`;
    }
    if (Date.now() > deadline) throw new Error(`no owner link printed:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
