import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveImport } from './import-paths';

// The landing route's JavaScript (issue 40: ≤ 150 KB gzip from the network until the priced list
// shows; a token page ≤ 250 KB until its first candle) stays small only if what `/` runs never reaches zod or the address codec: those are for
// forms and the server, ~40 KB gzip together. One import of a helper that lived in a schema module
// (a lock mark's label, a referral code check, the token-code parser) brought both in. This walks
// the landing route's static, runtime imports — from the entry through the app shell and the home
// page, into @ledgerpad/shared by the module each imported name comes from — and names any module
// on the way that imports a package kept off the landing route. `npm run bench -w apps/web` counts
// the bytes themselves.

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = path.resolve(WEB, '../../packages/shared/src');
const LANDING = ['src/main.tsx', 'src/boot.tsx', 'src/features/token-list/home-page.tsx'];
/** A token page until its first candle: its route chunk and the trade panel the app gives it. */
const TOKEN_PAGE = ['src/features/token/token-page.tsx', 'src/app/token-trade-panel.tsx'];
const FORMS_AND_LEDGER = [
  'zod',
  'react-hook-form',
  '@hookform/resolvers',
  'ripple-address-codec',
  'xrpl',
  'xrpl-connect',
];

/** Static imports and re-exports with what they name; type-only ones are left out (they vanish). */
const STATIC = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'"`;]*?)\s*from\s+['"]([^'"]+)['"]/g;
const SIDE_EFFECT = /(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g;

/** The runtime names of an import clause (`{ a, type B, c as d }`, `X`, `* as Y`); [] when type-only. */
function runtimeNames(clause: string): string[] | 'all' {
  const braces = clause.match(/\{([^}]*)\}/);
  const outside = clause
    .replace(/\{[^}]*\}/, '')
    .replace(/,/g, ' ')
    .trim();
  if (/\*/.test(outside) || (outside && !braces)) return 'all';
  const named = (braces?.[1] ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n && !n.startsWith('type '))
    .map((n) => n.split(/\s+as\s+/)[0]!.trim());
  return outside ? [...named, 'default'] : named;
}

/** @ledgerpad/shared's index: each exported name → the module it comes from. */
const sharedIndex = new Map<string, string>();
{
  const index = path.join(SHARED, 'index.ts');
  for (const m of readFileSync(index, 'utf8').matchAll(STATIC)) {
    if (m[1] !== 'export' || m[2]) continue;
    const file = resolveImport(index, m[4]!);
    const names = runtimeNames(m[3]!);
    if (!file || names === 'all') continue;
    for (const n of names) sharedIndex.set(n, file);
  }
}

function offendingModules(roots: string[], keptOff: string[]): Map<string, string> {
  /** module → the module that brought it in (for the failure's message). */
  const seen = new Map<string, string>();
  const packagesOf = new Map<string, string[]>();
  const queue = roots.map((r) => ({ file: path.join(WEB, r), by: 'entry' }));
  while (queue.length) {
    const { file, by } = queue.shift()!;
    if (seen.has(file)) continue;
    seen.set(file, by);
    const source = readFileSync(file, 'utf8');
    const packages: string[] = [];
    const follow = (spec: string, names: string[] | 'all') => {
      if (spec === '@ledgerpad/shared') {
        for (const n of names === 'all' ? [] : names) {
          const target = sharedIndex.get(n);
          if (target) queue.push({ file: target, by: file });
        }
      } else if (spec.startsWith('.')) {
        const target = resolveImport(file, spec);
        if (target && /\.tsx?$/.test(target)) queue.push({ file: target, by: file });
      } else {
        packages.push(spec);
      }
    };
    for (const m of source.matchAll(STATIC)) {
      if (m[2]) continue; // `import type` / `export type`
      const names = runtimeNames(m[3]!);
      if (names !== 'all' && names.length === 0 && m[3]!.includes('{')) continue; // only `type` names
      follow(m[4]!, names);
    }
    for (const m of source.matchAll(SIDE_EFFECT)) follow(m[1]!, 'all');
    packagesOf.set(file, packages);
  }
  const offending = new Map<string, string>();
  for (const [file, packages] of packagesOf) {
    for (const p of packages) {
      if (keptOff.some((k) => p === k || p.startsWith(`${k}/`)))
        offending.set(`${path.relative(WEB, file)} imports ${p}`, path.relative(WEB, seen.get(file)!));
    }
  }
  return offending;
}

const report = (offending: Map<string, string>) =>
  [...offending].map(([what, by]) => `${what} (brought in by ${by})`);

describe('the first screens stay light', () => {
  it('the landing route reaches no module that imports zod, the address codec, the chart or xrpl.js', () => {
    expect(
      report(offendingModules(LANDING, [...FORMS_AND_LEDGER, 'lightweight-charts'])),
      'move the helper the landing uses out of that module (a plain module beside its schema)',
    ).toEqual([]);
  });

  it('a token page (until its first candle) reaches no module that imports zod, the address codec or xrpl.js', () => {
    // Its forms (the trade box's, the chooser's) load when they open, as their own chunks.
    expect(
      report(offendingModules(TOKEN_PAGE, FORMS_AND_LEDGER)),
      'move the helper the token page uses out of that module (a plain module beside its schema)',
    ).toEqual([]);
  });

  it('follows imports into @ledgerpad/shared by name (the check sees a schema module when one is used)', () => {
    // The walk must be able to fail: a name of a schema module resolves to that module.
    expect(sharedIndex.get('vestingSchema')).toBe(path.join(SHARED, 'schemas/vesting.ts'));
    expect(sharedIndex.get('ledgerLockLabel')).toBe(path.join(SHARED, 'lock-marks.ts'));
    expect(readFileSync(path.join(SHARED, 'schemas/vesting.ts'), 'utf8')).toMatch(/from 'zod'/);
  });
});
