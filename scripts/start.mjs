// `npm start`: build the web app when its sources are newer than the last build, then run the
// server on the embedded defaults (PGlite + stand-alone ledger under ./data). The server prints its URL.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps/web');
const builtIndex = path.join(web, 'dist/index.html');

function newestMtime(p) {
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = s.mtimeMs;
  for (const name of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

const sources = ['src', 'index.html', 'vite.config.ts', 'public']
  .map((f) => path.join(web, f))
  .filter(existsSync);
const sharedSrc = path.join(root, 'packages/shared/src');
const stale =
  !existsSync(builtIndex) ||
  Math.max(...sources.map(newestMtime), newestMtime(sharedSrc)) > statSync(builtIndex).mtimeMs;
if (stale) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
