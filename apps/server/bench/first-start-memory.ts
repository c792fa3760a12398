import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Peak memory of `npm start` on an empty data directory (PGlite initdb and migrations, the embedded
// ledger, the platform bootstrap creating its accounts and the XRP/RLUSD pool), then of a second
// start on the same directory. The launcher (scripts/start.mjs) is started exactly as `npm start`
// does; each run ends when the bootstrap logs 'standalone platform accounts ready'.
// Targets: the first start's peak at most 450 MB, later starts' 350 MB (the whole process tree).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Peak RSS of the first start (empty data directory) and of later starts (issue 27). */
export const MEMORY_TARGETS = { firstMb: 450, laterMb: 350 };
const TARGET_MB = MEMORY_TARGETS.firstMb;
const SAMPLE_MS = 100;
const READY_MESSAGE = 'standalone platform accounts ready';

export interface StartMemory {
  /** Sum over the process tree of each process's VmHWM (its own peak RSS): an upper bound of the tree's peak. */
  peakTreeMb: number;
  /** VmHWM of the server process alone (exact). */
  peakServerMb: number;
  /** Largest sampled sum of VmRSS over the tree (every 100 ms; can miss a short spike). */
  sampledTreeMb: number;
  /** VmRSS of the tree once the bootstrap is done. */
  settledTreeMb: number;
  readyMs: number;
}

export interface FirstStartMemoryResult {
  name: string;
  first: StartMemory;
  second: StartMemory;
  targetMb: number;
  ok: boolean;
}

function status(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined; // exited between listing and reading
  }
}

/** The pid and every descendant of it (from /proc/<pid>/stat's parent field). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may contain spaces and parentheses: fields start after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // gone already
    }
  }
  const tree: number[] = [];
  const walk = (pid: number) => {
    tree.push(pid);
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return tree;
}

const mb = (kb: number) => Math.round(kb / 1024);

async function measureStart(dataDir: string, timeoutMs: number): Promise<StartMemory> {
  const started = performance.now();
  const launcher = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', NODE_ENV: 'development' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const hwmByPid = new Map<number, number>();
  let sampledTree = 0;
  let lastTree = 0;
  const sample = () => {
    if (launcher.pid === undefined) return;
    let sum = 0;
    for (const pid of processTree(launcher.pid)) {
      const s = status(pid);
      if (!s) continue;
      hwmByPid.set(pid, Math.max(hwmByPid.get(pid) ?? 0, s.hwm));
      sum += s.rss;
    }
    lastTree = sum;
    sampledTree = Math.max(sampledTree, sum);
  };
  const timer = setInterval(sample, SAMPLE_MS);
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(
        () => reject(new Error(`not ready after ${timeoutMs} ms:\n${output}`)),
        timeoutMs,
      );
      const onData = (chunk: Buffer) => {
        output = (output + chunk.toString('utf8')).slice(-20_000);
        if (output.includes(READY_MESSAGE)) {
          clearTimeout(timeout);
          resolve();
        } else if (output.includes('standalone bootstrap failed') || output.includes('failed to start')) {
          clearTimeout(timeout);
          reject(new Error(`the server did not start cleanly:\n${output}`));
        }
      };
      launcher.stdout.on('data', onData);
      launcher.stderr.on('data', onData);
      launcher.on('exit', (code) => {
        clearTimeout(timeout);
        reject(new Error(`the launcher exited (${code}) before the bootstrap finished:\n${output}`));
      });
    });
    const readyMs = Math.round(performance.now() - started);
    sample(); // VmHWM is monotonic: this last reading is each live process's peak
    // start.mjs runs the server in its own process (no children once the builds are done).
    const serverPid = launcher.pid;
    return {
      peakTreeMb: mb([...hwmByPid.values()].reduce((a, b) => a + b, 0)),
      peakServerMb: mb(serverPid === undefined ? 0 : (hwmByPid.get(serverPid) ?? 0)),
      sampledTreeMb: mb(sampledTree),
      settledTreeMb: mb(lastTree),
      readyMs,
    };
  } finally {
    clearInterval(timer);
    launcher.removeAllListeners('exit');
    if (launcher.exitCode === null) {
      const exited = new Promise((resolve) => launcher.once('exit', resolve));
      launcher.kill('SIGTERM'); // start.mjs forwards it; the server shuts down in order
      await exited;
    }
  }
}

export async function benchFirstStartMemory(
  opts: { timeoutMs?: number } = {},
): Promise<FirstStartMemoryResult> {
  // Build the web app and the server first so start.mjs does not, and their (separate) builds never
  // count here: each is a process of its own that has exited before the server starts.
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: ROOT, stdio: 'ignore' });
  if (build.status !== 0) throw new Error('npm run build -w apps/web failed');
  const server = spawnSync(process.execPath, ['build.mjs', 'dist-start'], {
    cwd: path.join(ROOT, 'apps/server'),
    stdio: 'ignore',
  });
  if (server.status !== 0) throw new Error('apps/server/build.mjs dist-start failed');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledgerpad-first-start-'));
  try {
    const first = await measureStart(dataDir, opts.timeoutMs ?? 120_000);
    const second = await measureStart(dataDir, opts.timeoutMs ?? 120_000);
    return {
      name: 'first-start memory',
      first,
      second,
      targetMb: TARGET_MB,
      ok: first.peakTreeMb <= TARGET_MB && second.peakTreeMb <= MEMORY_TARGETS.laterMb,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchFirstStartMemory();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (!result.ok) process.exitCode = 1;
}
