// `npm run build -w apps/server`: the server compiled to JavaScript for production (`node
// apps/server/dist/main.js`), one bundle per entry point. The workspace packages (@ledgerpad/shared,
// xrpl-standalone) are TypeScript sources, so they are bundled in; every npm dependency stays an
// import resolved from node_modules at run time (native and WebAssembly packages: sharp, PGlite).
// The bundles sit directly in dist/, one level below apps/server like src/, so the files the server
// reads at run time (src/paths.ts) are found the same way from both.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.resolve(serverDir, process.argv[2] ?? 'dist');
if (path.dirname(outdir) !== serverDir)
  throw new Error('the output directory must be directly in apps/server');
const bundled = /^(@ledgerpad\/|xrpl-standalone(\/|$))/;

await build({
  absWorkingDir: serverDir,
  entryPoints: {
    main: 'src/main.ts',
    migrate: 'src/scripts/migrate.ts',
    'owner-link': 'src/scripts/owner-link.ts',
    'rotate-keys': 'src/scripts/rotate-keys.ts',
    // main.ts starts it as a worker thread by its file name, beside main.js.
    'embedded-ledger-worker': 'src/ledger/embedded-ledger-worker.ts',
  },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'npm-dependencies-external',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          // JSON data files of dependencies are inlined (Node's ESM loader needs an import attribute).
          bundled.test(args.path) || args.path.startsWith('node:') || args.path.endsWith('.json')
            ? undefined
            : { path: args.path, external: true },
        );
      },
    },
  ],
});
console.log(`server compiled to ${path.relative(process.cwd(), outdir) || '.'}`);
