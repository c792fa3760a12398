import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The one way a test starts the real server as a separate process (the crash tests, the
// two-instance test and the e2e specs): its sources through `node --import tsx src/main.ts` (`npm start`
// runs the same sources bundled by build.mjs), or a compiled bundle as production runs it. It waits for the "running at" line the server prints and
// can stop (SIGTERM, then SIGKILL) or kill it. Callers add only their environment.

export const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  /** The HTTP base, without a trailing slash. */
  base: string;
  /** The embedded stand-alone ledger's WebSocket URL (when the server runs one). */
  ledgerUrl: string | undefined;
  /** Everything the process printed (shared with earlier processes when the caller passed it in). */
  output: string[];
  exited: Promise<number | null>;
  /** SIGTERM (a clean shutdown), SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
  /** kill -9, and wait until the process is gone. */
  kill(): Promise<void>;
}

export interface SpawnServerOptions {
  /** Environment on top of this process's own. */
  env: Record<string, string>;
  /** A compiled bundle (`buildServer`) run by plain node; else the sources through tsx. */
  entry?: string;
  /** Collects the output; pass one array to keep a series of restarts' output together. */
  output?: string[];
  startTimeoutMs?: number;
}

const RUNNING = /running at (http:\/\/\S+?)\/? \(ledger: ([^)]*)\)/;

export function spawnServer(opts: SpawnServerOptions): Promise<ServerProcess> {
  const args = opts.entry ? ['--enable-source-maps', opts.entry] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: SERVER_DIR,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = opts.output ?? [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const stop = async (graceMs = 10_000) => {
    if (!gone()) {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
      if (!gone()) child.kill('SIGKILL');
    }
    await exited;
  };
  const kill = async () => {
    if (!gone()) child.kill('SIGKILL');
    await exited;
  };
  // Only this process's output is searched: a restarted server prints its own address.
  const mine: string[] = [];
  const timeoutMs = opts.startTimeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // A server that never came up is not left running behind the failed test.
      child.kill('SIGKILL');
      reject(new Error(`server did not start in ${timeoutMs} ms:\n${output.join('')}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output.push(text);
      mine.push(text);
      const m = RUNNING.exec(mine.join(''));
      if (m) {
        clearTimeout(timer);
        const ledgerUrl = /ws:\/\/\S+/.exec(m[2]!)?.[0];
        resolve({ child, base: m[1]!.replace(/\/$/, ''), ledgerUrl, output, exited, stop, kill });
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
