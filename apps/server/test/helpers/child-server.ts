import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

// The real server as `npm start` runs it (`node --import tsx src/main.ts`: embedded PGlite and the
// embedded persistent ledger in one process), for the tests that kill it with SIGKILL.

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');
export const CHILD_ORIGIN = 'http://ledgerpad.test';

export interface ChildServer {
  child: ChildProcess;
  base: string;
  ledgerUrl: string;
  output: string[];
  exited: Promise<number | null>;
}

export function startChildServer(
  dataDir: string,
  masterKey: string,
  output: string[],
  env: Record<string, string> = {},
): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
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
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const mine: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output.join('')}`)), 60_000);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output.push(text);
      mine.push(text);
      const m = /running at (http:\/\/\S+?)\/? \(ledger: standalone (ws:\/\/\S+)\)/.exec(mine.join(''));
      if (m) {
        clearTimeout(timer);
        resolve({ child, base: m[1]!.replace(/\/$/, ''), ledgerUrl: m[2]!, output, exited });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before starting:\n${output.join('')}`));
    });
  });
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
  return { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' };
}
