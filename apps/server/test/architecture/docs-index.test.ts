import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// docs/README.md is the index from topic to doc to code (issue 41): a doc nobody can find is a doc
// nobody reads, and a row pointing at a removed doc sends readers nowhere. Both fail here.

const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs');
const index = readFileSync(path.join(DOCS, 'README.md'), 'utf8');
const linked = [...index.matchAll(/\]\(([^)#\s]+\.md)(?:#[^)]*)?\)/g)].map((m) => m[1]!);

describe('docs/README.md', () => {
  it('links every doc in docs/', () => {
    const docs = readdirSync(DOCS).filter((f) => f.endsWith('.md') && f !== 'README.md');
    expect(docs.filter((d) => !linked.includes(d))).toEqual([]);
  });

  it('links only docs that exist', () => {
    expect(linked.filter((l) => !existsSync(path.join(DOCS, l)))).toEqual([]);
  });
});
