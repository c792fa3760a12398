import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * apps/server, found the same way from the TypeScript sources (src/paths.ts) and from the compiled
 * bundles (dist/*.js): both sit one directory below it. Files the server reads at run time
 * (migrations, the PGlite template, its package.json, the built web app) are located from here,
 * so `tsx src/main.ts` and `node dist/main.js` read the same ones.
 */
export const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
