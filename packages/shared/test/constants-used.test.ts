import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Spec constants are single-sourced (issue 29): every constant packages/shared exports from
// constants.ts is used by some source file, and the values that were once typed again as literals
// do not come back. A new constant nobody reads, or a literal copy of one, fails here.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CONSTANTS = path.join(ROOT, 'packages/shared/src/constants.ts');
const SOURCES = ['apps/server/src', 'apps/web/src', 'packages/shared/src', 'scripts'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (name === 'node_modules') return [];
    return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx|mts)$/.test(name) ? [p] : [];
  });
}

const sources = SOURCES.flatMap((d) => files(path.join(ROOT, d)))
  .filter((f) => f !== CONSTANTS)
  .map((f) => ({ file: path.relative(ROOT, f), text: readFileSync(f, 'utf8') }));

/** Literal copies of spec constants, each with the constant to use instead. */
const LITERALS: Array<{ pattern: RegExp; use: string }> = [
  { pattern: /\bTOP = 10\b/, use: 'ORDER_BOOK_TOP_N' },
  { pattern: /'1e-10'/, use: 'ORDER_BOOK_MIN_VALUE' },
  { pattern: /\buserId === 1\b/, use: 'OWNER_USER_ID' },
  { pattern: /\.limit\(100\)/, use: 'ADMIN_FEE_OVERRIDE_LIST_CAP' },
  { pattern: /\b9 \* 60_000\b/, use: 'SOCKET_TOKEN_CACHE_MS' },
  { pattern: /\[25, 50, 75, 100\]/, use: 'PERCENT_PRESETS' },
  { pattern: /\[10, 50, 100\]/, use: 'XRP_PRESETS' },
  { pattern: /setTimeout\([^;]*,\s*(5_?000|6_?000)\)/, use: 'STATUS_FADE_MS / STATUS_CLEAR_MS' },
  {
    pattern: /(\.(div|mul)\(|[*/] )(1_000_000|1000000)\b/,
    use: 'the money helpers (dropsToDecimal, decimalToDrops, microsToUnits, unitsToMicros)',
  },
  { pattern: /XRP Ledger is not reachable/, use: 'LEDGER_UNAVAILABLE_MESSAGE' },
];

describe('spec constants', () => {
  it('are each used by some source file', () => {
    const names = [...readFileSync(CONSTANTS, 'utf8').matchAll(/^export const (\w+)/gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(50);
    const unused = names.filter((n) => !sources.some((s) => new RegExp(`\\b${n}\\b`).test(s.text)));
    expect(unused).toEqual([]);
  });

  it('are not typed again as literals', () => {
    const found = sources.flatMap((s) =>
      LITERALS.filter((l) => l.pattern.test(s.text)).map((l) => `${s.file}: ${l.pattern} (use ${l.use})`),
    );
    expect(found).toEqual([]);
  });

  it('reach packages by name from the package index, not by `export *`', () => {
    const index = readFileSync(path.join(ROOT, 'packages/shared/src/index.ts'), 'utf8');
    expect(index).not.toMatch(/^export \*/m);
  });
});
