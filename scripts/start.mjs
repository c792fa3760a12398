// `npm start`: build the web app and the server when their sources are newer than their last builds,
// then run the server on the embedded defaults (PGlite + stand-alone ledger under ./data). The server prints its URL.
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

// The server: compiled with esbuild (apps/server/build.mjs, the production build) into
// apps/server/dist-start whenever its sources are newer than that build, then run as JavaScript in this
// process. Running the TypeScript through tsx's loader instead kept a loader thread with its own V8
// heap and every module's source and source map twice: ~75 MB of a later start's ~340 MB
// (docs/web-delivery.md "First-start memory"). Source maps stay on, so stack traces name the
// TypeScript files and lines as before. `npm run dev` still runs the sources under tsx watch.
// The server runs in this process: a child process for it kept a second Node runtime alive beside it,
// ~45 MB of every start's peak memory. main.ts owns signals and shutdown.
const server = path.join(root, 'apps/server');
const serverOut = 'dist-start';
const serverEntry = path.join(server, serverOut, 'main.js');
const serverSources = [
  path.join(server, 'src'),
  path.join(server, 'build.mjs'),
  path.join(root, 'packages/shared/src'),
  path.join(root, 'packages/xrpl-standalone/src'),
].filter(existsSync);
if (!existsSync(serverEntry) || Math.max(...serverSources.map(newestMtime)) > statSync(serverEntry).mtimeMs) {
  const build = spawnSync(process.execPath, ['build.mjs', serverOut], { cwd: server, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
process.chdir(root);
process.setSourceMapsEnabled(true);
await import(pathToFileURL(serverEntry).href);
