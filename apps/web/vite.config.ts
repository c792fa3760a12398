import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// In development the Vite server proxies the API and live socket to the Fastify server.
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3000'}`;

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes `.br` and `.gz` beside every text file of the build, so the server sends them as they are
 * (no compression work per request). Files under 256 bytes gain nothing.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'ledgerpad-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const p = path.join(dir, name);
          return statSync(p).isDirectory() ? walk(p) : [p];
        });
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const data = readFileSync(file);
        if (data.length < 256) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(data, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/api': apiTarget,
      '/images': apiTarget,
      '/cdn': apiTarget,
      '/ws': { target: apiTarget.replace('http', 'ws'), ws: true },
    },
  },
  // No source maps in the build: they would publish the whole source (the dev server has its own).
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
});
