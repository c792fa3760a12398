import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../src/config';

// The README's configuration table is the operators' reference: every key config.ts reads is in
// it, and it lists nothing config.ts no longer reads (issue 29's docs check).

const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../README.md');

function documentedKeys(): string[] {
  const text = readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf('## Configuration'));
  const table = section.slice(0, section.indexOf('\n## ') === -1 ? undefined : section.indexOf('\n## '));
  return [...table.matchAll(/^\| `([A-Z][A-Z0-9_]*)`/gm)].map((m) => m[1]!);
}

describe('README configuration table', () => {
  const keys = Object.keys(configSchema.shape);
  const documented = documentedKeys();

  it('reads the keys from both sides', () => {
    expect(keys.length).toBeGreaterThan(20);
    expect(documented.length).toBeGreaterThan(20);
  });

  it('documents every key config.ts reads', () => {
    expect(keys.filter((k) => !documented.includes(k))).toEqual([]);
  });

  it('documents no key config.ts does not read, and none twice', () => {
    expect(documented.filter((k) => !keys.includes(k))).toEqual([]);
    expect(documented.filter((k, i) => documented.indexOf(k) !== i)).toEqual([]);
  });
});
