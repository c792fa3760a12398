import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll } from 'vitest';
import { Client } from 'xrpl';
import { openDatabase, type Database } from '../../src/db/client';
import { SERVER_DIR, spawnServer, type ServerProcess } from './server-process';
import { TestSocket } from './socket-client';
import { GENEROUS_QUOTAS } from './test-app';
import { until } from './wait';
import type { JobStatusView } from '@ledgerpad/shared';

// The real server on `npm start`'s defaults (its sources through `node --import tsx src/main.ts`;
// `npm start` bundles them first): embedded PGlite and the embedded persistent ledger in one
// process, for the tests that kill it with SIGKILL.

export const CHILD_ORIGIN = 'http://ledgerpad.test';

/** A server process started by `startChildServer` (always on the embedded stand-alone ledger). */
export interface ChildServer extends ServerProcess {
  ledgerUrl: string;
}

export async function startChildServer(
  dataDir: string,
  masterKey: string,
  output: string[],
  env: Record<string, string> = {},
  opts: { entry?: string } = {},
): Promise<ChildServer> {
  const server = await spawnServer({
    entry: opts.entry,
    output,
    // A start (tsx, PGlite, the embedded ledger: 3–7 s of CPU) took over 60 s on the 2-core machine
    // under a load of ~20; the crash tests' subject is what happens after it, not its speed.
    startTimeoutMs: 180_000,
    env: {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      MASTER_KEY: masterKey,
      PORT: '0',
      LOG_LEVEL: 'info',
      XRPL_NETWORK: 'standalone',
      XRPL_URL: '',
      DATABASE_URL: '',
      LEDGER_CLOSE_INTERVAL_MS: '1000',
      PLATFORM_BOOTSTRAP: 'off',
      ALLOWED_ORIGINS: CHILD_ORIGIN,
      RATE_LIMIT_WRITE_PER_MIN: '100000',
      RATE_LIMIT_READ_PER_MIN: '100000',
      RATE_LIMIT_DEMO_PER_MIN: '100000',
      RATE_LIMIT_EXPENSIVE_PER_MIN: '100000',
      ...GENEROUS_QUOTAS,
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      ...env,
    },
  });
  if (!server.ledgerUrl) throw new Error(`server runs no stand-alone ledger:\n${output.join('')}`);
  return { ...server, ledgerUrl: server.ledgerUrl };
}

/**
 * Compiles the server as `npm run build` does, into its own directory under apps/server: the path
 * of its main.js, and `remove()` for the file's afterAll.
 */
export function buildServer(name: string): { entry: string; remove: () => void } {
  const outdir = path.join(SERVER_DIR, `dist-${name}-${process.pid}`);
  const run = spawnSync(process.execPath, ['build.mjs', path.basename(outdir)], {
    cwd: SERVER_DIR,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`build failed:\n${run.stdout}${run.stderr}`);
  return {
    entry: path.join(outdir, 'main.js'),
    remove: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

export async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

/** Demo sign-in over HTTP; the returned headers carry the session cookie and the CSRF token. */
export async function signInOverHttp(base: string, username: string): Promise<Record<string, string>> {
  const demo = await fetch(`${base}/api/auth/demo`, {
    method: 'POST',
    headers: { origin: CHILD_ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({ username }),
  });
  if (demo.status !== 200) throw new Error(`demo sign-in answered ${demo.status}`);
  const cookie = demo.headers
    .getSetCookie()
    .find((c) => c.startsWith('ledgerpad_session='))!
    .split(';')[0]!;
  const csrf = (
    (await json(await fetch(`${base}/api/csrf-token`, { headers: { cookie } }))) as { token: string }
  ).token;
  return { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json', origin: CHILD_ORIGIN };
}

/**
 * A logo of its own, uploaded through POST /api/upload as a browser would (issue 35: a deploy names
 * a stored logo no other token shows): a 64×64 PNG of a random colour. Returns its served URL.
 */
export async function uploadLogoOverHttp(base: string, headers: Record<string, string>): Promise<string> {
  const color = `#${randomBytes(3).toString('hex')}`;
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: color } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('logo', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'logo.png');
  const { 'content-type': _json, ...rest } = headers;
  const res = await fetch(`${base}/api/upload`, { method: 'POST', headers: rest, body: form });
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  return String((await json(res)).servedUrl);
}

/**
 * The RLUSD issuer of a server started with PLATFORM_BOOTSTRAP=on, once GET /api/config/rlusd names
 * it (the bootstrap creates it shortly after start; nothing over HTTP announces it, so it is polled).
 */
export function rlusdIssuerOverHttp(base: string, timeoutMs = 20_000): Promise<string> {
  return until(
    'the RLUSD issuer of the bootstrap',
    async () => {
      const r = await fetch(`${base}/api/config/rlusd`);
      return r.ok ? ((await json(r)).issuer as string | undefined) : undefined;
    },
    { timeoutMs, everyMs: 200 },
  );
}

/**
 * A job's status over GET /api/job-status once it has ended (completed or failed). For a child
 * process, where the test app's `settle()` cannot reach; a test that holds a socket awaits the
 * `jobUpdated` frame instead (`openUserSocket`).
 */
export function jobEndedOverHttp<R = unknown>(
  base: string,
  jobId: string,
  headers: Record<string, string>,
  timeoutMs = 60_000,
): Promise<JobStatusView<R>> {
  return until(
    `job ${jobId} ended`,
    async () => {
      const res = await fetch(`${base}/api/job-status/${jobId}`, { headers: { cookie: headers.cookie! } });
      const s = (await json(res)) as unknown as JobStatusView<R>;
      return s.status === 'completed' || s.status === 'failed' ? s : undefined;
    },
    { timeoutMs, everyMs: 200 },
  );
}

/**
 * A socket of the signed-in user (`headers` from `signInOverHttp`) on `server`, once it is ready:
 * the user's job updates arrive on it as `jobUpdated` frames the moment the job's row is written,
 * so a test can await a job's state instead of spinning on GET /api/job-status.
 */
export async function openUserSocket(
  server: ServerProcess,
  headers: Record<string, string>,
): Promise<TestSocket> {
  const { token } = (await json(
    await fetch(`${server.base}/api/auth/socket-token`, { headers: { cookie: headers.cookie! } }),
  )) as { token: string };
  const socket = await TestSocket.open(`${server.base.replace('http', 'ws')}/ws?token=${token}`);
  await socket.next('ready', 30_000);
  return socket;
}

/** The owner's one-time link the server printed at start, redeemed: headers of an owner session. */
export async function signInOwnerOverHttp(server: ChildServer): Promise<Record<string, string>> {
  const printed = server.output.join('');
  const links = [...printed.matchAll(/Owner sign-in[^:]*: (http:\/\/\S+)/g)];
  const last = links.at(-1)?.[1];
  if (!last) throw new Error(`no owner link printed:\n${printed}`);
  const link = new URL(last);
  const res = await fetch(`${server.base}${link.pathname}${link.search}`, { redirect: 'manual' });
  if (res.status !== 303) throw new Error(`owner link answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('ledgerpad_session='))!
    .split(';')[0]!;
  const csrf = (
    (await json(await fetch(`${server.base}/api/csrf-token`, { headers: { cookie } }))) as { token: string }
  ).token;
  return { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json', origin: CHILD_ORIGIN };
}

/**
 * One data directory and master key for a series of real server processes of a crash test: start,
 * kill -9, start again on the same data. After the file's tests every process still running is
 * killed and the directory removed.
 */
export interface CrashRig {
  readonly dataDir: string;
  readonly output: string[];
  /** The server started last. */
  readonly server: ChildServer;
  start(): Promise<ChildServer>;
  /** kill -9, and wait until the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (a clean shutdown), and wait: the embedded database may be opened afterwards. */
  stop(): Promise<void>;
  /** The server's embedded database; only once it is stopped (PGlite allows one process). */
  openDatabase(): Promise<Database>;
  /** An xrpl.js client on the current server's ledger, for the time of `use`. */
  withLedger<T>(use: (client: Client) => Promise<T>): Promise<T>;
}

export function useCrashRig(name: string, env: Record<string, string> = {}): CrashRig {
  const dataDir = mkdtempSync(path.join(tmpdir(), `ledgerpad-${name}-`));
  const masterKey = randomBytes(32).toString('hex');
  const output: string[] = [];
  const servers: ChildServer[] = [];
  afterAll(() => {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });
  const current = () => {
    const s = servers.at(-1);
    if (!s) throw new Error('no server started');
    return s;
  };
  const signal = async (sig: 'SIGKILL' | 'SIGTERM') => {
    const s = current();
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill(sig);
    await s.exited;
  };
  return {
    dataDir,
    output,
    get server() {
      return current();
    },
    start: async () => {
      const s = await startChildServer(dataDir, masterKey, output, env);
      servers.push(s);
      return s;
    },
    kill: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
    openDatabase: () => openDatabase({ dataDir: path.join(dataDir, 'db') }),
    withLedger: async (use) => {
      const client = new Client(current().ledgerUrl);
      await client.connect();
      try {
        return await use(client);
      } finally {
        await client.disconnect();
      }
    },
  };
}
