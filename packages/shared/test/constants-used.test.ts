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

/**
 * Test code that builds ledger transactions and reads ledger entries: it names flags, ledger time and
 * the trust-line limit the way the sources do (the rules marked `tests`). Not packages/shared/test
 * or the ledger package's tests, which check those facts against numbers worked out by hand.
 */
const TESTS = ['apps/server/test', 'apps/web/test', 'e2e/specs', 'e2e/support'];

const read = (dirs: string[]) =>
  dirs
    .flatMap((d) => files(path.join(ROOT, d)))
    .filter((f) => f !== CONSTANTS)
    .map((f) => ({ file: path.relative(ROOT, f), text: readFileSync(f, 'utf8') }));
const sources = read(SOURCES);
const tests = read(TESTS);

/**
 * Literal copies of spec constants, each with the constant to use instead; `except` names the one
 * file allowed to define it (constants.ts is never read), `tests` applies the rule to TESTS as well.
 */
const LITERALS: Array<{ pattern: RegExp; use: string; except?: string[]; tests?: true }> = [
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
  // The ledger's vocabulary (issue 41): protocol facts come from xrpl.js or from one constant here.
  {
    // The Ripple epoch in any spelling: seconds or milliseconds (946_684_800_000), hex, the date.
    pattern:
      /946_?684_?8\d\d|0x386d4380|Date\.UTC\(\s*2000\s*,\s*0\s*,\s*1\s*\)|['"`]2000-01-01T00:00:00(\.000)?Z/i,
    use: "xrpl.js's rippleTimeToUnixTime / unixTimeToRippleTime, or RIPPLE_EPOCH_UNIX_S",
    tests: true,
  },
  {
    pattern:
      /\b(SetFlag|ClearFlag|Flags|flags)\s*[:=]\s*\(?\s*[1-9]|\b(SetFlag|ClearFlag|Flags)\s*[:=]\s*\(?\s*0x/,
    use: "xrpl.js's flag enums (AccountSetAsfFlags, TrustSetFlags, OfferCreateFlags, PaymentFlags, …)",
    tests: true,
  },
  {
    // A flag table of its own: `const TF_SELL = …`, `const ASF = { defaultRipple: 8 }`.
    pattern: /\bconst (ASF|TF|LSF)(_\w+\s*=\s*\d|\s*=\s*\{[^}]*:\s*\d)/,
    use: "xrpl.js's flag enums (AccountSetAsfFlags, AccountRootFlags, …)",
    tests: true,
  },
  {
    pattern: /\b(flags|Flags)\s*&\s*\(?\s*\d/,
    use: "xrpl.js's flag enums (GlobalFlags, LedgerEntry.AccountRootFlags, …)",
    tests: true,
  },
  { pattern: /'1_?000_?000_?000_?000_?000'/, use: 'TRUST_LINE_MAX_LIMIT', tests: true },
  {
    pattern: /'793_?100_?000'|\b793_100_000n?\b|['`][^'`\n]*793,100,000/,
    use: 'BONDING_CURVE_SUPPLY (groupDigits of it in a message)',
    except: ['packages/shared/src/bonding.ts'],
  },
  {
    // The ledger's amount type, under its own name or any other (`type Amount = string | { … }`).
    pattern:
      /\btype LedgerAmount =|(?:\btype \w+ =|:)\s*string\s*\|\s*\{\s*currency: string;\s*issuer: string;\s*value: string;?\s*\}/,
    use: 'LedgerAmount from @ledgerpad/shared',
    except: ['packages/shared/src/money.ts'],
    tests: true,
  },
  {
    pattern: /reserve\w*\s*(=|\?\?|:)\s*(BigInt\()?(1_?000_?000|200_?000)n?\b/i,
    use: 'DEFAULT_RESERVE_BASE_DROPS / DEFAULT_RESERVE_INCREMENT_DROPS',
  },
  { pattern: /\b(drops|Drops|DROPS)\w*\s*=\s*1_?000_?000n\b/, use: 'DROPS_PER_XRP' },
  {
    // The chart's resolutions: their codes, labels and lengths are CHART_RESOLUTIONS'.
    pattern: /\b14_?400\b|'240'|\['1', '5', '15'/,
    use: 'CHART_RESOLUTIONS / HISTORY_RESOLUTION_SECONDS',
    except: ['packages/shared/src/chart.ts'],
  },
];

/**
 * Flag values typed as numbers: a 32-bit hex literal at or above 0x10000 whose low 16 bits are zero
 * (0x00080000, 0x000a0000, 0x80000000: where the ledger's transaction and ledger-entry flags live,
 * one or several) is a flag whatever it is named. The small hex literals of byte parsing (0x80,
 * 0x40) and masks like 0xffffffff or 0x0fffffff are not.
 */
function handTypedFlags(text: string): string[] {
  return [...text.matchAll(/\b0x[0-9a-fA-F_]+\b/g)]
    .map((m) => m[0])
    .filter((hex) => {
      const v = BigInt(hex.replace(/_/g, ''));
      return v >= 0x10000n && v < 0x1_0000_0000n && (v & 0xffffn) === 0n;
    });
}

describe('spec constants', () => {
  it('are each used by some source file', () => {
    const names = [...readFileSync(CONSTANTS, 'utf8').matchAll(/^export const (\w+)/gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(50);
    const unused = names.filter((n) => !sources.some((s) => new RegExp(`\\b${n}\\b`).test(s.text)));
    expect(unused).toEqual([]);
  });

  it('are not typed again as literals', () => {
    const found = [...sources, ...tests].flatMap((s) =>
      LITERALS.filter(
        (l) => (l.tests || sources.includes(s)) && !l.except?.includes(s.file) && l.pattern.test(s.text),
      ).map((l) => `${s.file}: ${l.pattern} (use ${l.use})`),
    );
    expect(found).toEqual([]);
  });

  it('include no hand-typed ledger flag (xrpl.js names them), in the sources or the tests', () => {
    const found = [...sources, ...tests].flatMap((s) =>
      handTypedFlags(s.text).map((hex) => `${s.file}: ${hex}`),
    );
    expect(found).toEqual([]);
  });

  // The rules above must catch what they are for: each spelling that was once in the code.
  it('catch the hand-typed spellings they are for', () => {
    const caught = (line: string) =>
      LITERALS.some((l) => l.pattern.test(line)) || handTypedFlags(line).length > 0;
    for (const line of [
      'const TF_SELL = 0x00080000;',
      'Flags: 0x00080000 | 0x00020000,',
      'Flags: 0x000a0000 }',
      "{ TransactionType: 'AccountSet', SetFlag: 8 }",
      'ClearFlag: 4,',
      'const ASF = { requireAuth: 2, defaultRipple: 8 } as const;',
      'const LSF_DISABLE_MASTER = 0x00100000;',
      'info.Flags & 0x00800000',
      'const x = 0x40000000;',
      'return t + 946_684_800;',
      'expect(at).toBe(946_684_800_000 + close * 1000);',
      'const RIPPLE_EPOCH_MS = Date.UTC(2000, 0, 1);',
      "LimitAmount: token('1000000000000000')",
      "const SUPPLY = '793100000';",
      'type LedgerAmount = string;',
      'type Amount = string | { currency: string; issuer: string; value: string };',
      'let amount: string | { currency: string; issuer: string; value: string };',
      "const RES = { '240': 14_400 };",
    ])
      expect(caught(line), line).toBe(true);
    for (const line of ['Flags: 0,', 'flags: 0', 'const mask = 0xffffffff;', 'b & 0x80', 'n < 0x0fffffff'])
      expect(caught(line), line).toBe(false);
  });

  it('reach packages by name from the package index, not by `export *`', () => {
    const index = readFileSync(path.join(ROOT, 'packages/shared/src/index.ts'), 'utf8');
    expect(index).not.toMatch(/^export \*/m);
  });
});
