import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// What the architecture tests read: the server's sources (apps/server/src), every .ts file below it.

export const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

export function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** A source's path from apps/server/src. */
export const rel = (p: string) => path.relative(SRC, p);
