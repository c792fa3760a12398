import { statSync } from 'node:fs';
import path from 'node:path';

// The one module resolution of the web's source-reading tests (architecture, first-screen imports):
// a relative import as Vite resolves it here — the file itself, `.ts`, `.tsx`, or a folder's `index.ts`.

/** The file `spec` (relative, as written in `from`) names, or undefined when none exists. */
export function resolveImport(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next form
    }
  }
  return undefined;
}
