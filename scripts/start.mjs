// `npm start`: build the web app when its sources are newer than the last build, then run the
// server on the embedded defaults (PGlite + stand-alone ledger under ./data). The server prints its URL.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

// The server runs in this process (tsx's loader registered here, as `--import tsx` would): a child
// process for it kept a second Node runtime alive beside it, ~45 MB of every start's peak memory
// (docs/web-delivery.md). main.ts owns signals and shutdown.
process.chdir(root);
const { register } = await import('tsx/esm/api');
register();
await import(pathToFileURL(path.join(root, 'apps/server/src/main.ts')).href);
