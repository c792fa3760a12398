import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveImport } from './import-paths';

// The web app's shape, checked on every run (as the server's is in apps/server/test/architecture):
// a feature (src/features/<name>/) never imports another feature; shared UI (src/components) and
// the app's libraries (src/lib) never import a feature; and nothing imports in a cycle. Only the
// route table (src/app) composes the features. Server state reads through key factories and
// api.ts hooks, and the shared widgets (amount field, load-failed, set-limit form, vesting table) are
// written once, in src/components (issue 41).

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

const graph = new Map<string, string[]>();
for (const file of files(SRC)) {
  const deps: string[] = [];
  for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const target = resolveImport(file, (m[1] ?? m[2])!);
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

  // Server state (issue 41): every query key comes from a key factory — `lib/query-keys.ts` for
  // state more than one feature reads or refreshes, `features/<name>/keys.ts` for a feature's own —
  // so a query and its invalidations, setQueryData and removals cannot drift apart. And queries are
  // read through hooks in the feature's `api.ts` (or lib for shared state), never written inside a
  // component.
  const isKeyFactory = (f: string) =>
    rel(f) === path.join('lib', 'query-keys.ts') ||
    /^features\/[^/]+\/keys\.ts$/.test(rel(f).split(path.sep).join('/'));
  // An array literal as a key: in a query's options, in a cache read or write, or kept as a constant.
  const INLINE_KEY = [
    /\bqueryKey\s*:\s*\[/g,
    /\b(?:set|get)Quer(?:y|ies)Data\s*(?:<[^>]*>)?\s*\(\s*\[/g,
    /\b\w*(?:KEY|Key)\s*=\s*\[/g,
  ];
  const inlineKeys = (text: string) => INLINE_KEY.flatMap((re) => [...text.matchAll(re)].map((m) => m[0]));

  it('query keys come from the key factories only', () => {
    const found = [...graph.keys()]
      .filter((f) => !isKeyFactory(f))
      .flatMap((f) => inlineKeys(readFileSync(f, 'utf8')).map((k) => `${rel(f)}: ${k}`));
    expect(found).toEqual([]);
    // The factories exist and the patterns are live.
    const factories = [...graph.keys()].filter(isKeyFactory).map(rel);
    expect(factories).toContain(path.join('lib', 'query-keys.ts'));
    expect(factories.length).toBeGreaterThan(10);
    expect(inlineKeys("useQuery({ queryKey: ['a', id], queryFn })")).toHaveLength(1);
    expect(inlineKeys("queryClient.setQueryData<View>([...ROOT, 'x'], v)")).toHaveLength(1);
    expect(inlineKeys("const ORDERS_KEY = ['orders'] as const;")).toHaveLength(1);
    expect(inlineKeys('useQuery({ queryKey: orderKeys.list(userId, filters), queryFn })')).toEqual([]);
  });

  it('queries live in api.ts (or lib), not in components', () => {
    const QUERY_HOOK = /\buse(?:Suspense)?(?:Infinite)?Quer(?:y|ies)\s*\(/g;
    const allowed = (f: string) =>
      layer(f) === 'lib' || (featureOf(f) !== undefined && path.basename(f) === 'api.ts');
    const found = [...graph.keys()]
      .filter((f) => !allowed(f))
      .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(QUERY_HOOK)].map((m) => `${rel(f)}: ${m[0]}`));
    expect(found).toEqual([]);
    // The pattern is live: the feature calls do match it.
    const tokenApi = readFileSync(path.join(SRC, 'features', 'token', 'api.ts'), 'utf8');
    expect(tokenApi.match(QUERY_HOOK)?.length).toBeGreaterThan(5);
  });

  // One of each (issue 41): the amount field, the load-failed block, the set-limit form and the
  // vesting table live in src/components and the features use them; none is written again in a
  // feature (the liquidity tab, the burner and the dashboard each had their own).
  const SHARED: Record<string, string> = {
    AmountField: 'amount-field.tsx',
    LoadFailed: 'load-failed.tsx',
    LoadError: 'load-failed.tsx',
    SetLimitModal: 'set-limit-modal.tsx',
    VestingTable: 'vesting-table.tsx',
  };
  const DEFINES = /\b(?:function|const|class)\s+([A-Z]\w*)\b/g;

  it('the shared widgets are defined once, in components/', () => {
    const found = [...graph.keys()].flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(DEFINES)]
        .filter((m) => SHARED[m[1]!] && rel(f) !== path.join('components', SHARED[m[1]!]!))
        .map((m) => `${rel(f)}: ${m[1]}`),
    );
    expect(found).toEqual([]);
    for (const file of new Set(Object.values(SHARED)))
      expect(graph.has(path.join(SRC, 'components', file)), file).toBe(true);
  });

  // The `<input …/>` elements of a file, attributes and all (an attribute may hold `=>`).
  const inputs = (text: string) => {
    const out: string[] = [];
    for (let at = text.indexOf('<input'); at !== -1; at = text.indexOf('<input', at + 1)) {
      let depth = 0;
      let end = at;
      while (end < text.length && !(depth === 0 && text.startsWith('/>', end))) {
        if (text[end] === '{') depth += 1;
        if (text[end] === '}') depth -= 1;
        end += 1;
      }
      out.push(text.slice(at, end + 2));
    }
    return out;
  };

  it('swap, liquidity and the burner type amounts only through AmountField', () => {
    // A decimal text input there is an amount or a price: AmountField reads it (never rewriting '-5'
    // into 5, saying it is not an amount). The slippage percent is the one field of its own.
    const ALLOWED = ['id="swap-slippage"'];
    const found = [...graph.keys()]
      .filter((f) => ['swap', 'burner'].includes(featureOf(f) ?? ''))
      .flatMap((f) =>
        inputs(readFileSync(f, 'utf8'))
          .filter((el) => /inputMode="decimal"/.test(el) && !ALLOWED.some((a) => el.includes(a)))
          .map((el) => `${rel(f)}: ${el.replace(/\s+/g, ' ').slice(0, 80)}`),
      );
    expect(found).toEqual([]);
    // Only the field asks whether the text is an amount.
    const readers = [...graph.keys()]
      .filter((f) => /\bamountTextError\(/.test(readFileSync(f, 'utf8')))
      .map(rel)
      .sort();
    expect(readers).toEqual([
      path.join('components', 'amount-field.tsx'),
      path.join('lib', 'amount-input.ts'),
    ]);
    // The parser is live: it finds the field's own input, and the swap does use the field.
    const field = inputs(readFileSync(path.join(SRC, 'components', 'amount-field.tsx'), 'utf8'));
    expect(field.filter((el) => el.includes('inputMode="decimal"'))).toHaveLength(1);
    const tradeBox = readFileSync(path.join(SRC, 'features', 'swap', 'trade-box.tsx'), 'utf8');
    expect(tradeBox.match(/<AmountField\b/g)?.length).toBeGreaterThan(2);
    expect(inputs(tradeBox).some((el) => el.includes(ALLOWED[0]!))).toBe(true);
  });

  it('no feature writes its own load-failed block or set-limit field', () => {
    // A failed read: an alert with the sentence and a Retry button (components/load-failed.tsx).
    const LOAD_FAILED =
      /role="alert"[^>]*>\s*<p className="form-error">[\s\S]{0,300}?<\/p>\s*<button\b[\s\S]{0,200}?>\s*Retry\s*<\/button>/g;
    const NEW_LIMIT = /label="New limit"/g;
    const found = [...graph.keys()].flatMap((f) => {
      const text = readFileSync(f, 'utf8');
      return [
        ...(rel(f) === path.join('components', 'load-failed.tsx') ? [] : [...text.matchAll(LOAD_FAILED)]),
        ...(rel(f) === path.join('components', 'set-limit-modal.tsx') ? [] : [...text.matchAll(NEW_LIMIT)]),
      ].map((m) => `${rel(f)}: ${m[0].replace(/\s+/g, ' ').slice(0, 80)}`);
    });
    expect(found).toEqual([]);
    // The patterns are live: the block as the admin tabs wrote it, and the one set-limit form.
    const adminBlock = `<div role="alert">
      <p className="form-error">Failed to load {what}.</p>
      <button type="button" className="btn-secondary" onClick={() => void tokens.refetch()}>
        Retry
      </button>`;
    expect(adminBlock.match(LOAD_FAILED)).toHaveLength(1);
    const setLimit = readFileSync(path.join(SRC, 'components', 'set-limit-modal.tsx'), 'utf8');
    expect(setLimit.match(NEW_LIMIT)).toHaveLength(1);
  });

  it('every form reads its schema through lib/form-resolver, the one zod wiring', () => {
    // One way to put zod into a form: react-hook-form with a resolver from lib/form-resolver.ts
    // (schemaResolver, requestResolver, allResolvers) — no form imports @hookform/resolvers itself,
    // hand-rolls a resolver function, or runs a schema in its submit handler instead.
    const RESOLVER_LIB = path.join('lib', 'form-resolver.ts');
    const DIRECT = /from\s+['"]@hookform\/resolvers/;
    const INLINE = /resolver:\s*(?:async\s*)?\(/;
    const forms = [...graph.keys()].filter((f) => /\buseForm\b/.test(readFileSync(f, 'utf8')));
    expect(forms.length).toBeGreaterThan(10);
    const wrong = [...graph].flatMap(([f, deps]) => {
      if (rel(f) === RESOLVER_LIB) return [];
      const text = readFileSync(f, 'utf8');
      return [
        ...(DIRECT.test(text) ? [`${rel(f)} imports @hookform/resolvers`] : []),
        ...(INLINE.test(text) ? [`${rel(f)} writes its own resolver`] : []),
        ...(forms.includes(f) && !deps.some((d) => rel(d) === RESOLVER_LIB)
          ? [`${rel(f)} has a form without lib/form-resolver`]
          : []),
      ];
    });
    expect(wrong).toEqual([]);
    // The patterns are live: the two hand-made wirings this rule replaced.
    expect(DIRECT.test("import { zodResolver } from '@hookform/resolvers/zod';")).toBe(true);
    expect(INLINE.test('resolver: async (values, ctx, opts) => {')).toBe(true);
  });

  // Feature CSS beside its feature (issue 41): the global stylesheet holds the shell, the tokens
  // and what several features share; a class only one feature's code names lives in that feature's
  // own .css (the Wallets page's transfer chips, the 404 and legal pages moved out last).
  const classesOf = (css: string) =>
    [
      ...new Set([...css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/\.([a-zA-Z][\w-]*)/g)].map((m) => m[1]!)),
    ].filter((c) => !/^\d/.test(c));
  /** A class named in code: a whole token, not a path segment or a file name (`features/legal/`). */
  const names = (text: string, cls: string) =>
    new RegExp(`(?<![\\w/.-])${cls.replace(/[-]/g, '\\-')}(?![\\w/-]|\\.(?:css|tsx?)\\b)`).test(text);

  it('the global styles.css holds no class that only one feature uses', () => {
    const sources = [...graph.keys()].map((f) => ({ f, text: readFileSync(f, 'utf8') }));
    const classes = classesOf(readFileSync(path.join(SRC, 'styles.css'), 'utf8'));
    expect(classes.length).toBeGreaterThan(50);
    const found = classes.flatMap((cls) => {
      const users = new Set(
        sources
          .filter((s) => names(s.text, cls))
          .map((s) => {
            const feature = featureOf(s.f);
            return feature ? `features/${feature}` : layer(s.f);
          }),
      );
      const [only] = [...users];
      return users.size === 1 && only!.startsWith('features/') ? [`.${cls} (only ${only})`] : [];
    });
    expect(found).toEqual([]);
    // The rule reads class names, not paths.
    expect(names('<p className="legal-dates">', 'legal-dates')).toBe(true);
    expect(names("<article className='panel legal'>", 'legal')).toBe(true);
    expect(names("import('../features/legal/terms-page')", 'legal')).toBe(false);
    expect(names("import './legal.css';", 'legal')).toBe(false);
    expect(classesOf('/* .x */ .a, .b:hover { margin: 0.5rem } .c-d .a {}')).toEqual(['a', 'b', 'c-d']);
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
