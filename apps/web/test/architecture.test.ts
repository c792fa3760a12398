import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The web app's shape, checked on every run (as the server's is in apps/server/test/architecture):
// a feature (src/features/<name>/) never imports another feature; shared UI (src/components) and
// the app's libraries (src/lib) never import a feature; and nothing imports in a cycle. Only the
// route table (src/app) composes the features.

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function resolve(from: string, spec: string): string | undefined {
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

const graph = new Map<string, string[]>();
for (const file of files(SRC)) {
  const deps: string[] = [];
  for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const target = resolve(file, (m[1] ?? m[2])!);
    if (target) deps.push(target);
  }
  graph.set(file, deps);
}
const rel = (p: string) => path.relative(SRC, p);
const featureOf = (p: string) => /^features\/([^/]+)\//.exec(rel(p))?.[1];
const layer = (p: string) => rel(p).split(path.sep)[0];

describe('web architecture', () => {
  it('reads every source file (the test sees the app)', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect([...graph.keys()].some((f) => featureOf(f) === 'swap')).toBe(true);
  });

  it('features never import each other', () => {
    const crossings = [...graph].flatMap(([file, deps]) => {
      const own = featureOf(file);
      return own
        ? deps.filter((d) => featureOf(d) && featureOf(d) !== own).map((d) => `${rel(file)} → ${rel(d)}`)
        : [];
    });
    expect(crossings).toEqual([]);
  });

  it('components and lib never import a feature', () => {
    const upward = [...graph].flatMap(([file, deps]) =>
      ['components', 'lib'].includes(layer(file)!)
        ? deps.filter((d) => featureOf(d) !== undefined).map((d) => `${rel(file)} → ${rel(d)}`)
        : [],
    );
    expect(upward).toEqual([]);
  });

  it('lib never imports components (UI sits on top of the libraries, not under them)', () => {
    const upward = [...graph].flatMap(([file, deps]) =>
      layer(file) === 'lib'
        ? deps.filter((d) => layer(d) === 'components').map((d) => `${rel(file)} → ${rel(d)}`)
        : [],
    );
    expect(upward).toEqual([]);
  });

  // One error-to-message rule (issue 29): `userMessage(err, fallback)` in lib/api.ts decides which
  // statuses show the server's sentence. Elsewhere an ApiError may be asked its status (hasStatus,
  // isMissingRoute, a retry-after) but never its message or body, and no file grows its own helper.
  it('only lib/api.ts turns a failed call into words', () => {
    const API = path.join(SRC, 'lib', 'api.ts');
    // A statement that names ApiError, up to its end: reading `.message` or `.body` there is building
    // a message by hand.
    const byHand = /ApiError[^;]*?\.(?:message|body)\b/g;
    // Reading an error's body anywhere (the server's JSON is lib/api.ts's business).
    const body = /\b(?:err|error|reason|cause|e)\s*\??\.\s*body\b/g;
    // A helper from an unknown error to a string (`reasonOf(err: unknown): string`, …); one that lays
    // out lines (string[]) from userMessage is the page's business.
    const helper =
      /(?:function\s+\w+|const\s+\w+\s*=)\s*\(\s*(?:err|error)\s*:\s*unknown[^)]*\)\s*:\s*string\b(?!\[)/g;
    const found: string[] = [];
    for (const file of graph.keys()) {
      if (file === API) continue;
      const text = readFileSync(file, 'utf8');
      for (const re of [byHand, body, helper])
        for (const m of text.matchAll(re))
          found.push(`${rel(file)}: ${m[0].replace(/\s+/g, ' ').slice(0, 80)}`);
    }
    expect(found).toEqual([]);
    // The patterns are live: the one helper matches them.
    const api = readFileSync(API, 'utf8');
    expect(api.match(helper)?.length).toBeGreaterThan(0);
    expect(/\(err\.body as/.test(api)).toBe(true);
  });

  it('has no import cycles in apps/web/src', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (f: string) => {
      state.set(f, 'open');
      stack.push(f);
      for (const d of graph.get(f) ?? []) {
        if (state.get(d) === 'open') cycles.push([...stack.slice(stack.indexOf(d)), d].map(rel).join(' → '));
        else if (!state.has(d)) visit(d);
      }
      stack.pop();
      state.set(f, 'done');
    };
    for (const f of graph.keys()) if (!state.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });
});
