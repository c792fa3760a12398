import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { files, rel, SRC } from './source-files';

// The server's shape, checked on every run: no import cycles anywhere in src, and a feature module
// is reached from outside only through what it exports (`index.ts`) or its tables (`schema.ts`);
// only the composition root (app.ts) registers a module's routes, through `register<Feature>` from
// the module's index.ts; plugins and the socket layer get what they need of modules injected.

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next form
    }
  }
  return undefined;
}

/** Each file's relative imports (type-only ones too: a cycle of types is still a tangle). */
function importGraph(sources: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of sources) {
    const text = readFileSync(file, 'utf8');
    const deps: string[] = [];
    for (const m of text.matchAll(IMPORT)) {
      const target = resolve(file, (m[1] ?? m[2])!);
      if (target) deps.push(target);
    }
    out.set(file, deps);
  }
  return out;
}

/** Every cycle a depth-first walk meets, as 'a → b → a' (paths from `root`). */
function cyclesOf(g: Map<string, string[]>, root: string): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const name = (f: string) => path.relative(root, f);
  const visit = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const d of g.get(f) ?? []) {
      if (state.get(d) === 'open') cycles.push([...stack.slice(stack.indexOf(d)), d].map(name).join(' → '));
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of g.keys()) if (!state.has(f)) visit(f);
  return cycles;
}

/** .ts and .tsx sources below `dir`. */
function sourcesIn(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sourcesIn(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

const graph = importGraph(files(SRC));
const moduleOf = (p: string) => /^modules\/([^/]+)\//.exec(rel(p))?.[1];

describe('server architecture', () => {
  it('has no import cycles in apps/server/src', () => {
    expect(cyclesOf(graph, SRC)).toEqual([]);
  });

  // The other workspaces' sources too: a cycle between two shared schema files (market.ts ↔
  // public-api.ts, type imports one way and a schema the other) once slipped past a server-only check.
  it.each(['apps/web/src', 'packages/shared/src', 'packages/xrpl-standalone/src'])(
    'has no import cycles in %s',
    (dir) => {
      const root = path.resolve(SRC, '../../..', dir);
      expect(cyclesOf(importGraph(sourcesIn(root)), root)).toEqual([]);
    },
  );

  it('reaches a module from outside only through its index.ts or schema.ts', () => {
    const violations: string[] = [];
    for (const [file, deps] of graph) {
      for (const d of deps) {
        const target = moduleOf(d);
        if (!target || moduleOf(file) === target) continue;
        const name = path.basename(d);
        if (name === 'index.ts' || name === 'schema.ts') continue;
        violations.push(`${rel(file)} imports ${rel(d)}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('composes modules in app.ts from their index.ts alone, each exporting register<Feature>', () => {
    const app = path.join(SRC, 'app.ts');
    const reached = (graph.get(app) ?? []).filter((d) => moduleOf(d));
    expect(reached.filter((d) => path.basename(d) !== 'index.ts').map(rel)).toEqual([]);
    const modules = readdirSync(path.join(SRC, 'modules'));
    const missing = modules.filter((m) => {
      const index = path.join(SRC, 'modules', m, 'index.ts');
      const text = statSync(index, { throwIfNoEntry: false }) ? readFileSync(index, 'utf8') : '';
      return !/\bregister[A-Z]\w*\b/.test(text) || !reached.includes(index);
    });
    expect(missing).toEqual([]);
  });

  it('keeps plugins/ and realtime/ free of module imports (modules inject what they need)', () => {
    const violations: string[] = [];
    for (const [file, deps] of graph) {
      if (!/^(plugins|realtime)\//.test(rel(file))) continue;
      for (const d of deps) if (moduleOf(d)) violations.push(`${rel(file)} imports ${rel(d)}`);
    }
    expect(violations).toEqual([]);
  });

  // One error policy (docs/server-conventions.md "Errors"): each AppError has one builder, and
  // ledger failures are mapped by the app's error handler, not by per-route wrappers.
  it('builds AppErrors only through the builders in lib/errors.ts', () => {
    const offenders = [...graph.keys()]
      .filter((f) => rel(f) !== path.join('lib', 'errors.ts'))
      .filter((f) => /new AppError\(/.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(offenders).toEqual([]);
  });

  it('has no per-route ledger wrappers and no retyped ledger-unavailable sentence', () => {
    const offenders = [...graph.keys()]
      .filter((f) =>
        /\bledgerRoute\b|\btoLedgerAppError\b|XRP Ledger is not reachable/.test(readFileSync(f, 'utf8')),
      )
      .map(rel);
    expect(offenders).toEqual([]);
  });

  // Validation at the route edge (docs/server-conventions.md "Module contract"): a route parses its
  // body or query with the shared schema (`parseInput`); a service method takes the parsed type, so
  // no modules/*/service.ts parses request input or takes a raw `body`/`query`/`params`/`input`.
  // A service split in parts by what they do (wallets: records, reads, actions) is held to this in
  // every part: the files of its module that service.ts reaches.
  const serviceParts = (service: string): string[] => {
    const dir = path.dirname(service);
    const seen = new Set([service]);
    const walk = (f: string) => {
      for (const d of graph.get(f) ?? []) {
        if (path.dirname(d) === dir && !seen.has(d)) {
          seen.add(d);
          walk(d);
        }
      }
    };
    walk(service);
    return [...seen];
  };
  it('keeps request parsing out of the services: they take typed input', () => {
    const RAW = /\b(?:body|query|params|input|form|payload)\??\s*:\s*unknown\b/;
    const offenders = [...graph.keys()]
      .filter((f) => /^modules\/[^/]+\/service\.ts$/.test(rel(f)))
      .flatMap(serviceParts)
      .flatMap((f) => {
        const text = readFileSync(f, 'utf8');
        return [
          ...(/\bparseInput\b/.test(text) ? [`${rel(f)} calls parseInput`] : []),
          ...(RAW.test(text) ? [`${rel(f)} takes raw input (${RAW.exec(text)![0]})`] : []),
        ];
      });
    expect(offenders).toEqual([]);
  });
});
