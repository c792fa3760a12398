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

/** The repository's root, for the tests that read more than the server (web, shared, e2e). */
export const ROOT = path.resolve(SRC, '../../..');

/** Every .ts and .tsx file below `dir`, as paths from the repository's root with `/`. */
export function repoFiles(dir: string): string[] {
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((name) => {
      const p = path.join(d, name);
      return statSync(p).isDirectory() ? walk(p) : /\.tsx?$/.test(p) ? [p] : [];
    });
  return walk(path.join(ROOT, dir)).map((p) => path.relative(ROOT, p).split(path.sep).join('/'));
}
