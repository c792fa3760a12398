import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// One TypeScript type per shape (issue 41): where packages/shared has a zod schema for a shape, its
// type is `z.infer<typeof thatSchema>`, not an interface written beside it and kept in step by hand.
// A hand-written type (an interface, or a type alias that is not derived with typeof/z.*) must not
// share its name stem with an exported schema: `FooView` beside `fooViewSchema`, or beside the
// public answer's `publicFooViewSchema` / `publicFooSchema` / `publicFooListSchema`.

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Exported hand-written types: interfaces, and aliases not derived from a schema or a constant. */
const HAND_TYPE = /^export (?:interface (\w+)|type (\w+)(?:<[^=]*>)? =(?![^;]*\b(?:typeof|z\.)))/gm;
const SCHEMA = /^export const (\w+Schema)\b/gm;

/** The schema names a hand-written type of this name would duplicate. */
function twins(type: string): string[] {
  const lower = type[0]!.toLowerCase() + type.slice(1);
  const bare = type.replace(/View$/, '');
  return [`${lower}Schema`, `public${type}Schema`, `public${bare}Schema`, `public${bare}ListSchema`];
}

function pairs(sources: { file: string; text: string }[]): string[] {
  const schemas = new Map<string, string>();
  for (const { file, text } of sources) for (const m of text.matchAll(SCHEMA)) schemas.set(m[1]!, file);
  return sources.flatMap(({ file, text }) =>
    [...text.matchAll(HAND_TYPE)].flatMap((m) => {
      const type = (m[1] ?? m[2])!;
      return twins(type)
        .filter((s) => schemas.has(s))
        .map((s) => `${type} (${file}) beside ${s} (${schemas.get(s)})`);
    }),
  );
}

// None is kept by hand any more (issue 41): where the public answer is loose, its schema is the
// strict shape's `.loose()`, and the type is inferred from the strict one.
const KEPT: Record<string, string> = {};

// A wire shape in src/schemas is a zod schema with its type inferred; a hand-written object type there
// is one of these, each not an answer or a body of a route (DeployResult and DevAllocationResult were
// the last interfaces of answers; they are `deployResultSchema` and `devAllocationResultSchema` now).
const HAND_WRITTEN_IN_SCHEMAS: Record<string, string> = {
  DeployCostOptions: "deployCost's options (a function's argument)",
  RouteSchemas: "the route catalogue's entry: it holds schemas",
  PublicRoute: "the route catalogue's entry: it holds schemas",
  SocketServerMessage: "the socket's frames, a union of the inferred views (the server writes it, no route)",
};
/** Exported interfaces and object-literal type aliases (`= {`, `= | {`). */
const HAND_OBJECT = /^export (?:interface (\w+)|type (\w+)(?:<[^=]*>)? =\s*(?:\|\s*)?\{)/gm;
const handObjects = (text: string) => [...text.matchAll(HAND_OBJECT)].map((m) => (m[1] ?? m[2])!);

describe('one type per shape', () => {
  const sources = files(SRC).map((f) => ({ file: path.relative(SRC, f), text: readFileSync(f, 'utf8') }));

  it('no hand-written type repeats a schema of the same name stem', () => {
    const found = pairs(sources).filter((p) => !(p.split(' ')[0]! in KEPT));
    expect(found).toEqual([]);
  });

  it('no hand-written twin is kept', () => {
    expect(Object.keys(KEPT)).toEqual([]);
    expect(pairs(sources)).toEqual([]);
  });

  it('src/schemas writes no object type by hand but the listed ones', () => {
    const found = sources
      .filter((s) => s.file.startsWith(`schemas${path.sep}`))
      .flatMap((s) => handObjects(s.text).map((type) => `${type} (${s.file})`));
    expect(found.map((f) => f.split(' ')[0]).sort()).toEqual(Object.keys(HAND_WRITTEN_IN_SCHEMAS).sort());
    expect(handObjects('export interface Foo {\n  a: string;\n}\nexport type Bar = { a: string };')).toEqual([
      'Foo',
      'Bar',
    ]);
    expect(handObjects('export type Msg =\n  | { event: 1 }\n  | { event: 2 };')).toEqual(['Msg']);
    expect(handObjects("export type Baz = z.infer<typeof bazSchema>;\nexport type K = Baz['k'];")).toEqual(
      [],
    );
  });

  it('the rule sees a duplicate and lets an inferred type pass', () => {
    const dup = `export const fooViewSchema = z.object({ a: z.string() });\nexport interface FooView {\n  a: string;\n}\n`;
    const pub = `export const publicBarSchema = z.object({});\nexport type BarView = { a: string };\n`;
    const inferred = `export const bazSchema = z.object({});\nexport type Baz = z.infer<typeof bazSchema>;\n`;
    expect(pairs([{ file: 'a.ts', text: dup }])).toEqual(['FooView (a.ts) beside fooViewSchema (a.ts)']);
    expect(pairs([{ file: 'b.ts', text: pub }])).toEqual(['BarView (b.ts) beside publicBarSchema (b.ts)']);
    expect(pairs([{ file: 'c.ts', text: inferred }])).toEqual([]);
  });
});
